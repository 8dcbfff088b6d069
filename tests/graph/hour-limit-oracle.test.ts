/**
 * "晚上N点以后不要学习" (N from 8 to 12; 12 is midnight), "半夜12点以后不要学习", "0点以后不要学习" and "no studying after Npm", said on the half-placed week at
 * noon on each day, then "arrange my reviews" — the week half over from Wednesday on. The oracle shares no reading,
 * placing or clock code with the graph: from the week's own slot times and the clock alone, every review placed by the
 * arrangement ends by the hour (midnight rules out nothing of the day), starts after now, and every review placed
 * before is where it was. At least one pending review is placed (the sample week has room before 20:00); with
 * midnight, the arrangement is the one a run with no limit said makes.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const SAID: Array<[string, number]> = [
  ...[8, 9, 10, 11, 12].flatMap((hour): Array<[string, number]> => [
    [`晚上${hour}点以后不要学习`, hour + 12],
    [hour === 12 ? "no studying after midnight" : `no studying after ${hour}pm`, hour + 12],
  ]),
  // The night's own words for midnight (before this stop, "半夜12点" and "0点" were noon).
  ["半夜12点以后不要学习", 24],
  ["0点以后不要学习", 24],
];

describe("an evening hour limit said, then an arrangement, the clock at noon each day", () => {
  test.each(SAID.flatMap(([said, limit]) => [1, 3, 5, 7].map((day) => [said, limit, day] as const)))(
    "'%s' (ends by %i:00) on day %i",
    async (said, limit, day) => {
      const chinese = /[\u4e00-\u9fff]/.test(said);
      const week = halfPlacedWeek({ chinese });
      const times = week.window.slotTimes!;
      const now = () => new Date(`2024-03-${String(10 + day).padStart(2, "0")}T12:00:00+08:00`);
      const tempo = await offlineTempo(week, now, { store: new InMemoryStore() });
      await converse(tempo, said, [], "t-said");
      const outcome = await converse(tempo, chinese ? "帮我安排复习" : "arrange my reviews", [], "t-arrange");
      const limitTime = `${String(limit).padStart(2, "0")}:00`;
      let placed = 0;
      for (const task of week.tasks.filter((each) => each.source === "task_item")) {
        const after = outcome.schedule.tasks.find((each) => each.id === task.id)!;
        if (task.status === "placed") {
          expect(after.slots, task.id).toEqual(task.slots);
          continue;
        }
        for (const range of after.source === "task_item" && after.status === "placed" ? (after.slots ?? []) : []) {
          placed += 1;
          expect(times[range.end - 1]!.end <= limitTime, `${task.id} ends ${times[range.end - 1]!.end}`).toBe(true);
          const ahead = range.day > day || (range.day === day && times[range.start - 1]!.start > "12:00");
          expect(ahead, `${task.id} on day ${range.day} at ${times[range.start - 1]!.start}`).toBe(true);
        }
      }
      if (day < 7) expect(placed).toBeGreaterThan(0);
      // Midnight rules out nothing of a day: the same arrangement as with no limit said at all.
      if (limit === 24) {
        const free = await offlineTempo(week, now);
        const control = await converse(free, chinese ? "帮我安排复习" : "arrange my reviews", [], "t-control");
        expect(outcome.schedule.tasks).toEqual(control.schedule.tasks);
      }
    },
  );
});
