/** A scripted chat model whose replies may do async work first (stop a server, wait, signal a test). */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One reply: the model's text, decided from the call's index and prompt. */
export type AsyncReply = (call: { index: number; messages: BaseMessage[] }) => Promise<string> | string;

/** A model answering each call with `reply`; `calls` counts the invocations. */
export class AsyncScriptedModel extends BaseChatModel {
  calls = 0;

  constructor(private readonly reply: AsyncReply) {
    super({});
  }

  _llmType(): string {
    return "async-scripted";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const index = this.calls;
    this.calls += 1;
    const text = await this.reply({ index, messages });
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}
