/**
 * A chat model for tests whose every reply is made by a function of the messages it is sent (and of how many calls
 * came before): a model that reads what is in view — a listing, a tool's result — and answers as a scripted user of
 * the tools would. Tool binding changes nothing: the function decides which tools it calls.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

export class ReplyModel extends BaseChatModel {
  /** How many calls it answered. */
  calls = 0;
  constructor(private readonly reply: (messages: BaseMessage[], call: number) => AIMessage) {
    super({});
  }
  _llmType(): string {
    return "reply-model";
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls += 1;
    const message = this.reply(messages, this.calls);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
