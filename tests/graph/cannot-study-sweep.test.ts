/**
 * "I can't study tonight", "我今晚学不了", said at 17:00 and at 20:00 on each day of the week with a crowded Monday
 * evening. Before, the first sought a task named "study" and the second arranged a task named "不了".
 *
 * The oracle reads the fixture, the week's own slot times and the clock alone: each review of today's evening (slots
 * 9–12, the part the week's slot times call evening) that has not started leaves it — to a later day, or to a time
 * today that has not come and is no evening — or stays and is named in the answer; one that has started stays; every
 * other review stays where it was.
 */
import { describe, expect, test } from "vitest";
import { converse, crowdedMondayWeek, offlineTempo } from "./support/offline-conversation.js";

const EVENING_FIRST_SLOT = 9;

describe("'I can't study tonight', the clock moved through the week", () => {
  const cases = ["I can't study tonight", "我今晚学不了"].flatMap((request) =>
    [1, 2, 3, 4, 5, 6, 7].flatMap((day) => ["17:00", "20:00"].map((at) => [request, day, at] as const)),
  );
  test.each(cases)("'%s' on day %i at %s", async (request, day, at) => {
    const week = crowdedMondayWeek();
    const times = week.window.slotTimes!;
    expect(times[EVENING_FIRST_SLOT - 1]!.start >= "17:00").toBe(true);
    const now = () => new Date(`2024-03-${String(10 + day).padStart(2, "0")}T${at}:00+08:00`);
    const outcome = await converse(await offlineTempo(week, now), request);
    const answer = outcome.said.join("\n");
    expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
    for (const task of week.tasks.filter((each) => each.source === "task_item" && each.status === "placed")) {
      const before = task.slots![0]!;
      const after = outcome.schedule.tasks.find((each) => each.id === task.id)!.slots?.[0];
      const tonight = before.day === day && before.start >= EVENING_FIRST_SLOT;
      const started = times[before.start - 1]!.start <= at;
      if (!tonight || started) {
        expect(after, task.id).toEqual(before);
        continue;
      }
      if (after && after.day === before.day && after.start === before.start) {
        expect(answer, task.id).toContain(task.name);
        continue;
      }
      expect(after, task.id).toBeDefined();
      const later = after!.day > day;
      const laterToday = after!.day === day && after!.start < EVENING_FIRST_SLOT && times[after!.start - 1]!.start > at;
      expect(later || laterToday, `${task.id} to day ${after!.day} slot ${after!.start}`).toBe(true);
    }
  });
});
