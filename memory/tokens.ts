/**
 * Measuring prompts. A real tokenizer (o200k_base, bundled with js-tiktoken,
 * no download) for OpenAI models; an estimate for any other model: one token
 * per CJK character, one per four other characters, and a small overhead per
 * message.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { createRequire } from "node:module";
import type { TiktokenBPE } from "js-tiktoken/lite";
import { Tiktoken } from "js-tiktoken/lite";

export interface TokenCounter {
  /** "tiktoken:o200k_base" or "estimate". */
  name: string;
  count(text: string): number;
}

const MESSAGE_OVERHEAD = 4;
let o200k: Tiktoken | undefined;

/** Characters of text the tokenizer's cache keeps at most (about 8 MB of strings). */
export const TOKEN_CACHE_CHARACTERS = 4_000_000;

/**
 * Token counts of texts counted lately, least recently used first out, bounded by the characters it holds. Every
 * model call measures its whole prompt, and the prompts of one process repeat: the same system prompt, the same
 * earlier turns, each measured again (and again while a prompt is fitted to its budget). Encoding was about a sixth
 * of a conversation's CPU; a repeated text now costs a lookup.
 */
export class TokenCountCache {
  private readonly counts = new Map<string, number>();
  private characters = 0;

  constructor(private readonly maxCharacters = TOKEN_CACHE_CHARACTERS) {}

  /** The count of `text`, from the cache or from `count` (then kept, unless the text alone is over the bound). */
  countOf(text: string, count: (text: string) => number): number {
    const cached = this.counts.get(text);
    if (cached !== undefined) {
      // Used again: moved to the newest end.
      this.counts.delete(text);
      this.counts.set(text, cached);
      return cached;
    }
    const tokens = count(text);
    if (text.length > this.maxCharacters) return tokens;
    this.counts.set(text, tokens);
    this.characters += text.length;
    for (const [oldest] of this.counts) {
      if (this.characters <= this.maxCharacters) break;
      this.counts.delete(oldest);
      this.characters -= oldest.length;
    }
    return tokens;
  }

  /** Texts held, and their characters. */
  get size(): { texts: number; characters: number } {
    return { texts: this.counts.size, characters: this.characters };
  }
}

/** The process's cache of o200k counts (see {@link TokenCountCache}). */
export const tiktokenCache = new TokenCountCache();

/**
 * The o200k ranks (2.3 MB of source), loaded on the first count, not at import: a process whose models are not
 * OpenAI's (the offline policy, the demo, the tests' workers) never parses them.
 */
function o200kRanks(): TiktokenBPE {
  return createRequire(import.meta.url)("js-tiktoken/ranks/o200k_base") as TiktokenBPE;
}

/** The real OpenAI tokenizer (built once, lazily: it takes ~0.7 s); repeated texts are counted once. */
export const tiktokenCounter: TokenCounter = {
  name: "tiktoken:o200k_base",
  count(text: string): number {
    return tiktokenCache.countOf(text, (uncached) => {
      o200k ??= new Tiktoken(o200kRanks());
      return o200k.encode(uncached).length;
    });
  },
};

/** A tokenizer-free estimate. */
export const estimateCounter: TokenCounter = {
  name: "estimate",
  count(text: string): number {
    // Counted in one pass over the code units: a list of every match (`match(/…/g)`) made a string a character, and
    // a prompt of a long CJK message is measured many times while it is fitted to its budget.
    let cjk = 0;
    for (let at = 0; at < text.length; at += 1) {
      const unit = text.charCodeAt(at);
      if (
        (unit >= 0x3000 && unit <= 0x9fff) ||
        (unit >= 0xac00 && unit <= 0xd7af) ||
        (unit >= 0xff00 && unit <= 0xffef)
      )
        cjk += 1;
    }
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
