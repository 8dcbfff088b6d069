/**
 * Measuring prompts. A real tokenizer (o200k_base, bundled with js-tiktoken,
 * no download) for OpenAI models; an estimate for any other model: one token
 * per CJK character, one per four other characters, and a small overhead per
 * message.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

export interface TokenCounter {
  /** "tiktoken:o200k_base" or "estimate". */
  name: string;
  count(text: string): number;
}

const MESSAGE_OVERHEAD = 4;
let o200k: Tiktoken | undefined;

/** The real OpenAI tokenizer (built once, lazily: it takes ~0.7 s). */
export const tiktokenCounter: TokenCounter = {
  name: "tiktoken:o200k_base",
  count(text: string): number {
    o200k ??= new Tiktoken(o200kBase);
    return o200k.encode(text).length;
  },
};

/** A tokenizer-free estimate. */
export const estimateCounter: TokenCounter = {
  name: "estimate",
  count(text: string): number {
    const cjk = text.match(/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/g)?.length ?? 0;
    return cjk + Math.ceil((text.length - cjk) / 4);
  },
};

/** The counter for a model: tiktoken for OpenAI chat models, the estimate otherwise. */
export function tokenCounterFor(model: BaseChatModel): TokenCounter {
  return model._llmType() === "openai" ? tiktokenCounter : estimateCounter;
}

/** Tokens of a message list: content, tool-call arguments and per-message overhead. */
export function countMessageTokens(messages: BaseMessage[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) {
    const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    const calls = (message as { tool_calls?: Array<{ name: string; args: unknown }> }).tool_calls ?? [];
    total +=
      MESSAGE_OVERHEAD +
      counter.count(content) +
      calls.reduce((sum, call) => sum + counter.count(call.name + JSON.stringify(call.args ?? {})), 0);
  }
  return total;
}
