/**
 * "It" after a change: "move the essay draft to Friday", then "actually, push it to Sunday" — the essay, as the
 * student means. Before, "it" with a day ("push it to tomorrow") sought a task named "it" and asked which, and "it"
 * with a shift ("push it back a day") took the review now or next today, whatever the change just before had moved.
 * Each follow-up is compared with its twin that names the task; a change of an exchange before the last one is not
 * "it"; with no change just before, "it" with a day is the review now or next today, as "it" with a shift was.
 */
import { describe, expect, test } from "vitest";
import {
  CHINESE_NAMES,
  converse,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
  reviewPlaces,
} from "./support/offline-conversation.js";

/** Tuesday 12 March 2024 at `at` in Shanghai (the half-placed week's Tuesday review is at 10:00–11:40). */
const tuesdayAt = (at: string) => () => new Date(`2024-03-12T${at}:00+08:00`);

/** The week each message in turn leaves, said in one thread at 08:00 on Tuesday, every card accepted. */
async function weekAfter(messages: readonly string[], chinese = false): Promise<string[]> {
  const tempo = await offlineTempo(halfPlacedWeek({ chinese }), tuesdayAt("08:00"));
  for (const message of messages) await converse(tempo, message, [], "one-thread");
  return reviewPlaces(await tempo.repository.load("student"));
}

describe("'it' is the task the change just before changed", () => {
  test.each([
    [
      ["move the essay draft to friday", "actually push it to sunday"],
      ["move the essay draft to friday", "move the essay draft to sunday"],
    ],
    [
      ["move the essay draft to friday", "push it back a day"],
      ["move the essay draft to friday", "push the essay draft back a day"],
    ],
    [
      ["move the essay draft to friday", "cancel it"],
      ["move the essay draft to friday", "cancel the essay draft"],
    ],
    [
      ["move the matrix review to thursday", "move that to friday"],
      ["move the matrix review to thursday", "move the matrix review to friday"],
    ],
  ])("%j leaves the week %j leaves", async (said, twin) => {
    const [week, twins] = await Promise.all([weekAfter(said), weekAfter(twin)]);
    expect(week).toEqual(twins);
    expect(week).not.toEqual(await weekAfter(said.slice(0, 1)));
  });

  test("in Chinese: 还是把它挪到周日吧 after moving the essay is moving the essay", async () => {
    const essay = CHINESE_NAMES["essay-draft"]!;
    const week = await weekAfter([`把${essay}挪到周五`, "还是把它挪到周日吧"], true);
    expect(week).toEqual(await weekAfter([`把${essay}挪到周五`, `把${essay}挪到周日`], true));
    expect(week.find((place) => place.startsWith("essay-draft "))).toMatch(/^essay-draft day 7 /);
  });

  test("a change two exchanges back is not 'it': the later one is", async () => {
    const week = await weekAfter([
      "move the essay draft to friday",
      "move the vocabulary list to saturday",
      "actually push it to sunday",
    ]);
    expect(week.find((place) => place.startsWith("essay-draft "))).toMatch(/^essay-draft day 5 /);
    expect(week.find((place) => place.startsWith("vocabulary-list "))).toMatch(/^vocabulary-list day 7 /);
  });
});

describe("'it' with a day and no change before it: the review now or next today", () => {
  test("Tuesday 08:00: 'push it to tomorrow' moves the matrix review, as naming it does", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), tuesdayAt("08:00"));
    const outcome = await converse(tempo, "i'm too tired, push it to tomorrow");
    const twin = await converse(
      await offlineTempo(halfPlacedWeek(), tuesdayAt("08:00")),
      "move the matrix review to tomorrow",
    );
    expect(placeOf(outcome.schedule, "matrix-review")).toMatch(/^day 3 /);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(twin.schedule));
  });

  test("Tuesday 18:00, nothing left today: which review is asked, and nothing changes", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, tuesdayAt("18:00")), "push it to tomorrow");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user"]);
    expect(outcome.descriptions[1]).toMatch(
      /^Which review do you mean by "it"\? No review is in progress or still to come today\..*I will move it where you asked\.$/,
    );
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(week));
  });
});
