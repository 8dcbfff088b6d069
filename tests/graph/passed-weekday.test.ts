/**
 * A weekday said alone for a change, once this week's has passed: "schedule the vocabulary list on Monday" on a
 * Saturday. Before, it named this week's Monday and the answer was that its time had passed — no one asks to put a
 * review into the past; the coming Monday is meant. The window does not reach it yet, so that is said with its date,
 * as "in two days" is on a Saturday, and nothing changes. Today's weekday is still today's ("Friday 10:00" on a Friday),
 * "this Monday" still this week's, and a question about a day ("what's on Monday?") still looks at the week shown.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const SATURDAY_NIGHT = () => new Date("2024-03-16T21:00:00+08:00");
const FRIDAY_NOON = () => new Date("2024-03-15T12:00:00+08:00");
const never = { type: "response", args: "never mind" };
const answer = (card: { action: string }) => (card.action === "ask_user" ? never : { type: "accept", args: null });

describe("a weekday already behind today, said for a change", () => {
  test.each([
    ["schedule the vocabulary list on monday", /the coming Monday \(Mon 18 Mar\) is not on it yet/],
    ["move the matrix review to friday 10:00", /this week's Friday has passed, and the coming Friday \(Fri 22 Mar\)/],
    ["move the matrix review midweek", /the coming Wednesday \(Wed 20 Mar\) and Thursday \(Thu 21 Mar\) are not on it/],
    ["把单词表安排在周一", /本周的周一已经过去，下一个周一（3月18日周一）还不在日程里/],
  ])(
    "%s, said on Saturday night: the coming one, not in the week shown yet — asked, nothing changes",
    async (request, said) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, SATURDAY_NIGHT), request, answer);
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(outcome.said.some((text) => said.test(text))).toBe(true);
      expect(outcome.schedule).toEqual(week);
    },
  );

  test("Sunday, said on Saturday, is still ahead: the review goes there", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), SATURDAY_NIGHT),
      "schedule the binary tree review on sunday",
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    const list = outcome.schedule.tasks.find((task) => task.id === "binary-tree-review") as TaskItem;
    expect(list.slots!.map((range) => range.day)).toEqual([7]);
  });

  test("today's weekday is today: Friday 10:00 said at Friday noon has passed, never next Friday", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, FRIDAY_NOON), "move the essay to friday 10:00", answer);
    expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
    expect(outcome.finalAnswer).toMatch(/has passed/);
    expect(outcome.schedule).toEqual(week);
  });

  test("a question about a passed weekday still looks at this week's", async () => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek(), SATURDAY_NIGHT), "what's on monday?", answer);
    expect(outcome.cards.map((card) => card.action)).toEqual([]);
    expect(outcome.finalAnswer).toMatch(/Mon 11 Mar|Monday, Mar 11/);
  });
});
