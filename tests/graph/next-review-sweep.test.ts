/**
 * "Skip my next review", "cancel my next review", "跳过下一个复习", "move my next review to Sunday", "把下次复习挪到周日",
 * said as the clock moves through the week (three times a day, each day, and the evening after it). Before, each asked
 * which task "next review" (下一个复习, 下次复习) was, listing every placed review.
 *
 * The oracle reads the fixture's data, the week's own dates and slot times and the clock alone (no reading, planning or
 * clock code of the graph): the next review is the placed review whose first slot starts first after now. It alone
 * changes — skipped, pending again, or on Sunday — and every other review stays where it was; with no review still to
 * come, nothing changes and the question names the reason.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The placed review that starts first after `now` ("YYYY-MM-DD HH:MM" in the week's zone), by the week's own data. */
function nextByOracle(week: ScheduleState, now: string): string | undefined {
  const dateOf = (day: number) => week.window.days[day - 1]!.date!;
  const ahead = week.tasks
    .filter((task) => task.source === "task_item" && task.status === "placed")
    .map((task) => ({
      id: task.id,
      at: `${dateOf(task.slots![0]!.day)} ${week.window.slotTimes![task.slots![0]!.start - 1]!.start}`,
    }))
    .filter((task) => task.at > now)
    .sort((a, b) => a.at.localeCompare(b.at));
  return ahead[0]?.id;
}

const REQUESTS = [
  { say: "skip my next review", status: "skipped" },
  { say: "cancel my next review", status: "pending" },
  { say: "跳过下一个复习", status: "skipped" },
  { say: "move my next review to Sunday", day: 7 },
  { say: "把下次复习挪到周日", day: 7 },
] as const;

const MOMENTS = [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
  ["07:00", "12:30", "21:00"].map((at) => `2024-03-${String(10 + day).padStart(2, "0")} ${at}`),
);

describe("'my next review', the clock moved through the week", () => {
  const weeks = { "half-placed": () => halfPlacedWeek(), "crowded Monday": crowdedMondayWeek };
  const cases = REQUESTS.flatMap((request) =>
    Object.keys(weeks).flatMap((name) => MOMENTS.map((moment) => [request.say, name, moment] as const)),
  );
  test.each(cases)("'%s' on the %s week at %s", async (say, name, moment) => {
    const request = REQUESTS.find((each) => each.say === say)!;
    const week = weeks[name as keyof typeof weeks]();
    expect(week.window.days[0]!.date).toBe("2024-03-11");
    const now = () => new Date(`${moment.replace(" ", "T")}:00+08:00`);
    const outcome = await converse(await offlineTempo(week, now), say);
    const next = nextByOracle(week, moment);
    for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item")) {
      const after = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
      if (task.id !== next) {
        expect({ status: after.status, slots: after.slots }, task.id).toEqual({
          status: task.status,
          slots: task.slots,
        });
        continue;
      }
      if ("status" in request) expect(after.status, task.id).toBe(request.status);
      else if (after.slots?.[0]?.day !== request.day) {
        // Sunday full (or the move refused): it stays, and the answer says so, naming it.
        expect(after.slots, task.id).toEqual(task.slots);
        expect(outcome.said.join("\n")).toContain(task.name);
      }
    }
    const asked = outcome.cards.filter((card) => card.action === "ask_user").length;
    if (next === undefined) {
      expect(asked).toBe(1);
      expect(outcome.said.join("\n")).toMatch(/still to come|还没开始/);
    } else expect(asked).toBe(0);
  });
});
