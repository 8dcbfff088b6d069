/**
 * The memory model's preference extraction (`nodes/preference-extraction.ts`, contract `preference_extraction`) over
 * HTTP to the OpenAI-strict double, in each request mode: real `ChatOpenAI` requests, none refused. The double plays
 * a memory model that reads the listed texts and answers the contract in its own short words ("never on Monday"
 * where the user wrote "I never study on Mondays"), so the stored entry shows the model's reading was used, not the
 * offline reader's fallback (which keeps the user's sentence). The next task, on a new thread, keeps off Monday.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { daysOfRule, describeRule } from "../../contracts/preferences.js";
import { loadPreferences } from "../../memory/preferences.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  placeTool,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { approveEveryCard, modelsAtDouble } from "../support/openai-double/drive.js";
import { contentText } from "../support/openai-double/brain.js";
import { scheduleBrain, startOpenAIDouble, type Brain, type OpenAIDouble } from "../support/openai-double/index.js";
import { resume, threadConfig } from "../support/scripted.js";

const USER = "student";
/** The memory stage's instruction for preference extraction (nodes/preference-extraction.ts). */
const EXTRACTION = "List the standing preferences the texts above state or take back.";

/** Answers the preference extraction as a memory model would: each listed text read, the rules in short words. */
const memoryBrain: Brain = (request) => {
  const messages = request.body.messages ?? [];
  const prompt = messages.map((message) => contentText(message.content)).join("\n");
  if (request.stage !== "memory_preferences" || !prompt.includes(EXTRACTION)) return scheduleBrain(request);
  const listed = [...prompt.matchAll(/^(\d+)\. \((?:message|feedback rejecting a \w+ card)\) (.+)$/gm)];
  const preferences = listed.flatMap(([, index, text]) =>
    readSchedulePreferences(text!).add.map(({ text: _words, ...rule }) => ({
      ...rule,
      text: describeRule(rule),
      source_index: Number(index),
    })),
  );
  const lifted = listed.flatMap(([, , text]) => readSchedulePreferences(text!).lift);
  const answer = { preferences, lifted };
  const forced = (request.body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
  return forced ? { content: null, toolCalls: [{ name: forced, arguments: answer }] } : JSON.stringify(answer);
};

const MODES = [
  { name: "JSON contract in text", environment: { TEMPO_TOOL_CALLING: "json", TEMPO_STRUCTURED_OUTPUT: "off" } },
  {
    name: "structured output (strict response_format)",
    environment: { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "on" },
  },
  {
    name: "native tool calling, structured output off",
    environment: { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "off" },
  },
];

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble({ brain: memoryBrain });
});
afterAll(() => double.close());

const mondayTasks = (schedule: ScheduleState) =>
  schedule.tasks
    .filter((task) => task.source === "task_item" && (task.slots ?? []).some((range) => range.day === 1))
    .map((task) => task.id);

/** Tempo with a memory store, its models at the double in `environment`'s request mode, over `week` for USER. */
async function tempoAtDouble(week: ScheduleState, environment: Record<string, string>) {
  const store = new InMemoryStore();
  const repository = new InMemoryScheduleRepository();
  await repository.seed(USER, week);
  const graph = buildTempoGraph({
    models: modelsAtDouble(double, environment),
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    settings: readSettings({}).workflow,
    store,
  });
  return { store, repository, graph };
}

describe.each(MODES)("preference extraction through an OpenAI-strict server, $name", ({ environment }) => {
  test("'I never study on Mondays' is read by the memory model, stored in its words, and the next task keeps off Monday; no request refused", async () => {
    const { store, repository, graph } = await tempoAtDouble(sampleWeek(), environment);
    const first = double.requests.length;
    const talk = async (threadId: string, text: string) => {
      const config = threadConfig(threadId, USER);
      await graph.invoke({ messages: [new HumanMessage(text)] }, config);
      await approveEveryCard(graph, config, (answer: ReturnType<typeof resume>) => graph.invoke(answer, config));
      return (await graph.getState(config)).values as { phase: string };
    };

    expect((await talk("pref-1", "I never study on Mondays. What do I still need to schedule?")).phase).toBe("done");
    const requests = double.requests.slice(first);
    expect(
      requests.filter((request) => request.refusal).map((request) => `${request.stage}: ${request.refusal!.message}`),
    ).toEqual([]);
    const extraction = requests.filter(
      (request) => request.stage === "memory_preferences" && JSON.stringify(request.body.messages).includes(EXTRACTION),
    );
    expect(extraction).toHaveLength(1);
    if (environment.TEMPO_STRUCTURED_OUTPUT === "on") {
      // The contract went as OpenAI's strict structured output, and the double (which checks the schema) took it.
      const format = extraction[0]!.body.response_format as
        { type?: string; json_schema?: { name?: string; strict?: boolean } } | undefined;
      const forced = (extraction[0]!.body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
      expect(format?.json_schema?.strict === true || forced !== undefined).toBe(true);
    }
    // The model's reading is what was stored: its words, not the user's sentence (the offline fallback's).
    const profile = await loadPreferences(store, USER);
    expect(profile.map(({ kind, value, text }) => ({ kind, value, text }))).toEqual([
      { kind: "avoid_day", value: 1, text: "never on Monday" },
    ]);
    expect(profile[0]!.source).toMatch(/pref-1/);
    // Where it was said, as data too (the Chinese /prefs says it from this), by the model's path as by the offline one.
    expect(profile[0]!.from).toEqual({ kind: "message", threadId: "pref-1" });

    // The next task, on a new thread, arranges the week and puts nothing on Monday.
    expect((await talk("pref-2", "Arrange my review tasks into free slots")).phase).toBe("done");
    const schedule = await repository.load(USER);
    expect(
      schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length,
    ).toBeGreaterThan(
      sampleWeek().tasks.filter((task) => task.source === "task_item" && task.status === "placed").length,
    );
    expect(mondayTasks(schedule)).toEqual(mondayTasks(sampleWeek()));
    expect(double.requests.slice(first).filter((request) => request.refusal)).toEqual([]);
  });
  test("'no studying after 9pm on Fridays' is read by the memory model as an hour of Fridays; the review already past it is named", async () => {
    // Friday (day 5) 21:45-22:30, placed before the rule was said: the sample week's own slot times.
    const placed = placeTool.run(sampleWeek(), { task_id: "derivative-drills", day: 5, slot_start: 12 });
    expect(placed.ok).toBe(true);
    const week = placed.state!;
    expect(week.window.slotTimes![11]).toEqual({ start: "21:45", end: "22:30" });
    const { store, repository, graph } = await tempoAtDouble(week, environment);
    const first = double.requests.length;
    const config = threadConfig("hour-1", USER);
    await graph.invoke({ messages: [new HumanMessage("No studying after 9pm on Fridays")] }, config);
    expect(double.requests.slice(first).filter((request) => request.refusal)).toEqual([]);
    // The model's reading, in its words: the hour on Fridays, not Friday ruled out.
    const profile = await loadPreferences(store, USER);
    expect(
      profile.map((entry) => ({ kind: entry.kind, value: entry.value, days: daysOfRule(entry), text: entry.text })),
    ).toEqual([{ kind: "not_after_hour", value: 21, days: [5], text: "nothing after 21:00 on Friday" }]);
    const messages = (await graph.getState(config)).values.messages as Array<{ getType(): string; content: unknown }>;
    expect(String(messages.at(-1)!.content)).toMatch(
      /^Already in place where "nothing after 21:00 on Friday" rules out: "Derivative practice set" \(Fri 15 Mar, 21:45–22:30\)/,
    );
    expect(await repository.load(USER)).toEqual(week);
  });

  test("'晚上12点以后不要学习' is midnight through the memory model: stored as hour 24, said as midnight, nothing named", async () => {
    const { store, graph } = await tempoAtDouble(sampleWeek(), environment);
    const first = double.requests.length;
    const config = threadConfig("midnight-1", USER);
    await graph.invoke({ messages: [new HumanMessage("晚上12点以后不要学习")] }, config);
    expect(double.requests.slice(first).filter((request) => request.refusal)).toEqual([]);
    // The model's contract value is the day's end (24), not noon; its words say midnight.
    const profile = await loadPreferences(store, USER);
    expect(profile.map((entry) => ({ kind: entry.kind, value: entry.value, text: entry.text }))).toEqual([
      { kind: "not_after_hour", value: 24, text: "nothing after midnight" },
    ]);
    // The next prompt the model is sent lists it as midnight, in the profile's lines.
    await graph.invoke({ messages: [new HumanMessage("arrange my reviews")] }, threadConfig("midnight-2", USER));
    const prompts = double.requests
      .slice(first)
      .map((request) => (request.body.messages ?? []).map((message) => contentText(message.content)).join("\n"));
    expect(prompts.some((prompt) => prompt.includes("- nothing after midnight"))).toBe(true);
    expect(prompts.some((prompt) => /nothing after (?:12|24):00/.test(prompt))).toBe(false);
  });

  test("'no studying after 1am' through the memory model: nothing stored, nor sent to the model as a rule", async () => {
    const { store, graph } = await tempoAtDouble(sampleWeek(), environment);
    const first = double.requests.length;
    await graph.invoke({ messages: [new HumanMessage("no studying after 1am")] }, threadConfig("night-1", USER));
    expect(double.requests.slice(first).filter((request) => request.refusal)).toEqual([]);
    expect(await loadPreferences(store, USER)).toEqual([]);
    await graph.invoke({ messages: [new HumanMessage("arrange my reviews")] }, threadConfig("night-2", USER));
    const prompts = double.requests
      .slice(first)
      .map((request) => (request.body.messages ?? []).map((message) => contentText(message.content)).join("\n"));
    expect(prompts.some((prompt) => /nothing after (?:0?1|13):00/.test(prompt))).toBe(false);
  });
});
