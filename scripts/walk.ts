/**
 * The walk of a card's answer (docs/design.md#the-walk-of-an-answer), measured rather than guessed:
 *
 * 1. **One served Agent Inbox Accept of one write of a batch.** The served graph (`buildTempoGraph` with the served
 *    graph's options: a refused answer asks again, a bad configurable is ignored) raises a card of two writes; the
 *    Accept is Agent Inbox's one-element list echoing the first write (`[{ type: "accept", args: { action, args } }]`).
 *    V8's precise coverage (function call counts, `node:inspector`) is reset just before the resume and read just
 *    after it: every project source file with a function that ran is a file the answer crossed, from the run's
 *    admission (the guarded `stream`) to the applied write and the next card. A first thread runs the same scenario
 *    before, so no module's loading is counted. The LangGraph library and the HTTP layer of `langgraph dev` are not
 *    counted (they are not Tempo's files); the run base — the files a run that answers no card crosses too (the
 *    guard, the checkpoint, state channels, the graph's routing) — is measured the same way with a plain message, and
 *    printed apart, so the answer's own path is what is left; of that, the files of the write's own tool domain
 *    (`tools/<domain>/`, which run however a write is approved) are printed apart too.
 * 2. **What a decision kind touches**: the source files whose code (comments and single-quoted messages left out)
 *    names a decision kind (`type: "approve"`, `"edit"`, `"reject"`, `"accept"`, `"ignore"`, `"response"`) or a type
 *    listing them (`CardAnswer`, `DecisionType`, `DECISION_TYPES`, `HumanResponse`): the files a new kind must be
 *    taught to (an upper bound: a file that only makes an accept, as auth's settling run does, is counted too).
 *
 * Run: `npx tsx scripts/walk.ts` (prints both; `--files` lists the files).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command, MemorySaver } from "@langchain/langgraph";
import { buildTempoGraph } from "../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../tools/schedule/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE_FOLDERS = readdirSync(ROOT).filter(
  (name) =>
    !["node_modules", "tests", "bench", "scripts", "examples", "docs"].includes(name) &&
    !name.startsWith(".") &&
    statSync(path.join(ROOT, name)).isDirectory(),
);

const json = (value: unknown) => new AIMessage(JSON.stringify(value));
const scripted = (replies: AIMessage[]) => {
  const model = fakeModel();
  for (const reply of replies) model.respond(reply);
  return model;
};

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

/** The project source files (repo-relative) whose functions ran while `work` ran. */
async function filesRun(session: Session, work: () => Promise<unknown>): Promise<string[]> {
  await session.post("Profiler.takePreciseCoverage");
  await work();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const file = path.relative(ROOT, fileURLToPath(script.url));
    if (!SOURCE_FOLDERS.includes(file.split(path.sep)[0]!)) continue;
    if (script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) files.add(file);
  }
  return [...files].sort();
}

const folders = (files: readonly string[]) => [...new Set(files.map((file) => path.dirname(file)))].sort();
const topFolders = (files: readonly string[]) => [...new Set(files.map((file) => file.split(path.sep)[0]!))].sort();

/** Source files whose code, comments left out, names a decision kind or a type listing them. */
function decisionKindFiles(): string[] {
  const pattern =
    /\btype:\s*"(approve|reject|edit|accept|ignore|response)"|\bCardAnswer\b|\bDecisionType\b|\bDECISION_TYPES\b|\bHumanResponse\b/;
  const walk = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) return walk(full);
      return name.endsWith(".ts") ? [full] : [];
    });
  return SOURCE_FOLDERS.flatMap((folder) => walk(path.join(ROOT, folder)))
    .filter((file) => {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
        .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
      return pattern.test(code);
    })
    .map((file) => path.relative(ROOT, file))
    .sort();
}

async function main() {
  const list = process.argv.includes("--files");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  // Warm up: every module loaded, every lazy path compiled once.
  const warm = await waitingOnBatch("walk-warm");
  await warm.graph.invoke(warm.accept, warm.config);

  // The run base: a plain message answered by the chat stage alone, on a thread with no card.
  const base = await waitingOnBatch("walk-base", true);
  const idle = { configurable: { thread_id: "walk-idle", user_id: "user-1" } };
  const baseFiles = await filesRun(session, () => base.graph.invoke({ messages: [new HumanMessage("Hello")] }, idle));
  const served = await waitingOnBatch("walk-accept");
  const acceptFiles = await filesRun(session, () => served.graph.invoke(served.accept, served.config));
  const own = acceptFiles.filter((file) => !baseFiles.includes(file));
  session.disconnect();

  const kinds = decisionKindFiles();
  const report = (title: string, files: string[]) => {
    console.log(
      `${title}: ${files.length} files in ${folders(files).length} folders (${topFolders(files).length} top-level)`,
    );
    if (list) for (const file of files) console.log(`  ${file}`);
  };
  report("One served Accept of one write of a batch", acceptFiles);
  report(
    "  of which the run base (a plain message crosses them too)",
    acceptFiles.filter((file) => baseFiles.includes(file)),
  );
  report("  the answer's own path", own);
  // The write's own tool (its domain's files under tools/<domain>/) runs however the write was approved.
  report(
    "  the answer's own path, less the applied tool's domain",
    own.filter((file) => !/^tools[/\\][^/\\]+[/\\]/.test(file)),
  );
  report("A decision kind is named in", kinds);
}

await main();
