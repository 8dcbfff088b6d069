/**
 * The calendar reader's wait for its worker (`waitWhile`, tools/schedule/calendar-reader.ts). The worker stores a
 * value and then notifies, so a notify can reach the reader when the value it announced is already the one waited
 * on: a wake is not a move. Before this, about one file in a hundred on a busy machine was refused as if its rules
 * had not finished expanding.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { threadCpuMs, waitForWorker, waitWhile } from "../../tools/schedule/calendar-reader.js";

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

/**
 * A thread that tells its id in the operating system (`signal[1]`), raises `signal[0]` to 1 as the reader's worker
 * does when ready, and then does `then`: "sleep" (wait 600 ms, using no CPU time, then answer with 2), "spin" (use
 * CPU time until ended) or "hang" (wait until ended, using next to none: a wait without a timeout is not ended).
 */
function readyThread(signal: Int32Array, then: "sleep" | "spin" | "hang"): Worker {
  return new Worker(
    `const { readlinkSync } = require("node:fs");
     const { workerData } = require("node:worker_threads");
     const { signal, then } = workerData;
     Atomics.store(signal, 1, Number(readlinkSync("/proc/thread-self").split("/").pop()));
     Atomics.store(signal, 0, 1);
     Atomics.notify(signal, 0);
     const idle = new Int32Array(new SharedArrayBuffer(4));
     if (then === "sleep") {
       Atomics.wait(idle, 0, 0, 600);
       Atomics.store(signal, 0, 2);
       Atomics.notify(signal, 0);
     } else if (then === "spin") for (;;);
     else for (;;) Atomics.wait(idle, 0, 0, 20);`,
    { eval: true, execArgv: [], workerData: { signal, then } },
  );
}

/** Runs `body` with `then`'s thread once it is ready, and a reading of its CPU time; the thread is ended after. */
async function withThread(
  then: "sleep" | "spin" | "hang",
  body: (signal: Int32Array, cpuMs: () => number | undefined) => void,
): Promise<void> {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = readyThread(signal, then);
  try {
    expect(waitWhile(signal, 0, 600_000)).toBe(true);
    const threadId = Atomics.load(signal, 1);
    body(signal, () => threadCpuMs(threadId));
  } finally {
    await worker.terminate();
  }
}

describe("waitForWorker: the deadline is the worker's own CPU time", () => {
  test("the system tells a thread's CPU time (Linux's /proc)", () =>
    withThread("hang", (_signal, cpuMs) => expect(cpuMs()).toEqual(expect.any(Number))));

  test("time the worker is not running does not count against its deadline", () =>
    // 600 ms asleep, as a worker the machine does not run: a wall-clock deadline of 100 ms refused it.
    withThread("sleep", (signal, cpuMs) => {
      expect(waitForWorker(signal, 1, { deadlineMs: 100, ceilingMs: 600_000 }, cpuMs)).toBe("answered");
      expect(Atomics.load(signal, 0)).toBe(2);
    }));

  test("a worker that spins is ended when it has used its deadline of CPU time", () =>
    withThread("spin", (signal, cpuMs) => {
      const before = cpuMs()!;
      expect(waitForWorker(signal, 1, { deadlineMs: 200, ceilingMs: 600_000 }, cpuMs)).toBe("deadline");
      expect(cpuMs()! - before).toBeGreaterThanOrEqual(200);
    }));

  test("the wall-clock ceiling ends the wait for a worker that is given no time; without a CPU clock, the deadline does", () =>
    withThread("hang", (signal, cpuMs) => {
      expect(waitForWorker(signal, 1, { deadlineMs: 100, ceilingMs: 300 }, cpuMs)).toBe("ceiling");
      expect(waitForWorker(signal, 1, { deadlineMs: 200, ceilingMs: 600_000 }, () => undefined)).toBe("deadline");
      expect(Atomics.load(signal, 0)).toBe(1);
    }));
});
