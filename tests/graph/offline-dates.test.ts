/**
 * The offline policy reads calendar days: dates ("the 14th", "14 March", "3月14日"), weekdays of this or next week
 * ("this Friday", "下周一") and relative days ("tomorrow", "明天", "后天"; "yesterday", "前天") resolve to the window's days through its
 * dates and the prompt's "now"; a day outside the window gets a clear answer naming the window's first and last
 * dates, and no plan. Driven through the whole graph; now is Wednesday 13 March 2024, 10:00 in Asia/Shanghai.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { generateSchedule, type ScheduleState } from "../../tools/schedule/index.js";
import { interruptsOf, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const WEDNESDAY = () => new Date("2024-03-13T02:00:00Z");

/**
 * `week` with the matrix review on Sunday 14:00 instead of Tuesday: on Wednesday, Tuesday's review is in the past and
 * the past is fixed (issue 47), so the review moved to a named day is one still ahead.
 */
function matrixOnSunday(week: ScheduleState): ScheduleState {
  const tasks = week.tasks.map((task) =>
    task.id === "matrix-review" ? { ...task, slots: [{ day: 7, start: 5, end: 6 }] } : task,
  );
  return { ...week, tasks };
}

describe("calendar days resolve to the window", () => {
  test.each([
    ["Move my matrix review to tomorrow", 4],
    ["move the matrix review to the 14th", 4],
    ["Move my matrix review to 14 March", 4],
    ["move matrix review to this Friday", 5],
    ["move matrix review to the day after tomorrow", 5],
    ["把矩阵运算复习移到明天", 4],
    ["把矩阵运算复习移到3月14日", 4],
    ["把矩阵运算复习移到后天", 5],
    ["把矩阵运算复习移到这周六", 6],
  ])("%s → day %i", async (request, day) => {
    const tempo = await offlineTempo(
      matrixOnSunday(halfPlacedWeek({ chinese: /[\u3400-\u9fff]/.test(request) })),
      WEDNESDAY,
    );
    const outcome = await converse(tempo, request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]!.args).toMatchObject({ task_id: "matrix-review", day });
    expect(placeOf(outcome.schedule, "matrix-review")).toMatch(new RegExp(`^day ${day} slots`));
  });

  test("a scoped arrange on a date plans for that day only", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), WEDNESDAY);
    const outcome = await converse(tempo, "arrange the linked list exercises on Friday 15 March");
    expect(outcome.planSteps[0]).toBe(
      'Place the pending review tasks "linked list exercises" into free slots that fit them, on Friday, Mar 15',
    );
    expect(placeOf(outcome.schedule, "linked-list-exercises")).toMatch(/^day 5 slots/);
  });
});

describe("a part of today", () => {
  test.each([
    ["move the matrix review to this evening", 9],
    ["move the matrix review to tonight", 9],
    ["把矩阵运算复习移到今晚", 9],
  ])("%s: today's evening, not another day's", async (request, slot) => {
    const tempo = await offlineTempo(
      matrixOnSunday(halfPlacedWeek({ chinese: /[\u3400-\u9fff]/.test(request) })),
      WEDNESDAY,
    );
    const outcome = await converse(tempo, request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]!.args).toMatchObject({ task_id: "matrix-review", day: 3 });
    expect(placeOf(outcome.schedule, "matrix-review")).toMatch(new RegExp(`^day 3 slots ${slot}-`));
  });

  test("this morning, once it has passed, moves nothing to another day's morning", async () => {
    // Wednesday 14:30: the morning is over.
    const tempo = await offlineTempo(matrixOnSunday(halfPlacedWeek()), () => new Date("2024-03-13T06:30:00Z"));
    const outcome = await converse(tempo, "move the matrix review to this morning");
    expect(outcome.planSteps[0]).toMatch(/Wednesday, Mar 13, in the morning/);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 7 slots 5-6");
    expect(outcome.finalAnswer).toMatch(/the time that has passed there is left out/);
  });
});

describe("a day outside the window", () => {
  async function ask(request: string, week = halfPlacedWeek()) {
    const tempo = await offlineTempo(week, WEDNESDAY);
    const result = await tempo.graph.invoke(
      { messages: [new HumanMessage(request)] },
      threadConfig(`outside-${Math.random()}`, "student"),
    );
    const card = interruptsOf(result)[0]?.value as { action_requests: Array<{ name: string; description?: string }> };
    return { result, request: card.action_requests[0]!, schedule: await tempo.repository.load("student") };
  }

  test("is answered with the window's first and last dates, and nothing is planned or changed", async () => {
    const { result, request, schedule } = await ask("move the matrix review to next Monday");
    expect(request.name).not.toBe("confirm_plan");
    expect(request.description).toBe(
      'Your schedule covers Mon 11 Mar to Sun 17 Mar (2024-03-11 to 2024-03-17, day 1 to day 7); "next monday" is not in it, so I have planned nothing. Which day of it do you mean? Answer with a date ("Mon 11 Mar"), a weekday ("Friday") or a day number ("day 5").',
    );
    expect(result.planSteps).toEqual([]);
    expect(schedule).toEqual(halfPlacedWeek());
    const twentieth = await ask("arrange the essay draft on the 20th");
    expect(twentieth.request.description).toMatch(
      /^Your schedule covers Mon 11 Mar to Sun 17 Mar .*"the 20th" is not in it/,
    );
  });

  test("in Chinese, and for a window without dates", async () => {
    const chinese = await ask("把矩阵运算复习移到下周一", halfPlacedWeek({ chinese: true }));
    expect(chinese.request.description).toMatch(
      /^你的日程覆盖 3月11日周一 到 3月17日周日（2024-03-11 至 2024-03-17，第1天到第7天）；"下周一" 不在其中，所以我没有做任何计划。/,
    );
    const undated = await ask("move task-1 to tomorrow", generateSchedule({ days: 7, taskCount: 12, seed: 3 }));
    expect(undated.request.description).toMatch(
      /^Your schedule's days have no dates, so I can't tell which day "tomorrow" is \(it covers 7 days: day 1 to day 7\)/,
    );
  });
});

describe("a day said from today past the window's last day", () => {
  // Each evening of the sample week: "tomorrow" is on the schedule until its last evening, when it is next week's
  // Monday — not on it yet, and said so with its date (it asked only which day of the window was meant).
  test.each([11, 12, 13, 14, 15, 16, 17])("'what do I have tomorrow?' on 2024-03-%i at 21:00", async (date) => {
    const evening = () => new Date(`2024-03-${date}T21:00:00+08:00`);
    const tempo = await offlineTempo(halfPlacedWeek(), evening);
    const outcome = await converse(tempo, "what do I have tomorrow?", [{ type: "response", args: "never mind" }]);
    const tomorrow = new Date(Date.UTC(2024, 2, date + 1)).toISOString().slice(0, 10);
    if (tomorrow <= "2024-03-17") {
      expect(outcome.cards).toEqual([]);
      expect(outcome.finalAnswer).not.toContain("not on it");
    } else {
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(outcome.said[0]).toBe(
        'Your schedule covers Mon 11 Mar to Sun 17 Mar; "tomorrow" (Mon 18 Mar) is not on it yet: the schedule moves on to the next week by itself once Sun 17 Mar is over, so I have planned nothing — ask me again then. Or which day of your schedule do you mean? Answer with a weekday ("Friday") or "today".',
      );
    }
    expect(outcome.schedule).toEqual(halfPlacedWeek());
  });

  test("in Chinese", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), () => new Date("2024-03-17T21:00:00+08:00"));
    const outcome = await converse(tempo, "明天有什么安排", [{ type: "response", args: "算了" }]);
    expect(outcome.said[0]).toMatch(/^你的日程覆盖 3月11日周一 到 3月17日周日；“明天”（3月18日周一）还不在日程里/);
  });
});

describe("a move to next week", () => {
  // "Push the essay to next week" dropped "next week" and moved the essay within this week.
  test.each(["push the essay draft to next week", "把英语作文草稿挪到下周"])(
    "%s, said midweek: next week is not on the schedule yet, said so, and nothing moves",
    async (request) => {
      const chinese = /[\u4e00-\u9fff]/.test(request);
      const tempo = await offlineTempo(halfPlacedWeek({ chinese }), WEDNESDAY);
      const outcome = await converse(tempo, request, [{ type: "response", args: chinese ? "算了" : "never mind" }]);
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(outcome.said[0]).toMatch(chinese ? /还不在日程里/ : /is not on it yet/);
      expect(outcome.schedule).toEqual(halfPlacedWeek({ chinese }));
    },
  );

  // "Friday next week" dropped the week: the essay moved to this week's Friday.
  test.each([
    "move the essay draft to Friday next week",
    "move the essay draft to Friday of next week",
    "move the essay draft to next week on Friday",
    "move the essay draft to next week's Friday",
    "把英语作文草稿挪到下周的周五",
    "把英语作文草稿挪到下个星期的星期五",
  ])("%s, said midweek: that Friday is not on the schedule yet, and nothing moves", async (request) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }), WEDNESDAY);
    const outcome = await converse(tempo, request, [{ type: "response", args: chinese ? "算了" : "never mind" }]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    expect(outcome.said[0]).toMatch(
      chinese
        ? /^你的日程覆盖 3月11日周一 到 3月17日周日.*不在其中/
        : /^Your schedule covers Mon 11 Mar to Sun 17 Mar .*is not in it/,
    );
    expect(outcome.schedule).toEqual(halfPlacedWeek({ chinese }));
  });

  test.each([
    ["move the matrix review to Friday this week", 5],
    ["move the matrix review to Friday next week", 5],
  ])("%s, said on the eve of the week: next week's Friday is the schedule's day %i", async (request, day) => {
    const sunday = () => new Date("2024-03-10T20:00:00+08:00");
    const tempo = await offlineTempo(matrixOnSunday(halfPlacedWeek()), sunday);
    const thisWeek = /this week/.test(request);
    const outcome = await converse(tempo, request, thisWeek ? [{ type: "response", args: "never mind" }] : undefined);
    if (thisWeek) {
      // On Sunday 10 March, this week's Friday was the 8th: outside the schedule.
      expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
      expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 7 slots 5-6");
    } else {
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(placeOf(outcome.schedule, "matrix-review")).toMatch(new RegExp(`^day ${day} slots`));
    }
  });

  test("said on the eve of the week, next week is the schedule's week: the essay, already in it, stays", async () => {
    // Before, a move to every day of the week was a move to its first: "push" took the essay from Saturday back to
    // Monday, earlier than it was. It is already in next week, where it was asked to go: said, and nothing moves.
    const tempo = await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-10T20:00:00+08:00"));
    const outcome = await converse(tempo, "push the essay draft to next week");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/is already on Sat 16 Mar/);
    expect(outcome.schedule).toEqual(halfPlacedWeek());
  });
});

describe("an arrangement that names the week", () => {
  // "Arrange the linked list exercises next week" found no task named "linked list exercises next week" and placed
  // nothing. An arrangement's week is the schedule's window (said on its eve, next week is it).
  test.each([
    "arrange the linked list exercises next week",
    "安排下周的链表习题",
    "schedule the linked list exercises this week",
  ])("%s, said on the schedule's eve: the exercises are placed", async (request) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(placeOf(outcome.schedule, "linked-list-exercises")).toMatch(/^day \d slots/);
  });
});

describe("a day already gone", () => {
  test.each([
    ["move the essay draft to yesterday", /Tuesday, Mar 12/, /the time that has passed there is left out/],
    [
      "move the essay draft to the day before yesterday",
      /Monday, Mar 11/,
      /the time that has passed there is left out/,
    ],
    ["把英语作文草稿移到昨天", /3月12日周二/, /已经过去的时间/],
    ["把英语作文草稿移到前天", /3月11日周一/, /已经过去的时间/],
  ])("%s: planned for that day, and nothing moves into the past", async (request, day, why) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: /[\u3400-\u9fff]/.test(request) }), WEDNESDAY);
    const outcome = await converse(tempo, request);
    expect(outcome.planSteps[0]).toMatch(day);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(placeOf(outcome.schedule, "essay-draft")).toBe("day 6 slots 1-2");
    expect(outcome.finalAnswer).toMatch(why);
  });

  test("yesterday before the window's first day is outside it, as any other day", async () => {
    const monday = () => new Date("2024-03-11T02:00:00Z");
    const tempo = await offlineTempo(halfPlacedWeek(), monday);
    const outcome = await converse(tempo, "move the essay draft to yesterday", [
      { type: "response", args: "never mind" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    expect(outcome.said[0]).toMatch(/^Your schedule covers Mon 11 Mar to Sun 17 Mar .*"yesterday" is not in it/);
    expect(placeOf(outcome.schedule, "essay-draft")).toBe("day 6 slots 1-2");
  });

  test("a review done yesterday is still marked done, not read as a move", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), WEDNESDAY);
    const outcome = await converse(tempo, "I did the essay draft yesterday");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "mark_done"]);
  });
});
