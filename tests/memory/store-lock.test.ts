/**
 * A run sees its store through LangGraph's wrapper (an `AsyncBatchedStore` a run): a preference said in a message,
 * and /forget, still take the lock of the graph's store (`withStoreLock` reads the store under the wrapper), so two
 * server workers on one database wait for each other (tests/memory/preference-lock.test.ts). A store without a lock
 * (InMemoryStore) runs the change as it is.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import type { LockingStore } from "../../memory/store-lock.js";
import { converse, halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";

/** An in-memory store that records the locks it is asked for. */
class RecordingStore extends InMemoryStore implements LockingStore {
  readonly held: string[] = [];

  async exclusive<T>(key: string, fn: () => Promise<T>, holding: string): Promise<T> {
    expect(holding).toBe("while it changes the same user's standing preferences");
    this.held.push(key);
    return fn();
  }
}

test("a preference said and one forgotten through the graph each hold the lock of the graph's store", async () => {
  const store = new RecordingStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  await converse(tempo, "never on Monday", [], "t-lock", "lock:user");
  expect(store.held).toEqual(["tempo:preferences:lock:user"]);
  expect((await loadPreferences(store, "lock:user")).map((entry) => entry.text)).toEqual(["never on Monday"]);
  await converse(tempo, "/prefs", [], "t-lock", "lock:user");
  expect((await converse(tempo, "/forget 1", [], "t-lock", "lock:user")).said.at(-1)).toBe(
    'Removed: "never on Monday". The next task no longer keeps to it.',
  );
  expect(store.held).toEqual(["tempo:preferences:lock:user", "tempo:preferences:lock:user"]);
  expect(await loadPreferences(store, "lock:user")).toEqual([]);
});
