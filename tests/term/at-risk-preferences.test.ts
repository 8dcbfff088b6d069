/**
 * At risk because of a standing preference: late on Friday before the Saturday midterm, the one free time left before
 * it is Saturday 08:00–09:40, and "never in the morning" (or "never on Saturday") keeps it out. The notice said "no free
 * time before its deadline holds" the drills, and "free time before the deadline, or move the deadline" — untrue
 * (there is free time; the preference rules it out) and without the one thing that helps. It now says the free time
 * the preferences allow, names the preference whose lifting makes room, and offers lifting it. Checked against the
 * week apart from the search: the drills on Saturday 08:00 apply without the preference and are refused with it.
 */
import { describe, expect, test } from "vitest";
import { atRiskOf, atRiskText } from "../../tools/schedule/at-risk.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import type { ScheduleState, StandingRule } from "../../tools/schedule/state.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";

/** Friday 15 March 2024, 23:00 in Asia/Shanghai. */
const FRIDAY_NIGHT = "2024-03-15T15:00:00.000Z";

/** The sample week late on Friday with the essay draft on Sunday: Saturday 08:00–09:40 is free, and just enough. */
function tightWeek(standing: StandingRule[]): ScheduleState {
  const week = { ...halfPlacedWeek(), now: FRIDAY_NIGHT };
  return {
    ...applyWrites(week, [{ name: "move", arguments: { task_id: "essay-draft", day: 7, slot_start: 9 } }])!,
    standing,
  };
}

const NO_MORNINGS: StandingRule = {
  id: "pref-1",
  kind: "avoid_part_of_day",
  value: "morning",
  text: "never in the morning",
};
const NO_SATURDAYS: StandingRule = { id: "pref-2", kind: "avoid_day", value: 6, text: "never on Saturday" };
const NO_WEDNESDAYS: StandingRule = { id: "pref-3", kind: "avoid_day", value: 3, text: "never on Wednesday" };

/** The drills on Saturday at 08:00 (found by the week's clock times), as one write on `week`: applied, or refused. */
function drillsAtSaturdayEight(week: ScheduleState): boolean {
  const slot = week.window.slotTimes!.findIndex((time) => time.start === "08:00") + 1;
  expect(week.window.days[5]!.date).toBe("2024-03-16");
  return (
    applyWrites(week, [{ name: "place", arguments: { task_id: "derivative-drills", day: 6, slot_start: slot } }]) !==
    undefined
  );
}

describe("at risk because a standing preference keeps the free time out", () => {
  test("the free time is there: the drills fit on Saturday 08:00 without the preference, not with it", () => {
    expect(drillsAtSaturdayEight(tightWeek([]))).toBe(true);
    expect(drillsAtSaturdayEight(tightWeek([NO_MORNINGS]))).toBe(false);
    expect(drillsAtSaturdayEight(tightWeek([NO_SATURDAYS, NO_WEDNESDAYS]))).toBe(false);
    expect(atRiskOf(tightWeek([])).atRisk).toEqual([]);
  });

  test("'never in the morning': the notice says the free time it allows, names it, and offers lifting it", () => {
    const report = atRiskOf(tightWeek([NO_MORNINGS]));
    expect(report.atRisk.map((task) => task.id)).toEqual(["derivative-drills"]);
    expect(report.preferences).toEqual({ rules: ['"never in the morning"'], freed: 1 });
    expect(atRiskText(report, "en")).toBe(
      "At risk (proved, with the reviews already placed where they are): no free time before its deadline that your " +
        "standing preferences allow holds Derivative practice set (due before Calculus midterm exam (Sat 16 Mar)). " +
        'Without your standing preference "never in the morning", free time before its deadline holds it (/prefs lists ' +
        "your preferences, /forget removes one). Moving every review not yet started recovers none of it (proved): " +
        "free time before the deadline, lift the preference, or move the deadline.",
    );
    expect(atRiskText(report, "zh")).toBe(
      "有风险（已证明，已安排的复习都在原位）：截止前已没有你的长期偏好允许的空闲时间放得下 Derivative practice set" +
        "（Calculus midterm exam (Sat 16 Mar)之前）。如果没有你的长期偏好“never in the morning”，截止前有空闲时间放得下它" +
        "（/prefs 查看偏好，/forget 删除一条）。即使挪动所有还没开始的复习也补不回来（已证明）：请腾出截止前的时间、取消这条偏好，或调整截止日期。",
    );
  });

  test("of two preferences, only the one whose lifting makes room is named", () => {
    const report = atRiskOf(tightWeek([NO_SATURDAYS, NO_WEDNESDAYS]));
    expect(report.preferences).toEqual({ rules: ['"never on Saturday"'], freed: 1 });
    expect(atRiskText(report, "en")).toContain('Without your standing preference "never on Saturday", free time');
    expect(atRiskText(report, "en")).not.toContain("never on Wednesday");
  });

  test("a preference that keeps nothing out is not blamed: the words are as without one", () => {
    // The essay takes Saturday morning: the drills are at risk whatever the user prefers.
    const taken = (standing: StandingRule[]) =>
      applyWrites(tightWeek(standing), [
        { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
      ])!;
    const bare = atRiskOf(taken([]));
    const withWednesday = atRiskOf(taken([NO_WEDNESDAYS]));
    expect(withWednesday.atRisk.map((task) => task.id)).toEqual(["derivative-drills"]);
    expect(withWednesday.preferences).toBeUndefined();
    expect(atRiskText(withWednesday, "en")).toBe(atRiskText(bare, "en"));
    expect(atRiskText(withWednesday, "en")).toContain("no free time before its deadline holds Derivative practice set");
  });
});
