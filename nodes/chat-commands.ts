/**
 * The slash commands the chat node runs (docs/workflow.md#commands): `/clear` resets the thread and the user's
 * TaskState; `/prefs` lists the user's standing preferences and `/forget <n|id>` removes one, in every client.
 */
import { AIMessage, RemoveMessage } from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { clearConversation } from "../memory/long-term.js";
import { clearTaskState } from "../memory/task-state.js";
import { forgetShownList, runPreferenceCommand } from "../memory/preference-commands.js";
import { ensureConfiguration } from "../config/configuration.js";
import { languageOf } from "../contracts/language.js";
import type { KnownCommand } from "../kernel/commands.js";
import type { TempoState, TempoUpdate } from "../kernel/state.js";
import { clearThread } from "../kernel/transitions.js";
import { newId } from "../kernel/ids.js";
import { emitAssistantText } from "../streaming/events.js";

/**
 * `/clear`: the thread and its task wiped, the user's TaskState, this thread's remembered conversation and the list
 * `/prefs` showed in it cleared.
 */
export async function clearCommand(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
  const { userId, threadId } = ensureConfiguration(config);
  if (config.store) {
    await Promise.all([
      clearTaskState(config.store, userId),
      clearConversation(config.store, userId, threadId),
      forgetShownList(config.store, userId, threadId),
    ]);
  }
  const message = new AIMessage({
    id: newId("ai"),
    content: "Cleared: this conversation, its task and your task summary. Long-term facts and past episodes are kept.",
  });
  emitAssistantText(config, "chat", message.id!, String(message.content));
  return {
    ...clearThread(state),
    messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), message],
    memorizedUpTo: message.id!,
    compressedUpTo: null,
  };
}

/** `/prefs` or `/forget <n|id>` run on the run's store for its user; the answer, streamed, in the chat's language. */
export async function preferenceCommandMessage(
  command: { name: Exclude<KnownCommand, "/clear">; args: string[] },
  state: TempoState,
  config: LangGraphRunnableConfig,
): Promise<AIMessage> {
  const { userId, threadId } = ensureConfiguration(config);
  const text = await runPreferenceCommand(
    config.store,
    userId,
    threadId,
    command.name === "/prefs" ? { name: "prefs" } : { name: "forget", reference: command.args[0]! },
    languageOf(state.messages),
  );
  const message = new AIMessage({ id: newId("ai"), content: text });
  emitAssistantText(config, "chat", message.id!, text);
  return message;
}
