/**
 * plan: the planner (docs/design.md#plan). Three modes:
 *
 * - draft: a quick assessment first, a deep second pass only for complex
 *   tasks; continue / ask_user / plan_done (the plan is pinned and goes to
 *   confirmation).
 * - revise (after feedback, or when the workflow version changed): the model
 *   returns the whole plan; it is diffed against the current one, steps from
 *   the first mismatch on are invalidated, and execution resumes from the
 *   first unfinished step. A no-op revision of a running plan resumes at once;
 *   a changed plan is confirmed again.
 * - replan (after a finished step, docs/design.md#replanning): continue with
 *   the remaining steps, replace them, ask the user, or finish. A replan that
 *   would rewrite a done step, or undo what the user edited on the plan card,
 *   raises the plan card again instead of taking effect.
 *
 * Every planning pass (draft, revise, replan) starts from a fresh read of the
 * live domain state; recalled memory reaches the prompt within its budget.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { languageOf, type Language } from "../../contracts/language.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { PlanDecisionSchema, type PlanDecision, type PlanStepDraft } from "../../contracts/plan.js";
import {
  workspaceMessages,
  type LiveState,
  type PendingInteraction,
  type PlanStep,
  type RunMode,
  type TempoState,
  type TempoUpdate,
} from "../../kernel/state.js";
import { ask, awaitConfirmation, finishTask, resumeExecution, sendToPlanner } from "../../kernel/transitions.js";
import { memoryContext, preferencesContext } from "../../memory/prompt-memory.js";
import { callStage, sharedHeadRefused } from "../../models/invoke-contract.js";
import { PLAN_DEEP_STAGE_PROMPT, PLAN_STAGE_PROMPT } from "../../prompts/plan.js";
import { renderPlan } from "../../prompts/plan-list.js";
import { buildStageMessages } from "../../prompts/stage-messages.js";
import { stageNow } from "../shared/now.js";
import { plannerToolBrief } from "../../prompts/tool-brief.js";
import { emitAssistantText, emitStatus } from "../../streaming/events.js";
import { clearCorrections, correctionUpdate } from "../shared/correction.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { newId } from "../../kernel/ids.js";
import { conversationMessages } from "../shared/messages.js";
import { readLiveState } from "../shared/live-state.js";
import { pushWeekNow } from "../shared/week-ui.js";
import { executionStarted, normaliseStep, revisePlan } from "./revision.js";
import { pinnedBlocksOf } from "../shared/steps.js";
import {
  defaultPacks,
  isRefinementStep,
  isVerificationStep,
  type Refinement,
  type Verification,
} from "../../tools/domain.js";
import { planModelWithTools, type ToolOffers } from "../shared/tool-offer.js";
import { modelFor } from "../../models/stage-models.js";

/** The planner's two passes. */
type PlanStage = "plan" | "plan_deep";

const MODE_INSTRUCTIONS = {
  draft: "Decide the next planning action for the goal above.",
  revise:
    "Revise the current plan in the light of the user's feedback (or of the changed tools): answer plan_done with the WHOLE plan, steps already done included and unchanged where they still hold. Return the same plan if nothing needs to change.",
  replan:
    "A step has just finished. Decide: continue (keep the remaining steps), plan_done with the whole plan if the remaining steps must change (done steps unchanged), ask_user, or finish if the goal is already met.",
} as const;

/** Builds the plan node; `offers` are the execute stage's (its request begins with the same head). */
export function createPlanNode(dependencies: NodeDependencies, offers: ToolOffers) {
  const tools = plannerToolBrief(dependencies.domain);

  async function decide(state: TempoState, stage: PlanStage, config: LangGraphRunnableConfig, liveState: LiveState) {
    // The head the next execute request will have (its tools bound too, in native mode), then the planner's own
    // prompt and tool list: the plan and execute requests of a task share one prefix (issue 49 item 3).
    // With the shared head switched off (TEMPO_SHARED_HEAD=off), or refused by this model's server, the planner's own
    // head: no tools bound.
    const offer =
      dependencies.models.sharedHead === false || sharedHeadRefused(modelFor(dependencies.models, stage))
        ? undefined
        : offers.offerFor(offers.packsAfterPlanning(state), config.store !== undefined);
    const messages = buildStageMessages({
      head: offer?.head,
      stagePrompt: stage === "plan_deep" ? PLAN_DEEP_STAGE_PROMPT : PLAN_STAGE_PROMPT,
      toolBrief: tools,
      conversation: conversationMessages(state),
      pinnedBlocks: pinnedBlocksOf(state),
      // The live state read for this run: the execute request that follows shares it, after the head.
      sharedContext: { live_state: liveState.text },
      context: {
        ...memoryContext(
          state.recalled,
          ["taskState", "facts", "episodes", "conversation"],
          dependencies.settings.context.promptBudget.plan / 4,
        ),
        ...preferencesContext(state.recalled, dependencies.settings.context.promptBudget.plan / 10),
        resume_context: state.resumeContext
          ? `You asked the user: "${state.resumeContext.question}"\nThey replied: "${state.resumeContext.answer}"\nTreat the reply as the answer to that question, not as a new request.`
          : "",
      },
      ...(liveState.data === undefined ? {} : { contextData: { live_state: liveState.data } }),
      workspace: workspaceMessages(state),
      stageState: planStageState(state),
      instruction:
        stage === "plan_deep" ? "Produce the detailed plan now (action plan_done)." : MODE_INSTRUCTIONS[state.planMode],
      now: await stageNow(dependencies, config),
    });
    const withTools = offer && planModelWithTools(dependencies.models, stage, offer);
    return callStage(dependencies.models, stage, PlanDecisionSchema, messages, "plan_decision", config, withTools);
  }

  /** The live state at the start of every planning pass (and when a pass goes on in a new run): planning sees live state, not remembered state. */
  async function refreshLiveState(state: TempoState, config: LangGraphRunnableConfig): Promise<LiveState> {
    if (state.planRoundsUsed > 0 && state.liveState) return state.liveState;
    return readLiveState(dependencies, config, null, state.recalled.preferences);
  }

  /** The domain's open items when the task is first planned: deliver compares them with what is open at the end. */
  async function openItemsAtStart(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { domain } = dependencies;
    if (!domain.openItems || state.openItemsAtStart !== null) return {};
    const { userId } = ensureConfiguration(config, dependencies.settings);
    return { openItemsAtStart: domain.openItems(await domain.load(userId)) };
  }

  return async function plan(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const [english, chinese] =
      state.planMode === "draft"
        ? ["Planning", "正在制定计划"]
        : state.planMode === "revise"
          ? ["Revising the plan", "正在修改计划"]
          : ["Reviewing the plan after the step", "这一步做完了，正在复核计划"];
    emitStatus(config, "plan", state.messages, english, chinese);
    const liveState = await refreshLiveState(state, config);
    const fresh: TempoUpdate = {
      ...(liveState !== state.liveState ? { liveState } : {}),
      ...(await openItemsAtStart(state, config)),
    };
    const quick = await decide(state, "plan", config, liveState);
    if (!quick.ok)
      return {
        ...fresh,
        ...correctionUpdate(state, "plan", quick.raw, quick.problem, dependencies.settings.maxCorrections),
      };

    let decision: PlanDecision = quick.value;
    if (
      state.planMode === "draft" &&
      decision.action === "plan_done" &&
      (decision.complexity === "complex" || decision.need_thinking)
    ) {
      emitStatus(config, "plan", state.messages, "Complex task: planning in depth", "任务较复杂：正在详细规划");
      const deep = await decide(state, "plan_deep", config, liveState);
      // A failed deep pass keeps the quick plan: it is valid, only less detailed.
      if (deep.ok && deep.value.action === "plan_done") decision = deep.value;
    }
    const update = applyPlanDecision(state, decision, dependencies, config);
    await pushWeekWithPlan(state, update, config);
    return { ...fresh, ...update };
  };

  /**
   * The week as it is, beside the message that carries a plan waiting for its card (issue 48): the person sees the
   * week the plan will arrange when the card opens.
   */
  async function pushWeekWithPlan(state: TempoState, update: TempoUpdate, config: LangGraphRunnableConfig) {
    if ((update.pending as PendingInteraction | null | undefined)?.kind !== "confirm_plan") return;
    const messages = [...state.messages, ...((update.messages as BaseMessage[] | undefined) ?? [])];
    const plan = ((update.messages as BaseMessage[] | undefined) ?? []).findLast(
      (message) => message.getType() === "ai" && message.id,
    );
    if (plan) await pushWeekNow(dependencies, config, { messages, ui: state.ui }, plan);
  }
}

/**
 * `steps` with the domain's refinement step, for a `first_full` or `global_reopt` plan that has none: after the
 * arranging, just before the domain's closing check (`verification`) when the plan ends with one, else after the first
 * step (the rough arrangement), or as the only step of an empty plan. (A plan that first proposes missed reviews again,
 * then arranges the rest, refines once both are placed, not between them.) A `local_adjust` plan, a question, a domain
 * without refinement: as they are. The step starts with `startPacks` (by default the refinement's whole whitelist):
 * the packs of its whitelist an arranging step has by default, so it pays for no schema it does not use.
 */
export function withRefinementStep(
  steps: PlanStepDraft[],
  runMode: RunMode | undefined,
  refinement: Refinement | undefined,
  language: Language = "en",
  startPacks?: readonly string[],
  verification?: Verification<unknown>,
): PlanStepDraft[] {
  if (!refinement || (runMode !== "first_full" && runMode !== "global_reopt")) return steps;
  if (steps.some((step) => isRefinementStep({ refinement }, step.content))) return steps;
  const text = refinement.localized?.[language] ?? refinement.step;
  const packs = startPacks?.filter((name) => refinement.packs.includes(name)) ?? [];
  const step: PlanStepDraft = {
    content: text.content,
    done_when: text.doneWhen,
    packs: packs.length > 0 ? packs : [...refinement.packs],
  };
  const check = verification ? steps.findIndex((draft) => isVerificationStep({ verification }, draft.content)) : -1;
  const at = check > 0 ? check : 1;
  return [...steps.slice(0, at), step, ...steps.slice(at)];
}

/** The stage state block: mode, goal, the current plan with statuses, rounds. */
function planStageState(state: TempoState): string {
  const lines = [`Mode: ${state.planMode}`, `Goal: ${state.goal}`, `Planning rounds used: ${state.planRoundsUsed}`];
  if (state.planSteps.length > 0) {
    lines.push(`Current plan:\n${renderPlan(state.planSteps, { status: true, doneWhen: "inline", summary: true })}`);
  }
  return lines.join("\n");
}

function applyPlanDecision(
  state: TempoState,
  decision: PlanDecision,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate {
  const cleared = clearCorrections(state);
  const speech = decision.speak.trim() ? [new AIMessage({ id: newId("ai"), content: decision.speak })] : [];
  for (const message of speech) emitAssistantText(config, "plan", message.id!, String(message.content));
  const base: TempoUpdate = {
    consecutiveCorrections: 0,
    planRoundsUsed: state.planRoundsUsed + 1,
    messages: [...cleared.messages, ...speech],
  };
  const keepWorkspace = (): TempoUpdate => ({
    workspaceMessageIds: [...cleared.workspaceMessageIds, ...speech.map((message) => message.id!)],
  });

  if (decision.action === "ask_user") {
    const question = decision.speak.trim();
    return { ...base, ...keepWorkspace(), ...ask(state, question, "plan") };
  }

  if (state.planMode === "replan" && (decision.action === "continue" || decision.action === "finish")) {
    if (decision.action === "finish") {
      // The goal is met: steps never started are skipped, not left pending.
      const planSteps = state.planSteps.map((step) =>
        step.status === "pending" ? { ...step, status: "skipped" as const } : step,
      );
      return { ...base, ...finishTask(state, planSteps), resumeContext: null };
    }
    return { ...base, ...resumeExecution(state, state.planSteps), resumeContext: null };
  }

  const tooManyRounds = state.planRoundsUsed + 1 >= dependencies.settings.maxPlanRounds;
  if (decision.action === "continue" || decision.action === "finish" || decision.plan_steps.length === 0) {
    if (!tooManyRounds) return { ...base, ...keepWorkspace(), ...sendToPlanner(state, "draft") };
    const problem = `Planning did not finish within ${dependencies.settings.maxPlanRounds} rounds; the task was stopped. Rephrase the request or give more detail.`;
    return { ...base, ...finishTask(state, state.planSteps, problem), resumeContext: null };
  }

  // plan_done: a new plan, or a revision of the current one.
  const revision = state.planSteps.length === 0 ? 0 : state.planRevision + 1;
  // A new plan that arranges or re-arranges refines by default (seed 003): the domain's refinement step is added.
  const withRefinement =
    state.planSteps.length === 0
      ? withRefinementStep(
          decision.plan_steps,
          decision.run_mode,
          dependencies.domain.refinement,
          languageOf(state.messages),
          defaultPacks(dependencies.domain, { arranging: true }),
          dependencies.domain.verification,
        )
      : decision.plan_steps;
  // A question's steps start with the packs for reading: the ones for writing would cost every call and serve none.
  const readingPacks = defaultPacks(dependencies.domain, { writing: false });
  const drafts =
    decision.read_only && readingPacks.length > 0
      ? withRefinement.map((step) => (step.packs?.length ? step : { ...step, packs: readingPacks }))
      : withRefinement;
  const revised = revisePlan(state.planSteps, drafts, revision);
  const runMode = decision.run_mode ?? (state.planSteps.length === 0 ? null : state.runMode);
  const readOnlyPlan = state.planSteps.length === 0 ? decision.read_only === true : state.readOnlyPlan;
  const common: TempoUpdate = {
    ...base,
    resumeContext: null,
    planRevision: revised.changed ? revision : state.planRevision,
    runMode,
    readOnlyPlan,
  };
  if (!revised.changed && executionStarted(state.planSteps)) {
    // A no-op revision of a running plan: nothing is invalidated, execution goes on.
    emitStatus(config, "plan", state.messages, "The plan stands; continuing", "计划不变，继续执行");
    return { ...common, ...resumeExecution(state, state.planSteps) };
  }
  const needsConfirmation = replanNeedsConfirmation(state, revised.steps, revised.firstInvalid);
  if (state.planMode === "replan" && !needsConfirmation) {
    // Replanning replaces the remaining steps without a new confirmation; each write is still confirmed.
    emitStatus(config, "plan", state.messages, "Remaining steps replaced", "已替换剩下的步骤");
    return { ...common, ...resumeExecution(state, revised.steps) };
  }
  if (decision.read_only && state.planSteps.length === 0) {
    // A question needs no confirmation: a new read-only plan runs at once (a write in it would still get its card).
    emitStatus(config, "plan", state.messages, "Looking it up", "正在查询");
    return { ...common, workspaceMessageIds: [], ...resumeExecution({ ...state, currentStepId: null }, revised.steps) };
  }
  if (needsConfirmation) emitStatus(config, "plan", state.messages, ...needsConfirmation);
  return {
    ...common,
    workspaceMessageIds: [],
    planSteps: revised.steps,
    currentStepId: null,
    ...awaitConfirmation(state, { kind: "confirm_plan" }),
  };
}

/**
 * Why a replan must be confirmed again (in English and in Chinese), or undefined when it may take effect at once: it
 * would rewrite a done step (done steps keep their status and summary unless the user confirms), or undo an edit the
 * user made on the plan card (re-add a step they removed, drop or change a step they wrote).
 */
function replanNeedsConfirmation(
  state: Pick<TempoState, "planMode" | "planSteps" | "planEdits">,
  revised: PlanStep[],
  firstInvalid: number,
): [english: string, chinese: string] | undefined {
  if (state.planMode !== "replan") return undefined;
  if (state.planSteps.slice(firstInvalid).some((step) => step.status === "done"))
    return ["The replan would redo finished steps; asking you first", "新计划会重做已完成的步骤，先问问你"];
  const texts = new Set(revised.map(normaliseStep));
  const readded = state.planEdits.removed.some((text) => texts.has(text));
  const undone = state.planEdits.added.some((text) => !texts.has(text));
  return readded || undone
    ? ["The replan would change what you edited; asking you first", "新计划会改动你编辑过的步骤，先问问你"]
    : undefined;
}
