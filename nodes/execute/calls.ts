/**
 * A decision's tool calls, run in order (execute's "continue" and "confirm"): the agent's own tools and read tools at
 * once, a candidate chosen from a listing, and the writes tried on the domain state before they go to one card.
 */
import { isInvalidArguments } from "../../tools/argument-issues.js";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ToolCallRequest } from "../../contracts/execute.js";
import { type TempoState, type TempoUpdate, type WriteCall } from "../../kernel/state.js";
import { emit } from "../../streaming/events.js";
import { describeToolCall, findTool, type DomainTool, type TaskDecisions, type ToolRun } from "../../tools/domain.js";
import {
  checkToolArguments,
  stateForRun,
  unknownToolOutcome,
  unstorableProblem,
  type ToolRunContext,
} from "../../tools/runner.js";
import { escapedText, unstorableTextIn } from "../../contracts/storable-text.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { MEMORY_TOOLS, type MemoryTool } from "./memory-tools.js";
import { CHOOSE_CANDIDATE, runChosenCandidate } from "./candidates.js";
import { outsideWhitelist, refinementOf, taskDecisionsOf, withTaskLimits } from "./refinement.js";
import { activePacksIn, PACK_TOOLS, withPackOf } from "./packs.js";
import { newId } from "../../kernel/ids.js";
import { newToolCallId, toolRoundOf, type RoundCall, type RoundEntry } from "../shared/messages.js";
import { languageOf } from "../../contracts/language.js";
import { afterToolResult, runReported } from "./tool-run.js";
import { runMoment } from "../shared/now.js";

/** The tools of the agent itself, run at once without a card: its memory and its tool packs. */
export const AGENT_TOOLS: readonly MemoryTool[] = [...MEMORY_TOOLS, ...PACK_TOOLS];

/** The agent's own tool named `name`, if any. */
function findAgentTool(name: string): MemoryTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}

/** What running a decision's tool calls gave: the rounds of the calls run, the writes to confirm, the state update. */
export interface CallsRun {
  rounds: BaseMessage[];
  /** Valid writes, for one card, with what the card says of each. */
  writes: Array<WriteCall & { summary: string; shown?: Record<string, string>; frame?: string }>;
  update: TempoUpdate;
  /** True when the step failed on tool errors: nothing more is proposed. */
  failed: boolean;
  /** True when a round carries the decision's speech (else a proposal does). */
  spoke: boolean;
  /** The domain state the writes were tried on, and the state they leave (what the card proposes). */
  tried?: { before: unknown; after: unknown };
}

/**
 * Runs a decision's tool calls in order: memory and read tools at once, unknown tools and writes with arguments
 * that do not fit their schema as errors — all in one round; valid writes are collected for one card.
 */
export async function runCalls(
  state: TempoState,
  calls: ToolCallRequest[],
  speak: string,
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<CallsRun> {
  const run: CallsRun = { rounds: [], writes: [], update: {}, failed: false, spoke: false };
  const entries: RoundEntry[] = [];
  let invalidWrites = 0;
  // A reply's failed calls count as one setback: the model wrote them all before it saw any result, so three refusals
  // in one reply of greedy places are one mistake, not three turns that learned nothing. A failure counts one more
  // than the replies before it left (none once a call of this reply succeeded); a success clears the count.
  let errorsBefore = state.stepSetbacks.toolErrors;
  // `told`: a failure in the person's words (bad arguments, said by the domain from the call's data), the step's
  // reason should it fail — the model reads `content`, the schema's precise check.
  const record = (call: RoundCall, ok: boolean, content: string, data?: unknown, told?: string) => {
    entries.push({ call, result: content, outcome: ok ? "done" : "failed", ...(data === undefined ? {} : { data }) });
    const counted = { ...state, stepSetbacks: { ...state.stepSetbacks, toolErrors: errorsBefore } };
    const after = afterToolResult(counted, ok, call.name, told ?? content, dependencies.settings);
    run.update = { ...run.update, ...after };
    if (after.phase !== undefined) run.failed = true;
    if (ok) errorsBefore = 0;
  };
  // The stored state, loaded once for the round on its first write (proposing writes nothing; a load a write was most
  // of a round's database reads, issue 44.8): the card's writes are tried and described on it as a run sees it.
  let stored: Promise<unknown> | undefined;
  const storedState = () => (stored ??= dependencies.domain.load(context.userId));
  /** A call's bad arguments as the domain tells a person of them (in English, as a step's reason is kept), if it does. */
  const toldOf = async (data: unknown) =>
    isInvalidArguments(data) ? dependencies.domain.refusal?.(await storedState(), data, "en") : undefined;
  // The domain state the card's writes are tried on (the standing preferences and the clock folded in), each after
  // the ones before it.
  let trial: { before: unknown; state: unknown } | undefined;
  /**
   * A write for the card: bad arguments go back to the model first, and so does one the tool would refuse on the
   * state as the card's earlier writes leave it (a deadline, an excluded day, a standing preference, a conflict), so
   * no card shows a change that cannot apply; a valid one waits for the card.
   */
  const proposeWrite = async (call: RoundCall, tool: DomainTool<unknown>) => {
    const checked = checkToolArguments(tool, call.arguments);
    if (!checked.ok) {
      record(call, false, `Error: ${checked.problem}. Nothing was changed.`, checked.data, await toldOf(checked.data));
      invalidWrites += 1;
      return;
    }
    if (!trial) {
      const loaded = await stateForRun(dependencies.domain, context, storedState);
      trial = { before: loaded, state: loaded };
    }
    // A write that undoes what the user decided on the task's cards (a day they called off, a place they rejected or
    // put a review in themselves) goes back to the model with the reason, as one the tool refuses does.
    const undoes = dependencies.domain.decisions?.write(trial.state, taskDecisions(), call.name, checked.arguments);
    // What the card is read against, on the state as the card's earlier writes leave it (`ToolDomain.cardFrame`).
    const frame = dependencies.domain.cardFrame?.of(trial.state, { name: call.name, arguments: checked.arguments });
    const tried: ToolRun<unknown> =
      undoes === undefined ? tool.run(trial.state, checked.arguments) : { ok: false, content: undoes };
    if (!tried.ok) {
      // The refusal's data (the clock's, say) goes with it: what the person is told is said from it, not its text.
      const data = tried.data === undefined ? {} : { data: tried.data };
      emit(config, { kind: "tool_call", node: "execute", id: call.id, name: call.name, arguments: checked.arguments });
      emit(config, {
        kind: "tool_result",
        node: "execute",
        id: call.id,
        name: call.name,
        ok: false,
        content: tried.content,
        ...data,
      });
      record(call, false, tried.content, tried.data);
      return;
    }
    if (tried.state !== undefined) trial.state = tried.state;
    run.tried = { before: trial.before, after: trial.state };
    // Described on the week before the card as the run sees it (the clock folded in: what a removal keeps says so).
    const seen = trial.before;
    const language = languageOf(state.messages);
    const summary = await describeToolCall(
      dependencies.domain,
      context.userId,
      call.name,
      checked.arguments,
      language,
      () => Promise.resolve(seen),
    );
    // A candidate's write carries a record (restore_event: the event as removed): its card shows it in words instead.
    const shown = tool.candidateOf !== undefined ? tool.cardArguments?.(seen, checked.arguments, language) : undefined;
    run.writes.push({
      id: call.id,
      name: call.name,
      arguments: checked.arguments,
      summary,
      ...(shown ? { shown } : {}),
      ...(frame === undefined ? {} : { frame }),
    });
  };
  const refining = refinementOf(state, dependencies.domain);
  let decided: TaskDecisions | undefined;
  const taskDecisions = () => (decided ??= taskDecisionsOf(state));
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
      await runChosenCandidate(call, state, dependencies.domain, { record, proposeWrite });
      continue;
    }
    const memoryTool = findAgentTool(call.name);
    if (memoryTool) {
      // The agent's own memory and tool packs: runs at once, whatever the action, on the state as this round left it.
      const result = await runAgentTool(memoryTool, call, { ...state, ...run.update } as TempoState, {
        context,
        dependencies,
        config,
      });
      run.update = { ...run.update, ...result.update };
      record(call, result.ok, result.content);
      continue;
    }
    const tool = findTool(dependencies.domain, call.name);
    if (!tool) {
      record(call, false, unknownToolOutcome(dependencies.domain, call.name).content);
      continue;
    }
    // A candidate's write (its arguments a record the backend kept) comes only from its listing, never made up.
    if (tool.candidateOf !== undefined) {
      record(
        call,
        false,
        `Error: ${tool.name} is applied only as a candidate of ${tool.candidateOf}: call ${tool.candidateOf}, then ${CHOOSE_CANDIDATE} with the candidate's id. Nothing was changed.`,
      );
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
      // While refining, the model's own listing keeps to the task's decisions as the code's does; any other read (a
      // search of its own) to what the domain holds of them.
      const limited =
        refining?.list?.tool === call.name
          ? { ...call, arguments: withTaskLimits(state, refining.list, call.arguments) }
          : dependencies.domain.decisions
            ? { ...call, arguments: dependencies.domain.decisions.read(taskDecisions(), call.name, call.arguments) }
            : call;
      const outcome = await runReported(limited, context, dependencies, config);
      record(call, outcome.ok, outcome.content, outcome.data, await toldOf(outcome.data));
      continue;
    }
    await proposeWrite(call, tool);
  }
  return closeRound(run, entries, { invalidWrites, speak, domain: dependencies.domain });
}

/**
 * The round the calls make: writes held back whole when another of the batch had invalid arguments, the calls run as
 * one round with the decision's speech (or without it: the agent's own bookkeeping, or writes all refused).
 */
function closeRound(
  run: CallsRun,
  entries: RoundEntry[],
  { invalidWrites, speak, domain }: { invalidWrites: number; speak: string; domain: NodeDependencies["domain"] },
): CallsRun {
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
    entries.every(({ call, outcome }) => outcome === "failed" && findTool(domain, call.name)?.kind === "write");
  run.rounds = toolRoundOf(entries, internal || nothingProposed ? "" : speak, internal);
  run.spoke = entries.length > 0 && !internal;
  if (internal && speak !== "" && (run.writes.length === 0 || run.failed)) {
    run.rounds.push(new AIMessage({ id: newId("ai"), content: speak }));
    run.spoke = true;
  }
  return run;
}

/** One of the agent's own tools (memory, tool packs) run on the state as the round left it; bad arguments are its error. */
async function runAgentTool(
  memoryTool: MemoryTool,
  call: RoundCall,
  state: TempoState,
  {
    context,
    dependencies,
    config,
  }: { context: ToolRunContext; dependencies: NodeDependencies; config: LangGraphRunnableConfig },
): Promise<{ ok: boolean; content: string; update?: TempoUpdate }> {
  const checked = memoryTool.schema.safeParse(call.arguments);
  if (!checked.success)
    return {
      ok: false,
      content: `Error: invalid arguments for ${call.name}: ${checked.error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`).join("; ")}`,
    };
  const result = await memoryTool.run(checked.data, {
    state,
    store: config.store,
    userId: context.userId,
    domain: dependencies.domain,
    now: runMoment(dependencies, config).toISOString(),
  });
  return { ok: true, ...result };
}
