/**
 * A real PostgreSQL 15 test server that can be stopped and started again on
 * the same data directory and port — the database "going away" mid-run and
 * coming back. Same approach as `startRealTestPostgres` (initdb with trust
 * authentication in a temporary directory, pg_ctl on a free loopback port,
 * run as the `postgres` user when the tests run as root).
 */
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, orphanGuard, REAL_POSTGRES_BIN_DIR, realPostgresAvailable } from "../../support/postgres.js";

const run = promisify(execFile);

export interface RestartablePostgres {
  url: string;
  port: number;
  /** The temporary directory holding the cluster (removed by `destroy`). */
  dir: string;
  /** Stops the server (`pg_ctl stop -m fast`: connections are terminated); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same data directory and port. */
  start(): Promise<void>;
  /** Stops it if running and removes its directory. Safe to call twice. */
  destroy(): Promise<void>;
}

/** Creates a throwaway cluster and starts it. Fails (never skips) when PostgreSQL 15 is not installed. */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  if (!realPostgresAvailable()) {
    throw new Error(
      `PostgreSQL 15 is not installed (${REAL_POSTGRES_BIN_DIR}/initdb is missing): apt-get install postgresql-15.`,
    );
  }
  const dir = await fs.mkdtemp(path.join(tmpdir(), "tempo-pg-restartable-"));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run("chown", ["-R", "postgres:postgres", dir]);
  const pgCommand = (binary: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(REAL_POSTGRES_BIN_DIR, binary), ...args])
      : run(path.join(REAL_POSTGRES_BIN_DIR, binary), args);

  let running = false;
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=100",
    "-c fsync=off",
    "-c full_page_writes=off",
  ].join(" ");
  const start = async () => {
    await pgCommand("pg_ctl", ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions]);
    running = true;
  };
  const stop = async () => {
    if (!running) return;
    await pgCommand("pg_ctl", ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
    running = false;
  };
  // A run killed before `destroy` still stops the server and removes the directory.
  const guard = orphanGuard(dir, dataDir, asRoot);
  let destroying: Promise<void> | undefined;
  const destroy = () => {
    destroying ??= stop()
      .catch(() => undefined)
      .finally(() => fs.rm(dir, { recursive: true, force: true }))
      .finally(() => guard.release());
    return destroying;
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
    await start();
  } catch (error) {
    const log = await fs.readFile(logFile, "utf8").catch(() => "");
    await destroy();
    throw new Error(
      `Could not start a restartable PostgreSQL 15 test server: ${error instanceof Error ? error.message : String(error)}${log ? `\nserver log:\n${log}` : ""}`,
      { cause: error },
    );
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop, start, destroy };
}
