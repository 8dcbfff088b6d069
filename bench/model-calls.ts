/**
 * Model calls and prompt tokens per task (issue 24, item 5): real `ChatOpenAI` over HTTP to the strict OpenAI
 * server double (`tests/support/openai-double/`, its default brain playing the schedule model), which records
 * every request. Four tasks, each on its own thread, every card approved as `scripts/demo.ts` does:
 *
 * - demo: "Help me arrange next week's review sessions." on the sample week;
 * - move: "Move my matrix review to Thursday", swap: "Swap review-limits and matrix-review" and
 *   read: "When am I free on Saturday afternoon?", each on the half-placed week (both reviews placed);
 *
 * in four modes: native tool calling (structured output off, and on: OpenAI's default), the JSON contract in text,
 * the JSON contract with structured output.
 * Per task and mode it prints model calls and prompt tokens per stage (by the `<stage name=…>` tag of each
 * request's system message) and in total, prompt characters, and refused requests.
 *
 * Prompt tokens are counted on the request bodies as sent, with the o200k_base tokenizer (bundled with
 * js-tiktoken, no download): each message's role, content and tool calls (name and arguments) plus 3 tokens a
 * message and 3 for the reply (OpenAI's counting cookbook), plus the `tools` and `response_format` JSON as the
 * request carries it (an upper bound of what OpenAI renders from them). Prompt characters count the same text.
 * The double's own `usage` (characters / 4) is not used.
 *
 * Goals: the demo task in ≤ 6 model calls and ≤ 40 % of the baseline's prompt tokens, every other task in ≤ 4
 * calls. The baseline ({@link BASELINE}) is fixed: these figures measured on commit 50bd5ee, before this work.
 * Exits non-zero when any request is refused or a task does not finish.
 *
 *   npx tsx bench/model-calls.ts
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { readSettings } from "../config/environment.js";
import { buildTempoGraph } from "../server/tempo-graph.js";
import { tiktokenCounter } from "../memory/tokens.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../tools/schedule/index.js";
import { combineDomains } from "../tools/combined-domain.js";
import { createTodoDomain, InMemoryTodoRepository, withSampleTodos } from "../tools/todo/index.js";
import { halfPlacedWeek } from "../tests/graph/support/offline-conversation.js";
import { contentText } from "../tests/support/openai-double/brain.js";
import { startOpenAIDouble, type ChatRequestBody, type OpenAIDouble } from "../tests/support/openai-double/index.js";
import { approveEveryCard, modelsAtDouble } from "../tests/support/openai-double/drive.js";
import { threadConfig } from "../tests/support/scripted.js";

export const STAGES = ["chat", "plan", "plan_deep", "execute", "deliver", "memory"] as const;
export type Stage = (typeof STAGES)[number];

export interface BenchTask {
  name: "demo" | "move" | "swap" | "read";
  message: string;
  week: () => ScheduleState;
}

export const TASKS: readonly BenchTask[] = [
  { name: "demo", message: "Help me arrange next week's review sessions.", week: sampleWeek },
  { name: "move", message: "Move my matrix review to Thursday", week: () => halfPlacedWeek() },
  { name: "swap", message: "Swap review-limits and matrix-review", week: () => halfPlacedWeek() },
  { name: "read", message: "When am I free on Saturday afternoon?", week: () => halfPlacedWeek() },
];

export interface BenchMode {
  name: "native" | "native+structured" | "json" | "json+structured";
  environment: Record<string, string>;
}

export const MODES: readonly BenchMode[] = [
  { name: "native", environment: { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "off" } },
  // OpenAI's default (both settings auto, no base URL): chat and plan by strict response_format, execute by tools.
  { name: "native+structured", environment: { TEMPO_TOOL_CALLING: "native", TEMPO_STRUCTURED_OUTPUT: "on" } },
  { name: "json", environment: { TEMPO_TOOL_CALLING: "json", TEMPO_STRUCTURED_OUTPUT: "off" } },
  { name: "json+structured", environment: { TEMPO_TOOL_CALLING: "json", TEMPO_STRUCTURED_OUTPUT: "on" } },
];

/** Figures of one request, stage or task. */
export interface Figures {
  calls: number;
  promptTokens: number;
  promptChars: number;
}

export interface Measurement {
  task: BenchTask["name"];
  mode: BenchMode["name"];
  /** Per stage; requests with no known stage tag under "other". */
  stages: Record<Stage | "other", Figures>;
  total: Figures;
  /** Requests the double refused (400). */
  refused: number;
  /** The first refusal's message, if any. */
  firstRefusal?: string;
  /** Cards approved. */
  cards: number;
  /**
   * Execute requests that carried tool schemas, the characters of those schemas (`tools` as sent) in all, and the
   * most one request carried (goal: ≤ {@link TOOL_SCHEMA_GOAL}).
   */
  executeTools: { calls: number; chars: number; max: number };
  /** The thread's phase at the end ("done" when the task finished). */
  phase: string;
  /** Task items placed in the week at the end. */
  placed: number;
  /** The run's error, if it stopped on one. */
  error?: string;
}

/** A baseline measurement: totals, calls and prompt tokens per stage (in {@link STAGES} order), and the requests a strict server refuses. */
export interface BaselineFigures extends Figures {
  stageCalls: readonly number[];
  stageTokens: readonly number[];
  refused: number;
}

/**
 * The baseline: this bench run on commit 50bd5ee (the last commit before issue 24's work) in a worktree, with this
 * script and the double copied in and the double changed in one place — it records what it would refuse, then
 * answers it anyway (there every request after the first tool round replays a 41-character tool-call id, and
 * json+structured's execute schema is not in the strict subset, so no task gets past its first refusal otherwise).
 * Same tasks, modes, tokenizer and counting; the figures are deterministic (two runs alike).
 */
export const BASELINE_COMMIT = "50bd5ee";
export const BASELINE: Readonly<Record<BenchTask["name"], Readonly<Record<BenchMode["name"], BaselineFigures>>>> = {
  demo: {
    native: {
      calls: 14,
      promptTokens: 39_167,
      promptChars: 161_328,
      stageCalls: [1, 3, 0, 9, 1, 0],
      stageTokens: [269, 8_391, 0, 29_868, 639, 0],
      refused: 6,
    },
    "native+structured": {
      calls: 14,
      promptTokens: 41_323,
      promptChars: 170_347,
      stageCalls: [1, 3, 0, 9, 1, 0],
      stageTokens: [514, 10_302, 0, 29_868, 639, 0],
      refused: 6,
    },
    json: {
      calls: 14,
      promptTokens: 32_786,
      promptChars: 129_810,
      stageCalls: [1, 3, 0, 9, 1, 0],
      stageTokens: [269, 8_391, 0, 23_487, 639, 0],
      refused: 6,
    },
    "json+structured": {
      calls: 14,
      promptTokens: 40_081,
      promptChars: 160_231,
      stageCalls: [1, 3, 0, 9, 1, 0],
      stageTokens: [514, 10_302, 0, 28_626, 639, 0],
      refused: 9,
    },
  },
  move: {
    native: {
      calls: 7,
      promptTokens: 16_046,
      promptChars: 66_687,
      stageCalls: [1, 1, 0, 4, 1, 0],
      stageTokens: [268, 2_232, 0, 12_957, 589, 0],
      refused: 3,
    },
    "native+structured": {
      calls: 7,
      promptTokens: 16_928,
      promptChars: 70_384,
      stageCalls: [1, 1, 0, 4, 1, 0],
      stageTokens: [513, 2_869, 0, 12_957, 589, 0],
      refused: 3,
    },
    json: {
      calls: 7,
      promptTokens: 13_210,
      promptChars: 52_679,
      stageCalls: [1, 1, 0, 4, 1, 0],
      stageTokens: [268, 2_232, 0, 10_121, 589, 0],
      refused: 3,
    },
    "json+structured": {
      calls: 7,
      promptTokens: 16_376,
      promptChars: 65_888,
      stageCalls: [1, 1, 0, 4, 1, 0],
      stageTokens: [513, 2_869, 0, 12_405, 589, 0],
      refused: 4,
    },
  },
  swap: {
    native: {
      calls: 6,
      promptTokens: 12_505,
      promptChars: 52_302,
      stageCalls: [1, 1, 0, 3, 1, 0],
      stageTokens: [269, 2_234, 0, 9_468, 534, 0],
      refused: 2,
    },
    "native+structured": {
      calls: 6,
      promptTokens: 13_387,
      promptChars: 55_999,
      stageCalls: [1, 1, 0, 3, 1, 0],
      stageTokens: [514, 2_871, 0, 9_468, 534, 0],
      refused: 2,
    },
    json: {
      calls: 6,
      promptTokens: 10_378,
      promptChars: 41_796,
      stageCalls: [1, 1, 0, 3, 1, 0],
      stageTokens: [269, 2_234, 0, 7_341, 534, 0],
      refused: 2,
    },
    "json+structured": {
      calls: 6,
      promptTokens: 12_973,
      promptChars: 52_627,
      stageCalls: [1, 1, 0, 3, 1, 0],
      stageTokens: [514, 2_871, 0, 9_054, 534, 0],
      refused: 3,
    },
  },
  read: {
    native: {
      calls: 5,
      promptTokens: 8_427,
      promptChars: 35_466,
      stageCalls: [1, 1, 0, 2, 1, 0],
      stageTokens: [269, 2_234, 0, 5_537, 387, 0],
      refused: 1,
    },
    "native+structured": {
      calls: 5,
      promptTokens: 9_309,
      promptChars: 39_163,
      stageCalls: [1, 1, 0, 2, 1, 0],
      stageTokens: [514, 2_871, 0, 5_537, 387, 0],
      refused: 1,
    },
    json: {
      calls: 5,
      promptTokens: 7_009,
      promptChars: 28_462,
      stageCalls: [1, 1, 0, 2, 1, 0],
      stageTokens: [269, 2_234, 0, 4_119, 387, 0],
      refused: 1,
    },
    "json+structured": {
      calls: 5,
      promptTokens: 9_033,
      promptChars: 36_915,
      stageCalls: [1, 1, 0, 2, 1, 0],
      stageTokens: [514, 2_871, 0, 5_261, 387, 0],
      refused: 2,
    },
  },
};

/** Most model calls a task may take: the demo 6, the others 4. */
export const CALL_GOAL: Readonly<Record<BenchTask["name"], number>> = { demo: 6, move: 4, swap: 4, read: 4 };
/** The demo's prompt tokens at most this share of the baseline's. */
export const DEMO_TOKEN_GOAL = 0.4;
/** Most tool-schema characters one execute request may carry (issue 49 item 1). */
export const TOOL_SCHEMA_GOAL = 5_000;

/** Per message (and once for the reply), as OpenAI's token-counting cookbook counts them. */
const TOKENS_PER_MESSAGE = 3;

/** Prompt tokens and characters of one request body. */
export function promptSize(body: ChatRequestBody): Omit<Figures, "calls"> {
  const pieces: string[] = [];
  const messages = body.messages ?? [];
  for (const message of messages) {
    pieces.push(message.role ?? "", contentText(message.content));
    for (const call of message.tool_calls ?? [])
      pieces.push(
        call.function?.name ?? "",
        typeof call.function?.arguments === "string"
          ? call.function.arguments
          : JSON.stringify(call.function?.arguments ?? ""),
      );
  }
  if (body.tools?.length) pieces.push(JSON.stringify(body.tools));
  if (body.response_format) pieces.push(JSON.stringify(body.response_format));
  const tokens = pieces.reduce((sum, piece) => sum + (piece ? tiktokenCounter.count(piece) : 0), 0);
  return {
    promptTokens: tokens + TOKENS_PER_MESSAGE * (messages.length + 1),
    promptChars: pieces.reduce((sum, piece) => sum + piece.length, 0),
  };
}

const emptyFigures = (): Figures => ({ calls: 0, promptTokens: 0, promptChars: 0 });

/** Runs `task` in `mode` through the double on a fresh thread, approving every card, and measures its requests. */
export async function measure(
  double: OpenAIDouble,
  task: BenchTask,
  mode: BenchMode,
  options: { everyTool?: boolean; withTodo?: boolean } = {},
): Promise<Measurement> {
  const user = "student";
  const repository = new InMemoryScheduleRepository();
  await repository.seed(user, task.week());
  const schedule = createScheduleDomain({ repository });
  // With the to-do domain served beside it (TEMPO_DOMAINS=schedule,todo): its tools are two more packs.
  const served = options.withTodo
    ? combineDomains([schedule, createTodoDomain({ repository: withSampleTodos(new InMemoryTodoRepository()) })])
    : schedule;
  // The baseline of tool packs, in the same process: every tool in one pack, always bound (as before packs).
  const domain = options.everyTool
    ? {
        ...served,
        packs: [
          { name: "all", description: "every tool", tools: served.tools.map((tool) => tool.name), default: true },
        ],
      }
    : served;
  const graph = buildTempoGraph({
    models: modelsAtDouble(double, mode.environment),
    domain,
    checkpointer: new MemorySaver(),
    settings: readSettings({}).workflow,
  });
  const config = threadConfig(
    `bench-${task.name}-${mode.name}${options.everyTool ? "-every-tool" : ""}${options.withTodo ? "-with-todo" : ""}`,
    user,
  );
  const first = double.requests.length;
  let cards = 0;
  let error: string | undefined;
  try {
    await graph.invoke({ messages: [new HumanMessage(task.message)] }, config);
    cards = (await approveEveryCard(graph, config, (answer) => graph.invoke(answer, config))).length;
  } catch (caught) {
    error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
  }
  const phase = String(((await graph.getState(config)).values as { phase?: string }).phase);
  const placed = (await repository.load(user)).tasks.filter(
    (task) => task.source === "task_item" && task.status === "placed",
  ).length;
  const requests = double.requests.slice(first);
  const stages = Object.fromEntries(
    [...STAGES, "other"].map((stage) => [stage, emptyFigures()]),
  ) as Measurement["stages"];
  const total = emptyFigures();
  for (const request of requests) {
    const size = promptSize(request.body);
    for (const figures of [
      stages[(STAGES as readonly string[]).includes(request.stage) ? (request.stage as Stage) : "other"],
      total,
    ]) {
      figures.calls += 1;
      figures.promptTokens += size.promptTokens;
      figures.promptChars += size.promptChars;
    }
  }
  const refusals = requests.filter((request) => request.refusal);
  const executeTools = { calls: 0, chars: 0, max: 0 };
  for (const request of requests) {
    if (request.stage !== "execute" || !request.body.tools?.length) continue;
    const chars = JSON.stringify(request.body.tools).length;
    executeTools.calls += 1;
    executeTools.chars += chars;
    executeTools.max = Math.max(executeTools.max, chars);
  }
  return {
    task: task.name,
    mode: mode.name,
    stages,
    total,
    refused: refusals.length,
    firstRefusal: refusals[0]?.refusal?.message,
    cards,
    phase,
    placed,
    executeTools,
    ...(error ? { error } : {}),
  };
}

const number = (value: number) => value.toLocaleString("en-US");
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const joined = (values: readonly number[]) => values.map(number).join(" · ");
const HEADER = `| task | mode | calls ${STAGES.join(" · ")} | calls | prompt tokens ${STAGES.join(" · ")} | tokens | chars | refused |`;
const ALIGN = "| --- | --- | --- | ---: | --- | ---: | ---: | ---: |";

/** One table row: per-stage figures, totals, refusals. */
function row(
  task: string,
  mode: string,
  stageCalls: readonly number[],
  stageTokens: readonly number[],
  total: Figures,
  refused: number,
): string {
  return `| ${task} | ${mode} | ${joined(stageCalls)} | ${total.calls} | ${joined(stageTokens)} | ${number(total.promptTokens)} | ${number(total.promptChars)} | ${refused} |`;
}

/** The table of measurements, in Markdown (requests with no known stage tag add an "other" column entry). */
export function table(measurements: readonly Measurement[]): string[] {
  const stagesOf = (entry: Measurement) => [...STAGES, ...(entry.stages.other.calls > 0 ? (["other"] as const) : [])];
  return [
    `${HEADER} cards | phase |`,
    `${ALIGN} ---: | --- |`,
    ...measurements.map((entry) => {
      const stages = stagesOf(entry).map((stage) => entry.stages[stage]);
      return `${row(
        entry.task,
        entry.mode,
        stages.map((figures) => figures.calls),
        stages.map((figures) => figures.promptTokens),
        entry.total,
        entry.refused,
      )} ${entry.cards} | ${entry.phase} |`;
    }),
  ];
}

/** The baseline's table, in Markdown ("refused": what a strict server refuses of its requests). */
export function baselineTable(): string[] {
  const rows = TASKS.flatMap((task) =>
    MODES.map((mode) => ({ task: task.name, mode: mode.name, base: BASELINE[task.name][mode.name] })),
  );
  return [
    HEADER,
    ALIGN,
    ...rows.map(({ task, mode, base }) => row(task, mode, base.stageCalls, base.stageTokens, base, base.refused)),
  ];
}

/** One line per measurement: its goals, met or not, and the ratios against the baseline. */
export function goalLines(measurements: readonly Measurement[]): string[] {
  return measurements.map((entry) => {
    const base = BASELINE[entry.task][entry.mode];
    const finished = entry.refused === 0 && !entry.error && entry.phase === "done";
    const verdict = (met: boolean) =>
      !finished ? "NOT met (the task did not finish cleanly)" : met ? "met" : "NOT met";
    const tokenRatio = entry.total.promptTokens / base.promptTokens;
    const parts = [
      `${entry.task}, ${entry.mode}: ${entry.total.calls} calls (baseline ${base.calls}; goal ≤ ${CALL_GOAL[entry.task]}) → ${verdict(entry.total.calls <= CALL_GOAL[entry.task])}`,
      `prompt tokens ${percent(tokenRatio)} of the baseline's ${number(base.promptTokens)}` +
        (entry.task === "demo"
          ? ` (goal ≤ ${percent(DEMO_TOKEN_GOAL)}) → ${verdict(tokenRatio <= DEMO_TOKEN_GOAL)}`
          : ""),
      `prompt chars ${percent(entry.total.promptChars / base.promptChars)} of the baseline's`,
    ];
    if (entry.refused > 0) parts.push(`REFUSED ${entry.refused}: ${entry.firstRefusal}`);
    if (entry.error) parts.push(`stopped: ${entry.error}`);
    return parts.join("; ");
  });
}

/** True when every request was accepted and every task finished. */
export function clean(measurements: readonly Measurement[]): boolean {
  return measurements.every((entry) => entry.refused === 0 && !entry.error && entry.phase === "done");
}

/** Per native task: each execute request's tool-schema characters, at most (goal ≤ {@link TOOL_SCHEMA_GOAL}). */
export function schemaLines(measurements: readonly Measurement[]): string[] {
  return measurements
    .filter((entry) => entry.executeTools.calls > 0)
    .map(
      (entry) =>
        `${entry.task}, ${entry.mode}: ${number(entry.executeTools.max)} tool-schema chars at most in one execute call, ${number(Math.round(entry.executeTools.chars / entry.executeTools.calls))} on average over ${entry.executeTools.calls} (goal ≤ ${number(TOOL_SCHEMA_GOAL)}) → ${entry.executeTools.max <= TOOL_SCHEMA_GOAL ? "met" : "NOT met"}`,
    );
}

/** Tool-schema characters per execute call, with the domain's packs and with every tool bound, per native task. */
export function packLines(withPacks: readonly Measurement[], everyTool: readonly Measurement[]): string[] {
  return withPacks.flatMap((entry) => {
    const base = everyTool.find((other) => other.task === entry.task && other.mode === entry.mode);
    if (!base || entry.executeTools.calls === 0 || base.executeTools.calls === 0) return [];
    const now = entry.executeTools.chars / entry.executeTools.calls;
    const before = base.executeTools.chars / base.executeTools.calls;
    return [
      `${entry.task}, ${entry.mode}: ${number(Math.round(now))} tool-schema chars per execute call with packs vs ${number(Math.round(before))} with every tool bound (${percent(now / before)}; ${entry.executeTools.calls} vs ${base.executeTools.calls} execute calls)`,
    ];
  });
}

async function main(): Promise<void> {
  const double = await startOpenAIDouble();
  const measurements: Measurement[] = [];
  const everyTool: Measurement[] = [];
  const withTodo: Measurement[] = [];
  const withTodoEveryTool: Measurement[] = [];
  try {
    for (const task of TASKS) for (const mode of MODES) measurements.push(await measure(double, task, mode));
    // The same tasks with every tool bound on every call: the baseline of tool packs, run in this process.
    for (const task of TASKS)
      for (const mode of MODES.filter((each) => each.name.startsWith("native")))
        everyTool.push(await measure(double, task, mode, { everyTool: true }));
    // The demo with the to-do domain served beside the schedule: its packs and every tool of both.
    const native = MODES.filter((each) => each.name.startsWith("native"));
    for (const mode of native) withTodo.push(await measure(double, TASKS[0]!, mode, { withTodo: true }));
    for (const mode of native)
      withTodoEveryTool.push(await measure(double, TASKS[0]!, mode, { withTodo: true, everyTool: true }));
  } finally {
    await double.close();
  }
  console.log(
    `Model calls and prompt tokens per task, real ChatOpenAI through the strict OpenAI server double (tokenizer: ${tiktokenCounter.name})\n`,
  );
  for (const line of table(measurements)) console.log(line);
  console.log(
    `\nBaseline (fixed): commit ${BASELINE_COMMIT}, before issue 24's work; "refused": requests a strict server refuses, answered anyway there\n`,
  );
  for (const line of baselineTable()) console.log(line);
  console.log("");
  for (const line of goalLines(measurements)) console.log(line);
  console.log("\nTool schemas per execute call (the JSON of `tools` as sent)\n");
  for (const line of schemaLines(measurements)) console.log(line);
  console.log("\nTool packs: tool-schema characters per execute call (the JSON of `tools` as sent)\n");
  for (const line of packLines(measurements, everyTool)) console.log(line);
  console.log("\nWith the to-do domain served beside the schedule (TEMPO_DOMAINS=schedule,todo):\n");
  for (const line of packLines(withTodo, withTodoEveryTool)) console.log(line);
  if (!clean(measurements) || !clean(everyTool) || !clean(withTodo) || !clean(withTodoEveryTool)) {
    console.error("\nFAILED: a request was refused or a task did not finish (see above).");
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
