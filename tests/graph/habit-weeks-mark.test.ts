/**
 * A habit's sessions of two weeks share their names ("jogging (1 of 3)"): after the clock rolled the window on,
 * last week's sessions are missed history and this week's are pending. "I did the jogging" on Monday marks this
 * week's session — the one still in the work — not last week's missed one, which "Sunday's jogging" would name.
 */
import { expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Saturday of the sample week (Mon 11 – Sun 17 March 2024, Shanghai), and the Monday after it. */
const SATURDAY = { now: new Date("2024-03-16T07:00:00+08:00").toISOString() };
const NEXT_MONDAY = { now: new Date("2024-03-18T20:00:00+08:00").toISOString() };

test("'I did the jogging' after the roll marks this week's session, not last week's missed one", async () => {
  const tempo = await offlineTempo(sampleWeek());
  await converse(tempo, "jogging three times a week, 30 min, mornings", [], "t-habit", "student", SATURDAY);
  const added = (await tempo.repository.load("student")).tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.group?.kind === "habit",
  );
  expect(added.length).toBeGreaterThan(0);

  const outcome = await converse(tempo, "I did the jogging", [], "t-mark", "student", NEXT_MONDAY);
  const sessions = outcome.schedule.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.group?.kind === "habit",
  );
  const lastWeek = sessions.filter((task) => task.group?.week === added[0]!.group!.week);
  const thisWeek = sessions.filter((task) => task.group?.week !== added[0]!.group!.week);
  expect(thisWeek.length).toBeGreaterThan(0);
  expect(lastWeek.every((task) => task.status === "missed")).toBe(true);
  const marked = outcome.cards.find((card) => card.action === "mark_done");
  expect(thisWeek.map((task) => task.id)).toContain(marked?.args.task_id);
  expect(thisWeek.filter((task) => task.status === "done").map((task) => task.id)).toEqual([marked?.args.task_id]);
});
