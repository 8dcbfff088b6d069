/**
 * `formatDate` has one home, tools/schedule/state.ts, beside the window's types (a review finding of issue 45): the
 * calendar module no longer re-exports it, so callers import it from where it is defined.
 */
import { describe, expect, test } from "vitest";
import * as calendar from "../../tools/schedule/calendar.js";
import * as schedule from "../../tools/schedule/index.js";
import { formatDate } from "../../tools/schedule/state.js";

describe("formatDate's home", () => {
  test("state.ts exports it, the package index passes it on, and calendar.ts does not re-export it", () => {
    expect(Object.keys(calendar)).not.toContain("formatDate");
    expect(schedule.formatDate).toBe(formatDate);
  });
});
