/**
 * "Only in the evening" on a day grid that has no evening (a school day of eight sections, 08:00–17:40): the part of
 * the day has no slot, so the hard preference leaves no place — a place is refused naming the preference, and the
 * search proposes none — as "never before 23:00" leaves none on the same grid. It never falls back to the grid's last
 * third (16:00–17:40, the afternoon): a review placed there would break the rule the student set.
 */
import { describe, expect, test } from "vitest";
import { DEFAULT_SLOT_TIMES, datedWindow } from "../../tools/schedule/calendar.js";
import { partsOf, slotsOfPart } from "../../tools/schedule/rules.js";
import type { ScheduleState, StandingRule } from "../../tools/schedule/state.js";
import { runTool } from "./support.js";

const DAYTIME = DEFAULT_SLOT_TIMES.slice(0, 8);
const ONLY_EVENING: StandingRule = {
  id: "pref-evening",
  kind: "only_part_of_day",
  value: "evening",
  text: "only in the evening",
};

function daytimeWeek(standing: StandingRule[]): ScheduleState {
  return {
    window: datedWindow({ firstDate: "2026-12-07", days: 7, timeZone: "Asia/Shanghai", slotTimes: DAYTIME }),
    categories: [{ id: "calculus", name: "Calculus" }],
    tasks: [
      {
        id: "limits",
        name: "Limits review",
        source: "task_item",
        duration: 1,
        categoryId: "calculus",
        status: "pending",
      },
    ],
    standing,
  };
}

describe("a part of the day the grid does not have", () => {
  test("covers no slot; the parts that are there keep their slots", () => {
    const window = daytimeWeek([]).window;
    const evening = slotsOfPart("evening", window);
    expect(evening.from).toBeGreaterThan(evening.to);
    expect(slotsOfPart("morning", window)).toEqual({ from: 1, to: 4 });
    expect(slotsOfPart("afternoon", window)).toEqual({ from: 5, to: 8 });
    expect(partsOf({ day: 1, start: 7, end: 8 }, window)).toEqual(["afternoon"]);
  });

  test("'only in the evening' places nothing there: the place is refused and nothing is proposed", () => {
    const week = daytimeWeek([ONLY_EVENING]);
    const placed = runTool("place", week, { task_id: "limits", day: 2, slot_start: 8 });
    expect(placed.ok).toBe(false);
    expect(placed.content).toContain('your standing preference "only in the evening" leaves no slot of the day');
    const listing = runTool("propose_arrangement", week, {});
    const writes = JSON.stringify(listing.data ?? {});
    expect(writes).not.toContain('"slot_start"');
    // Without the preference the same place is free.
    expect(runTool("place", daytimeWeek([]), { task_id: "limits", day: 2, slot_start: 8 }).ok).toBe(true);
  });
});
