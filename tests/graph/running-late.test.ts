/**
 * Running late: "I'm running late, push everything back an hour", "我迟到了，把复习都往后推一小时". A shift of time with no
 * day said is today's reviews; before, every review of the week moved an hour (Thursday's and Sunday's too, when it
 * was Monday that ran late).
 *
 * Swept over every day of the half-placed sample week: the week after it is the week after "push today's reviews back
 * an hour" (its twin, said plainly), and, independently, no review of another day moves.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, HALF_PLACED, offlineTempo, placeOf } from "./support/offline-conversation.js";

describe("reading: running late is today", () => {
  test.each([
    ["I'm running late, push everything back an hour", 60],
    ["I'm running a bit late. Push everything back an hour", 60],
    ["running behind, push my reviews back 30 minutes", 30],
    ["I AM RUNNING LATE, push all my reviews back an hour", 60],
    ["我迟到了，把复习都往后推一小时", 60],
    ["我今天来不及了，把所有复习推迟半小时", 30],
  ])("'%s'", (said, minutes) => {
    expect(parseScheduleRequest(said)).toEqual({ kind: "shift_all", minutes, fromToday: 0 });
  });

  test("without it, or with a day said, or by days, the reading is as before", () => {
    expect(parseScheduleRequest("push everything back an hour")).toEqual({ kind: "shift_all", minutes: 60 });
    expect(parseScheduleRequest("I'm running late, push tomorrow's reviews back an hour")).toEqual({
      kind: "shift_all",
      minutes: 60,
      fromToday: 1,
    });
    expect(parseScheduleRequest("I'm running late, push everything back a day")).toEqual({
      kind: "shift_all",
      days: 1,
    });
    // A clause that names a task keeps it for the pronoun after it.
    expect(parseScheduleRequest("我来不及做作文了，把它挪到明天")).toMatchObject({ kind: "move" });
  });
});

describe("said to the agent on each day: today's reviews move, no other day's", () => {
  test.each([
    ...[1, 2, 3, 4, 5, 6, 7].map((today) => ["I'm running late, push everything back an hour", today] as const),
    ...[1, 2, 3, 4, 5, 6, 7].map((today) => ["我迟到了，把复习都往后推一小时", today] as const),
  ])("'%s' on day %i", async (said, today) => {
    const chinese = /[\u4e00-\u9fff]/.test(said);
    const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T08:00:00+08:00`);
    const twin = chinese ? "把今天的复习都往后推一小时" : "push today's reviews back an hour";
    const [outcome, plain] = await Promise.all([
      converse(await offlineTempo(halfPlacedWeek({ chinese }), now), said),
      converse(await offlineTempo(halfPlacedWeek({ chinese }), now), twin),
    ]);
    expect(outcome.schedule).toEqual(plain.schedule);
    expect(outcome.planSteps).toEqual(plain.planSteps);
    for (const [id, [day]] of Object.entries(HALF_PLACED))
      if (day !== today) expect(placeOf(outcome.schedule, id), id).toBe(placeOf(halfPlacedWeek(), id));
  });

  test("on Monday the 14:00 review moves an hour and Thursday's and Saturday's stay", async () => {
    const monday = () => new Date("2024-03-11T08:00:00+08:00");
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), monday),
      "I'm running late, push everything back an hour",
    );
    expect(placeOf(outcome.schedule, "review-limits")).not.toBe(placeOf(halfPlacedWeek(), "review-limits"));
    expect(placeOf(outcome.schedule, "vocabulary-list")).toBe(placeOf(halfPlacedWeek(), "vocabulary-list"));
    expect(placeOf(outcome.schedule, "essay-draft")).toBe(placeOf(halfPlacedWeek(), "essay-draft"));
  });
});
