/**
 * "I missed yesterday's review" when yesterday held no placed review. Before, the kind of session ("review") was matched
 * as a name: an unrelated pending review ("Limits review", never on that day) was said to be unmarkable, or, in
 * Chinese, "which task do you mean?" was asked; and when the week's roll had already marked that day's review missed,
 * the answer never said so. Now the answer says no review was placed that day — or that the day's review is already
 * missed — and nothing is marked.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";
import { pendingReview, termWeekWith } from "../support/calendars.js";

/** Mon 7 – Sun 13 Sep 2026, with the vocabulary list placed on `day` at 19:00 and two reviews pending. */
function weekWithVocabularyOn(day: number, chinese = false): ScheduleState {
  return termWeekWith([
    pendingReview("lim", chinese ? "极限复习" : "Limits review", "calculus", 2),
    pendingReview("mat", chinese ? "矩阵复习" : "Matrix review", "algebra", 2),
    {
      ...pendingReview("voc", chinese ? "单词表" : "Vocabulary list", "english", 1),
      status: "placed",
      slots: [{ day, start: 10, end: 10 }],
    },
  ]);
}

/** The reviews' states by id, the oracle that nothing was marked. */
const statesOf = (week: ScheduleState) =>
  Object.fromEntries(
    week.tasks.flatMap((task) => (task.source === "task_item" ? [[task.id, task.status]] : [])),
  ) as Record<string, string>;

/** Friday 11 Sep, 08:00: Thursday held nothing. Monday 14 Sep, 08:00: the roll made Sunday's review missed. */
const FRIDAY = "2026-09-11T08:00:00+08:00";
const NEXT_MONDAY = "2026-09-14T08:00:00+08:00";

describe("a day's review missed when that day held none", () => {
  test.each([
    ["I missed yesterday's review", false, 3, FRIDAY, "placed", "no review was placed on Thursday"],
    ["我昨天的复习没做", true, 3, FRIDAY, "placed", "周四没有安排过复习"],
    [
      "I missed yesterday's review",
      false,
      7,
      NEXT_MONDAY,
      "missed",
      '"Vocabulary list" is already missed; nothing to mark',
    ],
    ["我昨天的复习没做", true, 7, NEXT_MONDAY, "missed", '"单词表" 已经是已错过状态，不用再记'],
  ] as const)(
    "%s (chinese: %s), the vocabulary list on day %i, at %s: said, nothing marked, no question",
    async (request, chinese, day, now, vocabulary, told) => {
      const tempo = await offlineTempo(weekWithVocabularyOn(day, chinese));
      const outcome = await converse(tempo, request, [], undefined, undefined, { now });
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(statesOf(outcome.schedule)).toEqual({ lim: "pending", mat: "pending", voc: vocabulary });
      expect(outcome.finalAnswer).toContain(told);
      // Never an unrelated review, never "which task?".
      expect(outcome.finalAnswer).not.toMatch(/Limits review|极限复习|matching|匹配/);
    },
  );
});
