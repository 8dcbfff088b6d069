/**
 * What a task's writes really did, read from the facts rather than from the conversation: the execution log holds a
 * completed entry for every write the repository applied (it commits in the repository's transaction), so a write
 * applied by a run that died before its checkpoint — whose tool message never reached the state — still counts.
 * A task's endings (a drop, the end of a thread, the final report) are told from these facts: never "Nothing was
 * changed" over applied writes, and an approval that was recorded but never applied is said, not lost in silence.
 * (A graph built without a database keeps its log in memory: the log is always the record.)
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { LegacyAnsweredWrite, TempoState } from "../kernel/state.js";
import { proposedWrites, unansweredCalls } from "../kernel/proposal.js";
import { callArguments } from "../kernel/call-records.js";
import { describeToolCall, findTool, readableText, type ToolDomain } from "../tools/domain.js";
import type { Language } from "../contracts/language.js";
import { sayReport } from "../contracts/report-words.js";
import { isCancelledWrite, type ExecutionLog, type ToolOutcome } from "../tools/runner.js";
import { callOutcomeOf } from "../kernel/tool-results.js";
import { messageText } from "../contracts/message-text.js";

/** One write of the task: its tool-call id, tool and what the card called it. */
export interface WriteFact {
  id: string;
  name: string;
  summary: string;
  /** What an applied write's tool result said, whole (a batch's lines included). */
  result?: string;
}

/** The task's writes by what became of them. */
export interface WriteFacts {
  /** Applied to the repository (the log holds them as completed and applied). */
  applied: WriteFact[];
  /** Approved on a card and not applied (yet): the run stopped, or was cancelled, before applying them. */
  approvedNotApplied: WriteFact[];
}

type FactsState = Pick<TempoState, "messages" | "taskStartMessageId" | "answeredWrites" | "pending">;

/**
 * The facts of the task's writes: every write it proposed (its tool calls in the conversation — the open card's
 * among them), each looked up in `log` for thread `threadId`. A write call no tool message answers and no open card
 * holds was approved and has not run (yet).
 */
export async function readWriteFacts(
  state: FactsState,
  domain: ToolDomain,
  log: ExecutionLog,
  threadId: string,
  userId?: string,
  language: Language = "en",
): Promise<WriteFacts> {
  const writes = new Map<string, WriteFact>();
  // The arguments of calls known only as calls (no card's words for them): what an unapplied one is described from.
  const callArgs = new Map<string, Record<string, unknown>>();
  const messages = taskMessages(state);
  for (const message of messages) {
    for (const call of (message as AIMessage).tool_calls ?? []) {
      if (call.id && findTool(domain, call.name)?.kind === "write") {
        const args = callArguments(message, call);
        callArgs.set(call.id, args ?? {});
        writes.set(call.id, { id: call.id, name: call.name, summary: describe(call.name, args) });
      }
    }
  }
  const onCard = proposedWrites(state);
  const approved = new Set(
    unansweredCalls(messages).flatMap((call) =>
      writes.has(call.id) && !onCard.some((write) => write.id === call.id) ? [call.id] : [],
    ),
  );
  for (const write of onCard) {
    writes.set(write.id, { ...write, summary: write.summary || describe(write.name, write.arguments) });
    callArgs.delete(write.id);
  }
  // A thread saved by graph@2 kept its card's writes and the answered ones outside the conversation.
  const legacyCard = (state.pending as { tools?: LegacyAnsweredWrite["tool"][] } | null)?.tools ?? [];
  for (const tool of [...state.answeredWrites.map((write) => write.tool), ...legacyCard]) {
    writes.set(tool.id, { id: tool.id, name: tool.name, summary: tool.summary || describe(tool.name, tool.arguments) });
    callArgs.delete(tool.id);
  }
  for (const write of state.answeredWrites) if (write.approved) approved.add(write.tool.id);
  // What each applied write did, in the words of its recorded result ("placed task … on …"); a write its run was
  // cancelled before is approved and was not applied, though its call is answered.
  const logged = await loggedOutcomes([...writes.keys()], log, threadId);
  const applied = new Map(
    [...logged].flatMap(([id, outcome]) => (outcome.applied ? [[id, outcome.content] as const] : [])),
  );
  for (const [id, outcome] of logged) if (isCancelledWrite(outcome)) approved.add(id);
  // A write whose tool message records it applied counts too when the log does not hold it: a log kept in memory
  // (a graph built without a database) starts empty in the process that resumed the thread.
  for (const message of messages) {
    const id = (message as { tool_call_id?: string }).tool_call_id;
    if (id !== undefined && writes.has(id) && !applied.has(id) && callOutcomeOf(message) === "applied")
      applied.set(id, messageText(message));
  }
  const facts: WriteFacts = { applied: [], approvedNotApplied: [] };
  for (const write of writes.values()) {
    const result = applied.get(write.id);
    if (result !== undefined) facts.applied.push({ ...write, summary: firstLine(result) || write.summary, result });
    else if (approved.has(write.id)) facts.approvedNotApplied.push(write);
  }
  // An approved write that never ran (its run was cancelled, say) is named as its card named it, not as a raw call —
  // described by the domain on the user's week as it stands (one load), when the caller says whose week it is, in
  // the user's `language` as the card spoke it.
  const raw = facts.approvedNotApplied.filter((write) => callArgs.has(write.id));
  if (userId !== undefined && raw.length > 0) {
    let stored: Promise<unknown> | undefined;
    const load = () => (stored ??= domain.load(userId));
    for (const write of raw)
      write.summary = await describeToolCall(domain, userId, write.name, callArgs.get(write.id) ?? {}, language, load);
  }
  return facts;
}

/** The recorded outcome of each of `ids` the log holds as completed on thread `threadId`. */
export async function loggedOutcomes(
  ids: readonly string[],
  log: ExecutionLog,
  threadId: string,
): Promise<Map<string, ToolOutcome>> {
  if (log.completedMany) return log.completedMany(ids, threadId);
  const outcomes = await Promise.all(ids.map(async (id) => [id, await log.completed(id, threadId)] as const));
  return new Map(outcomes.flatMap(([id, outcome]) => (outcome ? [[id, outcome] as const] : [])));
}

/** True when the log holds every one of `ids` as run (completed) on thread `threadId`: "was it applied?" for a card. */
export async function allLogged(ids: readonly string[], log: ExecutionLog, threadId: string): Promise<boolean> {
  return (await loggedOutcomes(ids, log, threadId)).size === ids.length;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > 140 ? `${line.slice(0, 137)}...` : line;
}

function describe(name: string, args: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(args ?? {});
  return `${name} ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
}

/** How many to name in a sentence before "and N more". */
const NAMED = 5;

/** The writes named in one phrase: "a; b; c and 5 more". */
export function nameWrites(writes: readonly WriteFact[], language: Language = "en"): string {
  const named = writes.slice(0, NAMED).map((write) => write.summary);
  const more = writes.length - named.length;
  return more > 0 ? sayReport(language, "andMore", { names: named.join("; "), more }) : named.join("; ");
}

/**
 * What a dropped task leaves, in a sentence or two: the changes applied (they stay), the approved ones that were not
 * applied (and now will not be), or that nothing was changed.
 */
export function droppedWritesText(facts: WriteFacts, language: Language = "en"): string {
  const words = DROP_WORDS[language];
  const parts: string[] = [];
  if (facts.applied.length > 0) parts.push(words.applied(facts.applied.length, nameWrites(facts.applied, language)));
  if (facts.approvedNotApplied.length > 0)
    parts.push(words.notApplied(facts.approvedNotApplied.length, nameWrites(facts.approvedNotApplied, language)));
  if (parts.length === 0) return words.nothing;
  return `${parts.join(" ")} ${words.noMore}`;
}

const DROP_WORDS: Record<
  Language,
  {
    applied(count: number, named: string): string;
    notApplied(count: number, named: string): string;
    nothing: string;
    noMore: string;
  }
> = {
  en: {
    applied: (count, named) => `The ${count} change(s) already applied stay: ${named}.`,
    notApplied: (count, named) => `${count} change(s) you approved were not applied and will not be: ${named}.`,
    nothing: "Nothing was changed.",
    noMore: "Nothing more will be done.",
  },
  zh: {
    applied: (count, named) => `已应用的 ${count} 项改动保留：${named}。`,
    notApplied: (count, named) => `你批准的 ${count} 项改动没有应用，也不会再应用：${named}。`,
    nothing: "没有做任何改动。",
    noMore: "不会再做别的。",
  },
};

/**
 * What a task dropped now leaves, from the facts (`droppedWritesText`), said as a person reads it (names, dates) in
 * `language`: the one sentence every drop ends with (a declined plan, a withdrawn question, a stopped task the user
 * moved on from, a thread a client ended).
 */
export async function droppedLeavesText(
  state: FactsState,
  domain: ToolDomain,
  log: ExecutionLog,
  owner: { userId: string; threadId: string },
  language: Language,
): Promise<string> {
  const facts = await readWriteFacts(state, domain, log, owner.threadId, owner.userId, language);
  return readableText(domain, owner.userId, droppedWritesText(facts, language), language);
}

/** The messages of the current task: those after the message that started it (all, when it was compressed away). */
export function taskMessages(state: Pick<TempoState, "messages" | "taskStartMessageId">): BaseMessage[] {
  const start = state.messages.findIndex((message) => message.id === state.taskStartMessageId);
  return start === -1 ? state.messages : state.messages.slice(start);
}
