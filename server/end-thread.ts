/**
 * A client ending a thread: `updateState(config, null, END)` — what Agent
 * Inbox's "Mark as resolved" (its `ignoreThread`) and the LangGraph SDK send.
 * LangGraph alone would only close the interrupted task and leave `phase` and
 * `pending` waiting, so the next message would be taken as an answer to a
 * card nobody sees. Here the same call takes the `end_thread` transition:
 * a task in progress is dropped, nothing stays pending. The update is
 * attributed to memorize, whose only edge is END, so no node runs after it.
 */
import { END, type StateSnapshot } from "@langchain/langgraph";
import { droppedLeavesText } from "../review/write-facts.js";
import type { ToolDomain } from "../tools/domain.js";
import { languageOf } from "../contracts/language.js";
import type { ExecutionLog } from "../tools/runner.js";
import { NODE } from "../kernel/routing.js";
import type { TempoState, TempoUpdate } from "../kernel/state.js";
import { endThread, taskInProgress } from "../kernel/transitions.js";

/**
 * True for a run input that ends the thread: a `Command` (or its JSON, as the server receives it) whose only field is
 * `goto: "__end__"` — what Agent Chat UI's "Mark as Resolved" sends. Any other `goto`, and any `update`, stays refused.
 */
export function endsThread(input: unknown): boolean {
  if (input === null || typeof input !== "object") return false;
  const { goto, update, resume } = input as { goto?: unknown; update?: unknown; resume?: unknown };
  const targets = Array.isArray(goto) ? goto : goto === undefined || goto === null ? [] : [goto];
  const empty = (value: unknown) => value === undefined || value === null;
  return targets.length === 1 && targets[0] === END && empty(update) && empty(resume);
}

/**
 * True for a state update that ends the thread — values null (or absent), as END: Agent Inbox's "Mark as resolved"
 * (`POST /threads/{id}/state {"values": null, "as_node": "__end__"}`), the one update the run guard takes.
 */
export function endsThreadByUpdate(values: unknown, asNode: unknown): boolean {
  return asNode === END && (values === null || values === undefined);
}

/** The update that ends the thread of `snapshot`, as the node it is written as; undefined for a thread with no checkpoint yet (nothing to end). */
export async function endThreadUpdate(
  snapshot: StateSnapshot,
  domain: ToolDomain,
  log: ExecutionLog,
): Promise<{ values: TempoUpdate; asNode: typeof NODE.memorize } | undefined> {
  if (!snapshot.createdAt) return undefined;
  const state = snapshot.values as TempoState;
  const threadId = String(snapshot.config.configurable?.thread_id ?? "");
  // What a dropped task leaves is read only when a task is dropped.
  const language = languageOf(state.messages);
  const leaves = taskInProgress(state.phase)
    ? await droppedLeavesText(state, domain, log, { userId: state.userId ?? "", threadId }, language)
    : "";
  return { values: endThread(state, leaves, language), asNode: NODE.memorize };
}
