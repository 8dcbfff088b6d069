/**
 * A move said from where the task is, as a student says it to the offline policy: "push the binary tree review back a
 * day" asked which task "binary tree review back a day" is; "an hour later", "to later", "bring it forward a day" and
 * "往后推一天" read no shift either. Each is one move card: a day later or earlier at the same time (the nearest free
 * time of that day when it is taken), an hour later or earlier the same day, or the next free time that way — never
 * applied without the card.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const accept = () => ({ type: "accept", args: null });

// halfPlacedWeek: the matrix review on Tuesday slots 3-4 (10:00), the limits review on Monday slots 5-6, the essay
// draft on Saturday slot 1; the binary tree review pending.
describe("a move from where the task is", () => {
  test.each([
    ["push the matrix review back a day", false, { day: 3, slot_start: 3 }],
    ["把矩阵运算复习往后推一天", true, { day: 3, slot_start: 3 }],
    // Thursday 10:00 is a lecture, Monday's morning and afternoon are full: the nearest free time of that day.
    ["delay the matrix review by 2 days", false, { day: 4, slot_start: 7 }],
    ["bring the matrix review forward a day", false, { day: 1, slot_start: 9 }],
    ["push the matrix review an hour later", false, { day: 2, slot_start: 7 }],
    // "Push … by" says later, as "delay … by" (it asked which task "matrix review by a day" is).
    ["push the matrix review by a day", false, { day: 3, slot_start: 3 }],
    ["push the matrix review by an hour", false, { day: 2, slot_start: 7 }],
    ["move the matrix review to later", false, { day: 2, slot_start: 7 }],
    ["把矩阵运算复习挪到晚一点", true, { day: 2, slot_start: 7 }],
  ] as const)("%s", async (message, chinese, place) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", ...place });
    expect(placeOf(outcome.schedule, "matrix-review")).toBe(
      `day ${place.day} slots ${place.slot_start}-${place.slot_start + 1}`,
    );
  });

  test.each([
    [
      "move the matrix review by a day",
      /I could not tell whether to move it earlier or later in "move the matrix review by a day"/,
    ],
    ["shift the matrix review by 2 hours", /I could not tell whether to move it earlier or later/],
  ])("%s: no way said, so no card, and the reply asks which way", async (message, reply) => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week), message, accept);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).toMatch(reply);
    expect(outcome.schedule).toEqual(week);
  });

  test("rejected, the card changes nothing", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "push the matrix review back a day", (card) =>
      card.action === "move" ? { type: "ignore", args: null } : accept(),
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 2 slots 3-4");
  });

  test("a task with no place, or a shift off the week, proposes no move and says why", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const pending = await converse(tempo, "push the binary tree review back a day", accept);
    expect(pending.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(pending.said.join("\n")).toMatch(/"Binary tree review" has no place yet/);
    const outside = await converse(tempo, "push the essay draft back two days", accept);
    expect(outside.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outside.said.join("\n")).toMatch(/outside your schedule/);
    expect(placeOf(outside.schedule, "essay-draft")).toBe("day 6 slots 1-2");
  });

  test("the plan's steps read back as the same shift; a day named is a move to that day", () => {
    expect(parseScheduleRequest('Move "matrix review" 1 day later')).toMatchObject({ shift: { days: 1 } });
    expect(parseScheduleRequest('Move "matrix review" 60 minutes earlier')).toMatchObject({ shift: { minutes: -60 } });
    expect(parseScheduleRequest('Move "matrix review" later the same day')).toMatchObject({
      shift: { sameDay: "later" },
    });
    expect(parseScheduleRequest('把 "矩阵复习" 提前1天')).toMatchObject({ task: "矩阵复习", shift: { days: -1 } });
    expect(parseScheduleRequest('把 "矩阵复习" 挪到当天早些时候')).toMatchObject({ shift: { sameDay: "earlier" } });
    const toFriday = parseScheduleRequest("push the matrix review back to Friday");
    expect(toFriday).toMatchObject({ kind: "move", task: "matrix review", where: { only: { weekdays: [5] } } });
    expect(toFriday).not.toHaveProperty("shift");
    expect(parseScheduleRequest("推迟矩阵复习两天")).toMatchObject({ task: "矩阵复习", shift: { days: 2 } });
    // A direction said is kept: "delay it to later" is later the same day, "往后推" alone too.
    expect(parseScheduleRequest("delay the matrix review to later")).toMatchObject({ shift: { sameDay: "later" } });
    expect(parseScheduleRequest("把矩阵复习往后推")).toMatchObject({ shift: { sameDay: "later" } });
  });
  test.each([
    ["postpone the matrix review", false],
    ["I can't make the matrix review today, delay it", false],
    ["推迟矩阵运算复习", true],
    ["把矩阵运算复习推迟", true],
  ] as const)("%s, with no amount: to the next day, the plan step says so", async (message, chinese) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 3, slot_start: 3 });
    expect(outcome.descriptions[0] ?? "").toMatch(
      chinese ? /往后推1天，仍在原来的时间.*最近的空闲时间/ : /1 day later at its own time, else the nearest free time/,
    );
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 3 slots 3-4");
  });
  // crowdedMondayWeek: Monday 11 March 2024 has the limits review at 14:00 (slot 5), then four reviews from 19:00
  // (slots 9-12); "it" with nothing named before it is the review in progress now or next today, by the run's clock.
  const mondayAt = (time: string) => ({ now: new Date(`2024-03-11T${time}:00+08:00`).toISOString() });

  test.each([["push it back a day"], ["把它往后推一天"]])(
    "%s, nothing named before: the one review next today",
    async (message) => {
      const tempo = await offlineTempo(crowdedMondayWeek());
      const outcome = await converse(tempo, message, accept, undefined, "student", mondayAt("09:00"));
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(outcome.cards[1]?.args).toMatchObject({ task_id: "review-limits", day: 2 });
    },
  );

  test("a review in progress and the next one: asks which, naming both, and moves the one answered", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(
      tempo,
      "push it back a day",
      (card) => (card.action === "ask_user" ? { type: "response", args: "the vocabulary list" } : accept()),
      undefined,
      "student",
      mondayAt("19:20"),
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "move"]);
    const asked = outcome.said.join("\n");
    expect(asked).toMatch(/In progress now: "Determinant exercises"/);
    expect(asked).toMatch(/next today: "Vocabulary list unit 5"/);
    expect(outcome.cards[2]?.args).toMatchObject({ task_id: "vocabulary-list", day: 2 });
    expect(placeOf(outcome.schedule, "determinant-exercises")).toBe("day 1 slots 9-9");
  });

  test("no review today: asks which task, and moves the one answered", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, "push it back a day", (card) =>
      card.action === "ask_user" ? { type: "response", args: "the matrix review" } : accept(),
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "move"]);
    expect(outcome.said.join("\n")).toMatch(/No review is in progress or still to come today/);
    expect(outcome.cards[2]?.args).toMatchObject({ task_id: "matrix-review", day: 5 });
    expect(placeOf(outcome.schedule, "review-limits")).toBe("day 1 slots 5-6");
  });
});
