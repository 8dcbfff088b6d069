/**
 * "I'm busy Thursday morning, move my reviews", "move Thursday's reviews to another day", "把周四的所有复习挪到别的天":
 * every review of a day (or of a part of it) still ahead moves off it, on one card. Before, the words read as a move of
 * one review named "reviews", which asked which review of the whole week was meant (never the Thursday one), and
 * "把周四上午的复习都挪走" was not understood. The stored week is the oracle: each review of that day (part) still ahead
 * is off it after, every other review is where it was, and the week's invariants hold. The clock moves evening by
 * evening through the week for "I'm busy tomorrow".
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import {
  converse,
  halfPlacedWeek,
  offlineTempo,
  oneBatchOnHalfPlacedWeek,
  placeOf,
} from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Thursday's vocabulary review (08:00, slot 1) is still ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

const reviews = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

/** Each placed review's place, by id, but `except`. */
function othersOf(week: ScheduleState, except: string): Record<string, string> {
  return Object.fromEntries(
    reviews(week)
      .filter((task) => task.id !== except)
      .map((task) => [task.id, placeOf(week, task.id)]),
  );
}

describe("every review of a day moved off it", () => {
  test.each([
    [
      "I'm busy Thursday morning, move my reviews",
      "part",
      "Move all of Thursday morning's reviews out of Thursday morning",
    ],
    ["move my reviews off Thursday morning", "part", "Move all of Thursday morning's reviews out of Thursday morning"],
    ["move Thursday's reviews to another day", "day", "Move all of Thursday's reviews to another day"],
    ["move all my reviews off Thursday", "day", "Move all of Thursday's reviews to another day"],
    ["I'm busy tomorrow, move my reviews", "day", "Move all of Thursday's reviews to another day"],
    // Sick or away is a day to leave too (before, one review named "reviews" moved to the first free time: today's).
    ["I'm sick tomorrow, move my reviews", "day", "Move all of Thursday's reviews to another day"],
    ["I'm travelling tomorrow, can you move everything", "day", "Move all of Thursday's reviews to another day"],
    ["明天我不舒服，把复习都挪走", "day", "把周四的所有复习挪到别的天"],
    // The day said first, with a comma, of a clause that leaves it: it is the day to leave, never where they go.
    ["Thursday, I'm busy, move my reviews", "day", "Move all of Thursday's reviews to another day"],
    ["周四上午我有事，把复习都挪走", "part", "把周四上午的所有复习挪出周四上午"],
    ["把周四的所有复习挪到别的天", "day", "把周四的所有复习挪到别的天"],
    ["把明天的复习都挪走", "day", "把周四的所有复习挪到别的天"],
    // The day said to be kept free, and "things" / "stuff" for every review.
    [
      "I need Thursday morning free, move my reviews",
      "part",
      "Move all of Thursday morning's reviews out of Thursday morning",
    ],
    [
      "Thursday morning doesn't work for me anymore, move things",
      "part",
      "Move all of Thursday morning's reviews out of Thursday morning",
    ],
    ["move my stuff off Thursday", "day", "Move all of Thursday's reviews to another day"],
    // "from Thursday" with nowhere named read Thursday as where they went.
    ["move my reviews from Thursday", "day", "Move all of Thursday's reviews to another day"],
    ["我需要周四上午空着，把复习都挪走", "part", "把周四上午的所有复习挪出周四上午"],
  ])("%s: the Thursday review moves off it (%s), the others stay", async (request, away, step) => {
    const { week, outcome } = await oneBatchOnHalfPlacedWeek(request, WEDNESDAY, step);
    const landed = /^day (\d+) slots (\d+)-/.exec(placeOf(outcome.schedule, "vocabulary-list"));
    expect(landed).not.toBeNull();
    const [day, start] = [Number(landed![1]), Number(landed![2])];
    // Thursday is day 4; its morning is slots 1-4 of 12.
    if (away === "day") expect(day).not.toBe(4);
    else expect(day !== 4 || start > 4).toBe(true);
    expect(othersOf(outcome.schedule, "vocabulary-list")).toEqual(othersOf(week, "vocabulary-list"));
  });

  test("declined on the card, every review stays where it was", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), WEDNESDAY),
      "move Thursday's reviews to another day",
      [
        { type: "accept", args: null },
        { type: "response", args: "no, leave them" },
      ],
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
    expect(outcome.schedule).toEqual(halfPlacedWeek());
    expect(outcome.finalAnswer).toContain("you kept the reviews where they are");
  });

  test("a day with no review still ahead moves nothing, and says so", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), WEDNESDAY),
      "move Friday's reviews to another day",
    );
    // Nothing to approve: no plan card (one was raised for nothing before).
    expect(outcome.cards.map((card) => card.action)).toEqual([]);
    expect(outcome.schedule).toEqual(halfPlacedWeek());
    expect(outcome.finalAnswer).toMatch(/no review still ahead to move/);
  });

  // Each evening of the sample week at 21:00: tomorrow's reviews (none after the schedule's last day) leave tomorrow;
  // the rest of the week stays as it was.
  test.each([10, 11, 12, 13, 14, 15, 16, 17])(
    "'I'm busy tomorrow, move my reviews' on 2024-03-%i at 21:00",
    async (date) => {
      const week = halfPlacedWeek();
      const evening = () => new Date(`2024-03-${date}T21:00:00+08:00`);
      const outcome = await converse(await offlineTempo(week, evening), "I'm busy tomorrow, move my reviews");
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      const tomorrow = week.window.days.find(
        (day) => day.date === new Date(Date.UTC(2024, 2, date + 1)).toISOString().slice(0, 10),
      )?.dayIndex;
      const leaving = reviews(week).filter((task) => task.slots![0]!.day === tomorrow);
      for (const task of reviews(week)) {
        const now = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
        if (leaving.includes(task)) expect(now.slots?.[0]?.day, task.id).not.toBe(tomorrow);
        else expect(now.slots, task.id).toEqual(task.slots);
      }
      // A day with no review placed has nothing to approve: no card; one whose weekday the window holds only in the
      // past (tomorrow is after the window) still plans, and moves nothing.
      const placedThere = reviews(week).some(
        (task) => week.window.days[task.slots![0]!.day - 1]!.dayOfWeek === ((date + 1 - 11 + 70) % 7) + 1,
      );
      expect(outcome.cards.map((card) => card.action)).toEqual(
        leaving.length > 0 ? ["confirm_plan", "batch_move"] : placedThere ? ["confirm_plan"] : [],
      );
    },
  );

  // "off" read as "later" ("put it off"): "move my reviews off today" pushed one review named "reviews" later.
  test("'move my reviews off today' at 07:00 on Thursday: today's reviews leave it", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, () => new Date("2024-03-14T07:00:00+08:00")),
      "move my reviews off today",
    );
    expect(outcome.planSteps).toEqual(["Move all of Thursday's reviews to another day"]);
    expect(placeOf(outcome.schedule, "vocabulary-list")).not.toMatch(/^day 4 /);
    expect(othersOf(outcome.schedule, "vocabulary-list")).toEqual(othersOf(week, "vocabulary-list"));
  });

  // A weekday said short read as a task's name: "move my reviews off thu and onto fri" asked which task "reviews off
  // thu and" was (a question card, withdrawn) and moved nothing.
  test.each([
    "move my reviews off thu and onto fri",
    "move my reviews off thu to fri",
    "move my reviews off thurs onto fri",
    // "Tomorrow" after "my reviews" beside a shift: before, every review of the week went a day later.
    "push all my reviews tomorrow back a day",
    // The day ruled out before, the day to go to after: before, it asked which review "reviews" was.
    "I'm busy Thursday, move my reviews to Friday",
  ])(
    "'%s' at 10:00 on Wednesday: Thursday's review goes to Friday, as 'move Thursday's reviews to Friday' sends it",
    async (request) => {
      const said = await oneBatchOnHalfPlacedWeek(request, WEDNESDAY, "Push all of Thursday's reviews 1 day later");
      const working = await oneBatchOnHalfPlacedWeek(
        "move Thursday's reviews to Friday",
        WEDNESDAY,
        "Push all of Thursday's reviews 1 day later",
      );
      expect(placeOf(said.outcome.schedule, "vocabulary-list")).toMatch(/^day 5 /);
      expect(said.outcome.schedule).toEqual(working.outcome.schedule);
      expect(othersOf(said.outcome.schedule, "vocabulary-list")).toEqual(othersOf(said.week, "vocabulary-list"));
    },
  );

  // The day's reviews said after "my reviews": read as that day's, to the day named (they read as a move of one review
  // named "reviews from thursday", or of "reviews off" to the weekend — the days they were to leave).
  test.each([
    ["move all my reviews from Monday to Tuesday", "move Monday's reviews to Tuesday"],
    ["move everything on Monday to Tuesday", "move Monday's reviews to Tuesday"],
    ["move my reviews off Thursday afternoon to Friday", "move Thursday afternoon's reviews to Friday"],
    ["move everything from today to tomorrow", "move today's reviews to tomorrow"],
    // The day said after "my reviews" with no word before it, or before "reviews" with no "'s", beside a shift.
    // Before, "push all my reviews tonight back an hour" and "… today back a day" shifted every review of the week,
    // and "push all my reviews today to tomorrow" asked which task "reviews today" was.
    ["push all my reviews today to tomorrow", "move today's reviews to tomorrow"],
    ["push everything today to tomorrow", "move today's reviews to tomorrow"],
    ["push all my reviews tonight back an hour", "push tonight's reviews back an hour"],
    ["push all my reviews today back a day", "push today's reviews back a day"],
    ["push everything tomorrow back a day", "push tomorrow's reviews back a day"],
    ["push all my reviews on friday back an hour", "push friday's reviews back an hour"],
    ["push my friday reviews back an hour", "push friday's reviews back an hour"],
    ["push my reviews on thursday and friday back a day", "push thursday's and friday's reviews back a day"],
    // A day ruled out before every review, a day to go to after it: that day's reviews, to that day. Before, a review
    // named "everything" or "reviews" was sought.
    ["I'm sick today, push everything to tomorrow", "move today's reviews to tomorrow"],
    ["I'm busy Thursday, move my reviews to Friday", "move Thursday's reviews to Friday"],
    ["I'm busy Thursday morning, move my reviews to Friday", "move Thursday morning's reviews to Friday"],
    ["I'm busy Thursday, move my reviews to Friday evening", "move Thursday's reviews to Friday evening"],
    ["我今天生病了，把复习都挪到明天", "把今天的复习都挪到明天"],
    // A day and its part ruled out in Chinese ("我周四上午有事") read as "Thursday, not the morning", what it means after
    // a move's verb; and "今天所有的复习" was a task's name.
    ["我周四上午有事，把复习都挪到周五", "I'm busy Thursday morning, move my reviews to Friday"],
    ["我周四上午有事，把复习都挪走", "I'm busy Thursday morning, move my reviews"],
    ["把今天所有的复习推迟一小时", "把今天的所有复习推迟一小时"],
    // A day said alone where the task goes is that day's reviews. Before, a task named "today" (or "tuesday back a
    // day", "of", "今天的") was sought, and "push my reviews on thursday and friday" stayed one list of days.
    ["push today back a day", "push today's reviews back a day"],
    ["push all of today back a day", "push today's reviews back a day"],
    ["push tuesday back a day", "push tuesday's reviews back a day"],
    ["push all of tuesday back a day", "push tuesday's reviews back a day"],
    ["push thursday and friday back a day", "push thursday's and friday's reviews back a day"],
    ["push tonight back an hour", "push tonight's reviews back an hour"],
    ["move today to tomorrow", "move today's reviews to tomorrow"],
    ["move all of today to tomorrow", "move today's reviews to tomorrow"],
    ["move tuesday to wednesday", "move tuesday's reviews to wednesday"],
    ["把今天挪到明天", "把今天的复习都挪到明天"],
    ["把今天的都挪到明天", "把今天的复习都挪到明天"],
    ["把今天全部挪到明天", "把今天的复习都挪到明天"],
    ["把今天往后推一天", "把今天的所有复习往后推一天"],
    // The task said in its own clause, with no 把: as with 把.
    ["我今天不舒服，复习都改到明天", "我今天不舒服，把复习都改到明天"],
    ["我今天生病了，复习都挪到明天", "我今天生病了，把复习都挪到明天"],
    ["周六我有事，作文挪到周五", "周六我有事，把作文挪到周五"],
    ["周五我有事，那就作文挪到周四", "周五我有事，那就把作文挪到周四"],
    ["周五有考试，所以作文挪到周四", "周五有考试，所以把作文挪到周四"],
    // An ailment said first is why, as "I'm sick" is (each was not understood).
    ["I have a headache, cancel today", "I'm sick, cancel today"],
    ["i've got a bad migraine, skip everything", "I'm sick, skip everything"],
    ["我头疼，今天的复习都跳过", "我不舒服，今天的复习都跳过"],
    // Tonight ruled out is the evening, as Thursday evening is (it was the whole day).
    ["move my reviews off tonight", "把复习都挪出今晚"],
    ["move my reviews off this evening", "move my reviews off tonight"],
    // Studying itself ruled out is every review of that time (a task "study", or "不了", was sought).
    ["I can't study tonight", "move my reviews off tonight"],
    ["I can't do any studying tomorrow", "move my reviews off tomorrow"],
    ["我今晚学不了", "把复习都挪出今晚"],
    ["我周四下午没法学习", "把复习都挪出周四下午"],
    // The way it goes, said before a verb that names the day, is no part of the task's name ("作文往后" was sought).
    ["把作文往后推到周五", "把作文推到周五"],
    ["把作文往前挪到周三", "把作文挪到周三"],
    // Free time said first, then a placing with no 把, is a reason, not the question (it answered the free time and
    // placed nothing); "一个复习" is one review (a count), not a task of that name.
    ["明天早上有空，帮我安排一个复习", "帮我明天早上安排1个复习"],
    ["我明天早上有空，安排一下复习", "帮我明天早上安排复习"],
    ["帮我明天早上安排一个复习", "明天早上帮我安排一个复习任务"],
    // The amount said before what it moves ("a day" was sought as a task), or with nothing after it.
    ["push back a day today", "push today back a day"],
    ["push back 2 days all of tuesday", "push all of tuesday back 2 days"],
    ["push back an hour the essay", "push the essay back an hour"],
    ["push back a day", "push it back a day"],
    // "not" left after the day it rules out is no task's name.
    ["arrange the essay, not tonight", "arrange the essay except tonight"],
    ["arrange the essay but not tomorrow", "arrange the essay except tomorrow"],
  ])("%s reads as %s", (request, same) => {
    expect(parseScheduleRequest(request)).toEqual(parseScheduleRequest(same));
  });

  test.each([
    ["move the essay off the weekend", { task: "essay", where: { not: { weekdays: [6, 7] } } }],
    ["move the essay from Thursday to Friday", { task: "essay", where: { only: { weekdays: [5] } } }],
    ["push the essay off till Friday", { task: "essay", where: { only: { weekdays: [5] } } }],
    // A day said from today that 挪出 names was dropped (only weekdays and day numbers were kept).
    ["把作文挪出明天", { task: "作文", where: { not: { dates: [{ kind: "offset", days: 1 }] } } }],
  ])("%s: the days it leaves are not where it goes", (request, expected) => {
    const read = parseScheduleRequest(request);
    expect(read.kind).toBe("move");
    if ("task" in expected) expect(read).toMatchObject(expected);
    else expect((read as Extract<typeof read, { kind: "move" }>).where).toMatchObject(expected);
  });

  test.each([
    // One review, or a move that names a place: as before.
    ["move the essay off Saturday", "move"],
    ["move my reviews to another day", "move"],
    ["move Thursday's reviews to Friday", "shift_all"],
    ["把作文挪走", "move"],
    // Made free with no word of moving: taken off, as "free up Thursday morning" is.
    ["把周四上午空出来", "clear_day"],
    ["free up Thursday morning", "clear_day"],
    // Said not to be done: nothing.
    ["don't move my reviews off Thursday", "unknown"],
    ["不要把周四的复习都挪走", "unknown"],
  ])("%s reads as %s", (request, kind) => {
    const read = parseScheduleRequest(request);
    expect(read.kind).toBe(kind);
    expect(read).not.toHaveProperty("away");
  });
});
