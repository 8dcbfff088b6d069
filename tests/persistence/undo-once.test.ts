/**
 * "Undo that" is a card of ordinary writes, so it applies exactly once like any write (issue 47 item 4), across a
 * crash: on embedded Postgres (PGlite), through the real graph with the offline policy, a move is applied, then "undo
 * that" opens its card; the process answering the card dies right after the undo's write committed (before the
 * checkpoint that follows it), and a fresh Tempo carries the thread on. The move back is applied once — one completed
 * entry in the execution log, the review back where it was — and the thread ends with an answer that says so.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readExecutionLog, type PostgresExecutionLog } from "../../checkpoints/index.js";
import type { ExecutionLog } from "../../tools/runner.js";
import { canonicalScheduleState } from "../../tools/schedule/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import {
  accept,
  cardOf,
  continueThread,
  openTempoOnDatabase,
  studentOf,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";

const target = postgresTargets().find((candidate) => candidate.kind === "embedded")!;

/** A log that claims and applies the first write as usual, then throws: the process died right after the commit. */
function crashingAfterFirstCommit(log: PostgresExecutionLog): PostgresExecutionLog {
  const applyOnce = log.applyOnce!.bind(log);
  let crashed = false;
  (log as { applyOnce?: ExecutionLog["applyOnce"] }).applyOnce = async (entry, apply) => {
    const claimed = await applyOnce(entry, apply);
    if (!crashed) {
      crashed = true;
      throw new Error("the worker died right after the write committed");
    }
    return claimed;
  };
  return log;
}

/** Sends `message` and accepts cards until the one named `stopAt` is open (or the task ends). */
async function talkUntil(tempo: TempoOnDatabase, threadId: string, message: string, stopAt?: string) {
  let result: object = await tempo.graph.invoke(userMessage(message), studentThread(threadId));
  for (let turn = 0; turn < 10 && cardOf(result) !== undefined && cardOf(result) !== stopAt; turn += 1)
    result = await tempo.graph.invoke(accept(), studentThread(threadId));
  return result;
}

describe(`${target.kind} postgres: undo applies once across a crash`, () => {
  let server: TestPostgres | undefined;
  let tempo: TempoOnDatabase | undefined;
  beforeAll(async () => {
    server = await target.start();
    tempo = await openTempoOnDatabase(server.url, { refine: false });
  });
  afterAll(async () => {
    await tempo?.close();
    await server?.stop();
  });

  test("the worker dies after the undo's write committed; a fresh one carries on and nothing applies twice", async () => {
    const threadId = "undo-crash";
    const week = halfPlacedWeek();
    await tempo!.repository.seed(studentOf(threadId), week);
    // The change to undo: the matrix review moves to Friday.
    await talkUntil(tempo!, threadId, "move the matrix review to Friday");
    const moved = await tempo!.repository.load(studentOf(threadId));
    expect(moved.tasks.find((task) => task.id === "matrix-review")?.slots?.[0]?.day).toBe(5);
    // "undo that": its card (the move back) is open.
    expect(cardOf(await talkUntil(tempo!, threadId, "undo that", "move"))).toBe("move");

    // The card is approved in a process that dies right after the write committed.
    const crashing = await openTempoOnDatabase(server!.url, {
      refine: false,
      wrapExecutionLog: crashingAfterFirstCommit,
    });
    try {
      await expect(crashing.graph.invoke(accept(), studentThread(threadId))).rejects.toThrow(/died right after/);
    } finally {
      await crashing.close();
    }

    // A fresh Tempo carries the thread on to its end.
    const fresh = await openTempoOnDatabase(server!.url, { refine: false });
    try {
      const result = (await continueThread(fresh, threadId)) as { finalAnswer?: string | null };
      expect(result.finalAnswer ?? "").toMatch(/undid the last change/);
    } finally {
      await fresh.close();
    }
    const after = await tempo!.repository.load(studentOf(threadId));
    expect(JSON.stringify(canonicalScheduleState(after))).toBe(JSON.stringify(canonicalScheduleState(week)));
    // Each write of the thread has one completed entry: the move, and the move back.
    const log = await readExecutionLog(tempo!.database.pool, threadId);
    const completed = log.filter((entry) => entry.kind === "write" && entry.status === "completed");
    expect(completed.map((entry) => [entry.tool, entry.arguments.day])).toEqual([
      ["move", 5],
      ["move", 2],
    ]);
    expect(new Set(completed.map((entry) => entry.toolCallId)).size).toBe(2);
  });
});
