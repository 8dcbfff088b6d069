/**
 * The plan request and the first execute request of a task share one head byte for byte (issue 49 item 3), as
 * ChatOpenAI serialises them for the strict OpenAI double: the same tools bound in the same order, the same first
 * system message (the global prompt and the tools said in text), the same live state; each stage's own instructions
 * come after it. In native tool calling the plan binds the execute tools and answers in text (`tool_choice` "none");
 * in JSON mode neither binds any, and they share the head all the same.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { approveEveryCard, modelsAtDouble } from "../support/openai-double/drive.js";
import { startOpenAIDouble, type OpenAIDouble, type RecordedRequest } from "../support/openai-double/index.js";
import { sharedLeadingParts, threadConfig } from "../support/scripted.js";

const USER = "prefix-user";

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble();
});
afterAll(() => double.close());

/** The demo task through the graph at the double, every card approved; the requests it sent, in order. */
async function demoRequests(
  toolCalling: "native" | "json",
  environment: Record<string, string> = {},
): Promise<RecordedRequest[]> {
  const first = double.requests.length;
  const repository = new InMemoryScheduleRepository();
  await repository.seed(USER, sampleWeek());
  const graph = buildTempoGraph({
    models: modelsAtDouble(double, { TEMPO_TOOL_CALLING: toolCalling, TEMPO_STRUCTURED_OUTPUT: "off", ...environment }),
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    settings: readSettings({}).workflow,
    now: () => new Date("2024-03-10T09:00:00Z"),
  });
  const config = threadConfig(`prefix-${toolCalling}-${double.requests.length}`, USER);
  const run = (input: Parameters<typeof graph.invoke>[0]) => graph.invoke(input, config);
  await run({ messages: [new HumanMessage("Help me arrange next week's review sessions.")] });
  await approveEveryCard(graph, config, run);
  expect(double.refusals).toEqual([]);
  return double.requests.slice(first);
}

/** The request as a provider's prompt cache reads it: the tools, then each message, serialised in request order. */
const serialisedParts = (request: RecordedRequest) => [
  JSON.stringify(request.body.tools ?? null),
  ...(request.body.messages ?? []).map((message) => JSON.stringify(message)),
];

/** How many leading parts two requests share byte for byte. */
const sharedParts = (first: RecordedRequest, second: RecordedRequest) =>
  sharedLeadingParts(serialisedParts(first), serialisedParts(second));

/**
 * The requests with a system message after another role's (some servers' chat templates refuse one mid-conversation):
 * the stage's own instructions after the shared head are a user message, so the only system message stays the first.
 */
const systemOnlyFirst = (requests: readonly RecordedRequest[]) =>
  requests
    .filter((request) => (request.body.messages ?? []).some((message, index) => index > 0 && message.role === "system"))
    .map((request) => `${request.stage}: ${(request.body.messages ?? []).map((message) => message.role).join(",")}`);

describe("the plan and execute requests' shared head", () => {
  test("native tool calling: the plan binds the first execute call's tools in their order and answers in text; both begin with the same head and live state", async () => {
    const requests = await demoRequests("native");
    const plan = requests.find((request) => request.stage === "plan")!;
    const execute = requests.find((request) => request.stage === "execute")!;
    expect(plan.body.tools?.length).toBeGreaterThan(0);
    expect(plan.body.tool_choice).toBe("none");
    expect(execute.body.tool_choice).toBeUndefined();
    // Tools, the head's system message, the live state: byte for byte; the stage's own message differs.
    expect(sharedParts(plan, execute)).toBe(3);
    expect(systemOnlyFirst(requests)).toEqual([]);
    const [, head, live, own] = serialisedParts(plan);
    expect(head).toContain('"role":"system"');
    expect(head).toContain("<packs>");
    expect(live).toContain("<live_state>");
    expect(own).toContain('"role":"user","content":"<stage name=\\"plan\\">');
    expect(serialisedParts(execute)[3]).toContain('<stage name=\\"execute\\">');
    // The plan still answered with its JSON contract in text: the task went on to execute and placed the week.
    expect(plan.reply?.toolCalls ?? []).toEqual([]);
    expect(JSON.parse(plan.reply?.content ?? "{}")).toMatchObject({ action: "plan_done" });
  });

  test("JSON mode: no tools bound, and the plan and execute requests still share the head and live state", async () => {
    const requests = await demoRequests("json");
    const plan = requests.find((request) => request.stage === "plan")!;
    const execute = requests.find((request) => request.stage === "execute")!;
    expect(plan.body.tools).toBeUndefined();
    expect(execute.body.tools).toBeUndefined();
    expect(sharedParts(plan, execute)).toBe(3);
    expect(systemOnlyFirst(requests)).toEqual([]);
    // In JSON mode the head lists the tools with their arguments: the execute stage's brief, shared with the plan.
    expect(serialisedParts(plan)[1]).toContain("propose_arrangement [read]");
    expect(serialisedParts(execute)[3]).toContain("<contract>");
  });
  test("TEMPO_SHARED_HEAD=off: the plan binds no tools and has the planner's own head, fewer tokens; the task still places the week", async () => {
    expect(() => readSettings({ TEMPO_SHARED_HEAD: "sometimes" })).toThrow(/TEMPO_SHARED_HEAD must be on or off/);
    expect(readSettings({}).models.sharedHead).toBe(true);
    const characters = (request: RecordedRequest) =>
      JSON.stringify(request.body.tools ?? []).length + JSON.stringify(request.body.messages).length;
    const on = (await demoRequests("native")).find((request) => request.stage === "plan")!;
    const requests = await demoRequests("native", { TEMPO_SHARED_HEAD: "off" });
    const plan = requests.find((request) => request.stage === "plan")!;
    const execute = requests.find((request) => request.stage === "execute")!;
    expect(plan.body.tools).toBeUndefined();
    expect(plan.body.tool_choice).toBeUndefined();
    // The planner's prompt is in the first system message: nothing but the global prompt is shared with execute.
    expect(serialisedParts(plan)[1]).toContain('<stage name=\\"plan\\">');
    expect(sharedParts(plan, execute)).toBe(0);
    expect(characters(plan)).toBeLessThan(characters(on) * 0.7);
    // Execute binds its tools as ever, and the plan's decision in text took the task on to an approved card.
    expect(execute.body.tools?.length).toBeGreaterThan(0);
    expect(JSON.parse(plan.reply?.content ?? "{}")).toMatchObject({ action: "plan_done" });
    expect(requests.some((request) => request.stage === "execute" && (request.reply?.toolCalls ?? []).length > 0)).toBe(
      true,
    );
  });
});
