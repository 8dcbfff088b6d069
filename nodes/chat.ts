/**
 * chat: the entry stage (docs/design.md#chat). A message that answers a pending
 * interaction is turned into that answer in code (no model call); otherwise
 * the chat model classifies the intent — chat replies directly and the turn
 * ends; task (the conservative default) starts planning.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { type LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../config/configuration.js";
import { ChatDecisionSchema } from "../contracts/chat.js";
import { TempoError } from "../errors/index.js";
import { assertKnownCommand, commandText, isCommandText, isRetryPhrase } from "../kernel/commands.js";
import { clearCommand, preferenceCommandMessage } from "./chat-commands.js";
import { promptMessages, type TempoState, type TempoUpdate } from "../kernel/state.js";
import {
  dropTask,
  type DropReason,
  nextPhase,
  reply,
  retryStage,
  startTask,
  taskInProgress,
} from "../kernel/transitions.js";
import { memoryContext, preferencesContext } from "../memory/prompt-memory.js";
import { CHAT_STAGE_PROMPT } from "../prompts/chat.js";
import { languageOf } from "../contracts/language.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import { stageNow } from "./shared/now.js";
import { messageText } from "../contracts/message-text.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import { callStage } from "../models/invoke-contract.js";
import { emitAssistantText, emitStatus } from "../streaming/events.js";
import type { NodeDependencies } from "./shared/dependencies.js";
import { replyAsResume } from "../review/human-response.js";
import { proposedWrites } from "../kernel/proposal.js";
import { droppedLeavesText } from "../review/write-facts.js";
import { staleWorkflowUpdate } from "./shared/workflow-version.js";
import { newId } from "../kernel/ids.js";
import { latestBesideOpeners } from "../streaming/progress-ui.js";
import { conversationMessages, latestUserText } from "./shared/messages.js";

/** Builds the chat node. */
export function createChatNode(dependencies: NodeDependencies) {
  async function chat(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId } = ensureConfiguration(config, dependencies.settings);
    const owner: TempoUpdate = state.userId ? {} : { userId };
    return { ...owner, ...(await respond(state, config)) };
  }

  async function respond(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    // The turn's opener (`openTurn`, for Agent Chat UI) stands after the message it answers.
    const lastMessage = latestBesideOpeners(state.messages);
    const userText = lastMessage?.getType() === "human" ? latestUserText(state.messages) : "";

    const typed = commandText(userText);
    if (typed !== undefined) {
      // The run guard refuses unknown commands before they reach the thread; this covers graphs built without it.
      const command = assertKnownCommand(typed);
      if (command.name === "/clear") return clearCommand(state, config);
      // A waiting card is raised again after the answer; a task that stopped is left, as for any other message.
      if (state.pending) return { messages: [await preferenceCommandMessage(command, state, config)] };
      if (taskInProgress(state.phase)) return dropThen(state, "movedOn", userText, config);
      return respondAfter(state, userText, config);
    }

    const stale = staleWorkflowUpdate(state, dependencies.workflowVersion);
    if (stale) {
      emitStatus(
        config,
        "chat",
        state.messages,
        "The tools changed since this plan was made; replanning",
        "制定这个计划之后工具有了变化，正在重新规划",
      );
      return stale;
    }

    if (state.pending) {
      // A plain message on a waiting thread is the answer (docs/design.md#answers-by-message).
      if (userText.trim() === "") return {};
      // …unless the execute stage asked and the message is a request of its own ("add a task …" while "which of
      // Thursday's reviews?" waits): that task is dropped, and the message handled as a new one.
      if (
        state.pending.kind === "ask_user" &&
        state.pending.askedBy === "execute" &&
        dependencies.domain.readsAsRequest?.(userText) === true
      )
        return dropThen(state, "superseded", userText, config);
      return {
        pendingAnswer: replyAsResume(
          userText,
          state.pending.kind,
          state.pending.kind === "confirm_tool" ? proposedWrites(state).length : 1,
        ),
      };
    }

    // docs/design.md#resets-and-retries: a retry phrase resumes a run that stopped, or redoes a task that ended unfinished.
    if (isRetryPhrase(userText)) {
      if (state.phase === "planning" || state.phase === "executing") {
        emitStatus(config, "chat", state.messages, "Retrying where the task stopped", "从任务中断的地方重试");
        return retryStage(state);
      }
      const unfinished =
        state.outcome !== null && state.outcome.kind !== "completed" && state.outcome.kind !== "dropped";
      if (state.phase === "done" && state.goal && (unfinished || state.lastError)) {
        emitStatus(
          config,
          "chat",
          state.messages,
          "Retrying the last task from a fresh plan",
          "用新的计划重试上一个任务",
        );
        return begin(state, state.goal, config);
      }
    }

    // A task that stopped (a failed run) and is not retried ends as dropped: the user moved on.
    if (taskInProgress(state.phase)) return dropThen(state, "movedOn", userText, config);
    return respondAfter(state, userText, config);
  }

  /** The task in progress dropped for `why`, then the new message handled in the phase the drop leads to. */
  async function dropThen(
    state: TempoState,
    why: DropReason,
    userText: string,
    config: LangGraphRunnableConfig,
  ): Promise<TempoUpdate> {
    const owner = ensureConfiguration(config, dependencies.settings);
    const language = languageOf(state.messages);
    // What stays, said as a person reads it (names, dates).
    const told = await droppedLeavesText(state, dependencies.domain, dependencies.executionLog, owner, language);
    const dropped = dropTask(state, why, told, language);
    emitAssistantText(config, "chat", dropped.messages.at(-1)!.id!, String(dropped.messages.at(-1)!.content));
    const after = { ...state, phase: nextPhase(state.phase, "drop_task"), pending: null, pendingAnswer: null };
    const next = await respondAfter(after, userText, config);
    return {
      ...dropped,
      ...next,
      messages: [...dropped.messages, ...((next.messages as BaseMessage[] | undefined) ?? [])],
    };
  }

  /** A retry of a message whose classification failed (the chat model was down) retries that message. */
  async function respondAfter(
    state: TempoState,
    userText: string,
    config: LangGraphRunnableConfig,
  ): Promise<TempoUpdate> {
    const typed = commandText(userText);
    if (typed !== undefined) {
      const command = assertKnownCommand(typed);
      if (command.name === "/clear") return clearCommand(state, config);
      return reply(state, await preferenceCommandMessage(command, state, config));
    }
    const unanswered = isRetryPhrase(userText) ? unansweredRequestBefore(promptMessages(state)) : undefined;
    return respondTo(unanswered ?? userText, state, config);
  }

  function begin(state: TempoState, goal: string, config: LangGraphRunnableConfig): TempoUpdate {
    return startTask(state, {
      goal,
      maxRounds: ensureConfiguration(config, dependencies.settings).maxRounds,
      workflowVersion: dependencies.workflowVersion,
    });
  }

  async function respondTo(userText: string, state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    if (userText.trim() === "") {
      throw new TempoError(
        "INVALID_INPUT",
        'The input has no user message: send { messages: [{ role: "user", content: "..." }] }.',
      );
    }

    emitStatus(config, "chat", state.messages, "Understanding your message", "正在理解你的消息");
    const messages = buildStageMessages({
      stagePrompt: CHAT_STAGE_PROMPT,
      conversation: conversationMessages(state, 12).slice(0, -1),
      stageState: "Classify the latest user message.",
      // A calendar file in it is named and sized, not shown: classifying needs no file's text.
      instruction: `Latest user message:\n${withoutCalendarText(userText)}`,
      context: {
        ...memoryContext(
          state.recalled,
          ["taskState", "conversation"],
          dependencies.settings.context.promptBudget.chat / 4,
        ),
        ...preferencesContext(state.recalled, dependencies.settings.context.promptBudget.chat / 10),
      },
      language: languageOf(state.messages),
      now: await stageNow(dependencies, config),
    });
    const decision = await callStage(
      dependencies.models,
      "chat",
      ChatDecisionSchema,
      messages,
      "chat_decision",
      config,
    );
    // Conservative default: anything that is not clearly chat is a task.
    const intent =
      decision.ok && decision.value.intent === "chat" && decision.value.reply.trim() !== "" ? "chat" : "task";

    if (intent === "chat" && decision.ok) {
      // The reply starts with what the clock moved, when it moved the window on for this request.
      const text = state.movedOn ? `${state.movedOn}\n\n${decision.value.reply}` : decision.value.reply;
      const message = new AIMessage({ id: newId("ai"), content: text });
      emitAssistantText(config, "chat", message.id!, text);
      return reply(state, message);
    }
    emitStatus(config, "chat", state.messages, "Planning the task", "正在规划任务");
    return begin(state, userText, config);
  }

  return chat;
}

/** The user message before the latest one, when no assistant reply followed it (its run failed), else undefined. */
function unansweredRequestBefore(messages: BaseMessage[]): string | undefined {
  for (let index = messages.length - 2; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.getType() === "ai" || message.getType() === "tool") return undefined;
    if (message.getType() === "human") {
      const text = messageText(message);
      return text.trim() && !isRetryPhrase(text) && !isCommandText(text) ? text : undefined;
    }
  }
  return undefined;
}
