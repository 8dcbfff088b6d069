/**
 * A follow-up that names only another day or time — "what about next week?", "and Tuesday?", "下周呢", "明天呢" — is
 * the question before it asked again of those days (it was "I can't tell what to do"). A week the schedule does not
 * hold yet is said, with its dates, and asked about; "下周有什么安排" and "what's on next week?" are questions about
 * days too (they were an arrangement plan and an explanation of a task named "on next week").
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest, readFollowUp } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Monday 11 March 2024, 09:00 in Shanghai: the sample week is this week, so next week is not on the schedule. */
const MONDAY = { now: new Date("2024-03-11T09:00:00+08:00").toISOString() };

/** Two messages on one thread; a question card answered with `answer`, any other card accepted. */
async function followUp(first: string, then: string, options: { chinese?: boolean; answer?: string } = {}) {
  const tempo = await offlineTempo(halfPlacedWeek({ chinese: options.chinese }));
  const thread = `follow-up-${Math.random().toString(36).slice(2)}`;
  const answer = (card: { action: string }) =>
    card.action === "ask_user" ? { type: "response", args: options.answer ?? "算了" } : { type: "accept", args: null };
  await converse(tempo, first, answer, thread, "student", MONDAY);
  const outcome = await converse(tempo, then, answer, thread, "student", MONDAY);
  return { outcome, before: halfPlacedWeek({ chinese: options.chinese }) };
}

describe("a follow-up of a question about days", () => {
  test.each([
    ["when am I free on Monday afternoon?", "and Tuesday?", false, /Tue 12 Mar/],
    ["what's on today?", "what about tomorrow?", false, /Tue 12 Mar/],
    ["今天有什么安排", "明天呢", true, /3月12日周二/],
  ] as const)("%s, then %s: the same question of that day, no card", async (first, then, chinese, said) => {
    const { outcome, before } = await followUp(first, then, { chinese });
    expect(outcome.cards).toEqual([]);
    expect(outcome.finalAnswer ?? "").toMatch(said);
    expect(outcome.finalAnswer ?? "").not.toMatch(/can't tell|理解不了/);
    expect(outcome.schedule).toEqual(before);
  });

  test.each([
    ["what's on today?", "what about next week?", false, /"next week" \(Mon 18 Mar to Sun 24 Mar\) is not on it yet/],
    ["今天有什么安排", "下周呢", true, /“下周”（3月18日周一 到 3月24日周日）还不在日程里/],
  ] as const)(
    "%s, then %s: next week is not on the schedule yet, said and asked",
    async (first, then, chinese, said) => {
      const { outcome, before } = await followUp(first, then, { chinese, answer: chinese ? "周五" : "Friday" });
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(outcome.said.join("\n")).toMatch(said);
      // The answer's day completes the question: Friday's contents, the week unchanged.
      expect(outcome.finalAnswer ?? "").toMatch(chinese ? /3月15日周五/ : /Fri 15 Mar/);
      expect(outcome.schedule).toEqual(before);
    },
  );

  test.each([["what's on next week?"], ["下周有什么安排"], ["when am I free next week?"]])(
    "%s: a question about next week, never a plan or a task named after it",
    async (message) => {
      const tempo = await offlineTempo(halfPlacedWeek());
      const outcome = await converse(
        tempo,
        message,
        () => ({ type: "response", args: "算了" }),
        undefined,
        "student",
        MONDAY,
      );
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(outcome.said.join("\n")).toMatch(/is not on it yet|还不在日程里/);
      expect(outcome.planSteps).toEqual([]);
    },
  );

  test("only days and times follow a question up; a week named is its days", () => {
    const today = parseScheduleRequest("what's on today?");
    expect(readFollowUp("what about the essay?", today)).toBeUndefined();
    expect(readFollowUp("and Friday evening?", today)).toMatchObject({
      kind: "day",
      where: { only: { weekdays: [5] }, slots: { part: "evening" } },
    });
    expect(readFollowUp("and Friday?", parseScheduleRequest("move the essay to Thursday"))).toBeUndefined();
    expect(parseScheduleRequest("这周有什么安排")).toMatchObject({
      kind: "day",
      where: { only: { dates: [{ kind: "week", weeks: 0 }] } },
    });
    // An arrangement's "next week" is the schedule's window, as before.
    expect(parseScheduleRequest("arrange my reviews for next week")).toMatchObject({
      kind: "arrange",
      where: { only: { weekdays: [], days: [] } },
    });
  });
});
