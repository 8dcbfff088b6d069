/**
 * Checkpoint reads as bytea arrays (issue 44.8, CPU per conversation): PostgresSaver reads a checkpoint's blobs and
 * writes as `bytea[]`, which node-postgres parses one character at a time (`postgres-array`), about 4 % of a
 * conversation's CPU. Tempo's pool reads them with `parseByteaArray`: the same Buffers and nulls, any nesting, and
 * node-postgres's own parser for text it does not read fast.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

import { BYTEA_ARRAY_OID, parseByteaArray } from "../../database/bytea-array.js";
import { openDatabase, type Database } from "../../database/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

/** node-postgres's own reading of `bytea[]` text. */
const defaultParse = pg.types.getTypeParser(BYTEA_ARRAY_OID as never, "text") as (text: string) => unknown;

describe("parseByteaArray", () => {
  test.each([
    ["{}"],
    ['{"\\\\x0a0b",NULL,"\\\\x"}'],
    ['{{"\\\\x6368616e6e656c","\\\\x6a736f6e","\\\\x7b7d"},{"\\\\xff",NULL,"\\\\x00"}}'],
    ['{{{"\\\\x01"}},{{"\\\\x02"}}}'],
    // The escape output (bytea_output = escape) and explicit bounds: node-postgres's parser reads them.
    ['{"abc\\\\\\\\000"}'],
    ['[0:0]={"\\\\x01"}'],
  ])("reads %s as node-postgres does", (text) => {
    expect(parseByteaArray(text)).toEqual(defaultParse(text));
  });
});

describe.each(postgresTargets())("bytea arrays through Tempo's pool on $kind Postgres", (target) => {
  let server: TestPostgres;
  let database: Database;

  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  test("are read into the same Buffers without node-postgres's character-by-character parser", async () => {
    const parsers = vi.spyOn(pg.types, "getTypeParser");
    try {
      const result = await database.pool.query<{ blobs: unknown; none: unknown }>(
        `SELECT array[array['\\x0a0b'::bytea, NULL, ''::bytea], array['\\xff'::bytea, 'abc'::bytea, '\\x00'::bytea]] AS blobs,
                ARRAY[]::bytea[] AS none`,
      );
      expect(result.rows[0]).toEqual({
        blobs: [
          [Buffer.from([10, 11]), null, Buffer.alloc(0)],
          [Buffer.from([255]), Buffer.from("abc"), Buffer.from([0])],
        ],
        none: [],
      });
      expect(parsers.mock.calls.filter(([oid]) => Number(oid) === BYTEA_ARRAY_OID)).toEqual([]);
    } finally {
      parsers.mockRestore();
    }
  });
});
