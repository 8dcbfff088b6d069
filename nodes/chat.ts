/**
 * chat: the entry stage (seed 003 §4.1). A message that answers a pending
 * interaction is turned into that answer in code (no model call); otherwise
 * the chat model classifies the intent — chat replies directly and the turn
 * ends; task (the conservative default) starts planning.
 */
import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../config/configuration.js";
import { ChatDecisionSchema } from "../contracts/chat.js";
import { TempoError } from "../errors/index.js";
import type { TempoState, TempoUpdate } from "../graphs/state.js";
import { CHAT_STAGE_PROMPT } from "../prompts/chat.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import { invokeContract } from "../models/invoke-contract.js";
import { modelFor } from "../models/stage-models.js";
import { emit, emitAssistantText } from "../streaming/events.js";
import type { NodeDependencies } from "./dependencies.js";
import { replyAsHumanResponse } from "./human-response.js";
import { conversationMessages, latestUserText, newId, now } from "./messages.js";

/** Builds the chat node. */
export function createChatNode(dependencies: NodeDependencies) {
  async function chat(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId } = ensureConfiguration(config, dependencies.settings);
    const owner: TempoUpdate = state.userId ? {} : { userId };
    return { ...owner, ...(await respond(state, config)) };
  }

  async function respond(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const lastMessage = state.messages.at(-1);
    const userText = lastMessage?.getType() === "human" ? latestUserText(state.messages) : "";

    if (state.pending) {
      // Seed 000's resume behaviour: a plain message on a waiting thread is the answer.
      if (userText.trim() === "") return {};
      return { pendingAnswer: replyAsHumanResponse(userText, state.pending.kind), updatedAt: now() };
    }

    if (userText.trim() === "") {
      throw new TempoError("INVALID_INPUT", 'The input has no user message: send { messages: [{ role: "user", content: "..." }] }.');
    }

    emit(config, { kind: "status", node: "chat", text: "Understanding your message" });
    const messages = buildStageMessages({
      stagePrompt: CHAT_STAGE_PROMPT,
      conversation: conversationMessages(state, 12).slice(0, -1),
      stageState: "Classify the latest user message.",
      instruction: `Latest user message:\n${userText}`,
      context: { memory: state.recalled.taskState },
    });
    const decision = await invokeContract(modelFor(dependencies.models, "chat"), ChatDecisionSchema, messages, {
      structured: dependencies.models.structuredOutput ?? false,
      name: "chat_decision",
      config,
    });
    // Conservative default: anything that is not clearly chat is a task.
    const intent = decision.ok && decision.value.intent === "chat" && decision.value.reply.trim() !== "" ? "chat" : "task";

    if (intent === "chat" && decision.ok) {
      const reply = new AIMessage({ id: newId("ai"), content: decision.value.reply });
      emitAssistantText(config, "chat", reply.id!, decision.value.reply);
      return { messages: [reply], phase: "chatting", updatedAt: now() };
    }
    emit(config, { kind: "status", node: "chat", text: "Planning the task" });
    return startTask(userText, ensureConfiguration(config, dependencies.settings).maxRounds, dependencies);
  }

  return chat;
}

/** A fresh task: the previous task's runtime state is cleared, the conversation is kept. */
function startTask(goal: string, maxRounds: number, dependencies: NodeDependencies): TempoUpdate {
  return {
    phase: "planning",
    goal,
    complexity: null,
    planSteps: [],
    currentStepId: null,
    roundsUsed: 0,
    planRoundsUsed: 0,
    maxRounds,
    consecutiveCorrections: 0,
    pending: null,
    pendingAnswer: null,
    approvedTool: null,
    finalAnswer: null,
    lastError: null,
    workspaceMessageIds: [],
    pinnedBlocks: {},
    workflowVersion: dependencies.workflowVersion,
    updatedAt: now(),
  };
}
