/**
 * Repeated answers to one card — a double click, a client retry, a second
 * worker — sent 0, 20, 100 and 500 ms after the first, on Tempo's Postgres
 * checkpointer (embedded and real PostgreSQL): the card's write is applied
 * once, the next card is never approved by the repeat, the thread never forks
 * (no checkpoint has two children), and the repeat gets a typed refusal.
 * Answers are bound to the card: addressed by interrupt id (what useStream's
 * `respond(value, { interruptId })` sends), or echoing the card's action
 * request (Agent Inbox's accept).
 */
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CardSchema } from "../../contracts/cards.js";
import { isTempoError } from "../../errors/index.js";
import { postgresTargets } from "../support/postgres.js";
import { appliedRows, logOfCall } from "./exactly-once.js";
import {
  openTempoOnDatabase,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
  useTempoOnTarget,
  type TempoOnDatabase,
} from "./tempo-on-database.js";
import { writesOnCard } from "../support/card-writes.js";

const DELAYS_MS = [0, 20, 100, 500];

/** The refusals a repeated answer may get: the card moved on, another run resumed it first, or the thread is busy. */
const TYPED_REFUSALS = ["STALE_RESUME", "ALREADY_RESUMED", "THREAD_BUSY"];

/** The answers of a card, bound to it two ways. */
const ANSWERS = {
  "addressed by interrupt id": (interruptId: string) =>
    new Command({ resume: { [interruptId]: { decisions: [{ type: "approve" }] } } }),
  "echoing the card (Agent Inbox)": (_interruptId: string, card: { action: string; args: Record<string, unknown> }) =>
    new Command({ resume: [{ type: "accept", args: card }] }),
};

/** The write card a thread waits on: its interrupt id, the echo Agent Inbox sends, and the tool-call id. */
async function waitingWrite(tempo: TempoOnDatabase, threadId: string) {
  const state = await tempo.graph.getState(studentThread(threadId));
  const pending = state.tasks.flatMap((task) => task.interrupts)[0];
  const card = CardSchema.parse(pending?.value);
  return {
    interruptId: pending!.id!,
    echo: { action: card.action_requests[0]!.name, args: card.action_requests[0]!.arguments },
    callId: writesOnCard(state.values)[0]!.id,
  };
}

/** Checkpoints of the thread that have more than one child: a fork. */
async function forks(tempo: TempoOnDatabase, threadId: string): Promise<string[]> {
  const result = await tempo.database.pool.query<{ parent_checkpoint_id: string }>(
    "SELECT parent_checkpoint_id FROM checkpoints WHERE thread_id = $1 AND parent_checkpoint_id IS NOT NULL GROUP BY parent_checkpoint_id HAVING count(*) > 1",
    [threadId],
  );
  return result.rows.map((row) => row.parent_checkpoint_id);
}

/** Refusal codes seen, by delay, printed at the end (how the repeat was stopped). */
const refusals = new Map<string, number>();
afterAll(() => console.log(`repeated answers refused: ${JSON.stringify(Object.fromEntries([...refusals].sort()))}`));

describe.each(postgresTargets())("$kind postgres", (target) => {
  const env = useTempoOnTarget(target);
  let other: TempoOnDatabase;
  beforeAll(async () => {
    // A second worker on its own pool: the repeat may reach another process than the first answer.
    other = await openTempoOnDatabase(env.server.url);
  });
  afterAll(async () => {
    await other?.close();
  });

  describe.each(Object.entries(ANSWERS))("%s", (style, answerOf) => {
    test.each(DELAYS_MS)(
      "repeated %i ms later: applied once, the next card not approved, no fork, a typed refusal",
      async (delay) => {
        const threadId = `stale-${target.kind}-${style.split(" ")[0]}-${delay}`;
        await seedStudent(env.tempo, threadId);
        await startUntilFirstWrite(env.tempo, threadId);
        const first = await waitingWrite(env.tempo, threadId);
        const answer = () =>
          answerOf(first.interruptId, first.echo) as Parameters<TempoOnDatabase["graph"]["invoke"]>[0];

        const original = env.tempo.graph.invoke(answer(), studentThread(threadId));
        await new Promise((resolve) => setTimeout(resolve, delay));
        const repeat = other.graph.invoke(answer(), studentThread(threadId));
        const settled = await Promise.allSettled([original, repeat]);

        const refused = settled
          .filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected")
          .map((outcome) => outcome.reason as unknown);
        expect(settled.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect(isTempoError(refused[0]), String((refused[0] as Error)?.stack ?? refused[0])).toBe(true);
        const code = (refused[0] as { code: string }).code;
        expect(TYPED_REFUSALS).toContain(code);
        refusals.set(`${delay} ms ${code}`, (refusals.get(`${delay} ms ${code}`) ?? 0) + 1);

        // The first card's write applied once; the thread waits on the next write, which nobody approved.
        expect(await appliedRows(env.tempo, threadId, first.callId)).toBe(1);
        // One completed entry; the repeat, if it got as far as the write before it was refused, claimed nothing and left
        // only a replay in the audit (the claim is in the log: tools/runner.ts).
        const entries = await logOfCall(env.tempo, threadId, first.callId);
        expect(entries.filter((entry) => entry.startsWith("completed"))).toEqual(["completed/applied"]);
        for (const entry of entries.filter((each) => !each.startsWith("completed")))
          expect(entry).toBe("replayed/not-applied");
        const next = await waitingWrite(env.tempo, threadId);
        expect(next.callId).not.toBe(first.callId);
        expect(await appliedRows(env.tempo, threadId, next.callId)).toBe(0);
        expect(await logOfCall(env.tempo, threadId, next.callId)).toEqual([]);
        expect(await forks(env.tempo, threadId)).toEqual([]);
      },
    );
  });
});
