/**
 * ask_user: a question raised with `interrupt()`; the answer (a "response")
 * goes back to the stage that asked, as a user reply in its workspace.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { TempoState, TempoUpdate } from "../kernel/state.js";
import { answerQuestion, dropTask } from "../kernel/transitions.js";
import { emitAssistantText, emitStatus } from "../streaming/events.js";
import { droppedLeavesText } from "../review/write-facts.js";
import type { NodeDependencies } from "./shared/dependencies.js";
import { awaitHuman } from "../review/human-response.js";
import { staleWorkflowUpdate } from "./shared/workflow-version.js";
import { assertThreadOwner } from "../kernel/ownership.js";
import { ensureConfiguration } from "../config/configuration.js";
import { questionInterrupt, withRefusal } from "../review/interrupt-cards.js";
import { isWithdrawal, withRefusalNoteRemoved } from "../review/human-response.js";
import { languageOf } from "../contracts/language.js";
import { newId } from "../kernel/ids.js";
import { isProgressLine } from "../contracts/message-text.js";
import { runMoment } from "./shared/now.js";

/** Builds the ask_user node. */
export function createAskUserNode(dependencies: NodeDependencies) {
  return async (state: TempoState, config: LangGraphRunnableConfig) =>
    withRefusalNoteRemoved(state.pending, await askUser(state, config, dependencies));
}

async function askUser(
  state: TempoState,
  config: LangGraphRunnableConfig,
  dependencies: NodeDependencies,
): Promise<TempoUpdate> {
  const pending = state.pending;
  if (!pending || pending.kind !== "ask_user") return {};
  assertThreadOwner(state.userId, ensureConfiguration(config, dependencies.settings).userId);
  // The tools or the graph changed since the plan was made: replan instead of trusting it (no interrupt raised).
  const stale = staleWorkflowUpdate(state, dependencies.workflowVersion);
  if (stale) return stale;
  const fromMessage = state.pendingAnswer !== null;
  // A question card's only answer is text (contracts/cards.ts reads it from any resume shape).
  const reply = awaitHuman(
    withRefusal(questionInterrupt(pending.question), pending.refusal, languageOf(state.messages)),
    state.pendingAnswer,
    (answers) => (answers[0]?.verdict === "reply" ? answers[0].text : ""),
    config,
    "ask_user",
  );
  emitStatus(config, "ask_user", state.messages, "Answer received", "已收到回答");

  // The reply joins the asking stage's workspace; a plain message is already in the conversation.
  const replyMessage = fromMessage ? undefined : new HumanMessage({ id: newId("human"), content: reply });
  // The reply by message is the latest one a person wrote (a served turn's progress line may stand after it).
  const existingReply = fromMessage ? state.messages.findLast((message) => !isProgressLine(message))?.id : undefined;
  const replyIds = [replyMessage?.id, existingReply].filter((id): id is string => typeof id === "string");
  // "Never mind", "算了": the request itself is withdrawn, so the task ends as dropped instead of asking again.
  if (isWithdrawal(reply)) return withdraw(state, replyMessage, config, dependencies);
  const at = runMoment(dependencies, config).toISOString();
  return {
    messages: replyMessage ? [replyMessage] : [],
    workspaceMessageIds: [...state.workspaceMessageIds, ...replyIds],
    // docs/design.md#questions: the reply is a user_reply observation, and the planner gets the question and answer as resume context.
    userReplies: [...state.userReplies, { question: pending.question, answer: reply, askedBy: pending.askedBy, at }],
    resumeContext: { question: pending.question, answer: reply },
    ...answerQuestion(state),
  };
}

/** The task ends as dropped: what it leaves is read from the facts, and said in the user's language. */
async function withdraw(
  state: TempoState,
  replyMessage: HumanMessage | undefined,
  config: LangGraphRunnableConfig,
  dependencies: NodeDependencies,
): Promise<TempoUpdate> {
  const owner = ensureConfiguration(config, dependencies.settings);
  const language = languageOf([...state.messages, ...(replyMessage ? [replyMessage] : [])]);
  const leaves = await droppedLeavesText(state, dependencies.domain, dependencies.executionLog, owner, language);
  const dropped = dropTask(state, "withdrawn", leaves, language);
  const answer = dropped.messages.at(-1)!;
  emitAssistantText(config, "ask_user", answer.id!, String(answer.content));
  return { ...dropped, messages: [...(replyMessage ? [replyMessage] : []), ...dropped.messages] };
}
