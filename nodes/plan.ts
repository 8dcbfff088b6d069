/**
 * plan: the planner (seed 003 §4.2). A quick assessment first; a deep
 * second pass only for complex tasks. Actions: continue (plan another
 * round), ask_user (a question → the ask_user node), plan_done (the plan is
 * pinned into context and goes to confirmation).
 */
import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../config/configuration.js";
import { PlanDecisionSchema, type PlanDecision } from "../contracts/plan.js";
import { runTool } from "../tools/runner.js";
import type { PlanStep, TempoState, TempoUpdate } from "../graphs/state.js";
import { invokeContract } from "../models/invoke-contract.js";
import { modelFor, type Stage } from "../models/stage-models.js";
import { PLAN_DEEP_STAGE_PROMPT, PLAN_STAGE_PROMPT } from "../prompts/plan.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import { toolBrief } from "../prompts/tool-brief.js";
import { emit, emitAssistantText } from "../streaming/events.js";
import { clearCorrections, correctionUpdate } from "./correction.js";
import type { NodeDependencies } from "./dependencies.js";
import { planInterrupt, questionInterrupt, renderPlan } from "./interrupt-cards.js";
import { conversationMessages, newId, now, workspaceMessages } from "./messages.js";

/** Builds the plan node. */
export function createPlanNode(dependencies: NodeDependencies) {
  const tools = toolBrief(dependencies.domain);

  async function decide(state: TempoState, stage: Stage, config: LangGraphRunnableConfig, liveState: string) {
    const messages = buildStageMessages({
      stagePrompt: stage === "plan_deep" ? PLAN_DEEP_STAGE_PROMPT : PLAN_STAGE_PROMPT,
      toolBrief: tools,
      conversation: conversationMessages(state),
      pinnedBlocks: state.pinnedBlocks,
      context: {
        live_state: liveState,
        task_state: state.recalled.taskState,
        facts: state.recalled.facts.join("\n"),
        episodes: state.recalled.episodes.join("\n"),
      },
      workspace: workspaceMessages(state),
      stageState: planStageState(state),
      instruction:
        stage === "plan_deep"
          ? "Produce the detailed plan now (action plan_done)."
          : "Decide the next planning action for the goal above.",
    });
    return invokeContract(modelFor(dependencies.models, stage), PlanDecisionSchema, messages, {
      structured: dependencies.models.structuredOutput ?? false,
      name: "plan_decision",
      config,
    });
  }

  /** Runs the domain's preflight read tool (first planning round only): planning sees live state, not remembered state. */
  async function refreshLiveState(state: TempoState, config: LangGraphRunnableConfig): Promise<string> {
    const preflight = dependencies.domain.preflight;
    if (!preflight || state.planRoundsUsed > 0) return "";
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    const outcome = await runTool(
      dependencies.domain,
      { userId, threadId, stepId: null },
      { id: newId("preflight"), name: preflight.tool, arguments: preflight.arguments },
      dependencies.executionLog,
    );
    return `${preflight.tool} (fetched just now):\n${outcome.content}`;
  }

  return async function plan(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    emit(config, { kind: "status", node: "plan", text: "Planning" });
    const liveState = await refreshLiveState(state, config);
    const quick = await decide(state, "plan", config, liveState);
    if (!quick.ok) return correctionUpdate(state, "plan", quick.raw, quick.problem, dependencies.settings.maxCorrections);

    let decision: PlanDecision = quick.value;
    if (decision.action === "plan_done" && (decision.complexity === "complex" || decision.need_thinking)) {
      emit(config, { kind: "status", node: "plan", text: "Complex task: planning in depth" });
      const deep = await decide(state, "plan_deep", config, liveState);
      // A failed deep pass keeps the quick plan: it is valid, only less detailed.
      if (deep.ok && deep.value.action === "plan_done") decision = deep.value;
    }
    return applyPlanDecision(state, decision, dependencies, config);
  };
}

/** The stage state block: goal, current draft, rounds. */
function planStageState(state: TempoState): string {
  const lines = [`Goal: ${state.goal}`, `Planning rounds used: ${state.planRoundsUsed}`];
  if (state.planSteps.length > 0) lines.push(`Current plan (being revised):\n${renderPlan(state.planSteps)}`);
  return lines.join("\n");
}

function applyPlanDecision(state: TempoState, decision: PlanDecision, dependencies: NodeDependencies, config: LangGraphRunnableConfig): TempoUpdate {
  const cleared = clearCorrections(state);
  const base: TempoUpdate = { consecutiveCorrections: 0, complexity: decision.complexity, planRoundsUsed: state.planRoundsUsed + 1, updatedAt: now() };
  const speech = decision.speak.trim() ? [new AIMessage({ id: newId("ai"), content: decision.speak })] : [];
  for (const message of speech) emitAssistantText(config, "plan", message.id!, String(message.content));

  if (decision.action === "ask_user") {
    const question = decision.speak.trim();
    emit(config, { kind: "interrupt", node: "plan", interrupt: questionInterrupt(question) });
    return {
      ...base,
      messages: [...cleared.messages, ...speech],
      workspaceMessageIds: [...cleared.workspaceMessageIds, ...speech.map((message) => message.id!)],
      pending: { kind: "ask_user", question, askedBy: "plan" },
    };
  }

  const tooManyRounds = state.planRoundsUsed + 1 >= dependencies.settings.maxPlanRounds;
  if (decision.action === "continue" && !(tooManyRounds && decision.plan_steps.length > 0)) {
    if (tooManyRounds) {
      const problem = `Planning did not finish within ${dependencies.settings.maxPlanRounds} rounds; the task was stopped. Rephrase the request or give more detail.`;
      const notice = new AIMessage({ id: newId("ai"), content: problem });
      return { ...base, messages: [...cleared.messages, ...speech, notice], workspaceMessageIds: [], phase: "chatting", lastError: problem };
    }
    return {
      ...base,
      messages: [...cleared.messages, ...speech],
      workspaceMessageIds: [...cleared.workspaceMessageIds, ...speech.map((message) => message.id!)],
      phase: "planning",
    };
  }

  const planSteps: PlanStep[] = decision.plan_steps.map((step, index) => ({
    id: `step-${index + 1}`,
    content: step.content.trim(),
    doneWhen: step.done_when.trim(),
    status: "pending",
  }));
  emit(config, { kind: "confirm_request", node: "plan", interrupt: planInterrupt(state.goal, planSteps) });
  return {
    ...base,
    messages: [...cleared.messages, ...speech],
    workspaceMessageIds: [],
    planSteps,
    pinnedBlocks: { ...state.pinnedBlocks, plan: renderPlan(planSteps) },
    phase: "waiting_confirm",
    pending: { kind: "confirm_plan" },
  };
}
