/**
 * find_free and the standing preferences' hours. A search for any day left out only the days a preference rules out
 * whole ("never on Monday"); a day whose hours a preference leaves no slot of ("nothing after 8am", "no studying before
 * 22:00", or the same said of Fridays) was listed with its free time and nothing said, and a day whose free time reaches
 * past the hours kept ("nothing after 9pm") said nothing of them either. Now such a day is left out with the preference
 * named, a day asked for by name is shown with the preference's note, and a day's free time past the hours kept is
 * noted with the slots a review may take — as text (read back by the strict double's reader and said in Chinese) and as
 * data. The expected slots are counted from the sample week's own clock times, not from Tempo's code.
 */
import { describe, expect, test } from "vitest";
import { parseToolData } from "../../offline/schedule/result-parsing.js";
import { summaryInChinese } from "../../offline/schedule/replies.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import type { StandingRule } from "../../tools/schedule/state.js";
import { findFreeTool, type FindFreeData } from "../../tools/schedule/tools/find-free.js";

const FRIDAY = 5;

/** The sample week holding `standing`. */
function weekWith(...standing: StandingRule[]): ScheduleState {
  return { ...sampleWeek(), standing };
}

const rule = (fields: { kind: StandingRule["kind"]; value: number; text: string; days?: number[] }): StandingRule =>
  ({ id: `pref-${fields.kind}`, ...fields }) as StandingRule;

/** find_free on `week`, its text, its data, and its data as read back from the text. */
function search(week: ScheduleState, args: Record<string, unknown> = {}) {
  const result = findFreeTool.run(week, findFreeTool.schema.parse({ limit: 100, ...args }));
  if (!result.ok) return { failed: result.content };
  return {
    content: result.content,
    data: result.data as FindFreeData,
    read: parseToolData("find_free", result.content),
  };
}

/** The sample week's slot times, read off the week itself. */
const TIMES = sampleWeek().window.slotTimes!;
/** The last slot (1-based) ending by `hour` o'clock, and the first starting at or after it, counted from the times. */
const lastEndingBy = (hour: number) =>
  TIMES.map((time, index) =>
    Number(time.end.slice(0, 2)) * 60 + Number(time.end.slice(3)) <= hour * 60 ? index + 1 : 0,
  ).reduce((last, slot) => Math.max(last, slot), 0);
const firstStartingFrom = (hour: number) => TIMES.findIndex((time) => Number(time.start.slice(0, 2)) >= hour) + 1;

describe("find_free: a day the preferences' hours leave no slot of", () => {
  test("searched for any day, Friday under 'nothing after 8am on Fridays' is left out, the preference named", () => {
    const said = "nothing after 8am on Fridays";
    const found = search(weekWith(rule({ kind: "not_after_hour", value: 8, days: [FRIDAY], text: said })));
    expect(found.failed).toBeUndefined();
    // Without the preference, Friday has free time.
    expect(search(sampleWeek()).data!.runs.some((run) => run.day === FRIDAY)).toBe(true);
    expect(found.data!.runs.map((run) => run.day)).not.toContain(FRIDAY);
    expect(found.data!.runs.length).toBeGreaterThan(0);
    expect(found.data!.standingLeftOut).toEqual([FRIDAY]);
    expect(found.data!.standingHours).toEqual([{ days: [FRIDAY], rules: [JSON.stringify(said)], leftOut: true }]);
    expect(found.content).toContain(` (days 5 left out: your standing preference "${said}" leaves them no slot)`);
    expect(summaryInChinese(found.content!)).toContain(
      `（已略过第 5 天：你的长期偏好 "${said}" 让这些天没有可用的时段）`,
    );
    // The strict double's reader takes the same data from the text.
    expect(found.read).toEqual(found.data);
  });

  test.each([
    ["nothing after 8am", { kind: "not_after_hour", value: 8 }],
    ["no studying before 22:00", { kind: "not_before_hour", value: 22 }],
  ] as const)("'%s' on every day: the search finds no day, and says which preference", (said, kind) => {
    // (The sample week's clock: no slot ends by 08:00, none starts at 22:00 or later.)
    expect([lastEndingBy(8), firstStartingFrom(22)]).toEqual([0, 0]);
    const found = search(weekWith(rule({ ...kind, text: said })));
    expect(found.failed).toContain("your standing preferences rule out every day of the window");
    expect(found.failed).toContain(`your standing preference "${said}" leaves them no slot`);
  });

  test("asked for Friday by name, its free time is shown, with the preference that leaves reviews none of it", () => {
    const said = "nothing after 8am on Fridays";
    const week = weekWith(rule({ kind: "not_after_hour", value: 8, days: [FRIDAY], text: said }));
    const found = search(week, { days: [FRIDAY] });
    const plain = search(sampleWeek(), { days: [FRIDAY] });
    expect(found.data!.runs).toEqual(plain.data!.runs);
    expect(found.data!.standingLeftOut).toBeUndefined();
    expect(found.data!.standingHours).toEqual([{ days: [FRIDAY], rules: [JSON.stringify(said)] }]);
    expect(found.content).toContain(` (days 5: your standing preference "${said}" leaves reviews no slot)`);
    expect(found.read).toEqual(found.data);
  });

  test("a preference in words with brackets and quotes is read back from the text whole", () => {
    const said = 'nothing after 8am on Fridays (my "sports" day)';
    const found = search(weekWith(rule({ kind: "not_after_hour", value: 8, days: [FRIDAY], text: said })));
    expect(found.data!.standingHours![0]!.rules).toEqual([JSON.stringify(said)]);
    expect(found.read).toEqual(found.data);
  });
});

describe("find_free: free time past the hours the preferences keep", () => {
  test("'nothing after 9pm': Friday's evening reaches past it, so the slots a review may take are noted", () => {
    const said = "no studying after 9pm";
    const found = search(weekWith(rule({ kind: "not_after_hour", value: 21, text: said })), { days: [FRIDAY] });
    const last = lastEndingBy(21);
    expect(last).toBeGreaterThan(0);
    expect(found.data!.runs.some((run) => run.end > last)).toBe(true);
    expect(found.data!.standingHours).toEqual([
      { days: [FRIDAY], rules: [JSON.stringify(said)], slots: { from: 1, to: last } },
    ]);
    expect(found.content).toContain(
      ` (days 5: your standing preference "${said}" allows reviews in slots 1-${last} only)`,
    );
    expect(summaryInChinese(found.content!)).toContain(
      `（第 5 天：你的长期偏好 "${said}" 只允许复习安排在第1-${last}节）`,
    );
    expect(found.read).toEqual(found.data);
  });

  test("'no studying before 10': only the days with free time before 10:00 are noted", () => {
    const said = "no studying before 10";
    const from = firstStartingFrom(10);
    const early = [
      ...new Set(
        search(sampleWeek())
          .data!.runs.filter((run) => run.start < from)
          .map((run) => run.day),
      ),
    ];
    expect(early.length).toBeGreaterThan(0);
    expect(early.length).toBeLessThan(7);
    const found = search(weekWith(rule({ kind: "not_before_hour", value: 10, text: said })));
    expect(found.data!.standingLeftOut).toBeUndefined();
    expect(found.data!.standingHours).toEqual([
      { days: early, rules: [JSON.stringify(said)], slots: { from, to: TIMES.length } },
    ]);
    expect(found.read).toEqual(found.data);
  });
});
