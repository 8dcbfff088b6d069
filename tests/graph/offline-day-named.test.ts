/**
 * A review named by its day — "move Thursday's review to Friday", "push tomorrow's review back a day", "把周四的复习移到
 * 周五", "明天的复习推迟一天" — is the review placed that day: moved when it is the only one, asked about when the day
 * holds several, and "none is placed" said when it holds none. Before, each asked which task "thursday's review"
 * was, listing every placed task. Through the whole graph; now is Wednesday 13 March 2024, 09:00 in Shanghai, on the
 * half-placed sample week (the vocabulary list on Thursday 08:00, the essay draft on Saturday 08:00). Words that name
 * only the kind of session ("the review", "my reviews", "复习") ask which placed review is meant.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const WEDNESDAY_MORNING = () => new Date("2024-03-13T01:00:00Z");
const chinese = (text: string) => /[\u3400-\u9fff]/.test(text);

/** `week` with the essay draft on Thursday 16:00 too: Thursday then holds two reviews. */
function twoOnThursday(week: ScheduleState): ScheduleState {
  const tasks = week.tasks.map((task) =>
    task.id === "essay-draft" ? { ...task, slots: [{ day: 4, start: 7, end: 8 }] } : task,
  );
  return { ...week, tasks };
}

describe("a review named by its day", () => {
  test.each([
    ["move thursday's review to friday", "day 5 slots"],
    ["push tomorrow's review back a day", "day 5 slots"],
    ["move tomorrow's review to saturday", "day 6 slots"],
    ["把周四的复习移到周五", "day 5 slots"],
    ["明天的复习推迟一天", "day 5 slots"],
  ])("%s: the one review placed that day moves", async (request, to) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: chinese(request) }), WEDNESDAY_MORNING);
    const outcome = await converse(tempo, request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]!.args).toMatchObject({ task_id: "vocabulary-list" });
    expect(placeOf(outcome.schedule, "vocabulary-list")).toMatch(new RegExp(`^${to}`));
  });

  test("a day from today is named by its weekday in the plan, so the step reads the same on any later day", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), WEDNESDAY_MORNING);
    const outcome = await converse(tempo, "push tomorrow's review back a day");
    expect(outcome.planSteps).toEqual(['Move "thursday\'s review" 1 day later']);
  });

  test("a day holding several reviews: which one is asked, and the answer moves that one", async () => {
    const tempo = await offlineTempo(twoOnThursday(halfPlacedWeek()), WEDNESDAY_MORNING);
    const outcome = await converse(tempo, "move thursday's review to friday", [
      { type: "accept", args: null },
      { type: "response", args: "the essay" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "move"]);
    expect(outcome.said).toContainEqual(
      expect.stringMatching(
        /^Thursday holds 2 reviews: Vocabulary list unit 5 \(vocabulary-list\), Draft the English essay \(essay-draft\)\. Which one/,
      ),
    );
    expect(outcome.cards[2]!.args).toMatchObject({ task_id: "essay-draft", day: 5 });
    expect(placeOf(outcome.schedule, "vocabulary-list")).toBe("day 4 slots 1-1");
  });

  test.each([
    ["move friday's review to saturday", /^Your schedule is unchanged: no review is placed on Friday\.$/],
    ["把周五的复习移到周六", /^日程没有改动：周五没有安排复习。$/],
  ])("%s: a day with none placed says so, and nothing moves", async (request, answer) => {
    const week = halfPlacedWeek({ chinese: chinese(request) });
    const tempo = await offlineTempo(week, WEDNESDAY_MORNING);
    const outcome = await converse(tempo, request);
    // Nothing to approve: no plan card (one was raised for nothing before).
    expect(outcome.cards.map((card) => card.action)).toEqual([]);
    expect(outcome.finalAnswer).toMatch(answer);
    expect(outcome.schedule).toEqual(week);
  });

  test("a task named with its day is still that task; a day that is where it goes stays the target", () => {
    expect(parseScheduleRequest("push tomorrow's review back a day")).toMatchObject({
      kind: "move",
      task: "tomorrow's review",
      shift: { days: 1 },
    });
    expect(parseScheduleRequest("push the matrix review back to friday")).toMatchObject({
      kind: "move",
      task: "matrix review",
      where: { only: { weekdays: [5] } },
    });
  });

  test.each([
    [
      "move the review to friday",
      /^You have 2 reviews placed: Vocabulary list unit 5 \(vocabulary-list\), Draft the English essay \(essay-draft\)\. Which one/,
    ],
    // ("push all my reviews back a day" asked which too: it now moves every review still ahead, shift-all.test.ts.)
    [
      "把复习移到周五",
      /^你有 2 个已安排的复习：第五单元单词表 \(vocabulary-list\)、英语作文草稿 \(essay-draft\)。你指的是哪一个？/,
    ],
  ])(
    "%s: the kind of session names no review — which one still ahead is asked, never the first named so",
    async (request, asked) => {
      // Before, each moved (or tried to move) "Review limits and continuity": its name begins with "Review". The two
      // placed on Monday and Tuesday have started by Wednesday 09:00 and stay where they are: they are not offered.
      const tempo = await offlineTempo(halfPlacedWeek({ chinese: chinese(request) }), WEDNESDAY_MORNING);
      const outcome = await converse(tempo, request, [
        { type: "accept", args: null },
        { type: "response", args: chinese(request) ? "英语作文" : "the essay" },
      ]);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "move"]);
      expect(outcome.said).toContainEqual(expect.stringMatching(asked));
      expect(outcome.cards[2]!.args).toMatchObject({ task_id: "essay-draft" });
      expect(placeOf(outcome.schedule, "review-limits")).toBe("day 1 slots 5-6");
    },
  );

  test("one review still ahead: 'the review' is that one, moved without a question", async () => {
    // Friday 21:00: of the placed reviews only Saturday morning's essay has not started.
    const tempo = await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-15T13:00:00Z"));
    const outcome = await converse(tempo, "move the review to sunday");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]!.args).toMatchObject({ task_id: "essay-draft", day: 7 });
    expect(placeOf(outcome.schedule, "essay-draft")).toMatch(/^day 7 /);
  });
});
