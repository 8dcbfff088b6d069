/**
 * The execute model's decision carried out: continue and confirm run their calls (writes go to one batch card),
 * ask_user asks, next_plan and done end the step.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { decisionCalls, type ExecuteDecision } from "../../contracts/execute.js";
import { workspaceMessages, type StepEnding, type TempoState, type TempoUpdate } from "../../kernel/state.js";
import { emitAssistantText } from "../../streaming/events.js";
import type { ToolRunContext } from "../../tools/runner.js";
import { clearCorrections } from "../shared/correction.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { listingsIn } from "./candidates.js";
import { afterListing, refinementOf } from "./refinement.js";
import { newId } from "../../kernel/ids.js";
import { proposalMessage } from "../../kernel/call-records.js";
import { ask, awaitConfirmation } from "../../kernel/transitions.js";
import { runCalls } from "./calls.js";
import { endRefinement } from "./refinement-step.js";
import { endStep } from "./step-ending.js";
import { checkedEnding } from "./verification-step.js";
import { pushHealthChange, pushWeekProposal } from "../shared/week-ui.js";

export async function applyDecision(
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
    // It keeps the week its writes would leave: judged on that week, it holds only on that week.
    const week = ran.tried ? dependencies.domain.cardFrame?.week?.(ran.tried.after) : undefined;
    const then: StepEnding | undefined = decision.then
      ? {
          action: decision.then,
          goalCheck: decision.goal_check,
          answer: decision.answer,
          ...(week !== undefined ? { week } : {}),
        }
      : undefined;
    // A write whose card shows words (a candidate's record) shows them in its call too (kernel/call-records.ts).
    // Each write keeps the frame its card is made in (`ToolDomain.cardFrame`): it applies only while that holds.
    const frames = Object.fromEntries(ran.writes.flatMap((write) => (write.frame ? [[write.id, write.frame]] : [])));
    const proposal = proposalMessage(newId("ai"), ran.spoke ? "" : speak, ran.writes, frames);
    const summaries = Object.fromEntries(ran.writes.map((write) => [write.id, write.summary]));
    const shown = Object.fromEntries(ran.writes.flatMap((write) => (write.shown ? [[write.id, write.shown]] : [])));
    pushWeekProposal(dependencies, config, state, proposal, ran.writes, ran.tried);
    if (refinement) pushHealthChange(dependencies, config, state.messages, proposal, ran.tried);
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
        ...(Object.keys(shown).length > 0 ? { shown } : {}),
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
  // A verification step's summary is what the data shows, whatever the model wrote.
  const ending = await checkedEnding(
    state,
    {
      action: decision.action,
      goalCheck: decision.goal_check,
      answer: decision.answer,
      ...(decision.not_carried_out.trim() ? { notCarriedOut: decision.not_carried_out.trim() } : {}),
    },
    dependencies,
    config,
  );
  return {
    ...base,
    ...endStep(state, ending, workspaceMessages(state), dependencies, config),
    messages: [...cleared.messages, ...speech],
  };
}
