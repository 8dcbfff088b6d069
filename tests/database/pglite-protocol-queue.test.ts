/** Regression: concurrent parameterised queries over the embedded server's pool never interleave. */
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type Database } from "../../database/index.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "tempo-queue-"));
  database = await openDatabase({ dataDir, poolSize: 10 });
});

afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("200 concurrent parameterised queries from 10 pool connections all succeed with their own results", async () => {
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, index) =>
      database.pool.query<{ value: number; label: string }>("SELECT $1::int * 2 AS value, $2::text AS label", [
        index,
        `q${index}`,
      ]),
    ),
  );
  expect(results.map((result) => result.rows[0])).toEqual(
    Array.from({ length: 200 }, (_, index) => ({ value: index * 2, label: `q${index}` })),
  );
});

test("transactions of different connections stay isolated while others query", async () => {
  await database.pool.query("CREATE TABLE IF NOT EXISTS queue_test (id int primary key, note text)");
  const transaction = async (id: number) => {
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO queue_test (id, note) VALUES ($1, $2)", [id, `note ${id}`]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  };
  await Promise.all([
    ...Array.from({ length: 20 }, (_, index) => transaction(index)),
    ...Array.from({ length: 20 }, (_, index) => database.pool.query("SELECT $1::int", [index])),
  ]);
  const count = await database.pool.query<{ count: string }>("SELECT count(*) FROM queue_test");
  expect(Number(count.rows[0]?.count)).toBe(20);
});
