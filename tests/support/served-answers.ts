/**
 * Answers racing cards on a served Tempo (`langgraph dev` with TEMPO_AUTH_JWT_SECRET and DATABASE_URL): the
 * cases of `bench/concurrency.ts` sent as the LangGraph server's runs, each under a multitask strategy, for
 * tests/server/unseen-answers.test.ts and bench/concurrency-served.ts.
 *
 * An approval is unseen when the card it approved was raised after the answer was created: the answer's creation is
 * the server's, the time in its UUIDv7 run id (when the server accepted the request); the card's raising is the
 * time of the checkpoint it waits at (its `created_at` in the thread's history). An answer created after that is a
 * late answer: its sender could have seen the card (a retry after a reload, say) — counted apart, not as unseen.
 */
import type { Client } from "@langchain/langgraph-sdk";
import type pg from "pg";
import { uuid7Time } from "../../server/card-seen.js";
import { ARRANGE_REQUEST } from "../persistence/tempo-on-database.js";
import { writesOnCard } from "./card-writes.js";
import { APPLIED_WRITES_OF_USER_SQL } from "./applied-writes.js";

/** A multitask strategy of the LangGraph server. */
export type Strategy = "enqueue" | "reject" | "interrupt" | "rollback";

/** What a race left on its thread. */
export interface RaceResult {
  /** Per run sent: "ok", the run's error name (e.g. "ThreadBusyError"), "refused <status>" when the server did not create it, or the run's status. */
  outcomes: string[];
  /** Cards approved that were raised after the answer that approved them was created (0 or 1). */
  unseen: number;
  /** Cards approved that were raised before the (repeated) answer was created: its sender could have seen them (0 or 1). */
  late: number;
  /** How long after the card was raised the earliest late answer was created (ms), when there was one. */
  lateByMs?: number;
  /** Checkpoints of the thread with more than one child. */
  forks: number;
  /** The action of the card the thread waits on at the end, if any. */
  card?: string;
}

type ThreadState = Awaited<ReturnType<Client["threads"]["getState"]>>;
type Card = { kind?: string; action_request?: { action?: string } };

const ACCEPT = { resume: { type: "accept", args: null } };
const message = (content: string) => ({ messages: [{ role: "user", content }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The action of the card the thread waits on, or undefined. */
export function cardAction(state: ThreadState): string | undefined {
  return (state.tasks.flatMap((task) => task.interrupts)[0]?.value as Card | undefined)?.action_request?.action;
}

/** The ids of the interrupts a state waits on. */
function interruptIds(state: ThreadState): string[] {
  return state.tasks
    .flatMap((task) => task.interrupts.map((interrupt) => interrupt.id ?? ""))
    .filter((id) => id !== "");
}

/** Sends a run; "refused <status>" when the server does not create it (`reject` while another runs: 422). */
async function send(
  client: Client,
  threadId: string,
  payload: Record<string, unknown>,
  strategy: Strategy,
): Promise<{ runId?: string; refused?: string }> {
  try {
    const run = await client.runs.create(threadId, "tempo", { ...payload, multitaskStrategy: strategy });
    return { runId: run.run_id };
  } catch (error) {
    return { refused: `refused ${String((error as { status?: number }).status ?? (error as Error).message)}` };
  }
}

/**
 * How a run ended: "ok", the name of the graph error it failed with (e.g. "ThreadBusyError"), its status (an
 * "interrupted" run), or "deleted" (a run another one rolled back).
 */
async function outcomeOf(
  client: Client,
  threadId: string,
  sent: { runId?: string; refused?: string },
): Promise<string> {
  if (!sent.runId) return sent.refused ?? "refused";
  const runId = sent.runId;
  const joined = (await client.runs.join(threadId, runId).catch(() => null)) as {
    __error__?: { error?: string; message?: string };
  } | null;
  const graphError = joined?.__error__ ? graphErrorName(joined.__error__) : undefined;
  if (graphError) return graphError;
  const status = await client.runs.get(threadId, runId).then(
    (run) => run.status,
    (error: { status?: number }) => (error.status === 404 ? "deleted" : "unknown"),
  );
  return status === "success" ? "ok" : status;
}

/** The name of the graph's error a run failed with (the server wraps its name and message in its message), if any. */
function graphErrorName(error: { error?: string; message?: string }): string | undefined {
  try {
    const inner = JSON.parse(error.message ?? "") as { error?: unknown };
    return typeof inner.error === "string" ? inner.error : undefined;
  } catch {
    return undefined; // the server's own error (a cancelled run): its status says more
  }
}

/** Checkpoints of the thread's history with more than one child (several roots count as one fork). */
export async function forksOf(client: Client, threadId: string): Promise<number> {
  const history = await client.threads.getHistory(threadId, { limit: 500 });
  const children = new Map<string, number>();
  for (const state of history) {
    const parent = state.parent_checkpoint?.checkpoint_id ?? "(root)";
    children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return [...children.values()].filter((count) => count > 1).length;
}

/** When each interrupt of the thread was first raised: the time of the earliest checkpoint that waits on it. */
async function raisedTimes(client: Client, threadId: string): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const state of await client.threads.getHistory(threadId, { limit: 500 })) {
    const at = state.created_at ? Date.parse(state.created_at) : Number.NaN;
    for (const id of interruptIds(state)) if (!Number.isNaN(at)) times.set(id, Math.min(times.get(id) ?? at, at));
  }
  return times;
}

/** A task request and "yes" sent back to back (both before the plan card exists): does the "yes" approve it? */
export async function taskAndYes(client: Client, strategy: Strategy): Promise<RaceResult> {
  const threadId = (await client.threads.create()).thread_id;
  const task = await send(client, threadId, { input: message(ARRANGE_REQUEST) }, strategy);
  const yes = await send(client, threadId, { input: message("yes") }, strategy);
  const outcomes = [await outcomeOf(client, threadId, task), await outcomeOf(client, threadId, yes)];
  const state = await client.threads.getState(threadId);
  // The plan card was approved when the thread went past it (to a write card, or further).
  const planApproved =
    cardAction(state) !== "confirm_plan" && ((state.values as { planSteps?: unknown[] }).planSteps ?? []).length > 0;
  const planCard = [...(await raisedTimes(client, threadId)).values()].sort((a, b) => a - b)[0];
  const yesCreated = uuid7Time(yes.runId);
  const unseen = planApproved && (yesCreated === undefined || planCard === undefined || yesCreated < planCard) ? 1 : 0;
  const late = planApproved ? 1 - unseen : 0;
  const card = cardAction(state);
  return {
    outcomes,
    unseen,
    late,
    ...(late ? { lateByMs: yesCreated! - planCard! } : {}),
    forks: await forksOf(client, threadId),
    ...(card ? { card } : {}),
  };
}

/**
 * A card — the plan card (`at: "plan"`) or the first write card (`"write"`) — answered with an anonymous accept, the
 * same accept sent again `offsetMs` later: writes applied beyond the answered card's were approved by the repeat
 * (`extraWrites`) — an unseen approval when their card was raised after the repeat was created. Applied writes are the rows the schedule applied
 * for `user` (`pool`: the served graph's Postgres).
 */
export async function repeatedAccept(
  client: Client,
  pool: pg.Pool,
  user: string,
  { at, offsetMs, strategy }: { at: "plan" | "write"; offsetMs: number; strategy: Strategy },
): Promise<RaceResult & { extraWrites: number; threadId: string }> {
  const threadId = (await client.threads.create()).thread_id;
  await client.runs.wait(threadId, "tempo", { input: message(ARRANGE_REQUEST) });
  if (at === "write") await client.runs.wait(threadId, "tempo", { command: ACCEPT });
  const answered = await client.threads.getState(threadId);
  const expected = at === "write" ? "place" : "confirm_plan";
  if (cardAction(answered) !== expected)
    throw new Error(`expected the ${expected} card, got ${String(cardAction(answered))}`);
  const firstCard = new Set(writesOnCard(answered.values).map((write) => write.id));
  const seen = new Set((await raisedTimes(client, threadId)).keys());
  const first = await send(client, threadId, { command: ACCEPT }, strategy);
  await sleep(offsetMs);
  const repeat = await send(client, threadId, { command: ACCEPT }, strategy);
  const outcomes = [await outcomeOf(client, threadId, first), await outcomeOf(client, threadId, repeat)];
  const rows = await pool.query<{ apply_id: string }>(APPLIED_WRITES_OF_USER_SQL, [user]);
  const extraWrites = rows.rows.filter((row) => !firstCard.has(row.apply_id)).length;
  let unseen = 0;
  let late = 0;
  let lateByMs: number | undefined;
  if (extraWrites > 0) {
    // The card the repeat approved: the first one raised after the first write card.
    const raised = [...(await raisedTimes(client, threadId)).entries()]
      .filter(([id]) => !seen.has(id))
      .map(([, at]) => at);
    const nextCard = raised.length > 0 ? Math.min(...raised) : undefined;
    const created = uuid7Time(repeat.runId);
    if (created === undefined || nextCard === undefined || created < nextCard) unseen = 1;
    else [late, lateByMs] = [1, created - nextCard];
  }
  const card = cardAction(await client.threads.getState(threadId));
  return {
    outcomes,
    unseen,
    late,
    ...(lateByMs === undefined ? {} : { lateByMs }),
    extraWrites,
    forks: await forksOf(client, threadId),
    ...(card ? { card } : {}),
    threadId,
  };
}
