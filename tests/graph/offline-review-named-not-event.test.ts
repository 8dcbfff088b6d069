/**
 * A review named with a clock time ("schedule the vocabulary list on Friday at 19:00", "put the vocabulary list today
 * at 21:45", "move the vocabulary list to Friday 19:00") went to a timetable event whose name shares a word with it:
 * the task was looked for among what can move first — placed reviews and events — so "vocabulary list" matched
 * "English listening" ("list" begins "listening") before the pending review was looked at. The card moved the English
 * listening lecture to Friday evening, or the answer refused with the lecture's reasons ("English listening … has
 * already started"). A request to place a review now never takes an event, and a move takes one first only when its
 * words read as an event's.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 08:30 in Shanghai; Wednesday 13 March, 21:00. */
const TUESDAY_MORNING = new Date("2024-03-12T08:30:00+08:00").toISOString();
const WEDNESDAY_NIGHT = new Date("2024-03-13T21:00:00+08:00").toISOString();

async function said(request: string, now: string) {
  const tempo = await offlineTempo(sampleWeek());
  const outcome = await converse(tempo, request, [], undefined, "student", { now });
  const of = (id: string) => outcome.schedule.tasks.find((task) => task.id === id)?.slots;
  return { outcome, vocabulary: of("vocabulary-list"), listening: of("wed-english-listening") };
}

describe("a pending review named at a clock time is placed, never an event of a like name moved", () => {
  test.each([
    "schedule the vocabulary list on Friday at 19:00",
    "put the vocabulary list on Friday at 7pm",
    "move the vocabulary list to Friday 19:00",
  ])("%s: the place card puts the vocabulary list on Friday 19:00", async (request) => {
    const { outcome, vocabulary, listening } = await said(request, TUESDAY_MORNING);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "vocabulary-list", day: 5, slot_start: 9 });
    expect(vocabulary).toEqual([{ day: 5, start: 9, end: 9 }]);
    expect(listening).toEqual([{ day: 3, start: 5, end: 6 }]);
    expect(outcome.finalAnswer).toContain('"Vocabulary list unit 5" on Fri 15 Mar, 19:00–19:45');
  });

  test("put the vocabulary list today at 21:45, at 21:00: placed then, not the lecture's past refused", async () => {
    const { outcome, vocabulary } = await said("put the vocabulary list today at 21:45", WEDNESDAY_NIGHT);
    expect(outcome.finalAnswer).not.toContain("English listening");
    expect(vocabulary).toEqual([{ day: 3, start: 12, end: 12 }]);
  });

  test("the vocabulary quiz, named as an event, is still the event a move takes", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "move the vocabulary quiz to Friday 19:00", [], undefined, "student", {
      now: TUESDAY_MORNING,
    });
    expect(outcome.cards[1]).toMatchObject({ action: "move", args: { task_id: "fri-english-quiz", day: 5 } });
  });
});
