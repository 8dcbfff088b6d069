/**
 * Checkpoint storage per turn, side by side in one process on a real
 * PostgreSQL 15 (a throwaway cluster, as the tests make it): LangGraph's
 * prebuilt `createReactAgent` (the peer: the whole message list in every
 * checkpoint) and Tempo with its production checkpointer (`TempoPostgresSaver`
 * + the Postgres execution log), each in its own schema, no retention.
 *
 *   npx tsx bench/checkpoint-size.ts [turns=200]
 *
 * - peer: `turns` turns of one thread, each a user message and a 500-character reply;
 * - Tempo small talk: `turns` turns of one thread, each a user message and a
 *   500-character reply from the chat stage (recall → chat → memorize);
 * - Tempo task: `turns` task turns of one thread, each "arrange my review"
 *   with one pending review task: the plan card (accepted), overview, list,
 *   find_free, the write card (accepted), replan, verify, delivery — three
 *   invocations (the message and two resumes), offline policy for the
 *   schedule stages.
 *
 * Bytes are `pg_total_relation_size` of the checkpoint tables of each schema
 * (checkpoints, checkpoint_blobs, checkpoint_writes, tempo_resume_claims):
 * the total after the thread, and per turn what the turns added (the total
 * minus the empty tables right after setup, divided by the turns). Step time is the wall time of one
 * superstep (between two `updates` chunks, the last one until the stream
 * ends), averaged per turn; the "growth" column compares the last 20 turns
 * with the first 20.
 *
 * Goals (issue 17): Tempo ≤ 6 KiB per small-talk turn and ≤ 64 KiB per task
 * turn; Tempo's step time last 20 turns ≤ 1.2× the first 20. Printed, not
 * asserted. `BENCH_CHANNELS=1` also prints, per Tempo thread, the rows and raw
 * bytes of each channel in the blob and write tables (where the bytes go).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Command, InMemoryStore } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import {
  createCheckpointer,
  createTempoCheckpointer,
  PostgresExecutionLog,
  RESUME_CLAIMS_TABLE,
} from "../checkpoints/index.js";
import { openDatabase, type Database } from "../database/index.js";
import { buildTempoGraph, type TempoGraph } from "../server/tempo-graph.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../offline/schedule/policy.js";
import { realPostgresAvailable, startRealTestPostgres, type TestPostgres } from "../tests/support/postgres.js";
import { ReplyModel } from "../tests/support/reply-model.js";

const TURNS = Number(process.argv[2] ?? 200);
/** Turns of each thread run first, unrecorded, in schemas of their own. */
const WARM_UP_TURNS = 5;
/** Turns compared at each end of a thread for the step-time growth. */
const WINDOW = Math.min(20, Math.floor(TURNS / 2));
/** Characters of each assistant reply in the small-talk threads. */
const REPLY_CHARACTERS = 500;
const TABLES = ["checkpoints", "checkpoint_blobs", "checkpoint_writes", RESUME_CLAIMS_TABLE] as const;
const GOALS = { smallTalkKiB: 6, taskKiB: 64, growth: 1.2 };

const WORDS = (
  "the a week review plan slot morning evening chapter exercise notes physics history language maths rest break " +
  "before after focus session quiz summary reading practice calm steady short long early late today tomorrow friday monday"
).split(" ");

/** A deterministic, varied English-like text of `length` characters (varied so Postgres' compression is not flattered). */
function prose(seed: number, length: number): string {
  let state = seed * 2654435761 + 1;
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const word = WORDS[state % WORDS.length]!;
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ").slice(0, length);
}

/** A scripted chat model: the n-th call (from 0) answers `answer(n)`; the peer binds its (no) tools to it unchanged. */
const numberedReplies = (answer: (call: number) => string) =>
  new ReplyModel((_messages, call) => new AIMessage(answer(call - 1)));

interface ThreadFigures {
  label: string;
  turns: number;
  /** Bytes of the tables after their setup, before the first turn (empty tables and indexes). */
  empty: Record<(typeof TABLES)[number], number>;
  /** Bytes of the tables after the last turn. */
  bytes: Record<(typeof TABLES)[number], number>;
  checkpoints: number;
  /** Mean superstep time of each turn, in ms. */
  stepPerTurn: number[];
}

/** Streams one invocation; returns the time of each superstep in ms. */
async function timedSteps(stream: AsyncIterable<unknown>): Promise<number[]> {
  const samples: number[] = [];
  let last = performance.now();
  for await (const _chunk of stream) {
    const now = performance.now();
    samples.push(now - last);
    last = now;
  }
  // The stream ends once the last checkpoint is saved: that wait belongs to the last step.
  if (samples.length > 0) samples[samples.length - 1]! += performance.now() - last;
  return samples;
}

async function tableBytes(database: Database, schema: string): Promise<ThreadFigures["bytes"]> {
  const bytes = {} as ThreadFigures["bytes"];
  for (const table of TABLES) {
    const result = await database.pool.query<{ bytes: string }>(
      "SELECT coalesce(pg_total_relation_size(to_regclass($1)), 0)::bigint AS bytes",
      [`"${schema}".${table}`],
    );
    bytes[table] = Number(result.rows[0]?.bytes ?? 0);
  }
  return bytes;
}

async function countCheckpoints(database: Database, schema: string): Promise<number> {
  const result = await database.pool.query<{ count: string }>(`SELECT count(*) AS count FROM "${schema}".checkpoints`);
  return Number(result.rows[0]?.count ?? 0);
}

const userText = (turn: number) => `Turn ${turn}: ${prose(turn + 7_000, 60)}?`;

/** The peer: LangGraph's prebuilt ReAct agent on the plain PostgresSaver, one reply per turn. */
async function peerThread(url: string, turns: number, prefix = ""): Promise<ThreadFigures> {
  const schema = `${prefix}bench_peer`;
  const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
  try {
    const checkpointer = await createCheckpointer(database, { schema });
    const model = numberedReplies((call) => prose(call, REPLY_CHARACTERS));
    const agent = createReactAgent({ llm: model, tools: [], checkpointSaver: checkpointer });
    const config = { configurable: { thread_id: "peer" }, streamMode: "updates" as const };
    const empty = await tableBytes(database, schema);
    const stepPerTurn: number[] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      stepPerTurn.push(
        mean(await timedSteps(await agent.stream({ messages: [new HumanMessage(userText(turn))] }, config))),
      );
    }
    return {
      label: "peer: createReactAgent, PostgresSaver",
      turns,
      empty,
      bytes: await tableBytes(database, schema),
      checkpoints: await countCheckpoints(database, schema),
      stepPerTurn,
    };
  } finally {
    await database.close();
  }
}

/** Tempo as `createTempo` wires it: Tempo's checkpointer, the Postgres execution log, a memory store. */
async function tempoSetup(url: string, schema: string, chat: BaseChatModel) {
  const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
  const saver = await createTempoCheckpointer(database, { schema });
  const executionLog = new PostgresExecutionLog(database.pool, { schema, resumeGuard: saver });
  await executionLog.migrate();
  const repository = new InMemoryScheduleRepository();
  const offline = new ScheduleOfflinePolicy();
  const graph: TempoGraph = buildTempoGraph({
    models: { default: offline, chat },
    domain: createScheduleDomain({ repository }),
    checkpointer: saver,
    store: new InMemoryStore(),
    executionLog,
  });
  return { database, graph, repository };
}

async function tempoSmallTalkThread(url: string, turns: number, prefix = ""): Promise<ThreadFigures> {
  const schema = `${prefix}bench_tempo_chat`;
  const chat = numberedReplies((call) =>
    JSON.stringify({ intent: "chat", reply: prose(call, REPLY_CHARACTERS), reason: "small talk" }),
  );
  const { database, graph } = await tempoSetup(url, schema, chat);
  try {
    const config = { configurable: { thread_id: "chat", user_id: "bench" }, streamMode: "updates" as const };
    const empty = await tableBytes(database, schema);
    const stepPerTurn: number[] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      stepPerTurn.push(
        mean(await timedSteps(await graph.stream({ messages: [new HumanMessage(userText(turn))] }, config))),
      );
    }
    if (process.env.BENCH_CHANNELS) await channelBreakdown(database, schema);
    return {
      label: "Tempo, small talk",
      turns,
      empty,
      bytes: await tableBytes(database, schema),
      checkpoints: await countCheckpoints(database, schema),
      stepPerTurn,
    };
  } finally {
    await database.close();
  }
}

/** The sample week with one pending review task: a task turn raises one write card. */
function weekWithOnePendingTask(): ScheduleState {
  const week = sampleWeek();
  const firstItem = week.tasks.find((task) => task.source === "task_item");
  return { ...week, tasks: week.tasks.filter((task) => task.source !== "task_item" || task === firstItem) };
}

async function tempoTaskThread(url: string, turns: number, prefix = ""): Promise<ThreadFigures> {
  const schema = `${prefix}bench_tempo_task`;
  const { database, graph, repository } = await tempoSetup(url, schema, new ScheduleOfflinePolicy());
  try {
    const config = { configurable: { thread_id: "task", user_id: "bench" }, streamMode: "updates" as const };
    const empty = await tableBytes(database, schema);
    const accept = (): Command<unknown, Record<string, never>, never> =>
      new Command({ resume: { type: "accept", args: null } });
    const stepPerTurn: number[] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      await repository.seed("bench", weekWithOnePendingTask());
      const steps = await timedSteps(
        await graph.stream({ messages: [new HumanMessage("Help me arrange next week's review")] }, config),
      );
      steps.push(...(await timedSteps(await graph.stream(accept(), config)))); // the plan card
      steps.push(...(await timedSteps(await graph.stream(accept(), config)))); // the write card
      stepPerTurn.push(mean(steps));
      const state = await graph.getState({ configurable: config.configurable });
      if (state.tasks.length > 0 || state.values.phase !== "done")
        throw new Error(`task turn ${turn} did not end delivered (phase ${String(state.values.phase)})`);
    }
    if (process.env.BENCH_CHANNELS) await channelBreakdown(database, schema);
    return {
      label: "Tempo, task (plan + 1 write + delivery)",
      turns,
      empty,
      bytes: await tableBytes(database, schema),
      checkpoints: await countCheckpoints(database, schema),
      stepPerTurn,
    };
  } finally {
    await database.close();
  }
}

/** Raw bytes by channel in blobs and writes (BENCH_CHANNELS=1): where the bytes come from. */
async function channelBreakdown(database: Database, schema: string): Promise<void> {
  for (const table of ["checkpoint_blobs", "checkpoint_writes"]) {
    const result = await database.pool.query<{ channel: string; rows: string; bytes: string }>(
      `SELECT channel, count(*) AS rows, sum(coalesce(octet_length(blob), 0)) AS bytes FROM "${schema}".${table} GROUP BY channel ORDER BY 3 DESC`,
    );
    console.error(
      `${schema}.${table}: ${result.rows.map((row) => `${row.channel} ${row.rows} rows ${kib(Number(row.bytes))} KiB`).join("; ")}`,
    );
  }
  const checkpointRows = await database.pool.query<{ bytes: string }>(
    `SELECT sum(pg_column_size(checkpoint) + pg_column_size(metadata)) AS bytes FROM "${schema}".checkpoints`,
  );
  console.error(`${schema}.checkpoints: checkpoint + metadata ${kib(Number(checkpointRows.rows[0]?.bytes ?? 0))} KiB`);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

const total = (figures: ThreadFigures) => TABLES.reduce((sum, table) => sum + figures.bytes[table], 0);
/** What the turns added: the tables' bytes after the thread minus the empty tables'. */
const added = (figures: ThreadFigures) => total(figures) - TABLES.reduce((sum, table) => sum + figures.empty[table], 0);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function growth(figures: ThreadFigures): number {
  return mean(figures.stepPerTurn.slice(-WINDOW)) / mean(figures.stepPerTurn.slice(0, WINDOW));
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  return [line(headers), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  if (!realPostgresAvailable()) {
    console.log("PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin): this bench needs it.");
    process.exitCode = 1;
    return;
  }
  let server: TestPostgres | undefined;
  try {
    server = await startRealTestPostgres();
    // An unrecorded pass of a few turns of each thread first: the JIT warms up before anything is timed.
    for (const run of [peerThread, tempoSmallTalkThread, tempoTaskThread])
      await run(server.url, WARM_UP_TURNS, "warm_up_");
    const results: ThreadFigures[] = [];
    for (const run of [peerThread, tempoSmallTalkThread, tempoTaskThread]) {
      const figures = await run(server.url, TURNS);
      results.push(figures);
      process.stderr.write(`measured ${figures.label}\n`);
    }
    const [peer, smallTalk, task] = results as [ThreadFigures, ThreadFigures, ThreadFigures];
    console.log(
      `\nCheckpoint tables per turn on real PostgreSQL 15, no retention (${TURNS} turns a thread; pg_total_relation_size, KiB)\n`,
    );
    console.log(
      table(
        [
          "thread",
          "checkpoints",
          "total KiB",
          "added KiB / turn",
          "checkpoints",
          "blobs",
          "writes",
          "claims",
          `step ms first ${WINDOW}`,
          `last ${WINDOW}`,
          "growth",
        ],
        results.map((figures) => [
          figures.label,
          String(figures.checkpoints),
          kib(total(figures)),
          kib(added(figures) / figures.turns),
          kib(figures.bytes.checkpoints),
          kib(figures.bytes.checkpoint_blobs),
          kib(figures.bytes.checkpoint_writes),
          kib(figures.bytes[RESUME_CLAIMS_TABLE]),
          mean(figures.stepPerTurn.slice(0, WINDOW)).toFixed(2),
          mean(figures.stepPerTurn.slice(-WINDOW)).toFixed(2),
          `${growth(figures).toFixed(2)}×`,
        ]),
      ),
    );
    const perTurn = (figures: ThreadFigures) => added(figures) / figures.turns / 1024;
    console.log(
      `\nTempo small talk: ${perTurn(smallTalk).toFixed(1)} KiB / turn (goal ≤ ${GOALS.smallTalkKiB}) → ${perTurn(smallTalk) <= GOALS.smallTalkKiB ? "met" : "NOT met"}; ${(perTurn(smallTalk) / perTurn(peer)).toFixed(3)}× the peer`,
    );
    console.log(
      `Tempo task: ${perTurn(task).toFixed(1)} KiB / turn (goal ≤ ${GOALS.taskKiB}) → ${perTurn(task) <= GOALS.taskKiB ? "met" : "NOT met"}; ${(perTurn(task) / perTurn(peer)).toFixed(3)}× the peer`,
    );
    for (const figures of [smallTalk, task]) {
      console.log(
        `${figures.label}: step time last ${WINDOW} / first ${WINDOW} turns ${growth(figures).toFixed(2)}× (goal ≤ ${GOALS.growth}) → ${growth(figures) <= GOALS.growth ? "met" : "NOT met"}`,
      );
    }
    console.log(`peer: step time last ${WINDOW} / first ${WINDOW} turns ${growth(peer).toFixed(2)}×`);
  } finally {
    await server?.stop();
  }
}

await main();
