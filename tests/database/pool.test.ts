import { existsSync, promises as fs } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EMBEDDED_LOCK_FILE, openDatabase, redactUrl, type Database } from "../../database/index.js";
import { DatabaseTimeoutError, DatabaseUnreachableError, isTempoError } from "../../errors/index.js";
import { embeddedTemplateDir, freePort, postgresTargets, type TestPostgres } from "../support/postgres.js";

describe("redactUrl", () => {
  it("hides the password and keeps everything else", () => {
    expect(redactUrl("postgres://tempo:s3cr%40t@db.example:5433/tempo")).toBe(
      "postgres://tempo:***@db.example:5433/tempo",
    );
    expect(redactUrl("postgresql://tempo@localhost/tempo")).toBe("postgresql://tempo@localhost/tempo");
    expect(redactUrl("postgres://h:5432/db?password=hunter2&sslmode=require")).toBe(
      "postgres://h:5432/db?password=***&sslmode=require",
    );
    expect(redactUrl("host=localhost password=hunter2 user=tempo")).toBe("host=localhost password=*** user=tempo");
  });
});

describe("openDatabase with an unreachable URL", () => {
  it("throws DatabaseUnreachableError naming the redacted URL and what to do", async () => {
    const port = await freePort(); // nothing listens there
    const password = "Sup3rSecretPassw0rd";
    const url = `postgres://tempo:${password}@127.0.0.1:${port}/tempo`;
    const error: unknown = await openDatabase({ databaseUrl: url, poolSize: 2 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect(isTempoError(error) && error.code).toBe("DATABASE_UNREACHABLE");
    const message = (error as Error).message;
    expect(message).toContain(`postgres://tempo:***@127.0.0.1:${port}/tempo`);
    expect(message).not.toContain(password);
    expect(message).toMatch(/running/);
    expect(message).toContain("unset DATABASE_URL");
    expect(JSON.stringify((error as DatabaseUnreachableError).details)).not.toContain(password);
  });
});

describe("openDatabase on a server that takes the connection and then says nothing", () => {
  /** Listens on 127.0.0.1: answers the startup (AuthenticationOk, ReadyForQuery) when `handshake`, then never again. */
  async function silentServer(handshake: boolean): Promise<{ url: string; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
      if (handshake) {
        socket.once("data", () => {
          socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0])); // AuthenticationOk
          socket.write(Buffer.from([0x5a, 0, 0, 0, 5, 0x49])); // ReadyForQuery, idle
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `postgres://tempo@127.0.0.1:${port}/tempo`,
      close: () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  it("fails the first SELECT 1 with DatabaseTimeoutError even when calls are unbounded (queryTimeoutMs 0)", async () => {
    const server = await silentServer(true);
    try {
      const error: unknown = await openDatabase({
        databaseUrl: server.url,
        queryTimeoutMs: 0,
        // Bounds the handshake and (calls being unbounded) the SELECT 1: long enough for a loaded machine's handshake.
        connectTimeoutMs: 5_000,
      }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DatabaseTimeoutError);
      expect((error as Error).message).toContain(
        `${server.url} accepted a connection but did not answer SELECT 1 within 5000 ms`,
      );
      expect((error as DatabaseTimeoutError).details).toMatchObject({ reason: "open_check_timeout", timeoutMs: 5_000 });
    } finally {
      await server.close();
    }
  });

  it("fails a connection whose handshake gets no answer with DatabaseUnreachableError naming the timeout", async () => {
    const server = await silentServer(false);
    try {
      const error: unknown = await openDatabase({ databaseUrl: server.url, connectTimeoutMs: 300 }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DatabaseUnreachableError);
      expect((error as Error).message).toContain("connection timeout");
    } finally {
      await server.close();
    }
  });
});

describe.each(postgresTargets())("openDatabase on a $kind server URL", (target) => {
  let server: TestPostgres;
  let database: Database | undefined;

  beforeAll(async () => {
    server = await target.start();
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it("pools to it, is not embedded, and close() ends the pool", async () => {
    database = await openDatabase({ databaseUrl: server.url, poolSize: 3 });
    expect(database.embedded).toBe(false);
    expect(database.url).toBe(server.url);
    expect(database.pool.options.max).toBe(3);
    const result = await database.pool.query<{ answer: number }>("SELECT 41 + 1 AS answer");
    expect(result.rows[0]?.answer).toBe(42);
    await database.close();
    await database.close(); // twice is fine
    expect(database.pool.ended).toBe(true);
  });
});

describe("openDatabase without a URL", () => {
  let dataDir: string;
  let database: Database | undefined;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(tmpdir(), "tempo-open-embedded-"));
    await fs.cp(await embeddedTemplateDir(), dataDir, { recursive: true });
  });

  afterAll(async () => {
    await database?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("starts the embedded server in the data directory, and close() stops it", async () => {
    database = await openDatabase({ dataDir, poolSize: 4 });
    expect(database.embedded).toBe(true);
    expect(database.url).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(true);
    // the pool's connections all work at once
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => database!.pool.query<{ n: number }>("SELECT $1::int AS n", [n])),
    );
    expect(results.map((result) => result.rows[0]?.n)).toEqual([1, 2, 3, 4]);

    await database.close();
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);
    await expect(database.pool.query("SELECT 1")).rejects.toThrow();
  });
});
