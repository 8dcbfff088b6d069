/**
 * Throughput (formerly bench/load.ts; the load probe of issue 44.8 is bench/load.ts now): 50 threads at once, each a whole scheduling conversation (plan card,
 * eight confirmed placements, delivery), on the embedded and on a real
 * PostgreSQL 15 server, with 1 and with 2 worker processes sharing the
 * database (each worker a child process running its share of the threads
 * against the same URL). The model is the deterministic offline policy with
 * a realistic, deterministic delay of 20–80 ms per call (a hash of the
 * prompt).
 *
 * Memory (PostgresStore) is off in the 50-thread runs, which measure the
 * checkpointer. PostgresStore 1.0.5 holds one connection per batch and takes
 * a second for a text search; `createMemoryStore` bounds its concurrent
 * batches so this cannot deadlock. A separate probe runs 12 conversations
 * with memory on in one process, with a time limit, and prints whether they
 * finished (a regression guard for that bound).
 *
 * Prints throughput (conversations/s, graph steps/s), p50/p95/p99 of a graph
 * step per node (the time from one node's update to the next, checkpoint
 * included), the errors (there must be none; each is printed), and whether
 * every thread's final state — plan statuses, final answer, schedule rows —
 * equals a lone run's. Figures are printed, not asserted.
 *
 *   npx tsx bench/throughput.ts             # the whole bench
 *   npx tsx bench/throughput.ts --worker …  # (internal) one worker process
 */
import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import type { TempoState } from "../kernel/state.js";
import { buildTempoGraph } from "../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../offline/schedule/policy.js";
import {
  realPostgresAvailable,
  startEmbeddedTestPostgres,
  startRealTestPostgres,
  type TestPostgres,
} from "../tests/support/postgres.js";
import {
  delayed,
  openScheduleTempo,
  summarizeConversation,
  type ConversationSummary,
} from "../tests/reliability/support/schedule-runtime.js";

/** Conversations run at once. */
const THREADS = 50;
/** Worker processes sharing the database. */
const WORKER_COUNTS = [1, 2] as const;
/** Model delay range per call, in ms. */
const MIN_DELAY_MS = 20;
const MAX_DELAY_MS = 80;
/** Cards answered per conversation at most (the sample week needs 9). */
const MAX_CARDS = 30;
const REQUEST = "Help me arrange next week's review";

/** One graph step as a worker measured it. */
interface StepTiming {
  node: string;
  ms: number;
}

/** What a worker reports for one thread. */
interface ThreadReport {
  threadId: string;
  summary?: ConversationSummary;
  steps: StepTiming[];
  error?: string;
}

interface WorkerReport {
  threads: ThreadReport[];
  startedAt: number;
  finishedAt: number;
}

/** The deterministic model delay for a prompt: 20–80 ms from a hash of its last message. */
function delayFor(messages: BaseMessage[]): number {
  const last = messages.at(-1);
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
  const hash = createHash("sha1").update(text).digest().readUInt32BE(0);
  return MIN_DELAY_MS + (hash % (MAX_DELAY_MS - MIN_DELAY_MS + 1));
}

// ── worker ────────────────────────────────────────────────────────────────

/** Runs threads `from`..`to`-1 at once against `databaseUrl`, from `startAt` (epoch ms); prints one JSON report. */
async function worker(
  databaseUrl: string,
  prefix: string,
  from: number,
  to: number,
  startAt: number,
  memory: boolean,
): Promise<void> {
  const tempo = await openScheduleTempo({
    databaseUrl,
    models: { default: delayed(new ScheduleOfflinePolicy(), delayFor) },
    memory,
  });
  try {
    const wait = startAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const startedAt = Date.now();
    const threads = await Promise.all(
      Array.from({ length: to - from }, (_, offset) => conversation(tempo, `${prefix}-${from + offset}`)),
    );
    const report: WorkerReport = { threads, startedAt, finishedAt: Date.now() };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await tempo.close();
  }
}

/** One whole conversation, streamed so that every graph step is timed; every card is accepted. */
async function conversation(
  tempo: Awaited<ReturnType<typeof openScheduleTempo>>,
  threadId: string,
): Promise<ThreadReport> {
  const userId = `user-${threadId}`;
  const config = { configurable: { thread_id: threadId, user_id: userId, now: NOW } };
  const steps: StepTiming[] = [];
  try {
    // The lone run's week, not the one the real clock would seed: every run compares with the lone run's.
    await tempo.repository.seed(userId, sampleWeek());
    let input: Parameters<typeof tempo.graph.stream>[0] = { messages: [new HumanMessage(REQUEST)] };
    for (let card = 0; card <= MAX_CARDS; card += 1) {
      let interrupted = false;
      let last = performance.now();
      for await (const update of await tempo.graph.stream(input, { ...config, streamMode: "updates" })) {
        const now = performance.now();
        for (const node of Object.keys(update as Record<string, unknown>)) {
          if (node === "__interrupt__") interrupted = true;
          else steps.push({ node, ms: now - last });
        }
        last = now;
      }
      if (!interrupted) break;
      input = new Command({ resume: { type: "accept", args: null } });
    }
    const state = (await tempo.graph.getState(config)).values as TempoState;
    return { threadId, steps, summary: summarizeConversation(state, await tempo.repository.load(userId)) };
  } catch (error) {
    return { threadId, steps, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

// ── orchestration ─────────────────────────────────────────────────────────

/** The same conversation alone, in memory, without delays: the reference final state. */
async function loneRun(): Promise<ConversationSummary> {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("lone", sampleWeek());
  const graph = buildTempoGraph({
    models: { default: new ScheduleOfflinePolicy() },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: "lone", user_id: "lone", now: NOW } };
  let result: object = await graph.invoke({ messages: [new HumanMessage(REQUEST)] }, config);
  for (
    let card = 0;
    card < MAX_CARDS && ((result as { __interrupt__?: unknown[] }).__interrupt__ ?? []).length > 0;
    card += 1
  ) {
    result = await graph.invoke(new Command({ resume: { type: "accept", args: null } }), config);
  }
  return summarizeConversation((await graph.getState(config)).values as TempoState, await repository.load("lone"));
}

/**
 * The clock of every run: midnight before the sample week's Monday, in its zone. The clock is a hard rule, so runs
 * under the real clock, minutes apart, place differently (a slot passed between them) and never equal the lone run.
 */
const NOW = "2024-03-10T16:00:00Z";

/** Thrown when a worker did not finish within its time limit (it is killed). */
class WorkerTimeout extends Error {}

/**
 * How long a worker may take before it is taken for hung and killed: a guard against a hang, not a goal. A loaded
 * 2-core machine took more than 170 s for the 50 conversations on the embedded server, so it is 10 minutes.
 */
const WORKER_LIMIT_MS = 600_000;

/**
 * Starts a worker process (`npx tsx bench/throughput.ts --worker …`, in its own process group) and resolves with its
 * report; after `timeoutMs` the group is killed and the promise rejects with WorkerTimeout.
 */
function runWorker(args: string[], timeoutMs = WORKER_LIMIT_MS): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["--no-install", "tsx", fileURLToPath(import.meta.url), "--worker", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      if (timedOut)
        return reject(new WorkerTimeout(`worker ${args.slice(1).join(" ")} did not finish in ${timeoutMs / 1000} s`));
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{"))
        return reject(new Error(`worker ${args.slice(1).join(" ")} exited with ${code}:\n${stderr}${stdout}`));
      resolve(JSON.parse(line) as WorkerReport);
    });
  });
}

interface RunResult {
  server: string;
  workers: number;
  seconds: number;
  conversations: number;
  steps: StepTiming[];
  errors: string[];
  mismatches: string[];
}

/** 50 threads split over `workers` processes on `server`. */
async function runConfiguration(
  server: TestPostgres,
  workers: number,
  reference: ConversationSummary,
): Promise<RunResult> {
  const prefix = `${server.kind}-w${workers}`;
  const share = Math.ceil(THREADS / workers);
  // Workers start together once all have opened the database (process start-up is not measured).
  const startAt = Date.now() + 8_000;
  const reports = await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      runWorker([
        server.url,
        prefix,
        String(index * share),
        String(Math.min(THREADS, (index + 1) * share)),
        String(startAt),
        "no-memory",
      ]),
    ),
  );
  const threads = reports.flatMap((report) => report.threads);
  const errors = threads.flatMap((thread) => (thread.error ? [`${thread.threadId}: ${thread.error}`] : []));
  const mismatches = threads.flatMap((thread) => {
    if (!thread.summary) return [];
    const problems: string[] = [];
    if (JSON.stringify(thread.summary.stepStatuses) !== JSON.stringify(reference.stepStatuses))
      problems.push(`plan statuses ${JSON.stringify(thread.summary.stepStatuses)}`);
    if (thread.summary.finalAnswer !== reference.finalAnswer)
      problems.push(`final answer ${JSON.stringify(thread.summary.finalAnswer)}`);
    if (JSON.stringify(thread.summary.reviewTasks) !== JSON.stringify(reference.reviewTasks))
      problems.push("schedule rows differ");
    if (thread.summary.unpaired.length > 0) problems.push(`unpaired tool calls: ${thread.summary.unpaired.join("; ")}`);
    return problems.length ? [`${thread.threadId}: ${problems.join(", ")}`] : [];
  });
  const started = Math.min(...reports.map((report) => report.startedAt));
  const finished = Math.max(...reports.map((report) => report.finishedAt));
  return {
    server: server.kind,
    workers,
    seconds: (finished - started) / 1000,
    conversations: threads.length,
    steps: threads.flatMap((thread) => thread.steps),
    errors,
    mismatches,
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(" | ")} |`;
  return [
    line(header),
    `|${widths.map((width, column) => (column === 0 ? `${"-".repeat(width + 1)}-` : `${"-".repeat(width + 1)}:`)).join("|")}|`,
    ...rows.map(line),
  ].join("\n");
}

/** Conversations of the memory probe: more than the memory store's pool has connections. */
const MEMORY_PROBE_THREADS = 12;
/** Connections of the memory store's pool (`createMemoryStore`'s default). */
const MEMORY_STORE_POOL = 8;
/** The deadlock it guards against never ends; 12 conversations on a loaded machine can take more than 30 s. */
const MEMORY_PROBE_LIMIT_MS = 120_000;

/** Runs a few conversations with memory on, within a time limit; describes what happened. */
async function probeMemory(server: TestPostgres, reference: ConversationSummary): Promise<string> {
  try {
    const report = await runWorker(
      [server.url, `${server.kind}-memory`, "0", String(MEMORY_PROBE_THREADS), String(Date.now() + 8_000), "memory"],
      MEMORY_PROBE_LIMIT_MS,
    );
    const failed = report.threads.filter(
      (thread) => thread.error || JSON.stringify(thread.summary?.reviewTasks) !== JSON.stringify(reference.reviewTasks),
    );
    return `finished in ${((report.finishedAt - report.startedAt) / 1000).toFixed(1)} s, ${failed.length} thread(s) with an error or a different schedule`;
  } catch (error) {
    if (error instanceof WorkerTimeout)
      return `HUNG — no conversation finished within ${MEMORY_PROBE_LIMIT_MS / 1000} s (the PostgresStore pool deadlock); worker killed`;
    throw error;
  }
}

const NODES = ["recall", "chat", "plan", "confirm", "execute", "deliver", "memorize"] as const;

async function main(): Promise<void> {
  const reference = await loneRun();
  console.log(
    `throughput: ${THREADS} conversations at once ("${REQUEST}": plan card, ${reference.reviewTasks.length} placements, delivery), offline policy with ${MIN_DELAY_MS}–${MAX_DELAY_MS} ms per model call, PostgresSaver, memory off (see the probe below)\n`,
  );
  const targets: Array<{ name: string; start: () => Promise<TestPostgres> }> = [
    { name: "embedded", start: startEmbeddedTestPostgres },
  ];
  if (realPostgresAvailable()) targets.push({ name: "real", start: startRealTestPostgres });
  else console.log("PostgreSQL 15 is not installed here: the real-server rows are missing.\n");

  const results: RunResult[] = [];
  let memoryProbe = "";
  for (const target of targets) {
    const server = await target.start();
    try {
      for (const workers of WORKER_COUNTS) results.push(await runConfiguration(server, workers, reference));
      if (target.name === targets.at(-1)!.name) memoryProbe = await probeMemory(server, reference);
    } finally {
      await server.stop();
    }
  }

  console.log(
    table(
      [
        "server",
        "workers",
        "conversations",
        "wall s",
        "conv/s",
        "steps",
        "steps/s",
        "step p50 ms",
        "step p95 ms",
        "step p99 ms",
        "errors",
        "≠ lone run",
      ],
      results.map((result) => {
        const sorted = result.steps.map((step) => step.ms).sort((a, b) => a - b);
        return [
          result.server,
          String(result.workers),
          String(result.conversations),
          result.seconds.toFixed(1),
          (result.conversations / result.seconds).toFixed(2),
          String(result.steps.length),
          (result.steps.length / result.seconds).toFixed(1),
          percentile(sorted, 0.5).toFixed(1),
          percentile(sorted, 0.95).toFixed(1),
          percentile(sorted, 0.99).toFixed(1),
          String(result.errors.length),
          String(result.mismatches.length),
        ];
      }),
    ),
  );
  console.log("\nper graph step (node), p50 / p95 / p99 in ms:\n");
  console.log(
    table(
      ["node", ...results.map((result) => `${result.server} ×${result.workers}`)],
      NODES.map((node) => [
        node,
        ...results.map((result) => {
          const sorted = result.steps
            .filter((step) => step.node === node)
            .map((step) => step.ms)
            .sort((a, b) => a - b);
          return sorted.length
            ? `${percentile(sorted, 0.5).toFixed(0)} / ${percentile(sorted, 0.95).toFixed(0)} / ${percentile(sorted, 0.99).toFixed(0)}`
            : "–";
        }),
      ]),
    ),
  );
  const errors = results.flatMap((result) =>
    result.errors.map((error) => `${result.server} ×${result.workers} ${error}`),
  );
  const mismatches = results.flatMap((result) =>
    result.mismatches.map((mismatch) => `${result.server} ×${result.workers} ${mismatch}`),
  );
  console.log(
    `\nerrors: ${errors.length}${errors.length ? `\n${errors.map((error) => `  ${error}`).join("\n")}` : ""}`,
  );
  console.log(
    `final states different from a lone run: ${mismatches.length}${mismatches.length ? `\n${mismatches.map((mismatch) => `  ${mismatch}`).join("\n")}` : " (plan statuses, final answer and schedule rows of every thread equal the lone run's)"}`,
  );
  console.log(
    `\nmemory on (PostgresStore, pool of ${MEMORY_STORE_POOL}), ${MEMORY_PROBE_THREADS} conversations at once in one process, ${targets.at(-1)!.name} server: ${memoryProbe}`,
  );
  console.log(
    `\nverdict: ${errors.length === 0 && mismatches.length === 0 ? "OK — no errors, every thread ended as a lone run does" : "PROBLEMS — see the errors and mismatches above"}`,
  );
}

if (process.argv[2] === "--worker") {
  const [databaseUrl, prefix, from, to, startAt, memory] = process.argv.slice(3);
  await worker(databaseUrl!, prefix!, Number(from), Number(to), Number(startAt), memory === "memory");
} else {
  await main();
}
