/**
 * Embedded Postgres: PGlite (Postgres compiled to WASM, data on the local disk)
 * served over the Postgres wire protocol by `@electric-sql/pglite-socket`, so
 * `pg` clients and the official `PostgresSaver` use it exactly like a real
 * server.
 *
 * Things to know about this server (they differ from a real Postgres):
 * - It is one Postgres backend. Every connection is multiplexed onto the same
 *   session: `pg_backend_pid()` is the same for all of them, session settings
 *   (`SET search_path`, ...) leak between connections, and session-level
 *   advisory locks never block one connection against another (they are
 *   re-entrant in the single session). While one connection is inside a
 *   transaction, statements of the other connections wait.
 * - PGlite is single-process: two PGlite instances on one data directory would
 *   corrupt it. A lock the kernel releases with the process guards the
 *   directory (see `acquireDataDirLock`), with a lock file naming the owner.
 * - The socket server rejects connections beyond `maxConnections` by closing
 *   them (the client sees "Connection terminated unexpectedly"), so it must be
 *   at least the size of every pool pointed at it.
 */
import { createHash, randomUUID } from "node:crypto";
import { constants as fsConstants, promises as fs } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:net";
import { hostname } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { startDeadline } from "./bounded-start.js";
import { makeQueueProtocolAware } from "./pglite-protocol-queue.js";

import { ConfigurationError, DatabaseTimeoutError, DatabaseUnreachableError } from "../errors/index.js";

/** A running embedded Postgres server. */
export type EmbeddedPostgres = {
  /** Connection URL (`postgres://postgres:postgres@127.0.0.1:<port>/postgres`). */
  url: string;
  /** Absolute path of the data directory. */
  dataDir: string;
  /** Closes the socket server and PGlite, then removes the lock file. Safe to call twice. */
  stop(): Promise<void>;
};

/** Options of {@link startEmbeddedPostgres}. */
export type EmbeddedPostgresOptions = {
  /** Data directory; created if missing. Default: `<project>/.tempo/pgdata`. */
  dataDir?: string;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Most concurrent client connections; must cover every pool using the server. Default 100. */
  maxConnections?: number;
  /**
   * Longest the start may take, in ms; past it the start fails with `DatabaseTimeoutError` naming the step that did
   * not finish (the lock, PGlite opening the data directory, the socket server). Default 120 000.
   */
  startTimeoutMs?: number;
};

/** Default data directory of the embedded database: `<project>/.tempo/pgdata`. */
export const DEFAULT_EMBEDDED_DATA_DIR = fileURLToPath(new URL("../.tempo/pgdata", import.meta.url));

/** Default connection limit of the embedded server (connections are cheap: one socket each). */
export const DEFAULT_EMBEDDED_MAX_CONNECTIONS = 100;

/**
 * Default bound of the embedded server's start, in ms. A first start runs PGlite's initdb (a few seconds, tens on a
 * loaded machine); a start that takes longer is stuck (a hung filesystem, a damaged data directory), and is said so
 * instead of leaving its caller waiting for ever.
 */
export const DEFAULT_EMBEDDED_START_TIMEOUT_MS = 120_000;

/** Name of the lock file kept inside the data directory while a server uses it. */
export const EMBEDDED_LOCK_FILE = "tempo-embedded.lock";

const HOST = "127.0.0.1";

type LockContent = { pid: number; hostname: string; token: string; startedAt: string };

/**
 * Starts PGlite on `dataDir` and serves it on 127.0.0.1; fails with `DatabaseUnreachableError` if the directory is in
 * use, and with `DatabaseTimeoutError` naming the step that did not finish if the start takes longer than
 * `startTimeoutMs`.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_EMBEDDED_DATA_DIR);
  const port = options.port ?? 0;
  const maxConnections = options.maxConnections ?? DEFAULT_EMBEDDED_MAX_CONNECTIONS;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new DatabaseUnreachableError(`Invalid port ${String(port)} for the embedded database: use 0..65535.`, {
      port,
    });
  }
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new DatabaseUnreachableError(
      `Invalid maxConnections ${String(maxConnections)} for the embedded database: use a whole number of at least 1.`,
      { maxConnections },
    );
  }

  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_EMBEDDED_START_TIMEOUT_MS;
  if (!Number.isInteger(startTimeoutMs) || startTimeoutMs < 1) {
    throw new ConfigurationError(
      `Invalid startTimeoutMs ${String(startTimeoutMs)} for the embedded database: use a whole number of milliseconds, at least 1.`,
      { startTimeoutMs },
    );
  }
  const deadline = startDeadline(startTimeoutMs, {
    subject: `The embedded database in ${dataDir}`,
    advice:
      "Its filesystem may be hung or very slow, or the data directory damaged: check the disk, start on a copy of the " +
      "directory, or set DATABASE_URL to use a Postgres server. On a heavily loaded machine, allow a longer start.",
    details: { dataDir, port },
  });

  await deadline.step(
    "creating the data directory",
    fs.mkdir(dataDir, { recursive: true }).catch((error: unknown) => {
      throw new DatabaseUnreachableError(
        `Cannot create the embedded database directory ${dataDir}: ${errorMessage(error)}.`,
        { dataDir },
        { cause: error },
      );
    }),
  );

  const lock = await deadline.step("taking the data directory's lock", acquireDataDirLock(dataDir), (late) =>
    late?.release(),
  );
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    const assets = await deadline.step("loading PGlite's WebAssembly and file-system bundle", pgliteAssets(dataDir));
    // Given up on, a step still running keeps the lock until it ends: no second PGlite may open the directory meanwhile.
    db = await deadline.step(
      "PGlite opening the data directory (PGlite.create)",
      PGlite.create({ dataDir, ...assets }),
      (late) => closeOpened(undefined, late, lock),
    );
    server = new PGLiteSocketServer({ db, host: HOST, port, maxConnections });
    // Without this, concurrent parameterised queries of two pool connections interleave and fail.
    makeQueueProtocolAware(server);
    const starting = server;
    const opened = db;
    await deadline.step("the socket server starting to listen on 127.0.0.1", server.start(), () =>
      closeOpened(starting, opened, lock),
    );
  } catch (error) {
    // A step past the deadline: its clean-up runs when it ends (see above); the error already says what hung.
    if (error instanceof DatabaseTimeoutError) throw error;
    await closeOpened(server, db, lock);
    throw new DatabaseUnreachableError(
      `Could not start the embedded database in ${dataDir}: ${errorMessage(error)}.`,
      { dataDir, port },
      { cause: error },
    );
  }

  const boundPort = portOf(server.getServerConn());
  const runningServer = server;
  const runningDb = db;
  let stopping: Promise<void> | undefined;

  return {
    url: `postgres://postgres:postgres@${HOST}:${boundPort}/postgres`,
    dataDir,
    stop() {
      stopping ??= (async () => {
        try {
          await runningServer.stop();
          // Let the socket handlers finish detaching (they may roll back an open transaction) before closing PGlite.
          await new Promise<void>((resolve) => setImmediate(resolve));
          await runningDb.close();
        } finally {
          await lock.release();
        }
      })();
      return stopping;
    },
  };
}

/** Node's WebAssembly compiler (the project's TypeScript libraries declare WebAssembly's types, not its value). */
const wasmCompiler = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;

/** PGlite's WebAssembly modules as compiled by Tempo, once per process, by file name. */
const compiledWasm = new Map<string, Promise<WebAssembly.Module>>();

/**
 * What PGlite would otherwise load itself: its WebAssembly (compiled once per process; initdb's only for a directory
 * without a cluster) and its file-system bundle. PGlite 0.5 loads its WebAssembly in a promise it never catches: a
 * failure there (a file it cannot read, too many open files, no memory to compile) is an unhandled rejection, and
 * `PGlite.create` never settles. Loaded here, the same failure fails the start at once, saying what could not be
 * loaded.
 */
async function pgliteAssets(
  dataDir: string,
): Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule?: WebAssembly.Module; fsBundle: Blob }> {
  // PGlite runs initdb where the directory holds no cluster yet (its own test: PG_VERSION).
  const withInitdb = await fs.access(path.join(dataDir, "PG_VERSION")).then(
    () => false,
    () => true,
  );
  const [pgliteWasmModule, initdbWasmModule, fsBundle] = await Promise.all([
    compiledPgliteWasm("pglite.wasm"),
    withInitdb ? compiledPgliteWasm("initdb.wasm") : undefined,
    readPgliteFile("pglite.data").then((bytes) => new Blob([bytes])),
  ]);
  return initdbWasmModule ? { pgliteWasmModule, initdbWasmModule, fsBundle } : { pgliteWasmModule, fsBundle };
}

function compiledPgliteWasm(name: string): Promise<WebAssembly.Module> {
  let compiled = compiledWasm.get(name);
  if (!compiled) {
    compiled = readPgliteFile(name).then(async (bytes) => {
      try {
        return await wasmCompiler.compile(bytes);
      } catch (error) {
        throw new Error(`cannot compile PGlite's WebAssembly module ${name}: ${errorMessage(error)}`, { cause: error });
      }
    });
    // A failure is not kept: the next start tries again.
    compiled.catch(() => compiledWasm.delete(name));
    compiledWasm.set(name, compiled);
  }
  return compiled;
}

/** Reads a file of PGlite's package (beside its entry point, where PGlite itself reads it). */
async function readPgliteFile(name: string): Promise<Uint8Array> {
  const file = path.join(path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), name);
  try {
    return await fs.readFile(file);
  } catch (error) {
    throw new Error(`cannot read PGlite's ${file}: ${errorMessage(error)}`, { cause: error });
  }
}

/** Stops what a start opened (a failed one's, or one given up on that opened after all), then lets the directory go. */
async function closeOpened(
  server: PGLiteSocketServer | undefined,
  db: PGlite | undefined,
  lock: { release(): Promise<void> },
): Promise<void> {
  try {
    await server?.stop().catch(() => undefined);
    await db?.close().catch(() => undefined);
  } finally {
    await lock.release();
  }
}

/** Parses the port out of `PGLiteSocketServer.getServerConn()` ("host:port"). */
function portOf(serverConn: string): number {
  const port = Number(serverConn.slice(serverConn.lastIndexOf(":") + 1));
  if (!Number.isInteger(port) || port <= 0) {
    throw new DatabaseUnreachableError(`The embedded database server reported no usable port (${serverConn}).`);
  }
  return port;
}

/**
 * Takes the data directory's lock. On Linux the lock is an abstract unix socket named after the directory's real
 * path, listened on while the server runs: the kernel frees it the moment the process dies, so a crash, an OOM kill
 * or a restarted container whose new process got the same pid never leaves the directory locked. The lock file
 * beside it only says who holds it, and is overwritten by the next owner. Elsewhere (no abstract sockets), the lock
 * file is the lock: created exclusively, holding our pid; a lock whose process is gone — or that names this
 * process's pid while this process does not serve the directory (pid reuse) — is stale and is taken over.
 *
 * A lock file written on another host (a shared volume) cannot be checked there: the owner refreshes its file every
 * {@link LOCK_HEARTBEAT_MS}, and a foreign lock not refreshed for {@link LOCK_STALE_MS} is taken over.
 */
async function acquireDataDirLock(dataDir: string): Promise<{ release(): Promise<void> }> {
  const lockPath = path.join(dataDir, EMBEDDED_LOCK_FILE);
  const realDir = await fs.realpath(dataDir);
  if (heldDataDirs.has(realDir)) throw inUse(dataDir, lockPath, await readLock(lockPath), true);
  const mine: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    token: randomUUID(),
    startedAt: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;

  const kernelLock = await listenKernelLock(realDir);
  if (kernelLock === "busy") throw inUse(dataDir, lockPath, await readLock(lockPath), false);
  if (kernelLock) {
    try {
      const existing = await readLock(lockPath);
      if (existing && existing.hostname !== mine.hostname) await refuseFreshForeignLock(dataDir, lockPath, existing);
      await fs.writeFile(lockPath, text);
    } catch (error) {
      await closeServer(kernelLock);
      throw asLockError(error, dataDir, lockPath);
    }
    return holding(realDir, lockPath, mine.token, kernelLock);
  }

  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await fs.writeFile(lockPath, text, { flag: fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL });
      return holding(realDir, lockPath, mine.token, undefined);
    } catch (error) {
      if (!isErrno(error, "EEXIST")) throw asLockError(error, dataDir, lockPath);
    }

    const existingText = await fs.readFile(lockPath, "utf8").catch((error: unknown) => {
      if (isErrno(error, "ENOENT")) return undefined; // released meanwhile: try again
      throw error;
    });
    if (existingText === undefined) continue;
    const existing = parseLock(existingText);
    if (
      existing &&
      existing.hostname === mine.hostname &&
      existing.pid !== process.pid &&
      isProcessAlive(existing.pid)
    ) {
      throw inUse(dataDir, lockPath, existing, false);
    }
    if (existing && existing.hostname !== mine.hostname) await refuseFreshForeignLock(dataDir, lockPath, existing);
    // Stale: remove it only if it is still the file we judged (narrows the race with another process taking it over).
    const again = await fs.readFile(lockPath, "utf8").catch(() => undefined);
    if (again === existingText) await fs.rm(lockPath, { force: true });
  }
  throw new DatabaseUnreachableError(
    `Could not take the lock file ${lockPath} of the embedded database: other processes keep taking it.`,
    { dataDir, lockPath },
  );
}

/** How often an owner refreshes its lock file's time, in ms. */
export const LOCK_HEARTBEAT_MS = 5_000;

/** A lock file of another host not refreshed for this long is stale, in ms. */
export const LOCK_STALE_MS = 30_000;

/** Real paths of the data directories this process serves. */
const heldDataDirs = new Set<string>();

/** Records the lock as held, refreshes its file's time, and returns its release. */
function holding(
  realDir: string,
  lockPath: string,
  token: string,
  kernelLock: Server | undefined,
): { release(): Promise<void> } {
  heldDataDirs.add(realDir);
  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(lockPath, now, now).catch(() => undefined);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  let releasing: Promise<void> | undefined;
  return {
    release: () => {
      releasing ??= (async () => {
        clearInterval(heartbeat);
        try {
          await releaseLock(lockPath, token);
        } finally {
          if (kernelLock) await closeServer(kernelLock);
          heldDataDirs.delete(realDir);
        }
      })();
      return releasing;
    },
  };
}

/**
 * Listens on the abstract unix socket that locks `realDir` (Linux): the server when taken, "busy" when a live process
 * holds it, undefined where abstract sockets do not exist.
 */
async function listenKernelLock(realDir: string): Promise<Server | "busy" | undefined> {
  if (process.platform !== "linux") return undefined;
  const name = `\0tempo-embedded-${createHash("sha256").update(realDir).digest("hex")}`;
  const server = createServer((socket) => socket.destroy());
  return new Promise((resolve) => {
    server.once("error", (error) => resolve(isErrno(error, "EADDRINUSE") ? "busy" : undefined));
    server.listen({ path: name }, () => {
      server.unref();
      resolve(server);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Throws when a lock file of another host was refreshed recently (its owner may be alive there). */
async function refuseFreshForeignLock(dataDir: string, lockPath: string, existing: LockContent): Promise<void> {
  const modified = await fs.stat(lockPath).then(
    (stat) => stat.mtimeMs,
    () => 0,
  );
  const age = Date.now() - modified;
  if (age >= LOCK_STALE_MS) return;
  throw new DatabaseUnreachableError(
    `The embedded database directory ${dataDir} is locked by host ${existing.hostname} (pid ${existing.pid}), which refreshed its lock ` +
      `${Math.round(age / 1000)} s ago. PGlite serves one data directory from one process only: stop that process, or if it is gone, ` +
      `start again after ${Math.ceil((LOCK_STALE_MS - age) / 1000)} s, when its lock counts as stale.`,
    { dataDir, lockPath, pid: existing.pid, hostname: existing.hostname },
  );
}

/** The error for a directory a live Tempo process serves. */
function inUse(
  dataDir: string,
  lockPath: string,
  existing: LockContent | undefined,
  thisProcess: boolean,
): DatabaseUnreachableError {
  const who = thisProcess ? "this process" : existing ? `process ${existing.pid}` : "another process";
  const since = existing ? `, since ${existing.startedAt}` : "";
  return new DatabaseUnreachableError(
    `The embedded database directory ${dataDir} is already in use by ${who} (lock file ${lockPath}${since}). ` +
      "PGlite serves one data directory from one process only: stop the other Tempo process, point this one at another data " +
      "directory, or set DATABASE_URL to share a real Postgres server. The lock goes with the process: nothing needs deleting.",
    { dataDir, lockPath, pid: thisProcess ? process.pid : existing?.pid },
  );
}

function asLockError(error: unknown, dataDir: string, lockPath: string): unknown {
  if (error instanceof DatabaseUnreachableError) return error;
  return new DatabaseUnreachableError(
    `Cannot write the lock file ${lockPath} of the embedded database: ${errorMessage(error)}.`,
    { dataDir, lockPath },
    { cause: error },
  );
}

async function readLock(lockPath: string): Promise<LockContent | undefined> {
  const text = await fs.readFile(lockPath, "utf8").catch(() => undefined);
  return text === undefined ? undefined : parseLock(text);
}

/** Removes the lock file if it is still ours. */
async function releaseLock(lockPath: string, token: string): Promise<void> {
  const text = await fs.readFile(lockPath, "utf8").catch(() => undefined);
  if (text !== undefined && parseLock(text)?.token === token) {
    await fs.rm(lockPath, { force: true });
  }
}

function parseLock(text: string): LockContent | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === "object" &&
      value !== null &&
      "pid" in value &&
      typeof value.pid === "number" &&
      "token" in value &&
      typeof value.token === "string"
    ) {
      const hostnameValue = "hostname" in value && typeof value.hostname === "string" ? value.hostname : hostname();
      const startedAt =
        "startedAt" in value && typeof value.startedAt === "string" ? value.startedAt : "an unknown time";
      return { pid: value.pid, token: value.token, hostname: hostnameValue, startedAt };
    }
  } catch {
    // unreadable lock file: treated as stale
  }
  return undefined;
}

/** True when a process with this pid exists (EPERM means it exists but belongs to someone else). */
function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, "EPERM");
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === code;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
