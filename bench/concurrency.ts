/**
 * Concurrency stress (issue 12): repeats the cases where two requests meet on
 * one thread, on the embedded and on a real PostgreSQL 15 server, with two
 * workers (two graph instances on two pools, like two `createTempo`
 * processes) — once holding threads as `createTempo` does
 * (`createThreadLock`), and once without the cross-worker lock as the
 * baseline in the same process.
 *
 * Cases, each repeated on a fresh thread:
 * - `messages`: "hello" and "thanks" sent at once, one per worker;
 * - `task+yes`: a task request and "yes" sent at once, one per worker (the
 *   "yes" must never answer a card its sender has not seen);
 * - `accept@Nms`: the first write card answered "accept" twice, once through
 *   each worker, the second N ms after the first (0, 20, 100, 500) — a double
 *   click or a client retry behind a load balancer;
 * - `card@Nms`: the same with both answers bound to the card's interrupt id
 *   (`{ [interruptId]: { decisions: [approve] } }`, what useStream sends).
 *
 * Prints per case: runs, forks (checkpoints with two children, or two roots),
 * lost messages (a caller told "ok" whose message is not in the thread),
 * duplicates (a write applied twice), unseen approvals (a card approved — the
 * plan card by the "yes", a write applied by the second answer — that was
 * raised after the answer was created, so its sender cannot have seen it;
 * each run is sent with a UUIDv7 run id, as the LangGraph server names its
 * runs, and dates from it; a card is raised at its checkpoint's time), late
 * answers (the same, for a card raised before the answer was created: an
 * anonymous answer sent once the next card is up answers it — binding answers
 * to the card's interrupt id is issue 12.1), and refusals by code ("raw …" for
 * a driver error that reached the caller). Figures are printed, not asserted.
 * The served twin is bench/concurrency-served.ts.
 *
 *   npx tsx bench/concurrency.ts            # 20 repetitions per case
 *   npx tsx bench/concurrency.ts 50         # 50 repetitions per case
 */
import { HumanMessage } from "@langchain/core/messages";
import { v7 as uuid7 } from "@langchain/core/utils/uuid";
import { Command } from "@langchain/langgraph";
import { uuid7Time } from "../server/card-seen.js";
import { isTempoError } from "../errors/index.js";
import { appliedRows } from "../tests/persistence/exactly-once.js";
import {
  accept,
  openTempoOnDatabase,
  seedStudent,
  startUntilFirstWrite,
  studentOf,
  studentThread,
  type TempoOnDatabase,
} from "../tests/persistence/tempo-on-database.js";
import {
  realPostgresAvailable,
  startEmbeddedTestPostgres,
  startRealTestPostgres,
  type TestPostgres,
} from "../tests/support/postgres.js";
import { proposedWrites } from "../kernel/proposal.js";
import type { TempoState } from "../kernel/state.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../tests/support/applied-writes.js";

const REPETITIONS = Number(process.argv[2] ?? 20);
const ACCEPT_OFFSETS_MS = [0, 20, 100, 500];

/** Counts for one case. */
interface CaseCounts {
  runs: number;
  forks: number;
  lost: number;
  duplicates: number;
  unseenApprovals: number;
  lateAnswers: number;
  /** The smallest margin (ms) by which a late answer was created after its card was raised. */
  lateByMs?: number;
  refusals: Record<string, number>;
}

const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "ok", the code of the TempoError a run failed with, or "raw <driver code>" for an error that is not Tempo's. */
async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (isTempoError(error)) return error.code;
    return `raw ${String((error as { code?: unknown }).code ?? (error as Error).name)}`;
  }
}

async function forksOf(tempo: TempoOnDatabase, threadId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM (SELECT 1 FROM checkpoints WHERE thread_id = $1
       GROUP BY checkpoint_ns, coalesce(parent_checkpoint_id, '') HAVING count(*) > 1) AS forked`,
    [threadId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

async function humanTexts(tempo: TempoOnDatabase, threadId: string): Promise<string[]> {
  const values = (await tempo.graph.getState(studentThread(threadId))).values as {
    messages?: Array<{ getType(): string; content: unknown }>;
  };
  return (values.messages ?? []).filter((entry) => entry.getType() === "human").map((entry) => String(entry.content));
}

function record(counts: CaseCounts, outcomes: string[]): void {
  counts.runs += outcomes.length;
  for (const result of outcomes) if (result !== "ok") counts.refusals[result] = (counts.refusals[result] ?? 0) + 1;
}

function emptyCounts(): CaseCounts {
  return { runs: 0, forks: 0, lost: 0, duplicates: 0, unseenApprovals: 0, lateAnswers: 0, refusals: {} };
}

/** A run's config on the thread, with a UUIDv7 run id (what the LangGraph server gives each run): it dates the run. */
function runOf(threadId: string): { config: ReturnType<typeof studentThread>; createdAt: number } {
  const runId = uuid7();
  return { config: { ...studentThread(threadId), runId }, createdAt: uuid7Time(runId)! };
}

/** When each card of the thread was raised: the time of the earliest checkpoint waiting on its interrupt. */
async function cardsRaised(
  tempo: TempoOnDatabase,
  threadId: string,
): Promise<Array<{ id: string; action?: string; at: number }>> {
  const cards = new Map<string, { id: string; action?: string; at: number }>();
  for await (const snapshot of tempo.graph.getStateHistory(studentThread(threadId))) {
    const at = snapshot.createdAt ? Date.parse(snapshot.createdAt) : Number.NaN;
    for (const interrupt of snapshot.tasks.flatMap((task) => task.interrupts)) {
      const action = (interrupt.value as { action_request?: { action?: string } } | undefined)?.action_request?.action;
      if (interrupt.id && !Number.isNaN(at) && at <= (cards.get(interrupt.id)?.at ?? Number.POSITIVE_INFINITY))
        cards.set(interrupt.id, { id: interrupt.id, action, at });
    }
  }
  return [...cards.values()].sort((a, b) => a.at - b.at);
}

/** Counts `approvals` of a card raised at `raisedAt` by an answer created at `createdAt`: unseen when raised after it. */
function countApproval(counts: CaseCounts, approvals: number, createdAt: number, raisedAt: number | undefined): void {
  if (approvals <= 0) return;
  if (raisedAt === undefined || createdAt < raisedAt) {
    counts.unseenApprovals += approvals;
    return;
  }
  counts.lateAnswers += approvals;
  counts.lateByMs = Math.min(counts.lateByMs ?? Number.POSITIVE_INFINITY, createdAt - raisedAt);
}

/**
 * Two messages at once, one per worker, on a fresh thread. For a task and "yes": the plan card approved (the thread
 * gone past it) by a "yes" created before the card was raised is an unseen approval.
 */
async function twoMessages(
  workers: TempoOnDatabase[],
  threadId: string,
  texts: [string, string],
  counts: CaseCounts,
): Promise<void> {
  await seedStudent(workers[0]!, threadId);
  const runs = texts.map(() => runOf(threadId));
  const outcomes = await Promise.all(
    workers.map((worker, index) => outcome(worker.graph.invoke(message(texts[index]!), runs[index]!.config))),
  );
  record(counts, outcomes);
  const kept = await humanTexts(workers[0]!, threadId);
  counts.lost += outcomes.filter((result, index) => result === "ok" && !kept.includes(texts[index]!)).length;
  counts.forks += await forksOf(workers[0]!, threadId);
  if (texts[1] === "yes" && outcomes[1] === "ok") {
    const cards = await cardsRaised(workers[0]!, threadId);
    const pastPlan = cards.some((card) => card.action !== "confirm_plan");
    countApproval(
      counts,
      pastPlan ? 1 : 0,
      runs[1]!.createdAt,
      cards.find((card) => card.action === "confirm_plan")?.at,
    );
  }
}

/**
 * The first write card answered twice, once through each worker, `offsetMs` apart: anonymously (`accept`, which
 * answers whatever card is current) or bound to the card's interrupt id (what useStream's `respond` sends).
 */
async function doubleAccept(
  workers: TempoOnDatabase[],
  threadId: string,
  offsetMs: number,
  counts: CaseCounts,
  bound = false,
): Promise<void> {
  const worker = workers[0]!;
  await seedStudent(worker, threadId);
  await startUntilFirstWrite(worker, threadId);
  const waiting = await worker.graph.getState(studentThread(threadId));
  const firstCall = proposedWrites(waiting.values as TempoState)[0]!.id;
  const cardId = waiting.tasks.flatMap((task) => task.interrupts)[0]?.id;
  const answer = (): ReturnType<typeof accept> =>
    bound && cardId
      ? (new Command({ resume: { [cardId]: { decisions: [{ type: "approve" }] } } }) as ReturnType<typeof accept>)
      : accept();
  const seen = new Set((await cardsRaised(worker, threadId)).map((card) => card.id));
  const first = outcome(worker.graph.invoke(answer(), studentThread(threadId)));
  await sleep(offsetMs);
  const repeat = runOf(threadId);
  const second = outcome(workers[1]!.graph.invoke(answer(), repeat.config));
  record(counts, await Promise.all([first, second]));
  const applied = await appliedRows(worker, threadId, firstCall);
  if (applied > 1) counts.duplicates += applied - 1;
  const writes = (await worker.database.pool.query(APPLIED_WRITES_OF_USER_SQL, [studentOf(threadId)])).rowCount ?? 0;
  // One card was seen and answered; any further write was approved by the repeated answer: unseen when its card
  // (the first one raised after the answered card) was raised after the repeat was created.
  const next = (await cardsRaised(worker, threadId)).find((card) => !seen.has(card.id));
  countApproval(counts, Math.max(0, writes - 1), repeat.createdAt, next?.at);
  counts.forks += await forksOf(worker, threadId);
}

function line(label: string, counts: CaseCounts): string {
  const refusals = Object.entries(counts.refusals)
    .map(([code, count]) => `${code} ${count}`)
    .join(", ");
  return `  ${label.padEnd(14)} runs ${String(counts.runs).padStart(4)}  forks ${String(counts.forks).padStart(3)}  lost ${String(counts.lost).padStart(3)}  duplicates ${String(
    counts.duplicates,
  ).padStart(
    3,
  )}  unseen approvals ${String(counts.unseenApprovals).padStart(3)}  late answers ${String(counts.lateAnswers).padStart(3)}${
    counts.lateByMs === undefined ? "" : ` (${counts.lateByMs} ms or more after the card)`
  }  refusals: ${refusals || "none"}`;
}

async function benchTarget(kind: string, server: TestPostgres): Promise<void> {
  for (const holdThreads of [true, false]) {
    const workers = [
      await openTempoOnDatabase(server.url, { holdThreads }),
      await openTempoOnDatabase(server.url, { holdThreads }),
    ];
    const started = Date.now();
    try {
      console.log(
        `${kind} postgres, ${holdThreads ? "threads held (createThreadLock)" : "baseline: no cross-worker thread lock"}, ${REPETITIONS} repetitions:`,
      );
      const cases: Array<[string, CaseCounts]> = [];
      const messages = emptyCounts();
      const taskAndYes = emptyCounts();
      for (let index = 0; index < REPETITIONS; index += 1) {
        await twoMessages(workers, `bench-msg-${kind}-${holdThreads}-${index}`, ["hello", "thanks"], messages);
        await twoMessages(
          workers,
          `bench-yes-${kind}-${holdThreads}-${index}`,
          ["Help me arrange next week's review", "yes"],
          taskAndYes,
        );
      }
      cases.push(["messages", messages], ["task+yes", taskAndYes]);
      for (const offset of ACCEPT_OFFSETS_MS) {
        const counts = emptyCounts();
        for (let index = 0; index < REPETITIONS; index += 1)
          await doubleAccept(workers, `bench-acc-${kind}-${holdThreads}-${offset}-${index}`, offset, counts);
        cases.push([`accept@${offset}ms`, counts]);
      }
      for (const offset of ACCEPT_OFFSETS_MS) {
        const counts = emptyCounts();
        for (let index = 0; index < REPETITIONS; index += 1)
          await doubleAccept(workers, `bench-card-${kind}-${holdThreads}-${offset}-${index}`, offset, counts, true);
        cases.push([`card@${offset}ms`, counts]);
      }
      for (const [label, counts] of cases) console.log(line(label, counts));
      console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } finally {
      for (const worker of workers) await worker.close();
    }
  }
}

const targets: Array<[string, () => Promise<TestPostgres>]> = [["embedded", startEmbeddedTestPostgres]];
if (realPostgresAvailable()) targets.push(["real", startRealTestPostgres]);
for (const [kind, start] of targets) {
  const server = await start();
  try {
    await benchTarget(kind, server);
  } finally {
    await server.stop();
  }
}
