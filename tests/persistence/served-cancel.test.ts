/**
 * A run cancelled while it applies a card's approved writes, on the served path: the graph `langgraph.json` serves
 * (`createServedGraph`, DATABASE_URL on PGlite and PostgreSQL 15), run the way the LangGraph server runs it (its own
 * checkpointer attached, the authenticated user in `langgraph_auth_user_id`, the run's `signal` aborted by a cancel —
 * Agent Chat UI's stop, `runs.cancel`, a multitask `interrupt`).
 *
 * What a user expects of a cancel: it stops further writes at the next write boundary (the write under way finishes:
 * it is one transaction); the thread then says which writes applied and which did not; and the next message sees a
 * consistent thread. LangGraph rejects an aborted run at once but cannot stop the node it was running, so before this
 * the execute node went on applying the rest of the batch after the cancel — and the run that carried the thread on
 * applied whatever was left.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import { CANCELLED_WRITE_RESULT, type ExecutionLog } from "../../tools/runner.js";
import { postgresTargets } from "../support/postgres.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { interruptsOf, resume, unpairedToolCalls } from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../support/applied-writes.js";
import { useServedGraph } from "../support/served-graph.js";

const accept = () => resume({ type: "accept", args: null });
type Card = { action_request: { action: string }; action_requests: unknown[] };
const cardOf = (result: object) => (interruptsOf(result)[0]?.value as Card | undefined)?.action_request.action;

describe.each(postgresTargets())("on $kind Postgres", (target) => {
  const on = useServedGraph(() => target.start());

  test("a cancel after write 3 of a batch stops the writes there; the next message is told which applied", async () => {
    const user = `carol-${target.kind}`;
    const asServer = { configurable: { thread_id: `cancel-${target.kind}`, langgraph_auth_user_id: user } };
    const { graph, dependencies } = on.served;
    let result: object = await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, asServer);
    expect(cardOf(result)).toBe("confirm_plan");
    result = await graph.invoke(accept(), asServer);
    expect(cardOf(result)).toBe("place");
    const batch = writesOnCard((await graph.getState(asServer)).values);
    expect(batch.length).toBeGreaterThan(4);

    // The cancel lands while write 3 commits. Every claim of the batch's writes is seen: a write's, or a cancellation's.
    const log = dependencies.executionLog as ExecutionLog;
    const applyOnce = log.applyOnce!;
    const cancel = new AbortController();
    const claims: string[] = [];
    let allClaimed!: () => void;
    const claimedAll = new Promise<void>((resolve) => (allClaimed = resolve));
    log.applyOnce = async (entry, apply) => {
      const claimed = await applyOnce.call(log, entry, apply);
      claims.push(entry.toolCallId);
      if (claims.length === 3) cancel.abort("interrupt");
      if (claims.length === batch.length) allClaimed();
      return claimed;
    };
    try {
      const run = graph.stream(accept(), { ...asServer, signal: cancel.signal, streamMode: "values" });
      expect(
        await thrownBy(
          (async () => {
            for await (const chunk of await run) void chunk;
          })(),
        ),
      ).toBeDefined();
      // The aborted run's node has let go of every write of the batch (applied, or recorded as cancelled).
      await claimedAll;
    } finally {
      log.applyOnce = applyOnce;
    }

    // The three writes before the cancel applied; none after it did.
    const applied = (await on.pool.query<{ apply_id: string }>(APPLIED_WRITES_OF_USER_SQL, [user])).rows.map(
      (row) => row.apply_id,
    );
    const firstThree = batch.slice(0, 3).map((write) => write.id);
    expect(applied.sort()).toEqual([...firstThree].sort());

    // The next message carries the cancelled run on first: nothing more applies, and the thread says what did.
    await graph.invoke({ messages: [new HumanMessage("thanks")] }, asServer);
    expect((await on.pool.query(APPLIED_WRITES_OF_USER_SQL, [user])).rowCount).toBe(3);
    const entries = (await readExecutionLog(on.pool, asServer.configurable.thread_id)).filter(
      (entry) => entry.kind === "write" && entry.status === "completed",
    );
    expect(entries.filter((entry) => !entry.applied).map((entry) => entry.result)).toEqual(
      Array(batch.length - 3).fill(CANCELLED_WRITE_RESULT),
    );
    const state = await graph.getState(asServer);
    const values = state.values as { phase: string; messages: BaseMessage[]; outcome: unknown };
    expect(state.next).toEqual([]);
    expect(values.phase).not.toBe("executing");
    expect(unpairedToolCalls(values.messages)).toEqual([]);
    // The task ended there; its report says which changes applied and which approved ones did not.
    // Three writes applied and stay: the task did part of its work.
    expect(values.outcome).toMatchObject({ kind: "partial" });
    const report = values.messages
      .map((message) => String(message.content))
      .find((text) => text.startsWith("Finished"));
    expect(report).toContain("Changes applied (they stay): 3 — ");
    expect(report).toContain(`Approved but not applied: ${batch.length - 3} — `);
    // Named as their card named them, not as raw calls (`place {"task_id":…}`).
    expect(report).toMatch(/Approved but not applied: \d+ — Place "[^"]+" on /);
    expect(report).not.toMatch(/\bplace \{/);
    expect(report).toContain("Note: The task stopped: the run was cancelled while it applied the approved changes.");
  });

  test("the run right after a cancel waits for the cancelled batch to stop: no write applies after the cancel", async () => {
    // The server starts the next run as soon as the cancel is recorded (a multitask `interrupt` starts it at once),
    // while the cancelled run's node is still in its write: the two must not apply the same batch side by side.
    const user = `dana-${target.kind}`;
    const threadId = `cancel-overlap-${target.kind}`;
    const asServer = { configurable: { thread_id: threadId, langgraph_auth_user_id: user } };
    const { graph, dependencies } = on.served;
    await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, asServer);
    expect(cardOf(await graph.invoke(accept(), asServer))).toBe("place");
    const batch = writesOnCard((await graph.getState(asServer)).values);

    // The cancelled run is held inside its third write (committed, the node not yet past it) until the next run
    // either waits for it or claims a write of the batch itself.
    const log = dependencies.executionLog as ExecutionLog;
    const applyOnce = log.applyOnce!;
    const batches = dependencies.writeBatches;
    const settled = batches.settled;
    const cancel = new AbortController();
    let claims = 0;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    batches.settled = (id) => (letGo(), settled.call(batches, id));
    log.applyOnce = async (entry, apply) => {
      claims += 1;
      const claimed = await applyOnce.call(log, entry, apply);
      if (claims === 3) {
        cancel.abort("interrupt");
        await held;
      } else if (claims > 3) letGo();
      return claimed;
    };
    try {
      const run = graph.stream(accept(), { ...asServer, signal: cancel.signal, streamMode: "values" });
      expect(
        await thrownBy(
          (async () => {
            for await (const chunk of await run) void chunk;
          })(),
        ),
      ).toBeDefined();
      // The next message at once, the cancelled node still in its third write.
      await graph.invoke({ messages: [new HumanMessage("thanks")] }, asServer);
      await batches.settled(threadId);
    } finally {
      log.applyOnce = applyOnce;
      batches.settled = settled;
    }

    const applied = (await on.pool.query<{ apply_id: string }>(APPLIED_WRITES_OF_USER_SQL, [user])).rows;
    expect(applied.map((row) => row.apply_id).sort()).toEqual(
      batch
        .slice(0, 3)
        .map((write) => write.id)
        .sort(),
    );
    const values = (await graph.getState(asServer)).values as { messages: BaseMessage[]; outcome: unknown };
    expect(unpairedToolCalls(values.messages)).toEqual([]);
    const report = values.messages
      .map((message) => String(message.content))
      .find((text) => text.startsWith("Finished"));
    expect(report).toContain("Changes applied (they stay): 3 — ");
    expect(report).toContain(`Approved but not applied: ${batch.length - 3} — `);
  });
});
