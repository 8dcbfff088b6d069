/**
 * `langgraph dev` for tests: serves langgraph.json on a free port with no
 * model key, no DATABASE_URL (offline policy, in-memory schedules) and no
 * TEMPO_AUTH_* (open single-user mode) unless the test sets them, waits for
 * /info to answer (200, or 401 when tokens are required), and stops the whole process
 * group afterwards. Each server keeps its threads, runs and store in a
 * folder of its own (the dev server persists them in `.langgraph_api` next to
 * the config it serves), so servers of parallel test files, and of earlier
 * runs, never see each other's data — unless a test passes a `folder`, to
 * restart a server on what an earlier one (stopped or killed) left there.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./postgres.js";

/** A running dev server. */
export type LangGraphDevServer = {
  /** Base URL for the SDK client, e.g. `http://127.0.0.1:41234`. */
  apiUrl: string;
  /** Everything the server printed so far (for failure messages). */
  output: () => string;
  /**
   * Stops the server and its workers (SIGTERM, then SIGKILL after 20 s) and resolves once no process of the group is
   * left: `npx` exits before the dev server it started has flushed its store, so a caller that then touches the
   * folder (rewrites the saved store, starts a server on it) would race the old server's last write.
   */
  stop: () => Promise<void>;
  /** Kills the server and its workers at once (SIGKILL): a crash, with no flush of the dev server's store; resolves once every process of the group is gone. */
  kill: () => Promise<void>;
  /** The folder the server keeps its threads, runs and store in (`.langgraph_api`). */
  folder: string;
};

/** Where a server keeps its data: a folder of its own by default, removed on stop; or `folder`, kept (a restart). */
export type LangGraphDevOptions = { folder?: string };

const READY_TIMEOUT_MS = 300_000;
/**
 * The dev server types the graph's input and configuration by type-checking
 * server/served.ts in a worker, which takes ~50 s on a busy 2-core machine
 * (its own limit is 30 s; `/assistants/{id}/schemas` answers 500 past it).
 */
const SCHEMA_TIMEOUT_MS = 600_000;

/** Starts `langgraph dev` on a free port, with `environment` on top of the defaults, and resolves once it answers. */
export async function startLangGraphDev(
  environment: Record<string, string> = {},
  options: LangGraphDevOptions = {},
): Promise<LangGraphDevServer> {
  const port = await freePort();
  const folder = options.folder ?? (await fs.mkdtemp(path.join(tmpdir(), "tempo-langgraph-dev-")));
  const config = path.join(folder, "langgraph.json");
  await fs.writeFile(
    config,
    JSON.stringify(await configServedFrom(path.join(process.cwd(), "langgraph.json"), folder)),
  );
  const apiUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const server: ChildProcess = spawn(
    "npx",
    [
      "--no-install",
      "@langchain/langgraph-cli",
      "dev",
      "--config",
      config,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--no-browser",
      "--no-reload",
      "--n-jobs-per-worker",
      "2",
    ],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        LANGGRAPH_CLI_NO_ANALYTICS: "1",
        LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS: String(SCHEMA_TIMEOUT_MS),
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        DATABASE_URL: "",
        TEMPO_AUTH_JWT_SECRET: "",
        TEMPO_AUTH_JWKS_URL: "",
        ...environment,
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // The server may still be flushing its store into the folder as it exits: removal retries (ENOTEMPTY).
  const removeFolder = () =>
    options.folder
      ? Promise.resolve()
      : fs.rm(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  const stop = () => stopProcessGroup(server).finally(removeFolder);
  const kill = async () => {
    if (!server.pid) return;
    signalGroup(-server.pid, "SIGKILL");
    await groupGone(server.pid);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`langgraph dev exited early:\n${output}`);
    // Any answer means the server listens, graphs registered (with tokens required, Tempo's /info answers 401).
    const answered = await fetch(`${apiUrl}/info`).then(
      (response) => response.ok || response.status === 401,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`langgraph dev did not answer /info in ${READY_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { apiUrl, output: () => output, stop, kill, folder };
}

/** The project's langgraph.json with its graph, auth and http app paths relative to `folder`, to be served from there. */
async function configServedFrom(file: string, folder: string): Promise<Record<string, unknown>> {
  const config = JSON.parse(await fs.readFile(file, "utf8")) as {
    graphs: Record<string, string>;
    auth?: { path: string };
    http?: { app?: string };
  };
  const moved = (spec: string) => `./${path.relative(folder, path.resolve(path.dirname(file), spec))}`;
  return {
    ...config,
    graphs: Object.fromEntries(Object.entries(config.graphs).map(([id, spec]) => [id, moved(spec)])),
    ...(config.auth ? { auth: { ...config.auth, path: moved(config.auth.path) } } : {}),
    ...(config.http?.app ? { http: { ...config.http, app: moved(config.http.app) } } : {}),
  };
}

async function stopProcessGroup(server: ChildProcess): Promise<void> {
  if (!server.pid) return;
  const group = server.pid;
  signalGroup(-group, "SIGTERM");
  if (await groupGone(group, STOP_GRACE_MS)) return;
  signalGroup(-group, "SIGKILL");
  await groupGone(group);
}

/** How long the server's processes have to flush and exit after SIGTERM before they are killed. */
const STOP_GRACE_MS = 20_000;

/**
 * Waits until no live process of `group` is left (true), or `withinMs` passed (false; no bound by default, for a
 * group already sent SIGKILL). A process that exited but was not reaped (a zombie: this sandbox's init may not reap
 * orphans) is gone: it writes nothing.
 */
async function groupGone(group: number, withinMs = Number.POSITIVE_INFINITY): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (await groupAlive(group)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Whether a process of `group` still runs: read from /proc (state and group of each process), else by signal 0. */
async function groupAlive(group: number): Promise<boolean> {
  const entries = await fs.readdir("/proc").catch(() => undefined);
  if (!entries) {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== undefined && fields[0] !== "Z" && fields[0] !== "X" && Number(fields[2]) === group) return true;
  }
  return false;
}

/** Signals a process group that may already be gone. */
function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
