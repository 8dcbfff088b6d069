/**
 * A calendar file imported over HTTP to the OpenAI-strict double, in Chinese, on a week half over: real `ChatOpenAI`
 * requests, none refused. Over a model server's wire only the prompt's text travels (the structured data kept beside
 * it in process does not), so the double's brain — the offline policy reading the request — must find the request's
 * file in the prompt's `attached_files` section: until it did, every import through a model server ended "the
 * calendar file is no longer attached to this request". The clock (Wednesday 13 March, 10:00 in Shanghai) has passed
 * Monday's lecture: it is left out, Sunday's seminar is stored.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { calendarImportMessage } from "../../contracts/attached-calendar.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { oneEventCalendar, SEMINAR_CALENDAR } from "../support/calendars.js";
import { scheduleBrain, startOpenAIDouble, type OpenAIDouble } from "../support/openai-double/index.js";
import { approveEveryCard, modelsAtDouble } from "../support/openai-double/drive.js";

const USER = "student";

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble({ brain: scheduleBrain });
});
afterAll(() => double.close());

test("a Chinese /import through an OpenAI-strict server on a week half over: the file reaches import_calendar, what has passed is left out", async () => {
  const monday = oneEventCalendar("monday", "Monday lecture", "20240311T000000Z", "20240311T014000Z");
  const calendar = SEMINAR_CALENDAR.replace(
    "END:VCALENDAR",
    monday.slice(monday.indexOf("BEGIN:VEVENT"), monday.indexOf("END:VCALENDAR")) + "END:VCALENDAR",
  );
  const repository = new InMemoryScheduleRepository();
  await repository.seed(USER, sampleWeek());
  const graph = buildTempoGraph({
    models: modelsAtDouble(double, { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "on" }),
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    settings: readSettings({}).workflow,
  });
  const config = { configurable: { thread_id: "import-wire", user_id: USER, now: "2024-03-13T02:00:00.000Z" } };
  const first = double.requests.length;
  await graph.invoke({ messages: [new HumanMessage(calendarImportMessage("term.ics", calendar, "zh"))] }, config);
  const cards = await approveEveryCard(graph, config, (answer) => graph.invoke(answer, config));

  const requests = double.requests.slice(first);
  expect(requests.filter((request) => request.refusal).map((request) => request.refusal!.message)).toEqual([]);
  expect(cards.some((card) => JSON.stringify(card).includes("import_calendar"))).toBe(true);
  const schedule = await repository.load(USER);
  expect(schedule.tasks.filter((task) => task.name === "Monday lecture")).toEqual([]);
  expect(schedule.tasks.filter((task) => task.name === "History seminar").map((task) => task.slots)).toEqual([
    [{ day: 7, start: 5, end: 6 }],
  ]);
  const { finalAnswer } = (await graph.getState(config)).values as { finalAnswer: string };
  expect(finalAnswer).not.toMatch(/no longer attached|不再附带/);
});
