/**
 * A calendar file never travels to another thread (issue 44, item 6): two threads of one user through the graph as
 * `createTempo` builds it for the served path and the terminal chat — Postgres checkpoints and the PostgresStore
 * memory on an embedded PGlite, the offline policy playing the model. The file sent on an earlier thread, its card
 * left unapproved, is remembered as a task that ended; a calendar sent on a new thread is answered with its own
 * events only, and the user's memory holds no file's text.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { BaseStore } from "@langchain/langgraph";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { calendarImportMessage } from "../../contracts/attached-calendar.js";
import { createTempo, type Tempo } from "../../server/create-tempo.js";
import type { ScheduleRepository } from "../../tools/schedule/repository.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { startEmbeddedTestPostgres, type TestPostgres } from "../support/postgres.js";
import { approveCard, interruptsOf, resume } from "../support/scripted.js";
import { oneEventCalendar } from "../support/calendars.js";

const USER = "calendar-student";
/** The half-placed sample week's Wednesday morning: every run takes it as now. */
const NOW = "2024-03-13T02:00:00Z";
const config = (threadId: string) => ({ configurable: { thread_id: threadId, user_id: USER, now: NOW } });

/** Sunday 17 March, 14:00–15:40 in Shanghai; a note the fact reader would take for the user's own words. */
const EARLIER = oneEventCalendar("old", "Old lecture", "20240317T060000Z", "20240317T074000Z", [
  "DESCRIPTION:I always sit in the front row",
]).trimEnd(); // as the message carries it: the file's last line end is not part of it
/** Saturday 16 March, 16:00–17:40 in Shanghai. */
const LATER = oneEventCalendar("new", "New seminar", "20240316T080000Z", "20240316T094000Z", [
  "DESCRIPTION:Read chapter three before the seminar",
]).trimEnd();

let postgres: TestPostgres;
let tempo: Tempo;
beforeAll(async () => {
  postgres = await startEmbeddedTestPostgres();
  tempo = await createTempo(readSettings({ DATABASE_URL: postgres.url }));
  await tempo.repositoryOf<ScheduleRepository>("schedule").seed(USER, halfPlacedWeek());
});
afterAll(async () => {
  await tempo?.close();
  await postgres?.stop();
});

/** The card a run waits on: its action requests' names, arguments and descriptions. */
function cardOf(result: object) {
  const card = interruptsOf(result)[0]?.value as {
    action_requests: Array<{ name: string; args: Record<string, unknown>; description?: string }>;
  };
  return card.action_requests;
}

/** Every value the store holds for the user, as JSON text. */
async function rememberedText(store: BaseStore): Promise<string> {
  const namespaces = (await store.listNamespaces({ limit: 1000 })).filter((namespace) => namespace.includes(USER));
  const items = await Promise.all(namespaces.map((namespace) => store.search(namespace, { limit: 1000 })));
  return items
    .flat()
    .map((item) => JSON.stringify(item.value))
    .join("\n");
}

test("a calendar sent on a new thread is imported as sent there, never as the file an earlier thread left unapproved", async () => {
  // Thread 1: the plan approved, the import card rejected — the task ends, and memory records it.
  const earlierPlan = await tempo.graph.invoke(
    { messages: [new HumanMessage(calendarImportMessage("lectures.ics", EARLIER))] },
    config("calendar-earlier"),
  );
  const earlierWrite = await tempo.graph.invoke(approveCard(earlierPlan), config("calendar-earlier"));
  expect(cardOf(earlierWrite)[0]).toMatchObject({ name: "import_calendar", args: { ics: EARLIER } });
  const ended = await tempo.graph.invoke(resume({ decisions: [{ type: "reject" }] }), config("calendar-earlier"));
  expect(interruptsOf(ended)).toEqual([]);

  // Thread 2, same user: its own file, and only its own, is on the card.
  const laterPlan = await tempo.graph.invoke(
    { messages: [new HumanMessage(calendarImportMessage("seminar.ics", LATER))] },
    config("calendar-later"),
  );
  const laterWrite = await tempo.graph.invoke(approveCard(laterPlan), config("calendar-later"));
  const [write] = cardOf(laterWrite);
  expect(write).toMatchObject({ name: "import_calendar", args: { ics: LATER } });
  expect(write!.description).toContain("New seminar");
  expect(JSON.stringify(cardOf(laterWrite))).not.toContain("Old lecture");

  // Approved, it stores that event; the earlier file's never came in.
  await tempo.graph.invoke(approveCard(laterWrite), config("calendar-later"));
  const schedule = await tempo.repositoryOf<ScheduleRepository>("schedule").load(USER);
  expect(
    schedule.tasks
      .filter((task) => task.name === "New seminar" || task.name === "Old lecture")
      .map((task) => [task.name, task.slots]),
  ).toEqual([["New seminar", [{ day: 6, start: 7, end: 8 }]]]);

  // Memory (TaskState, episodes, facts, preferences, conversation summaries) names the files, and holds no text of them.
  const remembered = await rememberedText(tempo.graph.store!);
  expect(remembered).toContain("Import my timetable from the calendar file lectures.ics (1 event, ");
  expect(remembered).not.toMatch(/BEGIN:VCALENDAR|DTSTART|UID:|DESCRIPTION|front row|chapter three/);
});
