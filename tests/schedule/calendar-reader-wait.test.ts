/**
 * The calendar reader's wait for its worker (`waitWhile`, tools/schedule/calendar-reader.ts). The worker stores a
 * value and then notifies, so a notify can reach the reader when the value it announced is already the one waited
 * on: a wake is not a move. Before this, about one file in a hundred on a busy machine was refused as if its rules
 * had not finished expanding.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { waitWhile } from "../../tools/schedule/calendar-reader.js";

/**
 * A thread that wakes the waiter on `signal[0]` `wakes` times without changing the value, then stores 2 and notifies
 * (or, with `wakes` < 0, only wakes it until told to stop in `signal[1]`).
 */
function noisyWaker(signal: Int32Array, wakes: number): Worker {
  return new Worker(
    `const { workerData } = require("node:worker_threads");
     const { signal, wakes } = workerData;
     let woken = 0;
     while (wakes < 0 ? Atomics.load(signal, 1) === 0 : woken < wakes) woken += Atomics.notify(signal, 0);
     if (wakes >= 0) { Atomics.store(signal, 0, 2); Atomics.notify(signal, 0); }`,
    { eval: true, workerData: { signal, wakes } },
  );
}

describe("waitWhile", () => {
  test("wakes that leave the value as it was are not taken as the worker's answer", async () => {
    const signal = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(signal, 0, 1);
    const worker = noisyWaker(signal, 3);
    try {
      expect(waitWhile(signal, 1, 600_000)).toBe(true);
      expect(Atomics.load(signal, 0)).toBe(2);
    } finally {
      await worker.terminate();
    }
  });

  test("a value that never moves ends the wait with false at the deadline, wakes or not", async () => {
    const signal = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(signal, 0, 1);
    const worker = noisyWaker(signal, -1);
    try {
      expect(waitWhile(signal, 1, 200)).toBe(false);
      expect(Atomics.load(signal, 0)).toBe(1);
    } finally {
      Atomics.store(signal, 1, 1);
      await worker.terminate();
    }
  });

  test("a value already moved is seen without waiting", () => {
    const signal = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(signal, 0, 2);
    expect(waitWhile(signal, 1, 0)).toBe(true);
    expect(waitWhile(signal, 2, 0)).toBe(false);
  });
});
