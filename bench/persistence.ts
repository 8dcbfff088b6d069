/**
 * Persistence bench, side by side in one run: the Tempo graph driven by the
 * deterministic offline policy (no network) on MemorySaver, on the embedded
 * Postgres (PGlite) and on a real PostgreSQL 15 (a throwaway cluster with
 * fsync off, as the tests make it), each Postgres target with the plain
 * PostgresSaver and with Tempo's checkpointer + execution log (the
 * production setup: step snapshots, resume claims, exactly-once writes).
 *
 *   npx tsx bench/persistence.ts [turns=200]
 *
 * - graph step: wall time of one superstep, sampled between the `updates`
 *   chunks of small-talk turns (recall → chat → memorize), checkpoint saves
 *   included as LangGraph overlaps them (durability "async");
 * - interrupt + resume: one `accept` of a card until the next card is
 *   raised (the plan card's accept: the plan saved, the week read, the
 *   search, the batch of placements proposed on a write card);
 * - checkpoint bytes: `pg_total_relation_size` of the checkpoint tables after
 *   a `turns`-turn small-talk conversation, without retention and with
 *   `pruneCheckpoints` (keep the latest 10 + step snapshots) every 10 turns,
 *   each followed by a plain VACUUM as autovacuum would run; as left, and
 *   after VACUUM FULL (the live data).
 *
 * Figures are printed, not asserted.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import {
  createCheckpointer,
  createTempoCheckpointer,
  PostgresExecutionLog,
  pruneCheckpoints,
  RESUME_CLAIMS_TABLE,
} from "../checkpoints/index.js";
import { openDatabase, type Database } from "../database/index.js";
import { buildTempoGraph, type TempoGraph } from "../server/tempo-graph.js";
import type { ExecutionLog } from "../tools/runner.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  PostgresScheduleRepository,
  sampleWeek,
  type ScheduleRepository,
} from "../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../offline/schedule/policy.js";
import {
  realPostgresAvailable,
  startEmbeddedTestPostgres,
  startRealTestPostgres,
  type TestPostgres,
} from "../tests/support/postgres.js";

const TURNS = Number(process.argv[2] ?? 200);
/** Small-talk turns timed per target (after WARM_UP). */
const STEP_TURNS = 80;
/** Task runs timed per target; each gives one resume cycle per card that raises the next (the plan card → the batch). */
const TASK_RUNS = 6;
const WARM_UP = 3;
/** Retention policy of the bytes comparison. */
const KEEP_LATEST = 10;
const PRUNE_EVERY = 10;
/** The tables whose bytes are counted. */
const CHECKPOINT_TABLES = ["checkpoints", "checkpoint_blobs", "checkpoint_writes", RESUME_CLAIMS_TABLE];

/** One target: a way to build the graph, and its database if any. */
interface Setup {
  graph: TempoGraph;
  repository: ScheduleRepository;
  database?: Database;
  schema: string;
  close(): Promise<void>;
}

interface Variant {
  label: string;
  server?: "embedded" | "real";
  saver: "memory" | "plain" | "tempo";
}

interface Timings {
  step: number[];
  cycle: number[];
}

const ACCEPT = (): Command<unknown, Record<string, never>, never> =>
  new Command({ resume: { type: "accept", args: null } });

async function setUp(variant: Variant, url: string | undefined, schema: string): Promise<Setup> {
  const models = { default: new ScheduleOfflinePolicy() };
  if (variant.saver === "memory" || url === undefined) {
    const repository = new InMemoryScheduleRepository();
    const graph = buildTempoGraph({
      models,
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
    });
    return { graph, repository, schema, close: async () => undefined };
  }
  const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
  let checkpointer: BaseCheckpointSaver;
  let executionLog: ExecutionLog;
  if (variant.saver === "tempo") {
    const saver = await createTempoCheckpointer(database, { schema });
    checkpointer = saver;
    executionLog = new PostgresExecutionLog(database.pool, { schema, resumeGuard: saver });
  } else {
    checkpointer = await createCheckpointer(database, { schema });
    executionLog = new PostgresExecutionLog(database.pool, { schema });
  }
  await (executionLog as PostgresExecutionLog).migrate();
  const repository = new PostgresScheduleRepository(database.pool);
  await repository.migrate();
  const graph = buildTempoGraph({ models, domain: createScheduleDomain({ repository }), checkpointer, executionLog });
  return { graph, repository, database, schema, close: () => database.close() };
}

const config = (threadId: string) => ({ configurable: { thread_id: threadId, user_id: `bench-${threadId}` } });

/** Streams one small-talk turn; returns the time of each superstep in ms. */
async function timedTurn(graph: TempoGraph, threadId: string, text: string): Promise<number[]> {
  const samples: number[] = [];
  let last = performance.now();
  for await (const _chunk of await graph.stream(
    { messages: [new HumanMessage(text)] },
    { ...config(threadId), streamMode: "updates" },
  )) {
    const now = performance.now();
    samples.push(now - last);
    last = now;
  }
  // The stream ends once the last checkpoint is saved: that wait belongs to the last step.
  if (samples.length > 0) samples[samples.length - 1]! += performance.now() - last;
  return samples;
}

async function measure(setup: Setup, tag: string): Promise<Timings> {
  const timings: Timings = { step: [], cycle: [] };
  const chatThread = `${tag}-chat`;
  for (let turn = 0; turn < WARM_UP + STEP_TURNS; turn += 1) {
    const samples = await timedTurn(setup.graph, chatThread, turn % 2 === 0 ? "hi" : "thanks");
    if (turn >= WARM_UP) timings.step.push(...samples);
  }
  for (let run = 0; run < TASK_RUNS + 1; run += 1) {
    const threadId = `${tag}-task-${run}`;
    await setup.repository.seed(`bench-${threadId}`, sampleWeek());
    let result: object = await setup.graph.invoke(
      { messages: [new HumanMessage("Help me arrange next week's review")] },
      config(threadId),
    );
    // Every accept that raises the next card is a cycle: the plan card's accept to the write card (the offline policy
    // proposes the week's placements on one batch card), and any write card's accept to a next write card.
    for (let cycle = 0; cycle < 20 && interrupted(result); cycle += 1) {
      const start = performance.now();
      result = await setup.graph.invoke(ACCEPT(), config(threadId));
      // The last accept finishes the task instead of raising a card: not an interrupt + resume cycle.
      if (run > 0 && interrupted(result)) timings.cycle.push(performance.now() - start);
    }
  }
  return timings;
}

function interrupted(result: object): boolean {
  return ((result as { __interrupt__?: unknown[] }).__interrupt__ ?? []).length > 0;
}

/** Bytes of the checkpoint tables of `schema`. */
async function checkpointBytes(database: Database, schema: string): Promise<number> {
  const tables = CHECKPOINT_TABLES.map((table) => `"${schema}".${table}`);
  const result = await database.pool.query<{ bytes: string }>(
    "SELECT coalesce(sum(pg_total_relation_size(to_regclass(name))), 0)::bigint AS bytes FROM unnest($1::text[]) AS name",
    [tables],
  );
  return Number(result.rows[0]?.bytes ?? 0);
}

/** A long small-talk conversation on one thread; returns the checkpoint bytes as left and after VACUUM FULL. */
async function conversationBytes(
  setup: Setup,
  retention: boolean,
): Promise<{ asLeft: number; compacted: number; checkpoints: number }> {
  const database = setup.database!;
  const threadId = `conversation-${retention ? "retained" : "kept"}`;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    await setup.graph.invoke({ messages: [new HumanMessage(turn % 2 === 0 ? "hi" : "thanks")] }, config(threadId));
    if (retention && turn % PRUNE_EVERY === 0) {
      await pruneCheckpoints(database.pool, { threadId, keepLatest: KEEP_LATEST, schema: setup.schema });
      // What autovacuum does on a live server: the freed space is reused, the files stop growing.
      for (const table of CHECKPOINT_TABLES) await database.pool.query(`VACUUM "${setup.schema}".${table}`);
    }
  }
  const asLeft = await checkpointBytes(database, setup.schema);
  for (const table of CHECKPOINT_TABLES) await database.pool.query(`VACUUM FULL "${setup.schema}".${table}`);
  const compacted = await checkpointBytes(database, setup.schema);
  const count = await database.pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM "${setup.schema}".checkpoints WHERE thread_id = $1`,
    [threadId],
  );
  return { asLeft, compacted, checkpoints: Number(count.rows[0]?.count ?? 0) };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

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
  const servers: Partial<Record<"embedded" | "real", TestPostgres>> = {};
  const variants: Variant[] = [{ label: "MemorySaver", saver: "memory" }];
  try {
    servers.embedded = await startEmbeddedTestPostgres();
    variants.push(
      { label: "embedded, PostgresSaver", server: "embedded", saver: "plain" },
      { label: "embedded, Tempo saver", server: "embedded", saver: "tempo" },
    );
    if (realPostgresAvailable()) {
      servers.real = await startRealTestPostgres();
      variants.push(
        { label: "real PG 15, PostgresSaver", server: "real", saver: "plain" },
        { label: "real PG 15, Tempo saver", server: "real", saver: "tempo" },
      );
    } else {
      console.log("(PostgreSQL 15 is not installed: the real-Postgres columns are left out)");
    }

    // A first, unrecorded pass on MemorySaver: the JIT warms up before any target is timed.
    const warmUp = await setUp(variants[0]!, undefined, "warm_up");
    await measure(warmUp, "warm-up");
    const timings = new Map<string, Timings>();
    for (const [index, variant] of variants.entries()) {
      const setup = await setUp(
        variant,
        variant.server ? servers[variant.server]?.url : undefined,
        `bench_${variant.saver}_${index}`,
      );
      try {
        timings.set(variant.label, await measure(setup, `v${index}`));
      } finally {
        await setup.close();
      }
      process.stderr.write(`measured ${variant.label}\n`);
    }

    const memory = timings.get("MemorySaver")!;
    const rows = variants.map((variant) => {
      const timing = timings.get(variant.label)!;
      return [
        variant.label,
        ms(mean(timing.step)),
        ms(p95(timing.step)),
        `${(mean(timing.step) / mean(memory.step)).toFixed(1)}×`,
        ms(mean(timing.cycle)),
        ms(p95(timing.cycle)),
        `${(mean(timing.cycle) / mean(memory.cycle)).toFixed(1)}×`,
      ];
    });
    const sampleNote = `${memory.step.length} steps, ${memory.cycle.length} interrupt + resume cycles per target`;
    console.log(`\nLatency (ms; ${sampleNote}; ratios against MemorySaver)\n`);
    console.log(table(["target", "step mean", "step p95", "step ×", "interrupt+resume mean", "p95", "cycle ×"], rows));

    const byteRows: string[][] = [];
    for (const kind of ["embedded", "real"] as const) {
      const server = servers[kind];
      if (!server) continue;
      const results: Array<Awaited<ReturnType<typeof conversationBytes>>> = [];
      for (const retention of [false, true]) {
        const setup = await setUp(
          { label: kind, server: kind, saver: "tempo" },
          server.url,
          `bytes_${retention ? "retained" : "kept"}`,
        );
        try {
          results.push(await conversationBytes(setup, retention));
        } finally {
          await setup.close();
        }
      }
      const [kept, retained] = results as [(typeof results)[0], (typeof results)[0]];
      byteRows.push(
        [`${kind}, no retention`, String(kept.checkpoints), kib(kept.asLeft), "1.00", kib(kept.compacted), "1.00"],
        [
          `${kind}, keep ${KEEP_LATEST} + snapshots every ${PRUNE_EVERY} turns`,
          String(retained.checkpoints),
          kib(retained.asLeft),
          (retained.asLeft / kept.asLeft).toFixed(2),
          kib(retained.compacted),
          (retained.compacted / kept.compacted).toFixed(2),
        ],
      );
      process.stderr.write(`measured bytes on ${kind}\n`);
    }
    console.log(`\nCheckpoint tables after a ${TURNS}-turn conversation (Tempo saver; pg_total_relation_size)\n`);
    console.log(table(["target", "checkpoints", "bytes as left", "ratio", "after VACUUM FULL", "ratio"], byteRows));
  } finally {
    await servers.embedded?.stop();
    await servers.real?.stop();
  }
}

await main();
