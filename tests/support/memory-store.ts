/**
 * The memory store the product runs on (`createMemoryStore`: LangGraph's PostgresStore) on a fresh server of `target`,
 * for the `describe` block it is called in: started before its tests, stopped after them.
 */
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database } from "../../database/pool.js";
import { createMemoryStore, type MemoryStore } from "../../memory/store.js";
import type { PostgresTarget, TestPostgres } from "./postgres.js";

export function useMemoryStore(target: PostgresTarget): { readonly store: MemoryStore } {
  let server: TestPostgres | undefined;
  let database: Database | undefined;
  let store: MemoryStore | undefined;
  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
    store = await createMemoryStore(database);
  });
  afterAll(async () => {
    await store?.stop();
    await database?.close();
    await server?.stop();
  });
  return {
    get store(): MemoryStore {
      if (!store) throw new Error("useMemoryStore: the store is read before its server started");
      return store;
    },
  };
}
