/**
 * A PostgreSQL 15 test server outlives no process that started it: a child process starts one
 * (`startRealTestPostgres`, as every test and bench does) and is then killed with SIGKILL, so no `stop()` runs. Its
 * watchdog (`orphanGuard`) stops the server and removes its directory. Before it, each killed run left a `postgres`
 * listening on its port and a `tempo-pg-*` directory behind.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { once } from "node:events";
import { expect, test } from "vitest";
import { realPostgresAvailable } from "../support/postgres.js";

/** Resolves once `check` holds, looking every 100 ms; the bound is far above what a loaded machine takes. */
async function eventually(check: () => Promise<boolean> | boolean, what: string, limitMs = 180_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`still not so after ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

// The child names the cluster's directory: the \`tempo-pg-*\` entry of the temp dir that its start made.
const CHILD = `
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { startRealTestPostgres } from "./tests/support/postgres.ts";
const clusters = () => readdirSync(tmpdir()).filter((name) => name.startsWith("tempo-pg-"));
const before = new Set(clusters());
const server = await startRealTestPostgres();
const dirs = clusters().filter((name) => !before.has(name)).map((name) => tmpdir() + "/" + name);
process.stdout.write(JSON.stringify({ url: server.url, dirs }) + "\\n");
setInterval(() => undefined, 1000);
`;

test.runIf(realPostgresAvailable() || process.env.TEMPO_REQUIRE_REAL_POSTGRES === "1")(
  "a PostgreSQL 15 test server is stopped and its directory removed when its process is killed",
  { timeout: 600_000 },
  async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    await eventually(() => out.includes("\n") || child.exitCode !== null, "the child started its server");
    const { url, dirs } = JSON.parse(out.split("\n")[0]!) as { url: string; dirs: string[] };
    const port = Number(new URL(url).port);
    expect(await accepts(port)).toBe(true);
    // Another test file may have made a cluster at the same moment: the child's holds the server's unix socket.
    const dir = dirs.find((candidate) => existsSync(`${candidate}/.s.PGSQL.${port}`));
    expect(dir).toBeDefined();

    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;

    await eventually(async () => !(await accepts(port)), `the server on port ${port} stopped`);
    await eventually(() => !existsSync(dir!), `the cluster's directory ${dir} removed`);
  },
);
