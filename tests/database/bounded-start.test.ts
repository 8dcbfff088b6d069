/**
 * A start that hangs is said, not waited for: the embedded server's start fails with `DatabaseTimeoutError` naming the
 * step that did not finish, within the start's bound, and what that step yields late is cleaned up (the data directory's
 * lock is let go once the stuck step ends). The bounds here are injected and short; nothing asserts a duration.
 */
import { execFile } from "node:child_process";
import { constants as fsConstants, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { startDeadline } from "../../database/bounded-start.js";
import { EMBEDDED_LOCK_FILE, startEmbeddedPostgres, type EmbeddedPostgres } from "../../database/index.js";
import { ConfigurationError, DatabaseTimeoutError, isTempoError } from "../../errors/index.js";
import { embeddedTemplateDir } from "../support/postgres.js";

const run = promisify(execFile);

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const TEXT = { subject: "The thing", advice: "Do something.", details: { dataDir: "/somewhere" } };

describe("startDeadline", () => {
  it("passes a step's value through and never cleans it up", async () => {
    const cleanUp = vi.fn();
    const deadline = startDeadline(60_000, TEXT);
    await expect(deadline.step("a quick step", Promise.resolve(7), cleanUp)).resolves.toBe(7);
    await expect(deadline.step("a failing step", Promise.reject(new Error("no")), cleanUp)).rejects.toThrow("no");
    expect(cleanUp).not.toHaveBeenCalled();
  });

  it("fails a step that never ends with DatabaseTimeoutError naming it", async () => {
    const error: unknown = await startDeadline(5, TEXT)
      .step("waiting for Godot", new Promise<never>(() => undefined))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(DatabaseTimeoutError);
    expect(isTempoError(error) && error.code).toBe("DATABASE_TIMEOUT");
    expect((error as Error).message).toBe(
      "The thing did not start within 5 ms: waiting for Godot did not finish. Do something.",
    );
    expect((error as DatabaseTimeoutError).details).toEqual({
      dataDir: "/somewhere",
      step: "waiting for Godot",
      timeoutMs: 5,
    });
  });

  it("hands what a step yields after the deadline to its clean-up, a late failure as undefined", async () => {
    const late = deferred<string>();
    const cleanedUp = deferred<string | undefined>();
    await expect(
      startDeadline(5, TEXT).step("slow", late.promise, (value) => cleanedUp.resolve(value)),
    ).rejects.toThrow("slow did not finish");
    late.resolve("opened after all");
    expect(await cleanedUp.promise).toBe("opened after all");

    const failing = deferred<string>();
    const failureSeen = deferred<string | undefined>();
    await expect(
      startDeadline(5, TEXT).step("slow", failing.promise, (value) => failureSeen.resolve(value)),
    ).rejects.toThrow(DatabaseTimeoutError);
    failing.reject(new Error("gave up"));
    expect(await failureSeen.promise).toBeUndefined();
  });

  it("shares one deadline between the steps of a start", async () => {
    const deadline = startDeadline(5, TEXT);
    await expect(deadline.step("first", new Promise<never>(() => undefined))).rejects.toThrow("first did not finish");
    // The deadline has passed: the next step fails at once, even one that would end some day.
    await expect(deadline.step("second", new Promise<never>(() => undefined))).rejects.toThrow("second did not finish");
  });
});

describe("startEmbeddedPostgres with a stuck step", () => {
  let dataDir: string;
  const servers: EmbeddedPostgres[] = [];

  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(tmpdir(), "tempo-bounded-start-"));
  });

  afterEach(async () => {
    await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("fails with DatabaseTimeoutError naming the lock when the data directory's filesystem hangs, then lets it go", async () => {
    await fs.cp(await embeddedTemplateDir(), dataDir, { recursive: true });
    // A lock file that is a FIFO with no writer: reading it blocks, as on a hung network filesystem.
    const lockPath = path.join(dataDir, EMBEDDED_LOCK_FILE);
    await run("mkfifo", [lockPath]);

    // The bound only has to outlast the steps before the lock (a mkdir of an existing directory), on a loaded machine too.
    const error: unknown = await startEmbeddedPostgres({ dataDir, startTimeoutMs: 5_000 }).then(
      (server) => (servers.push(server), undefined),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseTimeoutError);
    const message = (error as Error).message;
    expect(message).toContain(`The embedded database in ${dataDir} did not start within 5 s`);
    expect(message).toContain("taking the data directory's lock did not finish");
    expect(message).toContain("DATABASE_URL");
    expect((error as DatabaseTimeoutError).details).toMatchObject({
      dataDir,
      step: "taking the data directory's lock",
    });

    // The filesystem comes back: the stuck read ends (with a writer opened and closed, the FIFO gone), the late lock
    // is let go, and the directory can be served again.
    const writer = await fs.open(lockPath, fsConstants.O_RDWR | fsConstants.O_NONBLOCK);
    await fs.rm(lockPath);
    await writer.close();
    await vi.waitFor(
      async () => {
        servers.push(await startEmbeddedPostgres({ dataDir }));
      },
      { timeout: 300_000, interval: 100 },
    );
    const client = new pg.Client({ connectionString: servers[0]!.url });
    await client.connect();
    try {
      expect((await client.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it("rejects an invalid start bound", async () => {
    await expect(startEmbeddedPostgres({ dataDir, startTimeoutMs: 0 })).rejects.toBeInstanceOf(ConfigurationError);
  });
});
