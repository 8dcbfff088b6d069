/**
 * A move said with the place it leaves: 'Move "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar,
 * 16:00–17:40' — a place written as the terminal chat shows it, pasted back — was read as two moves (the review to
 * 12 Mar, and a task "10:00–11:40" to Thursday); "move the matrix review from tuesday 10-12 to thursday 2-4" took
 * "from tuesday 10-12" into the task's name. The place it leaves is no part of the name, and the move is one. Through
 * the graph with the offline policy; where the review lands is checked by the week's clock times.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Where `id` sits, as "Thu 16:00–17:40" by the week's own dates and clock times. */
function clockPlaceOf(week: ScheduleState, id: string): string {
  const range = week.tasks.find((task) => task.id === id)?.slots?.[0];
  if (!range) return "pending";
  const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  const times = week.window.slotTimes!;
  return `${weekdays[range.day - 1]} ${times[range.start - 1]!.start}–${times[range.end - 1]!.end}`;
}

describe("a move said with the place it leaves", () => {
  test.each([
    ['Move "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40', "Thu 16:00–17:40"],
    ["move the matrix review from tue 10:00 to thu 16:00", "Thu 16:00–17:40"],
  ])("%s: one move, of the matrix review, to %s", async (request, landed) => {
    const read = parseScheduleRequest(request);
    expect(read).toMatchObject({ kind: "move" });
    expect(read).not.toHaveProperty("also");
    expect((read as { task: string }).task).toMatch(/^matrix (?:operations )?review$/);
    const week = halfPlacedWeek();
    expect(clockPlaceOf(week, "matrix-review")).toBe("Tue 10:00–11:40");
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(clockPlaceOf(outcome.schedule, "matrix-review")).toBe(landed);
  });

  test("'from tuesday 10-12 to thursday 2-4': the matrix review, refused at Thursday 14:00 by the lecture there", async () => {
    const request = "move the matrix review from tuesday 10-12 to thursday 2-4";
    expect(parseScheduleRequest(request)).toMatchObject({
      kind: "move",
      task: "matrix review",
      where: { only: { weekdays: [4] }, slots: { startsFrom: "14:00", endsBy: "16:00" } },
    });
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.said.join("\n")).toContain(
      'cannot move "Matrix operations review": Thu 14 Mar, 14:00–15:40 overlaps "Data Structures lecture"',
    );
    expect(clockPlaceOf(outcome.schedule, "matrix-review")).toBe("Tue 10:00–11:40");
  });
});
