/**
 * Days as students correct and guard them: "move the essay to Thursday, no wait, Friday", "把作文挪到周四，不对，周五",
 * "keep Thursday morning free", "move my reviews off Thursday and onto Friday". Before, the first moved the essay to
 * Thursday (the day taken back) and ruled out Friday; the Chinese allowed either day; "keep Thursday morning free" only
 * answered when Thursday morning was free, leaving the review there; "… and onto Friday" asked for a task named
 * "onto". The stored week is the oracle: each review ends where it was said to go, every other is where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Thursday's vocabulary list and Saturday's essay are still ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

/** The week after `request`, every card accepted, with the review tasks as they were. */
async function after(request: string) {
  const week = halfPlacedWeek({ chinese: isChinese(request) });
  const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  const reviews = week.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const now = (id: string) => outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
  return { outcome, reviews, now };
}

describe("a day taken back, a day kept free, a day left for another", () => {
  test.each([
    ["move the essay to Thursday, no wait, Friday", "essay-draft", 5],
    ["move the essay to Thursday, I mean Friday", "essay-draft", 5],
    ["把作文挪到周四，不对，周五", "essay-draft", 5],
    ["move the essay off Saturday and onto Friday", "essay-draft", 5],
    ["move my reviews off Thursday and onto Friday", "vocabulary-list", 5],
  ])("%s: %s ends on day %i, every other review stays", async (request, moved, day) => {
    const { outcome, reviews, now } = await after(request);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(now(moved)).toMatchObject({ status: "placed" });
    expect(now(moved).slots!.map((slot) => slot.day)).toEqual(now(moved).slots!.map(() => day));
    for (const task of reviews.filter((each) => each.id !== moved))
      expect({ id: task.id, status: now(task.id).status, slots: now(task.id).slots }).toEqual({
        id: task.id,
        status: task.status,
        slots: task.slots,
      });
  });

  test.each([
    "keep Thursday morning free",
    "周四上午我要空着",
    "keep Thursday free",
    // A reason said beside it: before, read as a question of free time, "not on Friday", and nothing moved.
    "I have an exam on Friday, keep Thursday morning free",
    "keep Thursday free, I'm seeing a friend",
    "因为周五考试，周四上午我要空着",
  ])("%s: Thursday's review leaves it (or its morning), every other review stays", async (request) => {
    const { outcome, reviews, now } = await after(request);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    const vocabulary = now("vocabulary-list");
    expect(vocabulary.status).toBe("placed");
    // Thursday is day 4; its morning is the first third of the day's 12 slots (the review was in slot 1).
    const wholeDay = !/morning|上午/.test(request);
    for (const range of vocabulary.slots!)
      expect(range.day !== 4 || (!wholeDay && range.start > 4), `${JSON.stringify(range)}`).toBe(true);
    for (const task of reviews.filter((each) => each.id !== "vocabulary-list"))
      expect({ id: task.id, slots: now(task.id).slots }).toEqual({ id: task.id, slots: task.slots });
  });
});

describe("a part of the day kept free that holds no review", () => {
  // Thursday's one review is in its morning: its evening holds none. Before, a plan card was raised to approve, then
  // said nothing was there to move.
  test.each(["keep Thursday evening free", "周四晚上我要空着", "I have an exam on Friday, keep Thursday evening free"])(
    "%s: no card, nothing moves, and the answer says there is no review to move",
    async (request) => {
      const week = halfPlacedWeek({ chinese: isChinese(request) });
      const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
      expect(outcome.cards).toEqual([]);
      expect(outcome.schedule).toEqual(week);
      expect(outcome.finalAnswer).toMatch(/no review still ahead to move|没有还没开始的复习可以移动/);
    },
  );
});
