/**
 * A long task said to the offline policy (issue 47 items 5 and 8), in English and Chinese, typos tolerated, through
 * the whole graph: "write the essay, 4 hours, before Friday" becomes one card splitting it into sessions within its
 * class's bounds, due before Friday, then one batch card placing all the sessions — a day each, before Friday. A
 * request the policy cannot read is declined with what it can do, the week unchanged.
 */
import { describe, expect, test } from "vitest";
import { canonicalScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { clockIn, hasStarted } from "../../tools/schedule/window-clock.js";
import { converse, halfPlacedWeek, offlineTempo, type ConversationOutcome } from "./support/offline-conversation.js";

const sessionsOf = (outcome: ConversationOutcome) =>
  outcome.schedule.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.group?.kind === "sessions",
  );

describe("a long task, offline", () => {
  test.each([
    ["write the essay, 4 hours, before Friday", "write the essay"],
    ["write the esay, 4 huors, befor firday", "write the esay"],
    ["写论文，4小时，周五前", "写论文"],
    ["写论文，四个小时，星期五之前", "写论文"],
  ])("%s: split into sessions on one card, placed together on one batch card", async (request, name) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) }));
    const outcome = await converse(tempo, request);
    // 4 hours is 6 slots of 45 minutes: 3 sessions of the default 2 slots, in English, due before Friday (day 5).
    expect(outcome.cards[1]).toMatchObject({
      action: "add_task",
      args: { name, class_id: "english", duration: 6, sessions: true, due_before_day: 5 },
    });
    expect(outcome.cardCounts).toEqual([1, 1, 3]);
    expect(outcome.cards.slice(2).map((card) => card.action)).toEqual(["place", "place", "place"]);
    const sessions = sessionsOf(outcome);
    expect(sessions.map((task) => [task.duration, task.status])).toEqual([
      [2, "placed"],
      [2, "placed"],
      [2, "placed"],
    ]);
    const days = sessions.map((task) => task.slots![0]!.day);
    expect(new Set(days).size).toBe(3);
    expect(days.every((day) => day < 5)).toBe(true);
  });

  test("a long task whose class cannot be told is declined with how to say it, the week unchanged", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "build the robot, 4 hours, before Friday");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.said.join("\n")).toMatch(/could not tell which class "build the robot" belongs to/);
    expect(JSON.stringify(canonicalScheduleState(outcome.schedule))).toBe(JSON.stringify(canonicalScheduleState(week)));
  });

  test("a long task said without its length is not read as something else: declined with what the policy can do", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "write the essay before friday");
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.at(-1)).toMatch(/I understand these schedule requests/);
    expect(JSON.stringify(canonicalScheduleState(outcome.schedule))).toBe(JSON.stringify(canonicalScheduleState(week)));
  });

  /** Wednesday of the sample week, 15:00 in Shanghai: the afternoon's first sections and all before are past. */
  const WEDNESDAY_AFTERNOON = new Date("2024-03-13T15:00:00+08:00");

  /**
   * `request` said with the clock on Wednesday afternoon: the outcome, and the sessions placed — each checked to start
   * after now, before `dueDay`, on a day of its own.
   */
  async function saidOnWednesday(request: string, dueDay: number) {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, () => WEDNESDAY_AFTERNOON), request);
    const clock = clockIn(outcome.schedule.window, WEDNESDAY_AFTERNOON);
    const placed = sessionsOf(outcome).filter((task) => task.status === "placed");
    for (const task of placed) {
      const range = task.slots![0]!;
      expect(hasStarted(range.day, range.start, clock), `${task.id} placed in the past`).toBe(false);
      expect(range.day).toBeLessThan(dueDay);
    }
    expect(new Set(placed.map((task) => task.slots![0]!.day)).size).toBe(placed.length);
    return { outcome, sessions: sessionsOf(outcome), placed };
  }

  test.each([
    ["write the essay, 3 hours, before Saturday", "write the essay"],
    ["写论文，3小时，周六前", "写论文"],
  ])(
    "with the clock on Wednesday afternoon, %s: its sessions go after now, before Saturday, a day each",
    async (request, name) => {
      const { outcome, sessions } = await saidOnWednesday(request, 6);
      // 3 hours is 4 slots of 45 minutes: 2 sessions of the default 2 slots, due before Saturday (day 6).
      expect(outcome.cards[1]).toMatchObject({
        action: "add_task",
        args: { name, class_id: "english", duration: 4, sessions: true, due_before_day: 6 },
      });
      expect(sessions.map((task) => [task.duration, task.status])).toEqual([
        [2, "placed"],
        [2, "placed"],
      ]);
    },
  );

  test.each([
    ["write the essay, 4 hours, before Friday", "at risk"],
    ["写论文，4小时，周五前", "有风险"],
  ])(
    "with the clock on Wednesday afternoon, %s: three sessions cannot fit before Friday — told, none in the past",
    async (request, word) => {
      // Three sessions a day each, and only Wednesday evening and Thursday are left before Friday.
      const { outcome, sessions, placed } = await saidOnWednesday(request, 5);
      expect(sessions).toHaveLength(3);
      expect(placed.length).toBeLessThan(3);
      const said = outcome.said.join("\n").toLowerCase();
      expect(said).toContain(word);
      for (const task of sessions.filter((session) => session.status === "pending"))
        expect(said).toContain(task.name.toLowerCase());
    },
  );
});
