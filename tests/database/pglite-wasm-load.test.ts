/**
 * PGlite 0.5 loads its WebAssembly in a promise it never catches: when reading it fails, `PGlite.create` never settles
 * (with an unhandled rejection besides). Tempo loads PGlite's WebAssembly itself, so the same failure fails the start at
 * once with `DatabaseUnreachableError` naming the file, lets the data directory go, and a later start works.
 *
 * The compiled WebAssembly is cached per process (per module instance), and this test needs the first load to fail:
 * it takes the database module fresh (`vi.resetModules`), since its worker may have started PGlite for another file.
 */
import { promises as fsPromises } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, expect, it, vi } from "vitest";

import type { EmbeddedPostgres } from "../../database/index.js";
import { embeddedTemplateDir } from "../support/postgres.js";

const servers: EmbeddedPostgres[] = [];
const directories: string[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
  await Promise.all(directories.splice(0).map((dir) => fsPromises.rm(dir, { recursive: true, force: true })));
});

it("fails the start at once when PGlite's WebAssembly cannot be read, then starts once it can", async () => {
  vi.resetModules();
  const { startEmbeddedPostgres } = await import("../../database/index.js");
  const { DatabaseUnreachableError } = await import("../../errors/index.js");
  const template = await embeddedTemplateDir();
  const dataDir = await fsPromises.mkdtemp(path.join(tmpdir(), "tempo-wasm-load-"));
  directories.push(dataDir);
  await fsPromises.cp(template, dataDir, { recursive: true });

  // Every reader of .wasm files fails, as with too many open files: Tempo's and (through node:fs/promises) PGlite's own.
  const readFile = fsPromises.readFile.bind(fsPromises);
  vi.spyOn(fsPromises, "readFile").mockImplementation(((file: Parameters<typeof readFile>[0], options?: never) =>
    String(file).endsWith(".wasm")
      ? Promise.reject(Object.assign(new Error("EMFILE: too many open files (injected)"), { code: "EMFILE" }))
      : readFile(file, options)) as typeof fsPromises.readFile);
  syncBuiltinESMExports();

  // Without Tempo loading the WebAssembly, this start would wait out its whole bound and end in DatabaseTimeoutError.
  const error: unknown = await startEmbeddedPostgres({ dataDir, startTimeoutMs: 120_000 }).then(
    (server) => (servers.push(server), undefined),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatabaseUnreachableError);
  expect((error as Error).message).toContain(`Could not start the embedded database in ${dataDir}`);
  expect((error as Error).message).toMatch(/pglite\.wasm: EMFILE: too many open files/);

  vi.restoreAllMocks();
  syncBuiltinESMExports();
  const server = await startEmbeddedPostgres({ dataDir });
  servers.push(server);
  expect(server.url).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
});
