/**
 * Reading `langgraph dev`'s saved store (tests/support/dev-store.ts): the server rewrites the file in place, so a read
 * while it saves sees it empty or cut short. Such a read is waited past, never taken for the store nor thrown (the
 * served-configurable test failed now and then with "Unterminated string in JSON" read mid-save).
 */
import { expect, test } from "vitest";
import { savedIdle, savedStoreFile } from "../support/dev-store.js";

test("a store read empty or cut short while the server saves it is read again until it is whole and the thread idle", async () => {
  const whole = JSON.stringify({ json: { threads: { "thread-1": { status: "idle", config: { configurable: {} } } } } });
  const busy = JSON.stringify({ json: { threads: { "thread-1": { status: "busy" } } } });
  const reads = ["", whole.slice(0, whole.indexOf("idle") + 2), busy, busy.slice(0, 20), whole];
  const files: string[] = [];
  const saved = await savedIdle("/tmp/served", "thread-1", async (file) => {
    files.push(file);
    return reads.shift()!;
  });
  expect(saved).toEqual(JSON.parse(whole));
  expect(reads).toEqual([]);
  expect(new Set(files)).toEqual(new Set([savedStoreFile("/tmp/served")]));
});
