/**
 * bench/arrange-cost.ts on tiny sizes: it prints a row per window (the sample and each generated length) with its CPU
 * ms, ratios and health scores, the big week's row (finished, no RangeError, how it stopped) and the longest stall.
 */
import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";
import { costReport, FULL_RUN, mainThreadCpuMs, measureWindows, windowOf } from "../../bench/arrange-cost.js";

test("the cost bench prints a row per window, the big week's row and the event loop's longest stall", async () => {
  const { lines } = await costReport({ runs: 1, days: [7, 14], bigTasks: 300 });
  const text = lines.join("\n");
  for (const name of ["7-day sample", "generated, 7 days", "generated, 14 days"])
    expect(text).toMatch(
      new RegExp(`\\| ${name} \\| \\d+ \\| \\d+ \\| [\\d.]+ \\| [\\d.]+× \\| [\\d.]+ \\| [\\d.]+× \\|`),
    );
  expect(text).toMatch(/\| 7-day sample .*\| ≤ 50 ms \| [\d.]+ → [\d.]+ → [\d.]+ \| (exact|budget)\/(exact|budget) \|/);
  expect(text).toMatch(
    /300 tasks \(7 days × 12 slots, \d+ pending\): finished in \d+ CPU ms, no RangeError; arrangement (ran to its end|stopped at its budget)/,
  );
  expect(text).toMatch(
    /event loop's longest stall while the 14-day window is arranged through runAsync: [\d.]+ ms of (?:the main thread's CPU|CPU \(the whole process's: an upper bound\)) between two turns of the loop \([\d.]+× the goal of ≤ 50 ms\), [\d.]+ ms of wall time \([\d.]+×; load average [\d.]+ on \d+ cores\)/,
  );
  expect(text).toMatch(
    /event loop's longest stall while its card's week is listed through runAsync: [\d.]+ ms of (?:the main thread's CPU|CPU \(the whole process's: an upper bound\)) between two turns of the loop \([\d.]+× the goal of ≤ 50 ms\)/,
  );
  expect(text).toMatch(/longest step between two pauses of those runs, in CPU time: [\d.]+ ms/);
  expect(text).toMatch(/all goals met|goals missed: /);
});

test("the bench measures the steady state: rounds of every window before the counted ones, said in its header", async () => {
  // The full run warms up for more rounds than it counts (a cold median charged V8's compiling to the long windows).
  expect(FULL_RUN.warmup).toBeGreaterThan(FULL_RUN.runs);
  const { lines } = await costReport({ runs: 1, warmup: 2, days: [7], bigTasks: 50 });
  expect(lines[0]).toMatch(/median of 1 rounds of every window in turn, after 2 rounds not counted/);
  // The warm-up rounds run the same work: what the window gives does not change, only how many times it is timed.
  const week = windowOf(7);
  const [cold] = measureWindows([{ name: "cold", week }], 1);
  const [warm] = measureWindows([{ name: "warm", week }], 1, 2);
  expect(warm!.scores).toEqual(cold!.scores);
  expect(warm!.placed).toBe(cold!.placed);
});

test("a counted round times each window as a block of runs, its mean counted: said in the header, same results", async () => {
  // The full run's blocks cover the longest window at least once, and a 7-day window many times.
  expect(FULL_RUN.blockDays).toBeGreaterThanOrEqual(Math.max(...FULL_RUN.days));
  const { lines } = await costReport({ runs: 1, blockDays: 14, days: [7], bigTasks: 50 });
  expect(lines[0]).toMatch(/in a round, each window's mean over a block of runs of about 14 window-days/);
  const week = windowOf(7);
  const [one] = measureWindows([{ name: "one", week }], 1);
  const [block] = measureWindows([{ name: "block", week }], 1, 0, 21);
  expect(block!.scores).toEqual(one!.scores);
  expect(block!.placed).toBe(one!.placed);
});

test("the stall's clock counts the main thread's CPU, not another thread's busy beside it", async () => {
  const clock = mainThreadCpuMs();
  // Linux tells a thread's own CPU time (the bench's machines); elsewhere the process's is the (upper-bound) fallback.
  expect(clock.thread).toBe(process.platform === "linux");
  const before = { main: clock.read(), process: process.cpuUsage() };
  // Another thread busy for 150 ms of its own CPU time (however loaded the machine) while the main one waits, as V8's
  // helper threads run beside the loop.
  const busy = `
    const { readFileSync } = require("node:fs");
    const own = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
    const start = own();
    const end = Date.now() + 10_000;
    while (own() - start < 150 && Date.now() < end) for (let spin = 0; spin < 100_000; spin += 1);
  `;
  const worker = new Worker(clock.thread ? busy : "const end = Date.now() + 150; while (Date.now() < end);", {
    eval: true,
  });
  await new Promise((resolve) => worker.once("exit", resolve));
  const used = process.cpuUsage(before.process);
  const processMs = (used.user + used.system) / 1000;
  const mainMs = clock.read() - before.main;
  if (clock.thread) expect(processMs - mainMs).toBeGreaterThan(140);
  else expect(mainMs).toBeGreaterThanOrEqual(processMs);
});

test("a generated length over several seeds is one row, their mean, with each seed's own ratios printed apart", async () => {
  // The full run measures every length on several seeds: one seed's 7-day week is one instance, not the base.
  expect(FULL_RUN.seeds!.length).toBeGreaterThanOrEqual(8);
  const seeds = [1, 2];
  const { lines } = await costReport({ runs: 1, days: [7, 14], seeds, bigTasks: 50 });
  const text = lines.join("\n");
  expect(lines[0]).toMatch(/a generated length's row is the mean over its windows of seeds 1–2/);
  expect(text).not.toMatch(/seed 1 \|/);
  // The mean row's health scores are the means of each seed's (scores do not depend on the machine).
  const rows = measureWindows(
    seeds.map((seed) => ({ name: `seed ${seed}`, week: windowOf(14, undefined, seed) })),
    1,
  );
  const meanScores = [0, 1, 2].map((at) => (rows[0]!.scores[at]! + rows[1]!.scores[at]!) / 2);
  const row = text.split("\n").find((line) => line.startsWith("| generated, 14 days |"))!;
  expect(row).toContain(`| ${meanScores.map((score) => score.toFixed(1)).join(" → ")} |`);
  expect(text).toMatch(/CPU µs a pending review, arranging \/ listing: 7 days \d+ \/ \d+, 14 days \d+ \/ \d+/);
  expect(text).toMatch(
    /each seed's window against its own 7-day week \(seeds 1–2\), arranging \/ listing: 14 days [\d.]+×(–[\d.]+×)? \/ [\d.]+×(–[\d.]+×)?/,
  );
});
