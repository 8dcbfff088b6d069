/**
 * Which stage a prompt is for (prompts/stage-messages.ts): the `<stage name="…">` tag of its stage messages. A stage
 * without a shared head has one system message holding its stage prompt; after a shared head (plan, execute) the
 * stage's own instructions are a user message beginning with the tag, so the request's only system message stays
 * the first — some servers' chat templates refuse a system message after a user one.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { messageText } from "./message-text.js";

/** The opening of a stage prompt: `<stage name="execute">`. */
const STAGE_TAG = /^<stage name="(\w+)">/;

/**
 * True for a message that says the prompt's stage: a system message (the one system message of a stage without a
 * shared head holds its stage prompt), or the stage's own user message after a shared head, which begins with the
 * stage tag. Tempo writes no other user message that begins so (the context and conversation messages begin with
 * their own tags), so a tag a person typed inside the conversation is never read as the stage.
 */
export function isStageMessage(role: string, text: string): boolean {
  return role === "system" || role === "developer" || (role === "user" && STAGE_TAG.test(text));
}

/** The stage named by the stage messages among `messages` (role and text of each), or "". */
export function stageNamed(messages: ReadonlyArray<{ role: string; text: string }>): string {
  const said = messages.filter((message) => isStageMessage(message.role, message.text)).map((message) => message.text);
  return /<stage name="(\w+)">/.exec(said.join("\n"))?.[1] ?? "";
}

/** A LangChain message's role as the wire says it (`system`, `user`, `assistant`, `tool`). */
export function wireRole(message: BaseMessage): string {
  const type = message.getType();
  return type === "human" ? "user" : type === "ai" ? "assistant" : type;
}

/** The stage of a prompt of LangChain messages, or "". */
export function stageOfPrompt(messages: readonly BaseMessage[]): string {
  return stageNamed(messages.map((message) => ({ role: wireRole(message), text: messageText(message) })));
}
