/**
 * execute: one ReAct decision per visit (docs/design.md#execute).
 *
 * Entry priority: (1) the approved writes of an answered card — its
 * proposal's tool calls the answer left unanswered — apply, in order, once
 * each, and the visit ends; (2) a spent
 * round budget, or writes the user declined too often in a row, fail the
 * current step and the task finishes with what was done;
 * (3) otherwise the execute model decides: continue (a read tool runs at
 * once), confirm (a write tool waits for the human — also enforced when the
 * model calls a write tool with "continue"; several writes in one decision
 * become one batch card), ask_user, next_plan or done
 * (both need goal_check) — as the JSON contract in text, or, for a model
 * that calls tools natively, as its tool calls (control actions as tools:
 * ask_user, next_plan, done). Tool results that fail `maxToolErrorsPerStep`
 * times in a row fail the step too.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import {
  CONTROL_TOOLS,
  decisionCalls,
  decisionFromToolCalls,
  ExecuteDecisionSchema,
  type ExecuteDecision,
  type ToolCallRequest,
} from "../../contracts/execute.js";
import {
  currentStep,
  workspaceMessages,
  type LegacyAnsweredWrite,
  type Optimization,
  type StepEnding,
  type TempoState,
  type TempoUpdate,
  type WriteCall,
} from "../../kernel/state.js";
import type { Runnable } from "@langchain/core/runnables";
import { callStage, invokeToolCalling } from "../../models/invoke-contract.js";
import { callsToolsNatively, modelFor, promptBudgetFor } from "../../models/stage-models.js";
import { langChainTools } from "../../tools/langchain-tools.js";
import { tokenCounterFor } from "../../memory/tokens.js";
import { toolBrief } from "../../prompts/tool-brief.js";
import { emit, emitAssistantText } from "../../streaming/events.js";
import {
  describeToolCall,
  findTool,
  readableText,
  toolsInPacks,
  type DomainTool,
  type Refinement,
} from "../../tools/domain.js";
import {
  checkToolArguments,
  runTool,
  stateForRun,
  unknownToolOutcome,
  unstorableProblem,
  type ToolRunContext,
} from "../../tools/runner.js";
import { escapedText, unstorableTextIn } from "../../contracts/storable-text.js";
import { clearCorrections, correctionUpdate } from "../shared/correction.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { buildExecutePrompt } from "./context.js";
import { readLiveState } from "../shared/live-state.js";
import { stageNow } from "../shared/now.js";
import { MEMORY_TOOLS, type MemoryTool } from "./memory-tools.js";
import {
  chooseCandidate,
  CHOOSE_CANDIDATE,
  CHOOSE_CANDIDATE_TOOL,
  currentListing,
  listingsIn,
  offersCandidates,
} from "./candidates.js";
import { afterListing, outsideWhitelist, refinementOf, refinementSummary } from "./refinement.js";
import { withTaskLimits } from "./refinement.js";
import { activePacksIn, PACK_TOOLS, packList, withPackOf } from "./packs.js";
import { newId } from "../../kernel/ids.js";
import { newToolCallId, toolRoundOf, type RoundCall, type RoundEntry } from "../shared/messages.js";
import { callOutcomeOf, isSetback, toolResultMessage } from "../../kernel/tool-results.js";
import type { HeldWrite } from "../confirm/approvals.js";
import { unansweredCalls } from "../../kernel/proposal.js";
import { nextPendingIndex } from "../shared/steps.js";
import {
  ask,
  awaitConfirmation,
  failStep,
  finishStep,
  finishTask,
  resumeExecution,
  sendToPlanner,
} from "../../kernel/transitions.js";
import type { WorkflowSettings } from "../../config/configuration.js";
import { languageOf, say } from "../../contracts/language.js";
import { messageText, PROGRESS_ID_PREFIX } from "../../contracts/message-text.js";

/** The tools of the agent itself, run at once without a card: its memory and its tool packs. */
const AGENT_TOOLS: readonly MemoryTool[] = [...MEMORY_TOOLS, ...PACK_TOOLS];

/** The stage rule that comes with the tools that list candidates (seed 003: the backend decides, the model chooses). */
const CHOOSING_RULE =
  "<choosing>\nTo change the data, prefer the backend's candidates to searching yourself: call a propose_* tool, then choose_candidate with the id of the best one for the user (its writes go to the card as they are). Write by hand only what no candidate offers.\n</choosing>";

/** The agent's own tool named `name`, if any. */
function findAgentTool(name: string): MemoryTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}

/** Builds the execute node. */
export function createExecuteNode(dependencies: NodeDependencies) {
  const model = modelFor(dependencies.models, "execute");
  const counter = tokenCounterFor(model);
  // Native tool calling: the active packs' tools, the agent's own tools (memory, packs) and the control tools bound
  // to the model, from their zod schemas; otherwise the tools listed in the prompt and the JSON contract (the named
  // fallback). Built for the packs active on each visit (nodes/execute/packs.ts), once per set of packs.
  const native = callsToolsNatively(dependencies.models, "execute");
  const { domain } = dependencies;
  const offers = new Map<string, { bound?: Runnable<BaseMessage[], BaseMessage>; tools: string }>();
  const offerFor = (active: readonly string[]) => {
    const key = active.join("\n");
    let offer = offers.get(key);
    if (!offer) {
      const offered = { ...domain, tools: toolsInPacks(domain, active) };
      // choose_candidate comes with the tools that list candidates, and so does the rule to prefer it.
      const choose = offersCandidates(offered) ? [CHOOSE_CANDIDATE_TOOL] : [];
      const packs = choose.length > 0 ? `${packList(domain, active)}\n${CHOOSING_RULE}` : packList(domain, active);
      offer = native
        ? {
            bound: model.bindTools!(langChainTools(offered, [...AGENT_TOOLS, ...choose, ...CONTROL_TOOLS])) as Runnable<
              BaseMessage[],
              BaseMessage
            >,
            tools: `<tools domain="${domain.name}">\n${domain.description}\n</tools>\n${packs}`,
          }
        : {
            tools: `${toolBrief(offered, [...AGENT_TOOLS.map((tool) => ({ ...tool, kind: MEMORY_TOOLS.includes(tool) ? "memory" : "context" })), ...choose.map((tool) => ({ ...tool, kind: "choose" }))])}\n${packs}`,
          };
      offers.set(key, offer);
    }
    return offer;
  };

  return async function execute(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    // The standing preferences recall loaded: every tool run (reads, and the approved writes) keeps to them.
    const context: ToolRunContext = {
      userId,
      threadId,
      stepId: state.currentStepId,
      preferences: state.recalled.preferences ?? [],
    };
    if (state.answeredWrites.length > 0)
      return applyLegacyAnswers(state, state.answeredWrites, context, dependencies, config);
    // The proposal's calls a card left unanswered were approved on it — they apply now — or left for the next card.
    const open = unansweredCalls(workspaceMessages(state));
    if (open.length > 0) return settleOpenCalls(state, open, context, dependencies, config);

    const step = currentStep(state);
    if (!step) return resumeExecution(state, state.planSteps);
    if (state.roundsUsed >= state.maxRounds) {
      emit(config, { kind: "status", node: "execute", text: `Round budget of ${state.maxRounds} spent; delivering` });
      const lastError = `The round budget (${state.maxRounds}) was spent before the plan finished.`;
      return failStep({ ...state, lastError }, `the round budget (${state.maxRounds}) ran out during this step`);
    }
    const { maxRejectionsPerStep } = dependencies.settings;
    if (state.stepSetbacks.rejections >= maxRejectionsPerStep) {
      emit(config, {
        kind: "status",
        node: "execute",
        text: "You declined the changes this step needs; stopping here",
      });
      return failStep(state, `you declined the ${state.stepSetbacks.rejections} change(s) it proposed in a row`);
    }

    const stepIndex = state.planSteps.indexOf(step);
    // Announce a step once, on its first visit: a status event, and a progress line in the conversation (what Agent
    // Chat UI shows while the step runs), given with whatever this round returns.
    // A plan of one step has nothing to count: its status event alone.
    const firstVisit = state.workspaceMessageIds.length === 0;
    const announcement = firstVisit && state.planSteps.length > 1 ? stepAnnouncement(state, stepIndex) : undefined;
    if (firstVisit)
      emit(config, {
        kind: "status",
        node: "execute",
        text: `Executing step ${stepIndex + 1} of ${state.planSteps.length}: ${step.content}`,
      });
    // A refinement step lists the backend's candidates itself (no model call) whenever no current listing is in view.
    const refining = refinementOf(state, domain);
    if (refining?.list && !currentListing(workspaceMessages(state)))
      return announced(
        announcement,
        await listForRefinement(state, { ...refining, list: refining.list }, context, dependencies, config),
      );
    // The live state the planner read in this run, or read now (a new run, or after a write): no re-read by the model.
    const liveState =
      state.liveState ?? (await readLiveState(dependencies, config, state.currentStepId, state.recalled.preferences));
    const { bound, tools } = offerFor(activePacksIn(state, domain));
    const prompt = buildExecutePrompt(
      state,
      step,
      tools,
      dependencies.settings,
      counter,
      native,
      liveState,
      await stageNow(dependencies, config),
    );
    const messages = prompt.messages;
    const decision = bound
      ? await invokeToolCalling(bound, messages, decisionFromToolCalls, {
          name: "execute_decision",
          stage: "execute",
          config,
          promptBudget: promptBudgetFor(dependencies.models, "execute"),
        })
      : await callStage(dependencies.models, "execute", ExecuteDecisionSchema, messages, "execute_decision", config);
    const fresh: TempoUpdate = liveState !== state.liveState ? { liveState } : {};
    if (!decision.ok)
      return announced(announcement, {
        ...fresh,
        ...correctionUpdate(state, "execute", decision.raw, decision.problem, dependencies.settings.maxCorrections),
      });
    return announced(announcement, {
      ...fresh,
      ...(await applyDecision(state, decision.value, context, dependencies, config)),
    });
  };
}

/** The progress line that opens step `index` in the conversation: "Step 2 of 3: …" in the user's language. */
function stepAnnouncement(state: TempoState, index: number): AIMessage {
  const step = state.planSteps[index]!;
  const total = state.planSteps.length;
  const content =
    say(languageOf(state.messages), `Step ${index + 1} of ${total}: `, `第 ${index + 1} 步（共 ${total} 步）：`) +
    step.content;
  return new AIMessage({ id: `${PROGRESS_ID_PREFIX}${newId("step")}`, content });
}

/** `update` with the step's progress line before the messages it adds (when the step was announced in this round). */
function announced(announcement: AIMessage | undefined, update: TempoUpdate): TempoUpdate {
  if (!announcement) return update;
  return { ...update, messages: [announcement, ...((update.messages as BaseMessage[] | undefined) ?? [])] };
}

/**
 * The step's setbacks after a tool result: a success clears the error count; the
 * `maxToolErrorsPerStep`-th failure in a row fails the step (and so finishes the task).
 */
function afterToolResult(
  state: TempoState,
  ok: boolean,
  tool: string,
  content: string,
  settings: WorkflowSettings,
): TempoUpdate {
  const toolErrors = ok ? 0 : state.stepSetbacks.toolErrors + 1;
  if (toolErrors < settings.maxToolErrorsPerStep) return { stepSetbacks: { ...state.stepSetbacks, toolErrors } };
  const last = content.replace(/\s+/g, " ").slice(0, 160);
  return failStep(state, `${toolErrors} tool errors in a row (last, from ${tool}: ${last})`);
}

/** What running a decision's tool calls gave: the rounds of the calls run, the writes to confirm, the state update. */
interface CallsRun {
  rounds: BaseMessage[];
  /** Valid writes, for one card, with what the card says of each. */
  writes: Array<WriteCall & { summary: string }>;
  update: TempoUpdate;
  /** True when the step failed on tool errors: nothing more is proposed. */
  failed: boolean;
  /** True when a round carries the decision's speech (else a proposal does). */
  spoke: boolean;
}

/**
 * Runs a decision's tool calls in order: memory and read tools at once, unknown tools and writes with arguments
 * that do not fit their schema as errors — all in one round; valid writes are collected for one card.
 */
async function runCalls(
  state: TempoState,
  calls: ToolCallRequest[],
  speak: string,
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<CallsRun> {
  const run: CallsRun = { rounds: [], writes: [], update: {}, failed: false, spoke: false };
  const entries: RoundEntry[] = [];
  let setbacks = state.stepSetbacks;
  let invalidWrites = 0;
  const record = (call: RoundCall, ok: boolean, content: string, data?: unknown) => {
    entries.push({ call, result: content, outcome: ok ? "done" : "failed", ...(data === undefined ? {} : { data }) });
    const after = afterToolResult({ ...state, stepSetbacks: setbacks }, ok, call.name, content, dependencies.settings);
    run.update = { ...run.update, ...after };
    if (after.phase !== undefined) run.failed = true;
    setbacks = { ...setbacks, toolErrors: ok ? 0 : setbacks.toolErrors + 1 };
  };
  // The domain state the card's writes are tried on, as a run sees it (the standing preferences folded in), each after
  // the ones before it (loaded on the first write).
  let trial: { state: unknown } | undefined;
  /**
   * A write for the card: bad arguments go back to the model first, and so does one the tool would refuse on the
   * state as the card's earlier writes leave it (a deadline, an excluded day, a standing preference, a conflict), so
   * no card shows a change that cannot apply; a valid one waits for the card.
   */
  const proposeWrite = async (call: RoundCall, tool: DomainTool<unknown>) => {
    const checked = checkToolArguments(tool, call.arguments);
    if (!checked.ok) {
      record(call, false, `Error: ${checked.problem}. Nothing was changed.`);
      invalidWrites += 1;
      return;
    }
    trial ??= { state: await stateForRun(dependencies.domain, context) };
    const tried = tool.run(trial.state, checked.arguments);
    if (!tried.ok) {
      emit(config, { kind: "tool_call", node: "execute", id: call.id, name: call.name, arguments: checked.arguments });
      emit(config, {
        kind: "tool_result",
        node: "execute",
        id: call.id,
        name: call.name,
        ok: false,
        content: tried.content,
      });
      record(call, false, tried.content);
      return;
    }
    if (tried.state !== undefined) trial.state = tried.state;
    const summary = await describeToolCall(
      dependencies.domain,
      context.userId,
      call.name,
      checked.arguments,
      languageOf(state.messages),
    );
    run.writes.push({ id: call.id, name: call.name, arguments: checked.arguments, summary });
  };
  const refining = refinementOf(state, dependencies.domain);
  for (const request of calls) {
    if (run.failed) break;
    const call = { id: newToolCallId(), name: request.name, arguments: request.arguments };
    // Text Postgres cannot store, in the name or the arguments of a call that is no domain tool's (whose argument
    // check refuses it: tools/runner.ts), goes back to the model as the call's error: it would fail where it is stored.
    const unstorableText = findTool(dependencies.domain, call.name)
      ? undefined
      : unstorableTextIn({ name: call.name, arguments: call.arguments });
    if (unstorableText) {
      record(
        call,
        false,
        `Error: invalid call of ${escapedText(call.name)}: ${unstorableProblem(unstorableText)}. Nothing was run.`,
      );
      continue;
    }
    if (call.name === CHOOSE_CANDIDATE) {
      // A candidate the backend listed: its writes go to the card as if the model had written them.
      const choice = chooseCandidate(call.arguments, workspaceMessages(state));
      if (choice.kind === "error") record(call, false, choice.message);
      else if (choice.kind === "none") record(call, true, "no candidate chosen");
      else {
        const { candidate } = choice;
        record(
          call,
          true,
          `chose ${candidate.id}: ${candidate.summary} (${candidate.writes.length} change(s) go to the card)`,
        );
        for (const write of candidate.writes) {
          const tool = findTool(dependencies.domain, write.name);
          const writeCall = { id: newToolCallId(), name: write.name, arguments: write.arguments };
          if (tool?.kind === "write") await proposeWrite(writeCall, tool);
          else
            record(
              writeCall,
              false,
              `Error: candidate ${candidate.id} names "${write.name}", which is not a write tool of this domain. Nothing was changed.`,
            );
        }
      }
      continue;
    }
    const memoryTool = findAgentTool(call.name);
    if (memoryTool) {
      // The agent's own memory and tool packs: runs at once, whatever the action, on the state as this round left it.
      const checked = memoryTool.schema.safeParse(call.arguments);
      const result = checked.success
        ? await memoryTool.run(checked.data, {
            state: { ...state, ...run.update } as TempoState,
            store: config.store,
            userId: context.userId,
            domain: dependencies.domain,
          })
        : {
            content: `Error: invalid arguments for ${call.name}: ${checked.error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`).join("; ")}`,
          };
      run.update = { ...run.update, ...result.update };
      record(call, checked.success, result.content);
      continue;
    }
    const tool = findTool(dependencies.domain, call.name);
    if (!tool) {
      record(call, false, unknownToolOutcome(dependencies.domain, call.name).content);
      continue;
    }
    // While refining, the step keeps to the domain's whitelisted packs: it chooses among candidates.
    const refused = refining ? outsideWhitelist(dependencies.domain, refining, call.name) : undefined;
    if (refused) {
      record(call, false, refused);
      continue;
    }
    // A tool of a pack not active brings its pack in (a model told of the packs, or one that knew the tool anyway).
    const active = activePacksIn({ ...state, ...run.update } as TempoState, dependencies.domain);
    const widened = withPackOf(dependencies.domain, active, call.name);
    if (widened.length > active.length)
      run.update = { ...run.update, activePacks: { stepId: state.currentStepId, packs: widened } };
    if (tool.kind === "read") {
      // While refining, the model's own listing keeps to the task's decisions as the code's does.
      const limited =
        refining?.list?.tool === call.name
          ? { ...call, arguments: withTaskLimits(state, refining.list, call.arguments) }
          : call;
      const outcome = await runReported(limited, context, dependencies, config);
      record(call, outcome.ok, outcome.content, outcome.data);
      continue;
    }
    await proposeWrite(call, tool);
  }
  if (invalidWrites > 0 && run.writes.length > 0 && !run.failed) {
    // A batch with a write the tool refuses goes back to the model whole: the card shows every write it proposed, or none.
    for (const write of run.writes) {
      entries.push({
        call: { id: write.id, name: write.name, arguments: write.arguments },
        result: `Not proposed yet: ${invalidWrites} other write(s) of this batch had invalid arguments. Propose the batch again with every call valid; nothing was changed.`,
        outcome: "held",
      });
    }
    run.writes = [];
  }
  // The calls that ran make one round (parallel calls stay together), with the decision's speech.
  // A round of memory calls alone is the agent's bookkeeping, kept from what a person reads; its speech goes with the
  // proposal, or stands as its own message.
  const internal = entries.length > 0 && entries.every(({ call }) => findAgentTool(call.name) !== undefined);
  // A round whose every write was refused before a card proposes nothing: its speech ("Moving … to Monday") would
  // announce a change that is not made, so the refusal speaks for itself.
  const nothingProposed =
    run.writes.length === 0 &&
    entries.length > 0 &&
    entries.every(
      ({ call, outcome }) => outcome === "failed" && findTool(dependencies.domain, call.name)?.kind === "write",
    );
  run.rounds = toolRoundOf(entries, internal || nothingProposed ? "" : speak, internal);
  run.spoke = entries.length > 0 && !internal;
  if (internal && speak !== "" && (run.writes.length === 0 || run.failed)) {
    run.rounds.push(new AIMessage({ id: newId("ai"), content: speak }));
    run.spoke = true;
  }
  return run;
}

/** Runs a tool call through the execution log, with its call and result on the stream. */
async function runReported(
  call: RoundCall,
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
) {
  emit(config, { kind: "tool_call", node: "execute", id: call.id, name: call.name, arguments: call.arguments });
  const outcome = await runTool(dependencies.domain, context, call, dependencies.executionLog);
  emit(config, {
    kind: "tool_result",
    node: "execute",
    id: call.id,
    name: call.name,
    ok: outcome.ok,
    content: outcome.content,
  });
  return outcome;
}

/**
 * Applies the approved writes of a card — the proposal's calls its answer left unanswered — in order, each once (its
 * own tool-call id, so its own execution-log entry), each answered by a tool message with its result. A write that
 * fails — a conflict with an earlier one of the batch, say — is reported to the model as its result, and the later
 * writes still run. The caller has read every call's approval first (`settleOpenCalls`).
 */
async function applyApprovedWrites(
  state: TempoState,
  calls: WriteCall[],
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const results: BaseMessage[] = [];
  let setbacks = state.stepSetbacks;
  let update: TempoUpdate = {};
  let allApplied = true;
  for (const call of calls) {
    const { ok, content, data } = await runReported(call, context, dependencies, config);
    results.push(toolResultMessage(call, content, ok ? "applied" : "failed", data));
    allApplied &&= ok;
    update = {
      ...update,
      ...afterToolResult({ ...state, stepSetbacks: setbacks }, ok, call.name, content, dependencies.settings),
    };
    setbacks = { ...setbacks, toolErrors: ok ? 0 : setbacks.toolErrors + 1 };
    if (update.phase !== undefined) break;
  }
  // A write that failed is said in the chat, not only in its tool result (which a person may not see): the card's
  // answer promised it.
  const failed = await failedWritesNote(state, calls, results, context, dependencies);
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
  const after = { ...state, stepSetbacks: { toolErrors: 0, rejections: 0 } };
  return { ...applied, ...endStep(after, ending, [...workspaceMessages(state), ...results], dependencies, config) };
}

/**
 * The note for the approved writes that failed when applied ("Could not apply: <change> — <why>"), in the user's
 * language, or undefined when none did; the change is named as the card named it (an edit as edited).
 */
async function failedWritesNote(
  state: TempoState,
  calls: readonly WriteCall[],
  results: readonly BaseMessage[],
  context: ToolRunContext,
  dependencies: NodeDependencies,
): Promise<AIMessage | undefined> {
  const language = languageOf(state.messages);
  const lines: string[] = [];
  // The tool's reason in the words a person reads (names, dates), when the domain has them.
  for (const [index, result] of results.entries()) {
    if (callOutcomeOf(result) !== "failed") continue;
    const call = calls[index]!;
    const change = await describeToolCall(dependencies.domain, context.userId, call.name, call.arguments, language);
    const why = await readableText(
      dependencies.domain,
      context.userId,
      messageText(result)
        .split("\n")[0]!
        .replace(/^error:\s*/i, "")
        .trim(),
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
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const held: Array<WriteCall & HeldWrite> = [];
  const approved: WriteCall[] = [];
  // Every call's decision is read before any applies: one not decided on its card refuses them all (WRITE_NOT_APPROVED).
  for (const call of open) {
    const decision = await dependencies.approvals.decisionOf(config.store, context.threadId, call);
    if (decision.held) held.push({ ...call, ...decision.held });
    else approved.push(call);
  }
  if (held.length === 0) return applyApprovedWrites(state, approved, context, dependencies, config);
  const applied = approved.length > 0 ? await applyApprovedWrites(state, approved, context, dependencies, config) : {};
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
    }),
  };
}

/**
 * A thread saved by graph@2 between a card's answer and its writes kept them in `answeredWrites`, outside the
 * conversation: they become today's shape once — the proposal's message with their calls, the rejected ones
 * answered — and the approved ones apply as any card's. Goes with graph@4.
 */
async function applyLegacyAnswers(
  state: TempoState,
  answered: LegacyAnsweredWrite[],
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const calls = answered.map(({ tool }) => ({ id: tool.id, name: tool.name, arguments: tool.arguments }));
  const proposal = new AIMessage({
    id: newId("ai"),
    content: answered[0]?.tool.speak ?? "",
    tool_calls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      args: call.arguments,
      type: "tool_call" as const,
    })),
  });
  const rejected = answered.flatMap(({ tool, approved, result }) =>
    approved ? [] : [toolResultMessage(tool, result ?? "Not applied: the user rejected this change.", "declined")],
  );
  const added = [proposal, ...rejected];
  const ending = answered.every((write) => write.approved && write.tool.then) ? answered[0]!.tool.then! : null;
  const converted = {
    ...state,
    messages: [...state.messages, ...added],
    workspaceMessageIds: [...state.workspaceMessageIds, ...added.map((message) => message.id!)],
    stepEnding: ending,
  };
  const open = unansweredCalls(added);
  const applied =
    open.length > 0
      ? await settleOpenCalls(converted, open, context, dependencies, config)
      : { workspaceMessageIds: converted.workspaceMessageIds };
  return {
    ...applied,
    answeredWrites: [],
    messages: [...added, ...((applied.messages as BaseMessage[] | undefined) ?? [])],
  };
}

async function applyDecision(
  state: TempoState,
  decision: ExecuteDecision,
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const cleared = clearCorrections(state);
  const base: TempoUpdate = {
    consecutiveCorrections: 0,
    roundsUsed: state.roundsUsed + 1,
  };
  const speak = decision.speak.trim();
  const workspace = (added: string[]) => [...cleared.workspaceMessageIds, ...added];

  if (decision.action === "continue" || decision.action === "confirm") {
    const calls = decisionCalls(decision);
    if (calls.length === 0) {
      const message = new AIMessage({ id: newId("ai"), content: speak || decision.reason || "(thinking)" });
      emitAssistantText(config, "execute", message.id!, String(message.content));
      return { ...base, messages: [...cleared.messages, message], workspaceMessageIds: workspace([message.id!]) };
    }
    const ran = await runCalls(state, calls, speak, context, dependencies, config);
    // The calls' own update comes last: a memory tool's working memory, or a failed step's ending.
    const update: TempoUpdate = {
      ...base,
      messages: [...cleared.messages, ...ran.rounds],
      workspaceMessageIds: workspace(ran.rounds.map((message) => message.id!)),
      ...ran.update,
    };
    // In a refinement step, each listing moves the loop on; the code ends the step when the loop stops.
    const refinement = ran.failed ? undefined : refinementOf(state, dependencies.domain);
    const listing = refinement ? listingsIn(ran.rounds).at(-1)?.listing : undefined;
    if (refinement && listing) {
      const optimization = afterListing(state.optimization, state.currentStepId, listing, refinement);
      if (optimization.verdict !== "running")
        return endRefinement(state, refinement, optimization, ran.rounds, update, dependencies, config);
      update.optimization = optimization;
    }
    if (ran.failed || ran.writes.length === 0) return update;
    // Writes: always through confirm, whatever action the model chose — several at once as one batch card. The
    // proposal is an assistant message with their calls, unanswered until the card is; it carries the decision's
    // speech unless a read or memory call of the same decision did.
    const then: StepEnding | undefined = decision.then
      ? { action: decision.then, goalCheck: decision.goal_check, answer: decision.answer }
      : undefined;
    const proposal = new AIMessage({
      id: newId("ai"),
      content: ran.spoke ? "" : speak,
      tool_calls: ran.writes.map((write) => ({
        id: write.id,
        name: write.name,
        args: write.arguments,
        type: "tool_call" as const,
      })),
    });
    const summaries = Object.fromEntries(ran.writes.map((write) => [write.id, write.summary]));
    return {
      ...update,
      messages: [...(update.messages as BaseMessage[]), proposal],
      workspaceMessageIds: [...(update.workspaceMessageIds as string[]), proposal.id!],
      ...awaitConfirmation(state, {
        kind: "confirm_tool",
        messageId: proposal.id!,
        summaries,
        reason: decision.reason || speak,
        ...(then ? { then } : {}),
      }),
    };
  }

  if (decision.action === "ask_user") {
    const message = new AIMessage({ id: newId("ai"), content: speak });
    return {
      ...base,
      messages: [...cleared.messages, message],
      workspaceMessageIds: workspace([message.id!]),
      ...ask(state, speak, "execute"),
    };
  }

  // next_plan / done: the current step is finished with goal_check as its summary.
  const speech = speak ? [new AIMessage({ id: newId("ai"), content: speak })] : [];
  for (const message of speech) emitAssistantText(config, "execute", message.id!, String(message.content));
  const ending = { action: decision.action, goalCheck: decision.goal_check, answer: decision.answer };
  return {
    ...base,
    ...endStep(state, ending, workspaceMessages(state), dependencies, config),
    messages: [...cleared.messages, ...speech],
  };
}

/**
 * The refinement step ended in code, its loop stopped (nothing left to choose, stagnation, the budget) after `rounds`
 * (just run): `update` with the loop's state and the step's ending, its summary saying what it gained and why it stopped.
 */
function endRefinement(
  state: TempoState,
  refinement: Refinement,
  optimization: Optimization,
  rounds: BaseMessage[],
  update: TempoUpdate,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate {
  const last = state.planSteps.findIndex((step) => step.id === state.currentStepId) === state.planSteps.length - 1;
  const summary = refinementSummary(optimization, refinement);
  emit(config, { kind: "status", node: "execute", text: summary });
  const ending: StepEnding = { action: last ? "done" : "next_plan", goalCheck: summary, answer: "" };
  return {
    ...update,
    optimization,
    ...endStep(state, ending, [...workspaceMessages(state), ...rounds], dependencies, config),
    messages: update.messages,
  };
}

/**
 * A refinement step's listing, made by the code (the backend lists, the model chooses): at the step's start and after
 * each change applied, the domain's listing tool runs as a round of the step — no model call — and the loop moves on;
 * when it stops the step ends here, else the model next chooses from what the round shows.
 */
async function listForRefinement(
  state: TempoState,
  refinement: Refinement & { list: NonNullable<Refinement["list"]> },
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const call = { id: newToolCallId(), name: refinement.list.tool, arguments: refinement.list.arguments };
  const outcome = await runReported(call, context, dependencies, config);
  const rounds = toolRoundOf([
    {
      call,
      result: outcome.content,
      outcome: outcome.ok ? "done" : "failed",
      ...(outcome.data === undefined ? {} : { data: outcome.data }),
    },
  ]);
  const update: TempoUpdate = {
    messages: rounds,
    workspaceMessageIds: [...state.workspaceMessageIds, ...rounds.map((message) => message.id!)],
  };
  const listing = listingsIn(rounds).at(-1)?.listing;
  // A listing that failed is the model's to handle, as any tool error.
  if (!listing) return update;
  const optimization = afterListing(state.optimization, state.currentStepId, listing, refinement);
  return optimization.verdict === "running"
    ? { ...update, optimization }
    : endRefinement(state, refinement, optimization, rounds, update, dependencies, config);
}

/**
 * Ends the current step (next_plan) or the task (done) with `ending.goalCheck` as the step's summary. After a step
 * with steps left, the planner reviews the rest (docs/design.md#replanning) when `replanAfterStep` says so: "always",
 * or "when_needed" — only when the step met a setback (a write declined or failed, a tool error); otherwise the
 * next step starts without a planner call. A done's answer is kept as the task's closing words.
 */
function endStep(
  state: TempoState,
  ending: StepEnding,
  stepMessages: BaseMessage[],
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate {
  const finished = finishStep(state, ending.goalCheck.trim());
  const planSteps = finished.planSteps;
  if (ending.action === "done") {
    // The goal is met: steps never started are skipped, not silently left pending.
    const skipped = planSteps.map((step) =>
      step.status === "pending" ? { ...step, status: "skipped" as const } : step,
    );
    return { ...finished, ...finishTask(state, skipped), closingWords: ending.answer.trim() || null };
  }
  const next = nextPendingIndex(planSteps);
  if (next !== -1)
    emit(config, {
      kind: "status",
      node: "execute",
      text: `Step ${state.planSteps.findIndex((step) => step.id === state.currentStepId) + 1} done`,
    });
  if (next !== -1 && replanNeeded(dependencies.settings.replanAfterStep, stepMessages)) {
    // docs/design.md#replanning: the planner reviews the remaining steps before the next one starts.
    return { ...finished, ...sendToPlanner(state, "replan") };
  }
  return { ...finished, ...resumeExecution({ ...state, planSteps, currentStepId: null }, planSteps) };
}

/** Whether the planner reviews the plan after a step whose rounds were `stepMessages`. */
function replanNeeded(mode: WorkflowSettings["replanAfterStep"], stepMessages: BaseMessage[]): boolean {
  if (mode === "always" || mode === "never") return mode === "always";
  return stepMessages.some(isSetback);
}
