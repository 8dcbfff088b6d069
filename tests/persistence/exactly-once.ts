/** Assertions shared by the persistence tests: every confirmed write of a thread applied exactly once. */
import type { BaseMessage } from "@langchain/core/messages";
import { expect } from "vitest";
import { readExecutionLog, type ExecutionLogRecord } from "../../checkpoints/index.js";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { unpairedToolCalls } from "../support/scripted.js";
import { studentOf, studentThread, type TempoOnDatabase } from "./tempo-on-database.js";

/** Rows of `tempo_schedule_applied` for one apply id of the thread's student. */
export async function appliedRows(tempo: TempoOnDatabase, threadId: string, applyId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    "SELECT count(*) AS count FROM tempo_schedule_applied WHERE user_id = $1 AND apply_id = $2",
    [studentOf(threadId), applyId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** The thread's log entries for one tool call, as "status/applied" strings in log order. */
export async function logOfCall(tempo: TempoOnDatabase, threadId: string, toolCallId: string): Promise<string[]> {
  return (await readExecutionLog(tempo.database.pool, threadId))
    .filter((entry) => entry.toolCallId === toolCallId)
    .map((entry) => `${entry.status}/${entry.applied ? "applied" : "not-applied"}`);
}

/** The content of the tool messages answering `toolCallId` in the thread's current state. */
export async function toolMessagesOf(tempo: TempoOnDatabase, threadId: string, toolCallId: string): Promise<string[]> {
  const state = await tempo.graph.getState(studentThread(threadId));
  const messages = (state.values as { messages?: BaseMessage[] }).messages ?? [];
  return messages
    .filter((message) => message.getType() === "tool" && (message as unknown as { tool_call_id?: string }).tool_call_id === toolCallId)
    .map((message) => String(message.content));
}

/**
 * Checks a finished thread: one completed log entry per write call; the repository's applied ids are exactly the
 * applied ones of the log; the eight review tasks are placed, the schedule valid; tool calls and results paired.
 */
export async function expectEveryWriteAppliedOnce(tempo: TempoOnDatabase, threadId: string): Promise<ExecutionLogRecord[]> {
  const log = await readExecutionLog(tempo.database.pool, threadId);
  const completedWrites = log.filter((entry) => entry.kind === "write" && entry.status === "completed");
  const perCall = new Map<string, number>();
  for (const entry of completedWrites) perCall.set(entry.toolCallId, (perCall.get(entry.toolCallId) ?? 0) + 1);
  expect([...perCall.values()].every((count) => count === 1)).toBe(true);

  const appliedIds = completedWrites.filter((entry) => entry.applied).map((entry) => entry.toolCallId).sort();
  const rows = await tempo.database.pool.query<{ apply_id: string }>("SELECT apply_id FROM tempo_schedule_applied WHERE user_id = $1 ORDER BY apply_id", [
    studentOf(threadId),
  ]);
  expect(rows.rows.map((row) => row.apply_id)).toEqual(appliedIds);
  expect(appliedIds).toHaveLength(8);

  const schedule = await tempo.repository.load(studentOf(threadId));
  expect(schedule.tasks.filter((task) => task.source === "task_item").map((task) => task.status)).toEqual(Array(8).fill("placed"));
  expect(checkScheduleInvariants(schedule)).toEqual([]);

  const state = await tempo.graph.getState(studentThread(threadId));
  const values = state.values as { phase?: string; messages?: BaseMessage[] };
  expect(values.phase).toBe("done");
  expect(unpairedToolCalls(values.messages ?? [])).toEqual([]);
  return log;
}
