import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  DEFAULT_EMBEDDED_DATA_DIR,
  EMBEDDED_LOCK_FILE,
  LOCK_STALE_MS,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "../../database/index.js";
import { DatabaseUnreachableError } from "../../errors/index.js";
import { startWorker, type WorkerProcess } from "../reliability/support/worker-process.js";
import { embeddedTemplateDir } from "../support/postgres.js";

/** Runs one query on a fresh connection to `url`. */
async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function lockFileFor(pid: number): string {
  return JSON.stringify({ pid, hostname: hostname(), token: "someone-else", startedAt: "2020-01-01T00:00:00.000Z" });
}

describe("startEmbeddedPostgres", () => {
  let dataDir: string;
  const servers: EmbeddedPostgres[] = [];
  const children: ChildProcess[] = [];
  const workers: WorkerProcess[] = [];

  /** Fills the data directory with a ready-made cluster (a copy takes ~1 s, PGlite's initdb ~5 s). */
  async function seed(): Promise<void> {
    await fs.cp(await embeddedTemplateDir(), dataDir, { recursive: true });
  }

  async function start(): Promise<EmbeddedPostgres> {
    const server = await startEmbeddedPostgres({ dataDir });
    servers.push(server);
    return server;
  }

  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(tmpdir(), "tempo-embedded-test-"));
  });

  afterEach(async () => {
    await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
    for (const worker of workers) worker.kill("SIGKILL");
  });

  it("serves on a free loopback port and reports the real port", async () => {
    await seed();
    const server = await start();
    const url = new URL(server.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(server.dataDir).toBe(path.resolve(dataDir));
    const rows = await query<{ version: string }>(server.url, "SELECT version() AS version");
    expect(rows[0]?.version).toContain("PGlite");
  });

  it("keeps data across stop and start of the same data directory", async () => {
    await seed();
    const first = await start();
    await query(
      first.url,
      "CREATE TABLE kept (id int PRIMARY KEY, note text); INSERT INTO kept VALUES (1, 'still here')",
    );
    await first.stop();
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);

    const second = await start();
    const rows = await query<{ id: number; note: string }>(second.url, "SELECT id, note FROM kept");
    expect(rows).toEqual([{ id: 1, note: "still here" }]);
  });

  it("creates a missing data directory", async () => {
    const nested = path.join(dataDir, "does", "not", "exist");
    const server = await startEmbeddedPostgres({ dataDir: nested });
    servers.push(server);
    expect(existsSync(path.join(nested, "PG_VERSION"))).toBe(true);
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("refuses a data directory this process already serves, and leaves the first server alone", async () => {
    await seed();
    const first = await start();
    const error: unknown = await startEmbeddedPostgres({ dataDir }).then(
      (unexpected) => {
        servers.push(unexpected);
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toContain(`${path.resolve(dataDir)} is already in use by this process`);
    expect(await query<{ one: number }>(first.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(true);
  });

  it("refuses a data directory another live Tempo process serves; once that process is killed, starts with nothing deleted", async () => {
    await seed();
    const owner = startWorker(fileURLToPath(new URL("./support/embedded-owner.ts", import.meta.url)), [dataDir]);
    workers.push(owner);
    const ready = await owner.waitFor((event) => event.event === "ready");
    const error: unknown = await startEmbeddedPostgres({ dataDir }).then(
      (unexpected) => {
        servers.push(unexpected);
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toContain(`already in use by process ${String(ready.pid)}`);
    expect((error as Error).message).toContain("nothing needs deleting");

    owner.kill("SIGKILL");
    await owner.exited;
    // npx reports its exit before the node process under it is gone: wait for that one.
    for (let tries = 0; tries < 200 && isAlive(Number(ready.pid)); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    // The dead owner's lock file is still there, naming its pid; the kernel lock went with the process.
    expect(JSON.parse(await fs.readFile(path.join(dataDir, EMBEDDED_LOCK_FILE), "utf8"))).toMatchObject({
      pid: ready.pid,
    });
    const server = await start();
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("takes over a lock file naming a live process that does not serve the directory (a reused pid)", async () => {
    await seed();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    children.push(other);
    await fs.writeFile(path.join(dataDir, EMBEDDED_LOCK_FILE), lockFileFor(other.pid!));
    const server = await start();
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, EMBEDDED_LOCK_FILE), "utf8"))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    other.kill("SIGKILL");
  });

  it("takes over a lock file naming this process's own pid (a container restarted with the same pid)", async () => {
    await seed();
    await fs.writeFile(path.join(dataDir, EMBEDDED_LOCK_FILE), lockFileFor(process.pid));
    const server = await start();
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await server.stop();
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);
  });

  it("refuses a lock file of another host refreshed moments ago, and takes it over once it is stale", async () => {
    await seed();
    const lockPath = path.join(dataDir, EMBEDDED_LOCK_FILE);
    await fs.writeFile(
      lockPath,
      JSON.stringify({ pid: 4242, hostname: "another-host", token: "theirs", startedAt: "2020-01-01T00:00:00.000Z" }),
    );
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
      /locked by host another-host \(pid 4242\), which refreshed its lock/,
    );
    const stale = new Date(Date.now() - LOCK_STALE_MS - 1_000);
    await fs.utimes(lockPath, stale, stale);
    const server = await start();
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("takes over a stale lock whose process is dead, and removes its own lock on stop", async () => {
    await seed();
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const deadPid = dead.pid!;
    await new Promise((resolve) => dead.once("exit", resolve));
    const lockPath = path.join(dataDir, EMBEDDED_LOCK_FILE);
    await fs.writeFile(lockPath, lockFileFor(deadPid));

    const server = await start();
    const lock: unknown = JSON.parse(await fs.readFile(lockPath, "utf8"));
    expect(lock).toMatchObject({ pid: process.pid });
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await server.stop();
    await server.stop(); // twice is fine
    expect(existsSync(lockPath)).toBe(false);
  });

  it("takes over an unreadable lock file", async () => {
    await seed();
    await fs.writeFile(path.join(dataDir, EMBEDDED_LOCK_FILE), "not json");
    const server = await start();
    expect(await query<{ one: number }>(server.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("rejects invalid options with a typed error", async () => {
    await expect(startEmbeddedPostgres({ dataDir, port: -1 })).rejects.toBeInstanceOf(DatabaseUnreachableError);
    await expect(startEmbeddedPostgres({ dataDir, maxConnections: 0 })).rejects.toBeInstanceOf(
      DatabaseUnreachableError,
    );
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);
  });

  it("defaults to <project>/.tempo/pgdata", () => {
    const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
    expect(DEFAULT_EMBEDDED_DATA_DIR).toBe(path.join(projectRoot, ".tempo", "pgdata"));
  });
});
