/**
 * The strict OpenAI double answers as Tempo's offline model of the domains served (`offlineBrain`, what
 * `npm run double` serves for `TEMPO_DOMAINS`): with the to-do list served beside the schedule, a conversation of
 * to-do writes, a listing and a schedule move ends through the double as it does on the offline router in process —
 * each to-do result read back from its text (`OfflinePlugin.readToolText`), since a server gets text only. Before,
 * the double played the schedule alone: "add a to-do" was "Offline, I can't tell what to do".
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { offlinePoliciesFor } from "../../offline/registry.js";
import { OfflineRouter } from "../../offline/router.js";
import { parseTodoToolData } from "../../offline/todo/result-parsing.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import type { StageModels } from "../../models/stage-models.js";
import { combineDomains } from "../../tools/combined-domain.js";
import { createScheduleDomain, InMemoryScheduleRepository } from "../../tools/schedule/index.js";
import {
  createTodoDomain,
  InMemoryTodoRepository,
  sampleTodos,
  todoTools,
  type TodoState,
} from "../../tools/todo/index.js";
import { halfPlacedWeek, placeOf } from "../graph/support/offline-conversation.js";
import { approveEveryCard, modelsAtDouble } from "../support/openai-double/drive.js";
import { offlineBrain, startOpenAIDouble, type OpenAIDouble } from "../support/openai-double/index.js";
import { threadConfig } from "../support/scripted.js";

const USER = "student";
const DOMAINS = ["schedule", "todo"];
const CONVERSATION = [
  "add a to-do: buy milk",
  "show my to-dos",
  "mark buy milk done",
  "Move my matrix review to Thursday",
];

interface Outcome {
  answers: Array<string | null>;
  todos: TodoState;
  matrixReview: string;
  error?: string;
}

async function converse(models: StageModels): Promise<Outcome> {
  const scheduleRepository = new InMemoryScheduleRepository();
  await scheduleRepository.seed(USER, halfPlacedWeek());
  const todoRepository = new InMemoryTodoRepository();
  await todoRepository.seed(USER, sampleTodos());
  const graph = buildTempoGraph({
    models,
    domain: combineDomains([
      createScheduleDomain({ repository: scheduleRepository }),
      createTodoDomain({ repository: todoRepository }),
    ]),
    checkpointer: new MemorySaver(),
    settings: readSettings({}).workflow,
  });
  const config = threadConfig(`double-domains-${Math.random().toString(36).slice(2)}`, USER);
  const run = async (input: Parameters<typeof graph.invoke>[0]) => void (await graph.invoke(input, config));
  const answers: Array<string | null> = [];
  let error: string | undefined;
  try {
    for (const message of CONVERSATION) {
      await run({ messages: [new HumanMessage(message)] });
      await approveEveryCard(graph, config, run);
      answers.push(((await graph.getState(config)).values as { finalAnswer: string | null }).finalAnswer);
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  return {
    answers,
    todos: await todoRepository.load(USER),
    matrixReview: placeOf(await scheduleRepository.load(USER), "matrix-review"),
    ...(error === undefined ? {} : { error }),
  };
}

let double: OpenAIDouble;
let reference: Outcome;

beforeAll(async () => {
  double = await startOpenAIDouble({ brain: offlineBrain(DOMAINS) });
  reference = await converse({ default: new OfflineRouter(offlinePoliciesFor(DOMAINS)) });
});
afterAll(() => double.close());

describe("the double with the to-do list served beside the schedule", () => {
  test("the reference: in process, the to-do is added, listed and done, and the review moved", () => {
    expect(reference.error).toBeUndefined();
    expect(reference.answers[0]).toBe('Done: added the to-do "buy milk".');
    expect(reference.answers[1]).toContain("- buy milk");
    expect(reference.answers[2]).toBe('Done: marked the to-do "buy milk" done.');
    expect(reference.todos.items.at(-1)).toMatchObject({ title: "buy milk", done: true });
    expect(reference.matrixReview).not.toBe(placeOf(halfPlacedWeek(), "matrix-review"));
  });

  test.each([
    { name: "native tool calling", environment: { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "off" } },
    { name: "JSON contract in text", environment: { TEMPO_TOOL_CALLING: "json", TEMPO_STRUCTURED_OUTPUT: "off" } },
  ])("$name: the same answers and the same lists, no request refused", async ({ environment }) => {
    const first = double.requests.length;
    const outcome = await converse(modelsAtDouble(double, environment));
    expect(
      double.requests.slice(first).flatMap((request) => (request.refusal ? [request.refusal.message] : [])),
    ).toEqual([]);
    expect(outcome).toEqual(reference);
  });
});

describe("each to-do tool's text reads back to its data", () => {
  test("a listing, every write, and no data for a failure or another tool's text", () => {
    let state = sampleTodos();
    const tool = (name: string) => todoTools.find((candidate) => candidate.name === name)!;
    const calls: Array<[string, Record<string, unknown>]> = [
      ["list_todos", { status: "all" }],
      ["add_todo", { title: 'say "hi" to Ann' }],
      ["complete_todo", { id: "todo-1" }],
      ["list_todos", { status: "done" }],
      ["reopen_todo", { id: "todo-1" }],
      ["remove_todo", { id: "todo-2" }],
      ["list_todos", { status: "open" }],
    ];
    for (const [name, args] of calls) {
      const run = tool(name).run(state, tool(name).schema.parse(args));
      expect(run.ok, name).toBe(true);
      expect(parseTodoToolData(name, run.content), name).toEqual(run.data);
      if (run.state) state = run.state;
    }
    const failed = tool("complete_todo").run(state, { id: "todo-99" });
    expect(failed.ok).toBe(false);
    expect(parseTodoToolData("complete_todo", failed.content)).toBeUndefined();
    expect(parseTodoToolData("place", "placed task a on day 1 slots 1-2")).toBeUndefined();
  });
});
