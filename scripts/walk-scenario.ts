/**
 * The scenario the walk of an answer measures (scripts/walk.ts, docs/design.md#the-walk-of-an-answer), shared with
 * the test that holds its figures (tests/review/accept-walk.test.ts): a served graph waiting on a card of two writes,
 * the Accept Agent Inbox sends for the first, and the project files whose functions ran while some work ran.
 */
import { readdirSync, statSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { buildTempoGraph } from "../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../tools/schedule/index.js";
import { json, scripted } from "../tests/support/scripted.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCE_FOLDERS = readdirSync(ROOT).filter(
  (name) =>
    !["node_modules", "tests", "bench", "scripts", "examples", "docs"].includes(name) &&
    !name.startsWith(".") &&
    statSync(path.join(ROOT, name)).isDirectory(),
);

const TWO = [
  { task_id: "review-limits", day: 1, slot_start: 5 },
  { task_id: "matrix-review", day: 2, slot_start: 3 },
];

/** A served graph on a thread waiting on a card of two writes, and the Accept Agent Inbox sends for the first. */
async function waitingOnBatch(threadId: string, smallTalk = false) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const plan = json({
    speak: "One step.",
    reason: "clear",
    complexity: "simple",
    action: "plan_done",
    plan_steps: [{ content: "Place the review tasks", done_when: "both have a place" }],
  });
  const propose = json({
    speak: "Placing both.",
    action: "confirm",
    reason: "the plan",
    tool_calls: TWO.map((args) => ({ name: "place", arguments: args })),
  });
  const done = json({ speak: "", action: "done", reason: "placed", goal_check: "placed" });
  const chat = json({ intent: "task", reply: "", reason: "needs tools" });
  const talk = json({ intent: "chat", reply: "Hello.", reason: "a greeting" });
  const models = {
    default: scripted([chat, chat]),
    chat: scripted(smallTalk ? [chat, talk] : [chat, chat]),
    plan: scripted([plan]),
    execute: scripted([propose, done, done]),
    deliver: scripted([new AIMessage("All done."), new AIMessage("All done.")]),
  };
  const graph = buildTempoGraph({
    models,
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
    refusedAnswers: "ask_again",
    invalidConfigurable: "ignore",
  });
  const config = { configurable: { thread_id: threadId, user_id: "user-1" } };
  await graph.invoke({ messages: [new HumanMessage("Place my review tasks")] }, config);
  await graph.invoke(
    new Command<unknown, Record<string, never>, never>({ resume: { type: "accept", args: null } }),
    config,
  );
  const accept = new Command<unknown, Record<string, never>, never>({
    resume: [{ type: "accept", args: { action: "place", args: TWO[0] } }],
  });
  return { graph, config, accept };
}

/** What ran while some work ran: the project source files (repo-relative), each with the names of its functions that ran. */
type Ran = Map<string, Set<string>>;

/** The project source files (repo-relative) whose functions ran while `work` ran, with those functions' names. */
async function filesRun(session: Session, work: () => Promise<unknown>): Promise<Ran> {
  await session.post("Profiler.takePreciseCoverage");
  await work();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const ran: Ran = new Map();
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const file = path.relative(ROOT, fileURLToPath(script.url));
    if (!SOURCE_FOLDERS.includes(file.split(path.sep)[0]!)) continue;
    const names = script.functions
      .filter((fn) => fn.ranges.some((range) => range.count > 0))
      .map((fn) => fn.functionName);
    if (names.length > 0) ran.set(file, new Set(names));
  }
  return ran;
}

/**
 * The walk of one served Accept: the files it ran (`acceptFiles`), the run base's (`baseFiles`: a plain message on a
 * thread with no card), the answer's own path (`own`: the Accept's less the base's), and the functions the Accept ran
 * (`acceptFunctions`: `file#name`). Coverage is taken in this process; a first thread runs the scenario before, so no
 * module's loading is counted.
 */
export async function walkAccept(): Promise<{
  acceptFiles: string[];
  baseFiles: string[];
  own: string[];
  acceptFunctions: string[];
}> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
    // Warm up: every module loaded, every lazy path compiled once.
    const warm = await waitingOnBatch("walk-warm");
    await warm.graph.invoke(warm.accept, warm.config);

    // The run base: a plain message answered by the chat stage alone, on a thread with no card.
    const idleBase = await waitingOnBatch("walk-base", true);
    const idle = { configurable: { thread_id: "walk-idle", user_id: "user-1" } };
    const base = await filesRun(session, () => idleBase.graph.invoke({ messages: [new HumanMessage("Hello")] }, idle));
    const served = await waitingOnBatch("walk-accept");
    const accept = await filesRun(session, () => served.graph.invoke(served.accept, served.config));
    await session.post("Profiler.stopPreciseCoverage");
    const acceptFiles = [...accept.keys()].sort();
    const baseFiles = [...base.keys()].sort();
    const acceptFunctions = [...accept].flatMap(([file, names]) => [...names].map((name) => `${file}#${name}`)).sort();
    return { acceptFiles, baseFiles, own: acceptFiles.filter((file) => !baseFiles.includes(file)), acceptFunctions };
  } finally {
    session.disconnect();
  }
}
