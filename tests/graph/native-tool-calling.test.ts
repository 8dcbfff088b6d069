/**
 * Native tool calling: a scripted tool-calling model (`fakeModel()` replying
 * with `tool_calls`) drives the whole graph — reads, the control actions as
 * tools, several writes as one batch card — and the same conversation through
 * the JSON-in-text fallback ends in the same schedule. The tools the model
 * sees are the domain's, memory's and the control actions' zod schemas.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { CONTROL_TOOLS } from "../../contracts/execute.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createStageModels } from "../../models/create-models.js";
import { callsToolsNatively } from "../../models/stage-models.js";
import { MEMORY_TOOLS } from "../../nodes/execute/memory-tools.js";
import { z } from "zod";
import { argumentsSchema, langChainTools, modelArgumentsSchema } from "../../tools/langchain-tools.js";
import { checkToolArguments } from "../../tools/runner.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import {
  interruptsOf,
  json,
  resume,
  scriptedGraph,
  systemText,
  threadConfig,
  unpairedToolCalls,
  planDone,
} from "../support/scripted.js";

const PLAN = planDone(
  [
    { content: "Read the week", done_when: "the pending tasks and the free time are known" },
    { content: "Place the calculus reviews", done_when: "they have a place" },
  ],
  { speak: "Two steps.", reason: "clear", complexity: "simple" },
);
const READS = [
  { name: "list_tasks", args: { source: "task_item", limit: 100 } },
  { name: "find_free", args: { min_length: 1, limit: 100 } },
];
const PLACES = [
  { name: "place", args: { task_id: "review-limits", day: 1, slot_start: 5 } },
  { name: "place", args: { task_id: "derivative-drills", day: 2, slot_start: 3 } },
];
const call = (entry: { name: string; args: Record<string, unknown> }, index: number) => ({
  ...entry,
  id: `native-${entry.name}-${index}`,
  type: "tool_call" as const,
});

/** The conversation as native tool calls: reads in parallel, next_plan, a write with bad arguments, two writes at once, done. */
const NATIVE = [
  new AIMessage({ content: "Reading the week.", tool_calls: READS.map(call) }),
  new AIMessage({
    content: "",
    tool_calls: [call({ name: "next_plan", args: { goal_check: "8 pending tasks, 18 free runs" } }, 0)],
  }),
  new AIMessage({
    content: "",
    tool_calls: [call({ name: "place", args: { task_id: "review-limits", day: "Monday" } }, 0)],
  }),
  new AIMessage({ content: "Placing both.", tool_calls: PLACES.map(call) }),
  new AIMessage({
    content: "",
    tool_calls: [call({ name: "done", args: { goal_check: "both calculus reviews placed" } }, 0)],
  }),
];
/** The same decisions in the JSON contract. */
const JSON_FALLBACK = [
  json({
    speak: "Reading the week.",
    action: "continue",
    reason: "",
    tool_calls: READS.map(({ name, args }) => ({ name, arguments: args })),
  }),
  json({ speak: "", action: "next_plan", reason: "", goal_check: "8 pending tasks, 18 free runs" }),
  json({
    speak: "",
    action: "confirm",
    reason: "",
    tool_call: { name: "place", arguments: { task_id: "review-limits", day: "Monday" } },
  }),
  json({
    speak: "Placing both.",
    action: "confirm",
    reason: "",
    tool_calls: PLACES.map(({ name, args }) => ({ name, arguments: args })),
  }),
  json({ speak: "", action: "done", reason: "", goal_check: "both calculus reviews placed" }),
];

async function run(execute: AIMessage[], toolCalling: "native" | "json") {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const { graph, models } = scriptedGraph({
    domain: createScheduleDomain({ repository }),
    plan: [PLAN],
    execute,
    settings: { replanAfterStep: "never" },
    toolCalling,
  });
  const config = threadConfig(`native-${toolCalling}`);
  await graph.invoke({ messages: [new HumanMessage("Place my calculus reviews")] }, config);
  const batch = await graph.invoke(resume({ type: "accept", args: null }), config);
  const card = interruptsOf(batch)[0]?.value as
    { action_requests: Array<{ name: string; args: Record<string, unknown> }> } | undefined;
  const done = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
  return { models, batch, card, done, schedule: await repository.load("user-1") };
}

const placements = (schedule: ScheduleState) =>
  schedule.tasks
    .filter((task) => task.source === "task_item" && task.status === "placed")
    .map((task) => [task.id, task.slots]);

describe("native tool calling", () => {
  test("a scripted tool-calling model drives the whole graph: parallel reads, control tools, bad arguments refused, two writes on one card", async () => {
    const { models, card, done, schedule } = await run(NATIVE, "native");
    // The two writes came as one card, one action request each; nothing applied before the answer.
    expect(card?.action_requests.map((request) => [request.name, request.args])).toEqual(
      PLACES.map(({ name, args }) => [name, args]),
    );
    expect(done.phase).toBe("done");
    expect(done.planSteps.map((step) => [step.status, step.summary])).toEqual([
      ["done", "8 pending tasks, 18 free runs"],
      ["done", "both calculus reviews placed"],
    ]);
    expect(placements(schedule)).toEqual([
      ["review-limits", [{ day: 1, start: 5, end: 6 }]],
      ["derivative-drills", [{ day: 2, start: 3, end: 3 }]],
    ]);
    expect(unpairedToolCalls(done.messages)).toEqual([]);

    // The prompts are the native ones (no JSON contract) and carry the tool rounds as real tool messages.
    const calls = models.execute.calls;
    expect(calls).toHaveLength(5);
    const system = systemText(calls[0]!.messages);
    expect(system).toContain("call at least one tool (never answer with JSON text)");
    expect(system).not.toContain("<contract>");
    const second = calls[1]!.messages as BaseMessage[];
    expect(
      second.filter((message) => message.getType() === "tool").map((message) => String(message.content).split("\n")[0]),
    ).toEqual([
      "tasks matching source=task_item: 8 of 26",
      "free runs with min_length=1 on days 1-7 slots 1-12: 18 found",
    ]);
    // The write with arguments that do not fit place's schema was refused before any card, and the model told why.
    const refused = (calls[3]!.messages as BaseMessage[])
      .filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(refused.at(-1)).toMatch(/^Error: .*day.*Nothing was changed\.$/);
  });

  test("the same conversation through the JSON-in-text fallback ends in the same schedule", async () => {
    const native = await run(NATIVE, "native");
    const fallback = await run(JSON_FALLBACK, "json");
    expect(systemText(fallback.models.execute.calls[0]!.messages)).toContain("<contract>");
    expect(fallback.card?.action_requests).toEqual(native.card?.action_requests);
    expect(fallback.done.phase).toBe("done");
    expect(placements(fallback.schedule)).toEqual(placements(native.schedule));
    expect(fallback.schedule).toEqual(native.schedule);
    const toolNames = (messages: BaseMessage[]) =>
      messages.flatMap((message) => (message as AIMessage).tool_calls ?? []).map((entry) => entry.name);
    expect(toolNames(fallback.done.messages)).toEqual(toolNames(native.done.messages));
  });

  test("a control call whose arguments do not fit its schema is corrected, not acted on", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const execute = [
      new AIMessage({ content: "", tool_calls: [call({ name: "done", args: {} }, 0)] }),
      new AIMessage({ content: "", tool_calls: [call({ name: "done", args: { goal_check: "nothing to do" } }, 1)] }),
    ];
    const oneStep = planDone([{ content: "Check", done_when: "checked" }], {
      speak: "",
      reason: "",
      complexity: "simple",
    });
    const { graph, models } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [oneStep],
      execute,
      toolCalling: "native",
    });
    const config = threadConfig("native-correction");
    await graph.invoke({ messages: [new HumanMessage("Check my week")] }, config);
    const done = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(done.phase).toBe("done");
    expect(done.planSteps[0]?.summary).toBe("nothing to do");
    const corrected = (models.execute.calls[1]!.messages as BaseMessage[])
      .map((message) => String(message.content))
      .join("\n");
    expect(corrected).toContain("the done call's arguments did not fit its schema (goal_check:");
  });
});

describe("tool-calling mode", () => {
  test("one adapter: the domain's, memory and control tools become LangChain tools with the same zod schemas", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    const tools = langChainTools(domain, [...MEMORY_TOOLS, ...CONTROL_TOOLS]);
    expect(tools.map((entry) => entry.name)).toEqual([
      ...domain.tools.map((entry) => entry.name),
      "update_working_memory",
      "retrieve_facts",
      "recall_episodes",
      "ask_user",
      "next_plan",
      "done",
    ]);
    const place = domain.tools.find((entry) => entry.name === "place")!;
    // The same schema as JSON, less what only costs tokens: the $schema URL and zod's safe-integer bounds.
    const bound = toJsonSchema(tools.find((entry) => entry.name === "place")!.schema) as {
      properties: Record<string, Record<string, unknown>>;
    };
    const full = toJsonSchema(place.schema) as {
      $schema?: string;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(full.$schema).toBeDefined();
    expect(bound).not.toHaveProperty("$schema");
    expect(Object.keys(bound.properties)).toEqual(Object.keys(full.properties));
    expect(full.properties.day).toMatchObject({ type: "integer", maximum: Number.MAX_SAFE_INTEGER });
    expect(bound.properties.day).toEqual({ type: "integer", description: full.properties.day!.description });
    expect(argumentsSchema(z.object({ count: z.number().int().min(1).max(5) }))).toMatchObject({
      properties: { count: { type: "integer", minimum: 1, maximum: 5 } },
    });
  });

  test("the schemas sent to a model are terse (no pattern beside a format, no flood bounds, no argument the code fills); zod still checks every argument", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    const tool = (name: string) => domain.tools.find((entry) => entry.name === name)!;
    const sent = (name: string) => JSON.stringify(modelArgumentsSchema(tool(name).schema));
    // mark_done's "at": a date-time, without the 300-character pattern zod writes beside the format.
    expect(sent("mark_done")).toContain('"format":"date-time"');
    expect(sent("mark_done")).not.toContain("pattern");
    expect(sent("propose_arrangement")).not.toMatch(/maxItems":400|additionalProperties|"limits"/);
    expect(sent("propose_candidates")).not.toContain('"avoid"');
    // Not shown, still checked: the code's own limits pass, a malformed list or a bound crossed is refused.
    expect(
      checkToolArguments(tool("propose_arrangement"), { limits: [{ task_id: "matrix-review", not_days: [5] }] }).ok,
    ).toBe(true);
    expect(checkToolArguments(tool("propose_arrangement"), { limits: [{ not_days: [5] }] }).ok).toBe(false);
    expect(checkToolArguments(tool("propose_candidates"), { k: 3, avoid: [{ task_id: "" }] }).ok).toBe(false);
    expect(checkToolArguments(tool("mark_done"), { task_id: "matrix-review", at: "yesterday" }).ok).toBe(false);
    expect(checkToolArguments(tool("place"), { task_id: "", day: 1, slot_start: 1 }).ok).toBe(false);
    // A number sent as text reads as the number; a refusal names only the field that is wrong, never one it read.
    expect(checkToolArguments(tool("place"), { task_id: "review-limits", day: "3", slot_start: "x" })).toEqual({
      ok: false,
      problem: 'invalid arguments for place: slot_start: expected a number, got "x"',
      data: {
        invalidArguments: { tool: "place", issues: [{ field: "slot_start", problem: "not_usable", given: '"x"' }] },
      },
    });
  });

  test("auto is native for a model with bindTools and json for one without; native without bindTools is a configuration error", () => {
    const withTools = fakeModel();
    expect(callsToolsNatively({ default: withTools }, "execute")).toBe(true);
    expect(callsToolsNatively({ default: withTools, toolCalling: "json" }, "execute")).toBe(false);
    const offline = new ScheduleOfflinePolicy();
    expect(callsToolsNatively({ default: offline }, "execute")).toBe(false);
    expect(() => callsToolsNatively({ default: offline, toolCalling: "native" }, "execute")).toThrow(
      expect.objectContaining({ code: "INVALID_CONFIGURATION" }),
    );
    expect(() =>
      buildTempoGraph({
        models: { default: offline, toolCalling: "native" },
        domain: createScheduleDomain({ repository: new InMemoryScheduleRepository() }),
        checkpointer: new MemorySaver(),
      }),
    ).toThrow(/TEMPO_TOOL_CALLING=json or auto/);
  });

  test("TEMPO_TOOL_CALLING reaches the stage models; a value it does not know is refused", () => {
    const offline = () => new ScheduleOfflinePolicy();
    expect(createStageModels(readSettings({}).models, offline).models.toolCalling).toBe("auto");
    expect(
      createStageModels(readSettings({ TEMPO_TOOL_CALLING: "json", OPENAI_API_KEY: "sk-test" }).models, offline).models
        .toolCalling,
    ).toBe("json");
    expect(() => readSettings({ TEMPO_TOOL_CALLING: "sometimes" })).toThrow(
      /TEMPO_TOOL_CALLING must be auto, native or json/,
    );
  });
});
