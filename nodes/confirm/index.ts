/**
 * confirm: no model call (docs/design.md#confirm). Raises the confirmation card for the plan or for pending write
 * tools with `interrupt()` — nothing before it has side effects, since LangGraph re-runs the node on resume — and
 * moves the task on by the answer, which review/ reads (one vocabulary, approve / edit / reject, whatever shape the
 * resume came in):
 *
 *   plan:  go → execute (an edited plan through the revision diff: done steps stay done)
 *          revise → back to planning | drop → the task is dropped (review/plan-answers.ts)
 *   write: review/write-answers.ts answers the card whole; a standing preference said in a rejection's feedback
 *          ("never on Monday") binds the rest of the task at once
 */
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { openerRemoval, showStatus } from "../../streaming/progress-ui.js";
import { languageOf, type Language } from "../../contracts/language.js";
import type { PlanStep, TempoState, TempoUpdate } from "../../kernel/state.js";
import { emitAssistantText, emitStatus } from "../../streaming/events.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { awaitHuman, withRefusalNoteRemoved } from "../../review/human-response.js";
import { planInterrupt, withClockNote, withRefusal } from "../../review/interrupt-cards.js";
import { readPlanAnswer, type PlanVerdict } from "../../review/plan-answers.js";
import { answerWriteCard } from "../../review/write-answers.js";
import { newId } from "../../kernel/ids.js";
import { dropTask, resumeExecution, sendToPlanner } from "../../kernel/transitions.js";
import { executionStarted, recordEdits, revisePlan } from "../plan/revision.js";
import { droppedLeavesText } from "../../review/write-facts.js";
import { staleWorkflowUpdate } from "../shared/workflow-version.js";
import { assertThreadOwner } from "../../kernel/ownership.js";
import { ensureConfiguration } from "../../config/configuration.js";
import { withPreferencesHeard } from "../preference-extraction.js";
import { planRejectionText } from "../../contracts/rejections.js";
import { runMoment, toolMoment } from "../shared/now.js";
import { catchUpWithClock } from "../shared/clock-writes.js";

/** Builds the confirm node. */
export function createConfirmNode(dependencies: NodeDependencies) {
  return async function confirm(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    return withRefusalNoteRemoved(state.pending, await answerCard(state, config));
  };

  /** Raises the pending plan or write card and applies its answer. */
  async function answerCard(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const pending = state.pending;
    if (!pending || pending.kind === "ask_user") return {};
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    assertThreadOwner(state.userId, userId);
    // The tools or the graph changed since the plan was made: replan instead of trusting it (no interrupt raised).
    const stale = staleWorkflowUpdate(state, dependencies.workflowVersion);
    if (stale) return stale;

    // Tempo's own words on the card in the user's language (contracts/language.ts).
    const language = languageOf(state.messages);
    if (pending.kind === "confirm_plan") {
      const verdict = awaitHuman(
        withRefusal(
          withClockNote(planInterrupt(state.goal, state.planSteps, language), planCardNote(state)),
          pending.refusal,
          language,
        ),
        state.pendingAnswer,
        readPlanAnswer,
        config,
      );
      // The plan was made on a week the clock has since left (the card answered a week later): the window moves on to
      // the week of now, and the plan is made again there, on a card that says so — never run on the week that is gone.
      if (verdict.kind === "go") {
        const moved = await weekLeftUnderCard(state, config, language);
        if (moved) return moved;
      }
      // What a dropped task leaves is read only when the answer drops it (one log read per write).
      const leaves = () =>
        droppedLeavesText(state, dependencies.domain, dependencies.executionLog, { userId, threadId }, language);
      // An answer that came as a plain user message is already in the conversation.
      return answerPlan(state, verdict, state.pendingAnswer !== null, config, leaves);
    }
    const answered = await answerWriteCard(
      state,
      pending,
      config,
      dependencies,
      { userId, threadId, now: toolMoment(dependencies, config) },
      language,
    );
    const { feedback } = answered;
    // A write card answered after its week was gone: the window moves on now, as for a plan card, and the task plans
    // again on the week of now (review/outlived-cards.ts: nothing of the card applies).
    const update = answered.weekGone
      ? await withWeekMovedOn(state, answered.update, config, language)
      : answered.update;
    // Only feedback said with a rejection can state a preference: an approval reads none (and crosses no memory code).
    const heard =
      feedback.length > 0
        ? withPreferencesHeard(
            state.recalled,
            feedback,
            dependencies.domain,
            threadId,
            runMoment(dependencies, config).toISOString(),
          )
        : undefined;
    return heard ? { ...update, recalled: heard } : update;
  }

  /** `update` with the clock's writes run and what they did as the request's note (`movedOn`). */
  async function withWeekMovedOn(
    state: TempoState,
    update: TempoUpdate,
    config: LangGraphRunnableConfig,
    language: Language,
  ): Promise<TempoUpdate> {
    const moved = await catchUpWithClock(dependencies, config, language, state.atRiskTold);
    if (moved === undefined) return update;
    emitStatus(config, "confirm", state.messages, "A new week began; planning again", "新的一周开始了，重新制定计划");
    return { ...update, movedOn: moved.text, ...(moved.atRisk ? { atRiskTold: moved.atRisk } : {}) };
  }

  /**
   * When the clock makes a write due (the window's last day passed while the plan card waited): the clock's writes,
   * then the task back to planning with what they did as the request's note (`movedOn`); undefined otherwise. Only a
   * write due counts — a clock behind what the schedule recorded moves nothing, and is said on the card already.
   */
  async function weekLeftUnderCard(
    state: TempoState,
    config: LangGraphRunnableConfig,
    language: Language,
  ): Promise<TempoUpdate | undefined> {
    const { domain } = dependencies;
    const now = toolMoment(dependencies, config);
    if (!domain.clock || now === undefined) return undefined;
    const { userId } = ensureConfiguration(config, dependencies.settings);
    if (domain.clock.due(await domain.load(userId), now) === undefined) return undefined;
    const moved = await catchUpWithClock(dependencies, config, language, state.atRiskTold);
    if (moved === undefined) return undefined;
    emitStatus(config, "confirm", state.messages, "A new week began; planning again", "新的一周开始了，重新制定计划");
    return {
      pending: null,
      pendingAnswer: null,
      ...sendToPlanner(state, "revise"),
      movedOn: moved.text,
      ...(moved.atRisk ? { atRiskTold: moved.atRisk } : {}),
    };
  }
}

/** What opens the plan card: what the clock did, and what a write card answered after its time left undone. */
function planCardNote(state: TempoState): string | null {
  return [state.movedOn, state.outlivedCard].filter((part) => part).join("\n\n") || null;
}

async function answerPlan(
  state: TempoState,
  verdict: PlanVerdict,
  fromMessage: boolean,
  config: LangGraphRunnableConfig,
  leaves: () => Promise<string>,
): Promise<TempoUpdate> {
  const cleared: TempoUpdate = { pending: null, pendingAnswer: null };
  if (verdict.kind === "go") {
    emitStatus(config, "confirm", state.messages, "Plan confirmed", "计划已确认");
    showStatus(config, state.messages, "Plan confirmed; working on it…", "计划已确认，正在执行…");
    const { editedPlan } = verdict;
    const planSteps = editedPlan ? applyEdit(state, editedPlan) : state.planSteps;
    const edits: TempoUpdate = editedPlan
      ? {
          planEdits: recordEdits(state.planSteps, planSteps, state.planEdits),
          planRevision: executionStarted(state.planSteps) ? state.planRevision + 1 : state.planRevision,
        }
      : {};
    // Resume from the first unfinished step: a revised plan keeps its matching prefix done (docs/design.md#plan-revision).
    const resumed = resumeExecution(state, planSteps);
    // The status now stands under the plan: the turn's opener, an empty row above it, goes (`openerRemoval`).
    const messages = [...((resumed.messages as BaseMessage[] | undefined) ?? []), ...openerRemoval(state.messages)];
    return { ...cleared, ...edits, ...resumed, ...(messages.length > 0 ? { messages } : {}) };
  }
  if (verdict.kind === "drop") {
    // Ignore, "no", "cancel", "取消": the user does not want this task.
    emitStatus(config, "confirm", state.messages, "Plan dropped", "已放弃这个计划");
    const dropped = dropTask(state, "declined", await leaves(), languageOf(state.messages));
    emitAssistantText(config, "confirm", dropped.messages.at(-1)!.id!, String(dropped.messages.at(-1)!.content));
    return { ...cleared, ...dropped };
  }
  emitStatus(config, "confirm", state.messages, "Plan rejected; revising", "计划被拒绝，正在修改");
  const note = fromMessage
    ? []
    : [new HumanMessage({ id: newId("human"), content: planRejectionText(verdict.feedback) })];
  return {
    ...cleared,
    ...sendToPlanner(state, "revise"),
    messages: note,
    workspaceMessageIds: note.map((message) => message.id!),
  };
}

/** The edited plan through the revision diff: steps the user kept as they were keep their status and summary. */
function applyEdit(state: TempoState, edited: PlanStep[]): PlanStep[] {
  const drafts = edited.map((step) => ({ content: step.content, done_when: step.doneWhen }));
  // Before execution, an edit is a fresh plan; during it, a revision with its own step ids.
  return revisePlan(state.planSteps, drafts, executionStarted(state.planSteps) ? state.planRevision + 1 : 0).steps;
}
