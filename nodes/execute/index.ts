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
 *
 * One job a file: this one budgets and asks the model; `review/apply.ts` settles an answered card (1), `decision.ts`
 * carries out the decision (3), `calls.ts` runs its tool calls, `refinement-step.ts` lists for a refinement step,
 * `step-ending.ts` ends a step, `tool-run.ts` runs one call.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { decisionFromToolCalls, ExecuteDecisionSchema } from "../../contracts/execute.js";
import { currentStep, workspaceMessages, type TempoState, type TempoUpdate } from "../../kernel/state.js";
import { callStage, invokeToolCalling } from "../../models/invoke-contract.js";
import { callsToolsNatively, modelFor, promptBudgetFor } from "../../models/stage-models.js";
import { tokenCounterFor } from "../../memory/tokens.js";
import { emitStatus } from "../../streaming/events.js";
import { recordCancelledWrite, type ToolRunContext } from "../../tools/runner.js";
import { correctionUpdate } from "../shared/correction.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { buildExecutePrompt } from "./context.js";
import { readLiveState } from "../shared/live-state.js";
import { stageNow } from "../shared/now.js";
import { currentListing } from "./candidates.js";
import { refinementOf } from "./refinement.js";
import { activePacksIn } from "./packs.js";
import type { ToolOffers } from "../shared/tool-offer.js";
import { newId } from "../../kernel/ids.js";
import { failStep, resumeExecution } from "../../kernel/transitions.js";
import { languageOf, say } from "../../contracts/language.js";
import { PROGRESS_ID_PREFIX } from "../../contracts/message-text.js";
import { settleAnswer, type ApplySteps } from "../../review/apply.js";
import { loggedOutcomes } from "../../review/write-facts.js";
import { afterToolResult, runReported } from "./tool-run.js";
import { endStep } from "./step-ending.js";
import { applyDecision } from "./decision.js";
import { listForRefinement, passedOverInCode } from "./refinement-step.js";
import { arrangedInCode, verifyInCode } from "./verification-step.js";
import { toolClock } from "../shared/now.js";
import { lastAppliedCard } from "../../kernel/applied-writes.js";
import { sayReport } from "../../contracts/report-words.js";

/** Builds the execute node. */
export function createExecuteNode(dependencies: NodeDependencies, offers: ToolOffers) {
  const model = modelFor(dependencies.models, "execute");
  const counter = tokenCounterFor(model);
  const native = callsToolsNatively(dependencies.models, "execute");
  const { domain } = dependencies;

  return async function execute(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    // The standing preferences recall loaded: every tool run (reads, and the approved writes) keeps to them.
    const context: ToolRunContext = {
      userId,
      threadId,
      stepId: state.currentStepId,
      preferences: state.recalled.preferences ?? [],
      // The clock: the tools keep to it (nothing written into a slot that has started).
      ...toolClock(dependencies, config),
      // The thread's last applied card: what "undo that" offers to reverse (issue 47 item 4).
      lastChange: lastAppliedCard(state.messages),
    };
    // (1) An answered card's approved writes apply (review/apply.ts, through this node's steps), and the visit ends.
    const steps: ApplySteps = {
      run: (call, recorded, frame) =>
        runReported(call, context, dependencies, config, { recorded, ...(frame === undefined ? {} : { frame }) }),
      cancel: (call) => recordCancelledWrite(context, call, dependencies.executionLog),
      recorded: (calls) =>
        loggedOutcomes(
          calls.map((call) => call.id),
          dependencies.executionLog,
          threadId,
        ),
      afterResult: (at, ok, tool, content) => afterToolResult(at, ok, tool, content, dependencies.settings),
      endStep: (at, ending, stepMessages) => endStep(at, ending, stepMessages, dependencies, config),
    };
    const settled = await settleAnswer(state, context, dependencies, config, steps);
    if (settled) return settled;

    const step = currentStep(state);
    if (!step) return resumeExecution(state, state.planSteps);
    if (state.roundsUsed >= state.maxRounds) {
      emitStatus(
        config,
        "execute",
        state.messages,
        `Round budget of ${state.maxRounds} spent; delivering`,
        `${state.maxRounds} 轮的预算已用完，正在总结`,
      );
      // The report's own words (contracts/report-words.ts), said in the user's language where they are shown.
      const lastError = sayReport("en", "roundBudgetSpent", { rounds: state.maxRounds });
      return failStep({ ...state, lastError }, sayReport("en", "roundBudgetRanOut", { rounds: state.maxRounds }));
    }
    const { maxRejectionsPerStep } = dependencies.settings;
    if (state.stepSetbacks.rejections >= maxRejectionsPerStep) {
      emitStatus(
        config,
        "execute",
        state.messages,
        "You declined the changes this step needs; stopping here",
        "你拒绝了这一步需要的修改，就停在这里",
      );
      return failStep(state, sayReport("en", "declinedInARow", { count: state.stepSetbacks.rejections }));
    }

    const stepIndex = state.planSteps.indexOf(step);
    // Announce a step once, on its first visit: a status event, and a progress line in the conversation (what Agent
    // Chat UI shows while the step runs), given with whatever this round returns.
    // A plan of one step has nothing to count: its status event alone.
    const firstVisit = state.workspaceMessageIds.length === 0;
    const announcement = firstVisit && state.planSteps.length > 1 ? stepAnnouncement(state, stepIndex) : undefined;
    if (firstVisit)
      emitStatus(
        config,
        "execute",
        state.messages,
        `Executing step ${stepIndex + 1} of ${state.planSteps.length}: ${step.content}`,
        `正在执行第 ${stepIndex + 1} 步（共 ${state.planSteps.length} 步）：${step.content}`,
      );
    // A refinement step lists the backend's candidates itself (no model call) whenever no current listing is in view.
    const refining = refinementOf(state, domain);
    if (refining?.list && !currentListing(workspaceMessages(state)))
      return announced(
        announcement,
        await listForRefinement(state, { ...refining, list: refining.list }, context, dependencies, config),
      );
    // A model that passed over the listing in view turn after turn: the loop ends here, not on another call.
    const passed = refining ? passedOverInCode(state, refining, dependencies, config) : undefined;
    if (passed) return announced(announcement, passed);
    // The plan's closing check, when every write applied: ended from the stored data, no model call.
    const verified = firstVisit ? await verifyInCode(state, step, dependencies, config) : undefined;
    if (verified) return announced(announcement, verified);
    // An arranging step whose hand-placed writes all applied, with nothing left open: ended from the data.
    const arranged = firstVisit ? undefined : await arrangedInCode(state, step, dependencies, config);
    if (arranged) return arranged;
    // The live state the planner read in this run, or read now (a new run, or after a write): no re-read by the model.
    const liveState =
      state.liveState ?? (await readLiveState(dependencies, config, state.currentStepId, state.recalled.preferences));
    // The tools offered for the packs active on this visit (nodes/execute/packs.ts), built once per set of packs, and
    // the shared head that says them (the plan request carries the same).
    const { bound, head } = offers.offerFor(activePacksIn(state, domain), config.store !== undefined);
    const prompt = buildExecutePrompt(
      state,
      step,
      head,
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
