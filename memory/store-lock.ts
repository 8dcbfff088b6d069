/**
 * A lock held across every process that shares a store's database, for a read of the store followed by writes that
 * depend on it (a change of one user's standing preferences). The store Tempo runs on (`MemoryStore`, LangGraph's
 * PostgresStore) takes a Postgres advisory lock; a store with no such lock (InMemoryStore: one process; the LangGraph
 * server's own store, which Tempo cannot reach the database of) runs the work as it is, and the caller's in-process
 * queue is all that holds it apart.
 */
import type { BaseStore } from "@langchain/langgraph";

/** A store that can run work holding a lock its every process sees. */
export interface LockingStore {
  /** Runs `fn` holding the lock `key` (one key a resource: "tempo:preferences:<user>"); `holding` says what for. */
  exclusive<T>(key: string, fn: () => Promise<T>, holding: string): Promise<T>;
}

/**
 * The store a run's store stands for: LangGraph hands each run an `AsyncBatchedStore` over the graph's store (its
 * `store` field, as LangGraph's own `extractStore` reads it), and the lock is the graph's store's.
 */
function underlying(store: BaseStore): BaseStore {
  const wrapper = store as BaseStore & { lg_name?: unknown; store?: unknown };
  return wrapper.lg_name === "AsyncBatchedStore" && wrapper.store ? (wrapper.store as BaseStore) : store;
}

/** Runs `fn` holding `store`'s lock `key` when its store has one; else runs it as it is. */
export function withStoreLock<T>(store: BaseStore, key: string, fn: () => Promise<T>, holding: string): Promise<T> {
  const inner = underlying(store) as BaseStore & Partial<LockingStore>;
  return typeof inner.exclusive === "function" ? inner.exclusive(key, fn, holding) : fn();
}
