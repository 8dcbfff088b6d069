/**
 * bench/arrange-cost.ts on tiny sizes: it prints a row per window (the sample and each generated length) with its CPU
 * ms, ratios and health scores, the big week's row (finished, no RangeError, how it stopped) and the longest stall.
 */
import { expect, test } from "vitest";
import { costReport } from "../../bench/arrange-cost.js";

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
    /event loop's longest stall while the 14-day window is arranged through runAsync: [\d.]+ ms of CPU between two turns of the loop \([\d.]+× the goal of ≤ 50 ms\), [\d.]+ ms of wall time \([\d.]+×; load average [\d.]+ on \d+ cores\)/,
  );
  expect(text).toMatch(
    /event loop's longest stall while its card's week is listed through runAsync: [\d.]+ ms of CPU between two turns of the loop \([\d.]+× the goal of ≤ 50 ms\)/,
  );
  expect(text).toMatch(/longest step between two pauses of those runs, in CPU time: [\d.]+ ms/);
  expect(text).toMatch(/all goals met|goals missed: /);
});
