/** Assertions shared by the persistence tests: every confirmed write of a thread applied exactly once. */
import type { BaseMessage } from "@langchain/core/messages";
import { expect } from "vitest";
import { readExecutionLog, type ExecutionLogRecord } from "../../checkpoints/index.js";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { unpairedToolCalls } from "../support/scripted.js";
import { studentOf, studentThread, type TempoOnDatabase } from "./tempo-on-database.js";

/**
 * How many times the write with tool-call id `applyId` was applied for the thread's student: its completed, applied
 * entries in the execution log — the one record of applied writes, claimed in the transaction that applies the
 * change (tools/runner.ts), whatever the domain.
 */
export async function appliedRows(tempo: TempoOnDatabase, threadId: string, applyId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    "SELECT count(*) AS count FROM tempo_execution_log WHERE user_id = $1 AND tool_call_id = $2 AND kind = 'write' AND status = 'completed' AND applied",
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
    .filter(
      (message) =>
        message.getType() === "tool" && (message as unknown as { tool_call_id?: string }).tool_call_id === toolCallId,
    )
    .map((message) => String(message.content));
}

/** The thread's writes as the execution log and the repository hold them. */
export interface AppliedWrites {
  log: ExecutionLogRecord[];
  /** Completed write entries per tool call id (exactly once: 1 each). */
  completedPerCall: Map<string, number>;
  /** Ids of the completed, applied writes of the log, sorted. */
  loggedApplied: string[];
}

/** Reads what the thread applied: its execution log's write entries. */
export async function appliedWrites(tempo: TempoOnDatabase, threadId: string): Promise<AppliedWrites> {
  const log = await readExecutionLog(tempo.database.pool, threadId);
  const completedWrites = log.filter((entry) => entry.kind === "write" && entry.status === "completed");
  const completedPerCall = new Map<string, number>();
  for (const entry of completedWrites)
    completedPerCall.set(entry.toolCallId, (completedPerCall.get(entry.toolCallId) ?? 0) + 1);
  const loggedApplied = completedWrites
    .filter((entry) => entry.applied)
    .map((entry) => entry.toolCallId)
    .sort();
  return { log, completedPerCall, loggedApplied };
}

/**
 * Checks a finished thread: one completed log entry per write call; eight applied writes — the eight placements (the
 * refinement finds nothing to change in the polished week) —; the eight review tasks are placed, the schedule valid;
 * tool calls and results paired.
 */
export async function expectEveryWriteAppliedOnce(
  tempo: TempoOnDatabase,
  threadId: string,
): Promise<ExecutionLogRecord[]> {
  const { log, completedPerCall, loggedApplied } = await appliedWrites(tempo, threadId);
  expect([...completedPerCall.values()].every((count) => count === 1)).toBe(true);
  expect(loggedApplied).toHaveLength(8);
  const appliedTools = log
    .filter((entry) => entry.kind === "write" && entry.status === "completed" && entry.applied)
    .map((entry) => entry.tool);
  expect(appliedTools).toEqual(Array(8).fill("place"));

  const schedule = await tempo.repository.load(studentOf(threadId));
  expect(schedule.tasks.filter((task) => task.source === "task_item").map((task) => task.status)).toEqual(
    Array(8).fill("placed"),
  );
  expect(checkScheduleInvariants(schedule)).toEqual([]);

  const state = await tempo.graph.getState(studentThread(threadId));
  const values = state.values as { phase?: string; messages?: BaseMessage[] };
  expect(values.phase).toBe("done");
  expect(unpairedToolCalls(values.messages ?? [])).toEqual([]);
  return log;
}

/**
 * What breaks "every approved write applied exactly once" on a thread, as sentences (empty when nothing does): a
 * write completed twice in the log, an approved write not applied (lost), a
 * write applied that was never approved, a schedule whose placed review tasks do not match the applied writes or
 * that breaks an invariant.
 */
export async function approvedWriteProblems(
  tempo: TempoOnDatabase,
  threadId: string,
  approved: ReadonlySet<string>,
): Promise<string[]> {
  const { completedPerCall, loggedApplied: rows } = await appliedWrites(tempo, threadId);
  const problems: string[] = [];
  for (const [callId, count] of completedPerCall)
    if (count > 1) problems.push(`write ${callId} completed ${count} times in the log`);
  const lost = [...approved].filter((id) => !rows.includes(id));
  if (lost.length > 0)
    problems.push(`${lost.length} of ${approved.size} approved write(s) never applied: ${lost.join(", ")}`);
  const unapproved = rows.filter((id) => !approved.has(id));
  if (unapproved.length > 0)
    problems.push(`${unapproved.length} write(s) applied without an approval: ${unapproved.join(", ")}`);
  const schedule = await tempo.repository.load(studentOf(threadId));
  const placed = schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length;
  if (placed !== new Set(rows).size)
    problems.push(`${placed} review task(s) placed for ${new Set(rows).size} applied write(s)`);
  const broken = checkScheduleInvariants(schedule);
  if (broken.length > 0) problems.push(`schedule invariants broken: ${JSON.stringify(broken)}`);
  return problems;
}
