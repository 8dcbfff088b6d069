/**
 * How `/state`, `/history` and `/threads` print: the thread's
 * ExecutionState, its step-transition snapshots, and this CLI's thread list.
 * Pure functions from values to text.
 */
import type { ExecutionState, StepSnapshot } from "../server/execution-state.js";
import type { ThreadEntry } from "./thread-registry.js";

/** The statuses that need more than their name. */
const STATUS_TEXT: Partial<Record<ExecutionState["status"], string>> = {
  stopped:
    "stopped, will carry on (the last run stopped part-way; opening the thread, your next message or /continue finishes it first)",
  resuming: "resuming (the last run stopped part-way; it is being carried on now)",
};

/** The ExecutionState as a labelled block: status, goal, the plan with each step's status, tool calls, answer. */
export function renderExecutionState(state: ExecutionState): string {
  const lines = [
    `thread:  ${state.sessionId}${state.userId ? ` (user ${state.userId})` : ""}`,
    `status:  ${STATUS_TEXT[state.status] ?? state.status}`,
    `goal:    ${state.goal || "(none yet)"}`,
  ];
  if (state.steps.length > 0) {
    lines.push(`plan:    ${state.planId}`);
    for (const [index, step] of state.steps.entries()) {
      const current = step.id === state.currentStepId ? "  ← current" : "";
      lines.push(`  ${index + 1}. [${step.status}] ${step.content}${current}`);
      if (step.summary) lines.push(`     ${step.summary}`);
    }
  } else {
    lines.push("plan:    (none yet)");
  }
  const toolCalls = state.observations.filter((observation) => observation.kind === "tool");
  const last = toolCalls.at(-1);
  lines.push(`tools:   ${toolCalls.length} call(s)${last ? `; last: ${last.tool} → ${firstLine(last.result)}` : ""}`);
  for (const reply of state.observations.filter((observation) => observation.kind === "user_reply")) {
    lines.push(`asked:   ${reply.question} → ${reply.answer}`);
  }
  if (state.outcome) {
    lines.push(`ended:   ${state.outcome.kind} — ${state.outcome.reason}`);
    for (const item of state.outcome.stillOpen ?? [])
      lines.push(`  still open: ${item.name} (${item.id}) — ${item.why}`);
  }
  if (state.finalAnswer) lines.push(`answer:  ${indentRest(state.finalAnswer, "         ")}`);
  if (state.lastError) lines.push(`error:   ${state.lastError}`);
  if (state.updatedAt) lines.push(`updated: ${state.updatedAt}`);
  if (state.workflowVersion) lines.push(`version: ${state.workflowVersion}`);
  return lines.join("\n");
}

/** One line a snapshot: when, which step moved to which status, and the overall status then. */
export function renderStepSnapshots(snapshots: readonly StepSnapshot[]): string {
  if (snapshots.length === 0)
    return "No step snapshots on this thread yet (they are taken when a plan step starts or finishes).";
  return [
    `${snapshots.length} step snapshot(s), oldest first:`,
    ...snapshots.map((snapshot) => {
      const index = snapshot.state.steps.findIndex((step) => step.id === snapshot.stepId);
      const step = index === -1 ? snapshot.stepId : `step ${index + 1} of ${snapshot.state.steps.length}`;
      return `  ${snapshot.createdAt || "?"}  ${step} → ${snapshot.status}  (thread ${snapshot.state.status}; checkpoint ${snapshot.checkpointId})`;
    }),
  ].join("\n");
}

/** The user's threads, the current one marked with `*`. */
export function renderThreads(entries: readonly ThreadEntry[], currentThreadId: string, userId: string): string {
  if (entries.length === 0) return `No threads of ${userId} seen by this CLI yet.`;
  const width = Math.max(...entries.map((entry) => entry.threadId.length));
  return [
    `Threads of ${userId} (newest first; /resume <thread> to switch):`,
    ...entries.map((entry) => {
      const marker = entry.threadId === currentThreadId ? "*" : " ";
      const waiting = entry.waitingFor ? `  waiting: ${entry.waitingFor}` : "";
      const preview = entry.lastMessage ? `  "${truncate(entry.lastMessage, 48)}"` : "";
      return `${marker} ${entry.threadId.padEnd(width)}  ${entry.updatedAt}${waiting}${preview}`;
    }),
  ].join("\n");
}

function firstLine(text: string): string {
  const [first = ""] = text.split("\n");
  return text.includes("\n") ? `${first} …` : first;
}

function indentRest(text: string, indent: string): string {
  return text.split("\n").join(`\n${indent}`);
}

function truncate(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
