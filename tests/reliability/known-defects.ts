/**
 * Reproductions of the defects issue 8's reliability work found outside its
 * own files. Not a test file (vitest does not run it, and nothing here fails
 * the suite): it prints PRESENT or FIXED for each, so that the owners can
 * check a fix, and the matching assertion can then move into the suite.
 *
 *   npx tsx tests/reliability/known-defects.ts
 */
import { spawnSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { extractJsonObject } from "../../contracts/json-extraction.js";
import { buildTempoGraph } from "../../graphs/tempo.js";
import { createStageModels } from "../../models/create-models.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { startFakeOpenAIServer } from "../support/fake-openai-server.js";
import { startRealTestPostgres } from "../support/postgres.js";
import { json, resume, scriptedGraph, threadConfig, transcript } from "../support/scripted.js";
import { createCheckpointer, openDatabase } from "../../checkpoints/index.js";
import { isTempoError } from "../../errors/index.js";
import { startRestartablePostgres } from "./support/restartable-postgres.js";

const CRASH_FLAG = "--checked-out-client";
if (process.argv[2] === CRASH_FLAG) {
  // D10, in a process of its own: a checked-out client (as PostgresSaver.put holds one for its transaction) when the
  // server stops. Exits 0 if the process survives.
  const server = await startRestartablePostgres();
  console.log(`CLUSTER ${server.dir}`);
  const database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
  const client = await database.pool.connect();
  await client.query("BEGIN");
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  client.release(true);
  await database.close().catch(() => undefined);
  await server.destroy();
  process.exit(0);
}

const results: Array<[string, boolean, string]> = [];
const report = (id: string, present: boolean, detail: string) => {
  results.push([id, present, detail]);
  console.log(`${present ? "PRESENT" : "FIXED  "} ${id}: ${detail}`);
};
const plan = json({ action: "plan_done", plan_steps: [{ content: "Add the note", done_when: "listed" }] });
const addNote = json({ speak: "Adding.", action: "confirm", tool_call: { name: "add_note", arguments: { text: "x" } } });
const done = json({ action: "done", goal_check: "ok" });
const accept = resume({ type: "accept", args: null });

// D1: extractJsonObject is quadratic in the number of '{'.
{
  const started = Date.now();
  extractJsonObject("{".repeat(20_000));
  const ms = Date.now() - started;
  report("D1 json-extraction quadratic", ms > 200, `20 KB of "{" took ${ms} ms (100 KB: ~24 s)`);
}

// D2: more than ~20 execute rounds in one invocation → GraphRecursionError, not a TempoError.
{
  const read = json({ action: "continue", tool_call: { name: "list_notes", arguments: {} } });
  const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan], execute: [...Array(25).fill(read), done] });
  const config = threadConfig("d2");
  await graph.invoke({ messages: [new HumanMessage("read a lot")] }, config);
  const error = await graph.invoke(accept, config).then(() => undefined, (caught: unknown) => caught);
  report("D2 recursion limit", (error as Error | undefined)?.name === "GraphRecursionError", `25 read rounds after accept: ${(error as Error | undefined)?.name ?? "completed"}`);
}

// D3: a refused message (unknown command) stays in the thread and drops the open card; resumes then fail.
{
  const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
  const config = threadConfig("d3");
  await graph.invoke({ messages: [new HumanMessage("Add a note")] }, config);
  await graph.invoke({ messages: [new HumanMessage("/frobnicate")] }, config).catch(() => undefined);
  const state = await graph.getState(config);
  const resumed = await graph.invoke(accept, config).then(() => "ok", (caught: { code?: string }) => caught.code);
  report("D3 refused input kept / card lost", transcript(state.values.messages).includes("human:/frobnicate") || resumed !== "ok", `messages ${JSON.stringify(transcript(state.values.messages))}; accept after it → ${resumed}`);
}

// D4: another user's "yes" lands in the owner's thread and confirms the owner's write at the owner's next resume.
{
  const domain = createNotesDomain();
  const { graph } = scriptedGraph({ domain, plan: [plan], execute: [addNote, done] });
  const alice = threadConfig("d4", "alice");
  await graph.invoke({ messages: [new HumanMessage("Add a note x")] }, alice);
  await graph.invoke(accept, alice);
  await graph.invoke({ messages: [new HumanMessage("yes")] }, threadConfig("d4", "mallory")).catch(() => undefined);
  await graph.invoke(resume({ type: "ignore", args: null }), alice).catch(() => undefined);
  report("D4 intruder message confirms owner's write", domain.applied.length > 0, `alice answered ignore; writes applied: ${domain.applied.length}`);
}
{
  const store = new InMemoryStore();
  const { graph } = scriptedGraph({ domain: createNotesDomain(), store, plan: [plan] });
  const alice = threadConfig("d4b", "alice");
  await graph.invoke({ messages: [new HumanMessage("Add a note")] }, alice);
  await graph.invoke({ messages: [new HumanMessage("/clear")] }, threadConfig("d4b", "mallory")).catch(() => undefined);
  const after = await graph.invoke(accept, alice).catch(() => undefined);
  report("D4b intruder /clear clears owner's thread", (after?.planSteps.length ?? 1) === 0, `alice's plan after her accept: ${JSON.stringify(after?.planSteps ?? null)}`);
}
{
  const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
  await graph.invoke({ messages: [new HumanMessage("my secret: 1234")] }, threadConfig("d4c", "alice"));
  const chunks: unknown[] = [];
  try {
    for await (const chunk of await graph.stream({ messages: [new HumanMessage("show")] }, { ...threadConfig("d4c", "mallory"), streamMode: "values" })) chunks.push(chunk);
  } catch {
    // THREAD_ACCESS_DENIED
  }
  report("D4c values stream leaks owner's state", JSON.stringify(chunks).includes("1234"), `mallory received ${chunks.length} values chunk(s)`);
}

// D5: a resume of a thread that waits for nothing is a silent no-op; of an unknown thread, creates a checkpoint.
{
  const { graph } = scriptedGraph({ domain: createNotesDomain(), chat: [json({ intent: "chat", reply: "hi" })] });
  const config = threadConfig("d5");
  await graph.invoke({ messages: [new HumanMessage("hello")] }, config);
  const error = await graph.invoke(accept, config).then(() => undefined, (caught: unknown) => caught);
  const unknown = await graph.invoke(accept, threadConfig("d5-never")).then(() => undefined, (caught: unknown) => caught);
  report("D5 resume without an interrupt", error === undefined || unknown === undefined, `finished thread: ${error ? "error" : "no error"}; unknown thread: ${unknown ? "error" : "no error"}`);
}

// D6: a 1 MB message goes whole into every stage prompt.
{
  const { graph, models } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
  await graph.invoke({ messages: [new HumanMessage("x".repeat(1024 * 1024))] }, threadConfig("d6"));
  const size = models.plan.calls[0]!.messages.reduce((total, message) => total + String(message.content).length, 0);
  report("D6 prompts unbounded", size > 100_000, `plan prompt for a 1 MB message: ${size} characters`);
}

// D7: "try again" after the chat model failed plans "try again" instead of the original request.
{
  let healthy = false;
  const server = await startFakeOpenAIServer((request) =>
    !healthy ? { status: 500 } : request.stage === "chat" ? { content: JSON.stringify({ intent: "task" }) } : { content: JSON.stringify({ action: "plan_done", plan_steps: [{ content: "a", done_when: "b" }] }) },
  );
  const { models } = createStageModels({ apiKey: "k", baseUrl: server.baseUrl, model: "m", stageModels: {}, structuredOutput: "auto", timeoutMs: 500, maxRetries: 0 }, () => {
    throw new Error("offline");
  });
  const graph = buildTempoGraph({ models, domain: createNotesDomain(), checkpointer: new MemorySaver() });
  const config = threadConfig("d7");
  await graph.invoke({ messages: [new HumanMessage("Add a note: call mom")] }, config).catch(() => undefined);
  healthy = true;
  const result = await graph.invoke({ messages: [new HumanMessage("try again")] }, config);
  report("D7 retry after chat failure", result.goal !== "Add a note: call mom", `goal after "try again": ${JSON.stringify(result.goal)}`);

  // D8: a 429 without Retry-After is not retried.
  const limited = await startFakeOpenAIServer(() => ({ status: 429 }));
  const { models: limitedModels } = createStageModels({ apiKey: "k", baseUrl: limited.baseUrl, model: "m", stageModels: {}, structuredOutput: "auto", timeoutMs: 500, maxRetries: 2 }, () => {
    throw new Error("offline");
  });
  const limitedGraph = buildTempoGraph({ models: limitedModels, domain: createNotesDomain(), checkpointer: new MemorySaver() });
  await limitedGraph.invoke({ messages: [new HumanMessage("hi")] }, threadConfig("d8")).catch(() => undefined);
  report("D8 headerless 429 not retried", limited.requests.length === 1, `requests with maxRetries 2: ${limited.requests.length}`);
  await server.close();
  await limited.close();
}

// D11: PostgresStore deadlocks its pool with as many concurrent text searches as connections.
{
  const server = await startRealTestPostgres();
  const store = new PostgresStore({ connectionOptions: { connectionString: server.url, max: 4 } });
  await store.setup();
  const search = () => store.batch([{ namespacePrefix: ["tempo", "users", "alice", "facts"], query: "review", limit: 5 }]);
  const outcome = await Promise.race([Promise.all(Array.from({ length: 4 }, search)).then(() => "completed"), new Promise<string>((resolve) => setTimeout(() => resolve("hung"), 5_000))]);
  report("D11 PostgresStore pool deadlock", outcome === "hung", `4 concurrent batch searches, pool 4: ${outcome}`);
  // The hung clients never return; stop the server under them (their connections' 'error' events have no listener: D10).
  process.on("uncaughtException", () => undefined);
  await server.stop().catch(() => undefined);
}

// D9: a checkpointer on a stopped server fails with a raw driver error, not DatabaseUnreachableError.
{
  const server = await startRestartablePostgres();
  const database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
  const checkpointer = await createCheckpointer(database);
  await server.stop();
  const error = await checkpointer.getTuple(threadConfig("d9")).then(() => undefined, (caught: unknown) => caught);
  report("D9 untyped database errors", !isTempoError(error), `getTuple on a stopped server: ${error instanceof Error ? `${error.name} ${(error as { code?: string }).code ?? ""}: ${error.message}` : String(error)}`);
  await database.close().catch(() => undefined);
  await server.destroy();
}

// D10: the process dies of an unhandled 'error' event when the server stops under a checked-out client.
{
  const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), CRASH_FLAG], { encoding: "utf8", timeout: 60_000 });
  const crashed = child.status !== 0;
  const cluster = /^CLUSTER (.+)$/m.exec(child.stdout)?.[1];
  if (cluster) await rm(cluster, { recursive: true, force: true });
  report("D10 crash on a checked-out client", crashed, crashed ? `exit ${child.status}: ${/Unhandled 'error' event|error: [^\n]*/.exec(child.stderr)?.[0] ?? child.stderr.slice(0, 200)}` : "the process survived");
}
process.exit(0);
