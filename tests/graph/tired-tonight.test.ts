/**
 * "I'm too tired tonight, push it to tomorrow", "我今晚太累了，推到明天吧": "it" is that time's reviews, however many.
 * Before, the English moved the review now or next today — the morning's, said at 9am — and, with two reviews
 * tonight, only the first; the Chinese sought a task named "我今晚太累了". The oracle reads the week's own slot times:
 * every review of today that starts at 18:00 or later ends on tomorrow, and no other review moves.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, placeTool, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024 (day 2 of the sample week), at `time` in Shanghai. */
const tuesdayAt = (time: string) => () => new Date(`2024-03-12T${time}:00+08:00`);

/** The half-placed week with two more reviews on Tuesday evening (19:00 and 20:50), each placed by the place tool. */
function tiredTuesdayWeek(chinese: boolean): ScheduleState {
  let week = halfPlacedWeek({ chinese });
  for (const [id, slot] of [
    ["derivative-drills", 9],
    ["binary-tree-review", 11],
  ] as const) {
    const run = placeTool.run(week, { task_id: id, day: 2, slot_start: slot });
    if (!run.ok || !run.state) throw new Error(`could not place ${id}`);
    week = run.state;
  }
  return week;
}

const reviews = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

/** Each review's place after `said` at `time` on Tuesday, with the places the oracle expects. */
async function afterSaying(said: string, time: string) {
  const chinese = /[\u4e00-\u9fff]/.test(said);
  const week = tiredTuesdayWeek(chinese);
  const outcome = await converse(await offlineTempo(week, tuesdayAt(time)), said);
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  const times = week.window.slotTimes!;
  const tonight = (task: TaskItem) =>
    task.slots!.some((range) => range.day === 2 && times[range.start - 1]!.start >= "18:00");
  return { week, outcome, tonight, times };
}

describe("too tired tonight: tonight's reviews, however many, to tomorrow", () => {
  test.each([
    "I'm too tired tonight, push it to tomorrow",
    "too tired tonight, push it to tomorrow",
    "I'm busy tonight, move it to tomorrow",
    "我今晚太累了，推到明天吧",
    "我今天晚上有事，挪到明天",
  ])("%s, at 17:00: both evening reviews end on Wednesday, nothing else moves", async (said) => {
    const { week, outcome, tonight } = await afterSaying(said, "17:00");
    const moved = reviews(week).filter(tonight);
    expect(moved.map((task) => task.id).sort()).toEqual(["binary-tree-review", "derivative-drills"]);
    for (const task of reviews(week)) {
      const now = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
      if (moved.includes(task)) expect(now.slots!.map((range) => range.day)).toEqual([3]);
      else expect(now.slots).toEqual(task.slots);
    }
  });

  test("said at 9am, the morning's review stays: only tonight's move", async () => {
    const { week, outcome } = await afterSaying("I'm too tired tonight, push it to tomorrow", "09:00");
    const matrix = (state: ScheduleState) =>
      (state.tasks.find((task) => task.id === "matrix-review") as TaskItem).slots;
    expect(matrix(outcome.schedule)).toEqual(matrix(week));
  });

  test("a task named before 'it' is still that task", async () => {
    const { week, outcome } = await afterSaying("the matrix review is too much today, push it to tomorrow", "09:00");
    const moved = (outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem).slots;
    expect(moved?.map((range) => range.day)).toEqual([3]);
    for (const task of reviews(week).filter((each) => each.id !== "matrix-review"))
      expect((outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem).slots).toEqual(task.slots);
  });
});
