/**
 * Postgres servers for integration tests: the embedded PGlite server in a
 * fresh temporary data directory, and a real PostgreSQL 15 cluster made with
 * `initdb` in a temporary directory, on a free loopback port.
 *
 *   describe.each(postgresTargets())("$kind postgres", (target) => {
 *     let server: TestPostgres;
 *     beforeAll(async () => { server = await target.start(); });
 *     afterAll(async () => { await server?.stop(); });
 *   });
 */
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { PGlite } from "@electric-sql/pglite";

import { startDeadline } from "../../database/bounded-start.js";
import { startEmbeddedPostgres } from "../../database/embedded-postgres.js";
import { DatabaseTimeoutError } from "../../errors/index.js";

const run = promisify(execFile);

/** A Postgres server started for a test. */
export type TestPostgres = {
  /** Connection URL of a superuser (trust authentication, no password needed). */
  url: string;
  kind: "embedded" | "real";
  /** Stops the server and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
};

/** A kind of server tests can run against. */
export type PostgresTarget = {
  kind: TestPostgres["kind"];
  start(): Promise<TestPostgres>;
};

/** Directory of the PostgreSQL 15 server binaries (Debian's postgresql-15). */
export const REAL_POSTGRES_BIN_DIR = "/usr/lib/postgresql/15/bin";

/** Connection limit of the test servers: room for several pools of 10 at once. */
const TEST_MAX_CONNECTIONS = 100;

/**
 * Bound of each stage of {@link startEmbeddedTestPostgres} (making the template once, copying it, starting the server),
 * in ms. Well above what a loaded 2-core machine takes: the template (PGlite's initdb) took up to 16 s here with three
 * starts at once beside two busy cores, a copy and a start about a second, and a machine at load 24 can be several
 * times slower (there, 30 to 90 s waits for a child process failed though nothing was wrong). Far below the 900 s hook
 * timeout: a stuck start fails its suite within three minutes, naming the stage, instead of waiting out the hook with
 * nothing said.
 */
export const EMBEDDED_TEST_START_TIMEOUT_MS = 180_000;

/**
 * Starts the embedded server in a fresh temporary data directory, removed on stop. The directory is a copy of a
 * cached, freshly initialised PGlite cluster (about 1 s instead of about 5 s for PGlite's initdb). Each stage is bounded
 * by `timeoutMs`: past it, `DatabaseTimeoutError` names the stage that did not finish.
 */
export async function startEmbeddedTestPostgres(options: { timeoutMs?: number } = {}): Promise<TestPostgres> {
  const timeoutMs = options.timeoutMs ?? EMBEDDED_TEST_START_TIMEOUT_MS;
  const text = {
    subject: "The embedded test server",
    advice: "See the stage named: the machine may be overloaded, or its temporary directory's filesystem stuck.",
  };
  const template = await startDeadline(timeoutMs, { ...text, details: { tmpdir: tmpdir() } }).step(
    `making the PGlite template in ${tmpdir()} (PGlite initdb)`,
    embeddedTemplateDir(),
  );
  const dir = await fs.mkdtemp(path.join(tmpdir(), "tempo-pglite-"));
  try {
    await startDeadline(timeoutMs, { ...text, details: { template, dataDir: dir } }).step(
      `copying the template ${template} to ${dir}`,
      fs.cp(template, dir, { recursive: true }),
    );
    const server = await startEmbeddedPostgres({
      dataDir: dir,
      port: 0,
      maxConnections: TEST_MAX_CONNECTIONS,
      startTimeoutMs: timeoutMs,
    });
    let stopping: Promise<void> | undefined;
    return {
      url: server.url,
      kind: "embedded",
      stop() {
        stopping ??= server.stop().finally(() => fs.rm(dir, { recursive: true, force: true }));
        return stopping;
      },
    };
  } catch (error) {
    // A stage past its bound may still be writing the directory (a late copy, a PGlite opening it): leave it be.
    if (!(error instanceof DatabaseTimeoutError)) await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

let templateDir: Promise<string> | undefined;

/** Path of an initialised, cleanly closed PGlite data directory to copy, made once per PGlite version and machine. */
export function embeddedTemplateDir(): Promise<string> {
  templateDir ??= makeEmbeddedTemplate().catch((error: unknown) => {
    templateDir = undefined;
    throw error;
  });
  return templateDir;
}

async function makeEmbeddedTemplate(): Promise<string> {
  const version = await pgliteVersion();
  const target = path.join(tmpdir(), `tempo-pglite-template-${version}`);
  if (existsSync(path.join(target, "PG_VERSION"))) return target;
  // Build aside, then rename into place: parallel test workers never see a half-made template.
  const staging = path.join(tmpdir(), `tempo-pglite-template-${version}.${process.pid}.${randomUUID()}`);
  try {
    const db = await PGlite.create({ dataDir: staging });
    await db.close();
    await fs.rename(staging, target).catch(async (error: unknown) => {
      if (!existsSync(path.join(target, "PG_VERSION"))) throw error; // another worker won the race otherwise
    });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  return target;
}

async function pgliteVersion(): Promise<string> {
  const packageJson = new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url);
  const parsed: unknown = JSON.parse(await fs.readFile(packageJson, "utf8"));
  return typeof parsed === "object" && parsed !== null && "version" in parsed && typeof parsed.version === "string"
    ? parsed.version
    : "unknown";
}

/** True when the PostgreSQL 15 server binaries are installed here. */
export function realPostgresAvailable(): boolean {
  return (
    existsSync(path.join(REAL_POSTGRES_BIN_DIR, "initdb")) && existsSync(path.join(REAL_POSTGRES_BIN_DIR, "pg_ctl"))
  );
}

/**
 * A watchdog over a throwaway cluster in `dir`: a detached shell that reads its stdin — a pipe only this process
 * holds — to its end, which comes when this process exits however it ends (SIGKILL and a crash too), and then stops
 * the server running in `dataDir` (fast) and removes `dir`. Without it a test run or a bench killed before its
 * `stop()` left a `postgres` running on its port and its directory in the temp dir, for good. `release()`, called
 * once the server is stopped the normal way, ends the watchdog (its process group) so it does nothing.
 */
export function orphanGuard(dir: string, dataDir: string, asRoot: boolean): { pid: number; release(): void } {
  const pgCtl = path.join(REAL_POSTGRES_BIN_DIR, "pg_ctl");
  const stop = `${asRoot ? `runuser -u postgres -- ${pgCtl}` : pgCtl} stop -D "$1" -m fast -w -t 60`;
  const watchdog = spawn(
    "sh",
    ["-c", `cat > /dev/null; ${stop} > /dev/null 2>&1; rm -rf "$2"`, "tempo-pg-guard", dataDir, dir],
    {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  // Neither the watchdog nor its pipe keeps this process alive; a broken pipe at exit is the signal, not an error.
  watchdog.unref();
  watchdog.stdin?.on("error", () => undefined);
  (watchdog.stdin as unknown as { unref?(): void } | null)?.unref?.();
  const pid = watchdog.pid ?? 0;
  return {
    pid,
    release() {
      try {
        if (pid) process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      watchdog.stdin?.destroy();
    },
  };
}

/**
 * Creates a throwaway PostgreSQL 15 cluster with `initdb` (trust authentication) in a temporary directory and starts
 * it with `pg_ctl` on a free loopback port, its unix socket inside that directory. As root the server runs as the
 * `postgres` user. `stop()` stops it (`pg_ctl stop`, smart for 5 s, then fast) and removes the directory. `maxConnections` sets the
 * server's `max_connections` (default TEST_MAX_CONNECTIONS), to run it out of connections on purpose.
 */
export async function startRealTestPostgres(options: { maxConnections?: number } = {}): Promise<TestPostgres> {
  if (!realPostgresAvailable()) {
    throw new Error(
      `PostgreSQL 15 is not installed (${REAL_POSTGRES_BIN_DIR}/initdb is missing): apt-get install postgresql-15.`,
    );
  }
  const dir = await fs.mkdtemp(path.join(tmpdir(), "tempo-pg-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run("chown", ["-R", "postgres:postgres", dir]);

  const pgCommand = (binary: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(REAL_POSTGRES_BIN_DIR, binary), ...args])
      : run(path.join(REAL_POSTGRES_BIN_DIR, binary), args);

  let started = false;
  let guard: ReturnType<typeof orphanGuard> | undefined;
  const stopServer = async () => {
    try {
      if (started) {
        // Smart first: the clients a test ended are let go before the server stops. `pool.end()` resolves as soon as
        // it has asked each client to end, before their sockets close; a fast stop then sends a closing client
        // "terminating connection due to administrator command", which its pool re-emits with no listener — an
        // uncaught error in whatever test file runs then. A client a test left open still gets the fast stop.
        const smart = await pgCommand("pg_ctl", ["stop", "-D", dataDir, "-m", "smart", "-w", "-t", "5"]).then(
          () => true,
          () => false,
        );
        if (!smart) await pgCommand("pg_ctl", ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
      guard?.release();
    }
  };

  try {
    await pgCommand("initdb", [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ]);
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      `-c max_connections=${options.maxConnections ?? TEST_MAX_CONNECTIONS}`,
      // A throwaway cluster: durability does not matter, speed does.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    started = true;
    guard = orphanGuard(dir, dataDir, asRoot);
    await pgCommand("pg_ctl", ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitUntilReady(port, dir);
    let stopping: Promise<void> | undefined;
    return {
      url,
      kind: "real",
      stop() {
        stopping ??= stopServer();
        return stopping;
      },
    };
  } catch (error) {
    const log = await fs.readFile(logFile, "utf8").catch(() => "");
    await stopServer().catch(() => undefined);
    throw new Error(
      `Could not start a PostgreSQL 15 test server: ${messageOf(error)}${log ? `\nserver log:\n${log}` : ""}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The servers tests should run against here: embedded always, real PostgreSQL when installed. With
 * `TEMPO_REQUIRE_REAL_POSTGRES=1` (set by CI) a missing real server is an error, never a silent skip. `environment`
 * overrides what is detected (for testing this function).
 */
export function postgresTargets(
  environment: { realAvailable?: boolean; requireReal?: boolean } = {},
): PostgresTarget[] {
  const realAvailable = environment.realAvailable ?? realPostgresAvailable();
  const requireReal = environment.requireReal ?? process.env.TEMPO_REQUIRE_REAL_POSTGRES === "1";
  const targets: PostgresTarget[] = [{ kind: "embedded", start: startEmbeddedTestPostgres }];
  if (realAvailable) {
    targets.push({ kind: "real", start: startRealTestPostgres });
  } else if (requireReal) {
    throw new Error(
      `TEMPO_REQUIRE_REAL_POSTGRES=1 but PostgreSQL 15 is not installed (${REAL_POSTGRES_BIN_DIR}/initdb is missing). ` +
        "Install it (apt-get install -y postgresql-15), or unset TEMPO_REQUIRE_REAL_POSTGRES to test on the embedded server only.",
    );
  }
  return targets;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now (bind port 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("could not read the bound port"))));
    });
  });
}

/** Polls `pg_isready` until the server accepts connections (pg_ctl -w already waits; this double-checks TCP). */
async function waitUntilReady(port: number, socketDir: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await run(path.join(REAL_POSTGRES_BIN_DIR, "pg_isready"), [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-t",
        "2",
      ]);
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`PostgreSQL on port ${port} (sockets in ${socketDir}) did not become ready: ${messageOf(lastError)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
