/**
 * A review named by its time — "skip my 10am review", "skip the review at 8", "跳过10点的复习", "move my 2pm review to
 * Sunday" — said as the clock moves through the week. Before, each asked which task "10am review" was.
 *
 * The oracle reads the fixture's data, the week's own dates and slot times and the clock alone (no reading, planning or
 * clock code of the graph): the review meant is today's placed review that starts at that time, else the first after
 * now that does. It alone changes, and every other review stays where it was; with none, nothing changes and the
 * question says no review starts then.
 */
import { describe, expect, test } from "vitest";
import { placeTool, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The review `time` ("HH:MM") names at `now` ("YYYY-MM-DD HH:MM" in the week's zone), by the week's own data. */
function meantByOracle(week: ScheduleState, time: string, now: string): TaskItem | undefined {
  const dateOf = (day: number) => week.window.days[day - 1]!.date!;
  const starting = week.tasks
    .filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed")
    .map((task) => ({
      task,
      date: dateOf(task.slots![0]!.day),
      start: week.window.slotTimes![task.slots![0]!.start - 1]!.start,
    }))
    .filter((each) => each.start === time);
  const today = starting.find((each) => each.date === now.slice(0, 10));
  const ahead = starting
    .filter((each) => `${each.date} ${each.start}` > now)
    .sort((a, b) => a.date.localeCompare(b.date));
  return (today ?? ahead[0])?.task;
}

/** How the time is said, in turn: each form meets each time of the sweep. */
const FORMS: Array<(time: string) => string> = [
  (time) => {
    const [hours, minutes] = [Number(time.slice(0, 2)), time.slice(3)];
    return `skip my ${hours % 12 || 12}${minutes === "00" ? "" : `:${minutes}`}${hours < 12 ? "am" : "pm"} review`;
  },
  (time) => `跳过${Number(time.slice(0, 2))}点${time.endsWith(":00") ? "" : `${Number(time.slice(3))}分`}的复习`,
  (time) => `move my ${time} review to Sunday`,
];

const TIMES = ["08:00", "10:00", "14:00", "19:00", "21:45"];
const MOMENTS = [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
  ["09:00", "20:00"].map((at) => `2024-03-${String(10 + day).padStart(2, "0")} ${at}`),
);

const WEEKS = { "half-placed": () => halfPlacedWeek(), "crowded Monday": crowdedMondayWeek };

/** Every form of `forms` in turn over each week, time and moment of the sweep. */
function casesOf(forms: ReadonlyArray<(time: string) => string>) {
  return Object.keys(WEEKS).flatMap((name) =>
    TIMES.flatMap((time, timeIndex) =>
      MOMENTS.map(
        (moment, momentIndex) => [forms[(timeIndex + momentIndex) % forms.length]!(time), name, moment, time] as const,
      ),
    ),
  );
}

/** `say` on week `name` at `moment`: the review `time` names alone changes, by the oracle; none, and it is asked. */
async function expectNamedByTime(say: string, name: string, moment: string, time: string): Promise<void> {
  {
    const week = WEEKS[name as keyof typeof WEEKS]();
    expect(week.window.days[0]!.date).toBe("2024-03-11");
    const now = () => new Date(`${moment.replace(" ", "T")}:00+08:00`);
    const outcome = await converse(await offlineTempo(week, now), say);
    const meant = meantByOracle(week, time, moment);
    const skips = /^(?:skip|跳过)/.test(say);
    const started = meant !== undefined && `${week.window.days[meant.slots![0]!.day - 1]!.date} ${time}` <= moment;
    for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item")) {
      const after = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
      const same = { status: after.status, slots: after.slots };
      if (task.id !== meant?.id) {
        expect(same, task.id).toEqual({ status: task.status, slots: task.slots });
        continue;
      }
      // The review meant is named in the answer, whatever becomes of it.
      expect(outcome.said.join("\n"), task.id).toContain(task.name);
      if (skips) expect(after.status, task.id).toBe("skipped");
      else if (started || after.slots?.[0]?.day !== 7) expect(after.slots, task.id).toEqual(task.slots);
    }
    const asked = outcome.cards.filter((card) => card.action === "ask_user").length;
    if (meant === undefined) {
      expect(asked).toBe(1);
      expect(outcome.said.join("\n")).toMatch(new RegExp(`No placed review starts at ${time}|没有 ${time} 开始的复习`));
    } else expect(asked).toBe(0);
  }
}

describe("a review named by its time, the clock moved through the week", () => {
  test.each(casesOf(FORMS))("'%s' on the %s week at %s", expectNamedByTime);
});

/** The time said with no noun for the review, or a noun of no name (before, a task of those words was sought). */
const PLAIN_FORMS: Array<(time: string) => string> = [
  (time) => `move whatever is at ${twelveHour(time)} to Sunday`,
  (time) => `move what I have at ${time} to Sunday`,
  (time) => `move the ${twelveHour(time)} one to Sunday`,
  (time) => `move my ${twelveHour(time)} thing to Sunday`,
  (time) => `把${Number(time.slice(0, 2))}点${time.endsWith(":00") ? "" : `${Number(time.slice(3))}分`}那个挪到周日`,
];

/** "14:00" as "2pm", "21:45" as "9:45pm". */
function twelveHour(time: string): string {
  const [hours, minutes] = [Number(time.slice(0, 2)), time.slice(3)];
  return `${hours % 12 || 12}${minutes === "00" ? "" : `:${minutes}`}${hours < 12 ? "am" : "pm"}`;
}

describe("a review named by its time with no noun, the clock moved through the week", () => {
  test.each(casesOf(PLAIN_FORMS))("'%s' on the %s week at %s", expectNamedByTime);
});

/**
 * A review named by a part of today: "move my morning review to the afternoon", "move tonight's review to tomorrow",
 * "把上午的复习挪到下午". Before, "morning review" was sought as a task's name, and "今晚的复习" was read as all of
 * Tuesday's (its morning's too). Tuesday of the half-placed week holds the matrix review at 10:00; `evenings` more are
 * placed that evening (19:00, 20:50) by the place tool. The oracle is the week's own slot times.
 */
describe("a review named by a part of today", () => {
  const TUESDAY_9AM = () => new Date("2024-03-12T09:00:00+08:00");
  function tuesdayWeek(evenings: number, chinese = false): ScheduleState {
    let week = halfPlacedWeek({ chinese });
    for (const [id, slot] of (
      [
        ["derivative-drills", 9],
        ["binary-tree-review", 11],
      ] as const
    ).slice(0, evenings)) {
      const run = placeTool.run(week, { task_id: id, day: 2, slot_start: slot });
      if (!run.ok || !run.state) throw new Error(`could not place ${id}`);
      week = run.state;
    }
    return week;
  }
  const placeOfTask = (week: ScheduleState, id: string) =>
    (week.tasks.find((task) => task.id === id) as TaskItem).slots;
  const othersStay = (before: ScheduleState, after: ScheduleState, moved?: string) => {
    for (const task of before.tasks.filter(
      (each): each is TaskItem => each.source === "task_item" && each.id !== moved,
    ))
      expect(placeOfTask(after, task.id), task.id).toEqual(task.slots);
  };

  test.each(["move my morning review to the afternoon", "把上午的复习挪到下午"])(
    "'%s': the matrix review (today's one morning review) starts in Tuesday's afternoon",
    async (said) => {
      const week = tuesdayWeek(1, /[\u4e00-\u9fff]/.test(said));
      const outcome = await converse(await offlineTempo(week, TUESDAY_9AM), said);
      const [range] = placeOfTask(outcome.schedule, "matrix-review")!;
      const start = week.window.slotTimes![range!.start - 1]!.start;
      expect({ day: range!.day, afternoon: start >= "12:00" && start < "18:00" }).toEqual({ day: 2, afternoon: true });
      othersStay(week, outcome.schedule, "matrix-review");
    },
  );

  test.each(["move tonight's review to tomorrow", "把今晚的复习推到明天"])(
    "'%s' with one review tonight: it moves to Wednesday, the morning's stays",
    async (said) => {
      const week = tuesdayWeek(1, /[\u4e00-\u9fff]/.test(said));
      const outcome = await converse(await offlineTempo(week, TUESDAY_9AM), said);
      expect(placeOfTask(outcome.schedule, "derivative-drills")!.map((range) => range.day)).toEqual([3]);
      othersStay(week, outcome.schedule, "derivative-drills");
    },
  );

  test("'move tonight's review to tomorrow' with two tonight: which is asked, naming both, and nothing moves", async () => {
    const week = tuesdayWeek(2);
    const outcome = await converse(await offlineTempo(week, TUESDAY_9AM), "move tonight's review to tomorrow");
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    const said = outcome.said.join("\n");
    expect(said).toContain("Derivative practice set");
    expect(said).toContain("Binary tree review");
    expect(said).not.toContain("Matrix operations review");
    othersStay(week, outcome.schedule);
  });

  test.each([
    ["i finished my morning review", "done"],
    ["我做完了上午的复习", "done"],
    ["done with my 10am review", "done"],
  ])("'%s' at noon: the matrix review (today's 10:00) is marked %s, nothing else changes", async (said, status) => {
    const week = tuesdayWeek(1, /[\u4e00-\u9fff]/.test(said));
    const noon = () => new Date("2024-03-12T12:00:00+08:00");
    const outcome = await converse(await offlineTempo(week, noon), said);
    expect((outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem).status).toBe(status);
    for (const task of week.tasks.filter(
      (each): each is TaskItem => each.source === "task_item" && each.id !== "matrix-review",
    ))
      expect((outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem).status, task.id).toBe(
        task.status,
      );
  });

  test("'I missed my review this morning, reschedule it' at 9:30: today's morning review is still ahead, nothing changes", async () => {
    const week = tuesdayWeek(1);
    const early = () => new Date("2024-03-12T09:30:00+08:00");
    const outcome = await converse(await offlineTempo(week, early), "I missed my review this morning, reschedule it");
    expect(outcome.finalAnswer).toMatch(/"Matrix operations review" is on Tue 12 Mar, 10:00–11:40, still ahead/);
    othersStay(week, outcome.schedule);
    for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item"))
      expect((outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem).status, task.id).toBe(
        task.status,
      );
  });

  test.each(["I did tonight's review", "我做完了今晚的复习"])(
    "'%s' at 22:00: tonight's one review is done, the morning's is not",
    async (said) => {
      const week = tuesdayWeek(1, /[\u4e00-\u9fff]/.test(said));
      const late = () => new Date("2024-03-12T22:00:00+08:00");
      const outcome = await converse(await offlineTempo(week, late), said);
      const statusOf = (id: string) => (outcome.schedule.tasks.find((task) => task.id === id) as TaskItem).status;
      expect({ tonight: statusOf("derivative-drills"), morning: statusOf("matrix-review") }).toEqual({
        tonight: "done",
        morning: "placed",
      });
    },
  );

  test("'skip my afternoon review' with none this afternoon: which is asked, saying none is there", async () => {
    const week = tuesdayWeek(1);
    const outcome = await converse(await offlineTempo(week, TUESDAY_9AM), "skip my afternoon review");
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    expect(outcome.said.join("\n")).toContain("No review is placed in today's afternoon");
    othersStay(week, outcome.schedule);
  });
});
