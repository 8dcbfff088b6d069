/**
 * Settling an answered card: the approved writes — the proposal's calls its answer left unanswered — apply in order,
 * once each; the undecided ones are held for the next card. One entry point, {@link settleAnswer}, which execute
 * calls with its own steps (`ApplySteps`: running a call, the step's setbacks, ending the step): review/ imports no
 * node.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import {
  workspaceMessages,
  type StepEnding,
  type TempoState,
  type TempoUpdate,
  type WriteCall,
} from "../kernel/state.js";
import { emitAssistantText } from "../streaming/events.js";
import { describeToolCall, refusalText, type ToolDomain } from "../tools/domain.js";
import { isCancelledWrite, type ToolOutcome, type ToolRunContext } from "../tools/runner.js";
import { newId } from "../kernel/ids.js";
import { callOutcomeOf, toolResultData, toolResultMessage } from "../kernel/tool-results.js";
import type { HeldWrite, WriteApprovals } from "./approvals.js";
import { unansweredCalls } from "../kernel/proposal.js";
import { callFrame } from "../kernel/call-records.js";
import { awaitConfirmation, failStep } from "../kernel/transitions.js";
import { languageOf, say } from "../contracts/language.js";
import { messageText } from "../contracts/message-text.js";
import { upgradeGraph2Answers } from "../kernel/migrations.js";
import type { WriteBatches } from "./write-batches.js";
import { sayReport } from "../contracts/report-words.js";

/**
 * What settling needs of the graph: the tool domain (to name a failed change), the recorded approvals, and the
 * batches applying in this process (`WriteBatches`: one batch of a thread at a time).
 */
export interface ApplyDependencies {
  domain: ToolDomain;
  approvals: WriteApprovals;
  writeBatches?: WriteBatches;
}

/** The execute node's own steps, which applying a write goes through. */
export interface ApplySteps {
  /**
   * Runs one call through the execution log, its call and result on the stream; `recorded` is what `recorded` read
   * of it (its completed entry's outcome, or null for none), so the run does not look it up again; `frame`, the frame
   * its card was made in (`ToolDomain.cardFrame`), when its proposal kept one.
   */
  run(
    call: WriteCall,
    recorded: ToolOutcome | null,
    frame?: string,
  ): Promise<{ ok: boolean; content: string; data?: unknown }>;
  /**
   * Records that `call` will not apply, its run cancelled before it (`recordCancelledWrite`): the outcome the log then
   * holds for it (the cancellation, or what a run that claimed it first recorded).
   */
  cancel(call: WriteCall): Promise<ToolOutcome>;
  /** What the execution log holds as completed of `calls`, in one look-up (not one a write, issue 44.8). */
  recorded(calls: readonly WriteCall[]): Promise<ReadonlyMap<string, ToolOutcome>>;
  /** The step's setbacks after a result (a step fails past its tool-error limit). */
  afterResult(state: TempoState, ok: boolean, tool: string, content: string): TempoUpdate;
  /** Ends the step with the proposal's own ending, after its writes applied. */
  endStep(state: TempoState, ending: StepEnding, stepMessages: BaseMessage[]): TempoUpdate;
}

/**
 * Applies the approved writes of a card — the proposal's calls its answer left unanswered — in order, each once (its
 * own tool-call id, so its own execution-log entry), each answered by a tool message with its result. A write that
 * fails — a conflict with an earlier one of the batch, say — is reported to the model as its result, and the later
 * writes still run. The caller has read every call's approval first (`settleOpenCalls`).
 *
 * A run cancelled while it applies them (its `config.signal` aborted: the LangGraph server's cancel, a multitask
 * `interrupt` or `rollback`) stops at the next write boundary: the write under way finishes (it is one transaction),
 * and each later one is recorded in the log as cancelled, never to apply. LangGraph drops the node's result once its
 * run is aborted, so the thread stays at this node; the run that carries it on (the next read or message) comes here
 * again, answers the applied writes and the cancelled ones from the log, and ends the task: its report says which
 * applied and which did not ({@link cancelledBatch}).
 */
async function applyApprovedWrites(
  state: TempoState,
  calls: WriteCall[],
  context: ToolRunContext,
  dependencies: ApplyDependencies,
  config: LangGraphRunnableConfig,
  steps: ApplySteps,
): Promise<TempoUpdate> {
  const apply = () => applyBatch(state, calls, context, dependencies, config, steps);
  return dependencies.writeBatches ? dependencies.writeBatches.run(context.threadId, apply) : apply();
}

/** {@link applyApprovedWrites}, the thread's batch before it stopped. */
async function applyBatch(
  state: TempoState,
  calls: WriteCall[],
  context: ToolRunContext,
  dependencies: ApplyDependencies,
  config: LangGraphRunnableConfig,
  steps: ApplySteps,
): Promise<TempoUpdate> {
  const results: BaseMessage[] = [];
  let setbacks = state.stepSetbacks;
  let update: TempoUpdate = {};
  let allApplied = true;
  // What the log already holds of the card's writes (a run that died after applying some of them), read at once.
  const known = new Map(await steps.recorded(calls));
  const cancelled: WriteCall[] = [];
  const proposals = workspaceMessages(state).filter((message) => message.getType() === "ai");
  const frameOf = (call: WriteCall) => {
    const proposal = proposals.find((message) =>
      (message as AIMessage).tool_calls?.some((each) => each.id === call.id),
    );
    return proposal ? callFrame(proposal, call.id) : undefined;
  };
  for (const [index, call] of calls.entries()) {
    // Cancelled: no write not yet run applies from here on (the log records each as cancelled).
    if (config.signal?.aborted)
      for (const rest of calls.slice(index)) if (!known.has(rest.id)) known.set(rest.id, await steps.cancel(rest));
    const recorded = known.get(call.id) ?? null;
    if (isCancelledWrite(recorded)) {
      results.push(toolResultMessage(call, recorded!.content, "held"));
      cancelled.push(call);
      continue;
    }
    const { ok, content, data } = await steps.run(call, recorded, frameOf(call));
    results.push(toolResultMessage(call, content, ok ? "applied" : "failed", data));
    allApplied &&= ok;
    update = {
      ...update,
      ...steps.afterResult({ ...state, stepSetbacks: setbacks }, ok, call.name, content),
    };
    setbacks = { ...setbacks, toolErrors: ok ? 0 : setbacks.toolErrors + 1 };
    if (update.phase !== undefined) break;
  }
  if (cancelled.length > 0) return cancelledBatch(state, results);
  // A write that failed is said in the chat, not only in its tool result (which a person may not see): the card's
  // answer promised it.
  const failed = await failedWritesNote(state, calls, results, context, dependencies, calls.map(frameOf));
  const said = failed ? [...results, failed] : results;
  if (failed) emitAssistantText(config, "execute", failed.id!, String(failed.content));
  const applied: TempoUpdate = {
    messages: said,
    workspaceMessageIds: [...state.workspaceMessageIds, ...said.map((message) => message.id!)],
    stepEnding: null,
    liveState: null,
    ...update,
  };
  // The proposal's own ending, kept when every write was approved unchanged, once they all applied: the step ends
  // with no model turn.
  const ending = state.stepEnding;
  if (!ending || !allApplied) return applied;
  // Judged on the week the card showed: when another change (another thread, the check-in) made the week another
  // one meanwhile, the step is not ended on that judgement — the model looks at the week as it is (a day cleared
  // while a review was put on it is not cleared).
  const { cardFrame } = dependencies.domain;
  if (
    ending.week !== undefined &&
    cardFrame?.week &&
    cardFrame.week(await dependencies.domain.load(context.userId)) !== ending.week
  )
    return applied;
  const after = { ...state, stepSetbacks: { toolErrors: 0, rejections: 0 } };
  return { ...applied, ...steps.endStep(after, ending, [...workspaceMessages(state), ...results]) };
}

/** Why a task whose batch was cancelled part-way ended (its report's note). */
export const CANCELLED_BATCH_REASON = sayReport("en", "cancelledBatch");

/**
 * A batch whose run was cancelled part-way: the step fails and the task ends (the user stopped it); deliver's report
 * tells — from the log — which changes applied and stay, and which approved ones were not applied
 * (`readWriteFacts`: a write the log holds as cancelled is approved and not applied). `results` answer every call of
 * the batch (the cancelled ones held: they did not run), so the task leaves no call open.
 */
function cancelledBatch(state: TempoState, results: BaseMessage[]): TempoUpdate {
  const answered = {
    ...state,
    workspaceMessageIds: [...state.workspaceMessageIds, ...results.map((message) => message.id!)],
    lastError: sayReport("en", "taskStopped", { why: CANCELLED_BATCH_REASON }),
  };
  return {
    messages: results,
    stepEnding: null,
    liveState: null,
    ...failStep(answered, CANCELLED_BATCH_REASON),
  };
}

/**
 * The note for the approved writes that failed when applied ("Could not apply: <change> — <why>"), in the user's
 * language, or undefined when none did; the change is named as the card named it (an edit as edited), on the frame its
 * card was made in (`frames`, by call).
 */
async function failedWritesNote(
  state: TempoState,
  calls: readonly WriteCall[],
  results: readonly BaseMessage[],
  context: ToolRunContext,
  dependencies: ApplyDependencies,
  frames: ReadonlyArray<string | undefined>,
): Promise<AIMessage | undefined> {
  const language = languageOf(state.messages);
  const { domain } = dependencies;
  const lines: string[] = [];
  // The tool's reason in the words a person reads (names, dates), when the domain has them.
  for (const [index, result] of results.entries()) {
    if (callOutcomeOf(result) !== "failed") continue;
    const call = calls[index]!;
    // Named on the week its card was made in (a card approved after the week rolled on names the dates it showed).
    const frame = frames[index];
    const seen =
      frame !== undefined && domain.cardFrame
        ? async () => domain.cardFrame!.seenIn(await domain.load(context.userId), call.name, frame)
        : undefined;
    const change = await describeToolCall(domain, context.userId, call.name, call.arguments, language, seen);
    // From the refusal's data when the domain says it (the clock's: no id, slot index or tool name), else its text.
    const why = await refusalText(
      dependencies.domain,
      context.userId,
      messageText(result)
        .split("\n")[0]!
        .replace(/^error:\s*/i, "")
        .trim(),
      toolResultData(result),
      language,
    );
    lines.push(`${say(language, "Could not apply: ", "未能执行：")}${change} — ${why}`);
  }
  return lines.length === 0 ? undefined : new AIMessage({ id: newId("ai"), content: lines.join("\n\n") });
}

/**
 * The open calls of an answered card: the approved ones apply, in order; the ones its answer left undecided (a lone
 * legacy answer naming a batch's first write decides it alone) come back on the next card, after a line saying where the
 * proposal stands — or, when the step stopped on a failed write, are closed unapplied.
 */
async function settleOpenCalls(
  state: TempoState,
  open: WriteCall[],
  context: ToolRunContext,
  dependencies: ApplyDependencies,
  config: LangGraphRunnableConfig,
  steps: ApplySteps,
): Promise<TempoUpdate> {
  const held: Array<WriteCall & HeldWrite> = [];
  const approved: WriteCall[] = [];
  // Every call's decision is read before any applies: one not decided on its card refuses them all (WRITE_NOT_APPROVED).
  const decisions = await dependencies.approvals.decisionsOf(config.store, context.threadId, open);
  for (const [index, call] of open.entries()) {
    const decision = decisions[index]!;
    if (decision.held) held.push({ ...call, ...decision.held });
    else approved.push(call);
  }
  if (held.length === 0) return applyApprovedWrites(state, approved, context, dependencies, config, steps);
  const applied =
    approved.length > 0 ? await applyApprovedWrites(state, approved, context, dependencies, config, steps) : {};
  const results = (applied.messages as BaseMessage[] | undefined) ?? [];
  const ids = (applied.workspaceMessageIds as string[] | undefined) ?? state.workspaceMessageIds;
  if (applied.phase !== undefined) {
    const closed = held.map((call) =>
      toolResultMessage(
        call,
        "Left unanswered: the step stopped on a failed change before this one was decided.",
        "held",
      ),
    );
    return {
      ...applied,
      messages: [...results, ...closed],
      workspaceMessageIds: [...ids, ...closed.map((message) => message.id!)],
    };
  }
  const proposal = workspaceMessages(state).find((message) =>
    ((message as AIMessage).tool_calls ?? []).some((call) => call.id === held[0]!.id),
  )!;
  const done = results.filter((message) => callOutcomeOf(message) === "applied").length;
  const note = new AIMessage({
    id: newId("ai"),
    content: `${done > 0 ? `${done} change(s) applied. ` : ""}${held.length} more of the changes proposed together wait on the card: ${held.map((call) => call.summary).join("; ")}.`,
  });
  emitAssistantText(config, "execute", note.id!, String(note.content));
  return {
    ...applied,
    messages: [...results, note],
    workspaceMessageIds: [...ids, note.id!],
    ...awaitConfirmation(state, {
      kind: "confirm_tool",
      messageId: proposal.id!,
      summaries: Object.fromEntries(held.map((call) => [call.id, call.summary])),
      reason: held[0]!.reason,
      ...(held.some((call) => call.shown)
        ? { shown: Object.fromEntries(held.flatMap((call) => (call.shown ? [[call.id, call.shown]] : []))) }
        : {}),
    }),
  };
}

/**
 * The answered card's settling, or undefined when there is none to settle: the approved writes apply, the undecided
 * ones come back on the next card. A thread graph@2 saved between a card's answer and its writes is upgraded first
 * (kernel/migrations.ts), once.
 */
export async function settleAnswer(
  state: TempoState,
  context: ToolRunContext,
  dependencies: ApplyDependencies,
  config: LangGraphRunnableConfig,
  steps: ApplySteps,
): Promise<TempoUpdate | undefined> {
  if (state.answeredWrites.length > 0) {
    const { added, upgraded } = upgradeGraph2Answers(state, state.answeredWrites);
    const open = unansweredCalls(added);
    const applied =
      open.length > 0
        ? await settleOpenCalls(upgraded, open, context, dependencies, config, steps)
        : { workspaceMessageIds: upgraded.workspaceMessageIds };
    return {
      ...applied,
      answeredWrites: [],
      messages: [...added, ...((applied.messages as BaseMessage[] | undefined) ?? [])],
    };
  }
  // The proposal's calls a card left unanswered were approved on it — they apply now — or left for the next card.
  const open = unansweredCalls(workspaceMessages(state));
  return open.length > 0 ? settleOpenCalls(state, open, context, dependencies, config, steps) : undefined;
}
