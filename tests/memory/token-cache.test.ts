/**
 * The tokenizer's cache (issue 44.8, CPU per conversation): every model call measures its whole prompt, and the
 * prompts repeat (the system prompt, earlier turns, each fitting round), so o200k encoding was about a sixth of a
 * conversation's CPU. A text counted again is looked up, with the same count; the cache stays within its bound.
 */
import { Tiktoken } from "js-tiktoken/lite";
import { afterEach, describe, expect, test, vi } from "vitest";
import { countMessageTokens, estimateCounter, TokenCountCache, tiktokenCounter } from "../../memory/tokens.js";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("token counts of repeated texts", () => {
  test("a prompt measured again is not encoded again, and counts the same", () => {
    const encode = vi.spyOn(Tiktoken.prototype, "encode");
    const prompt = [
      new SystemMessage("You are Tempo, the token-cache test's system prompt. ".repeat(40)),
      new HumanMessage("Help me arrange next week's review — asked once in the token-cache test"),
    ];
    const first = countMessageTokens(prompt, tiktokenCounter);
    const encodedFirst = encode.mock.calls.length;
    expect(encodedFirst).toBe(2);
    const second = countMessageTokens(prompt, tiktokenCounter);
    expect(second).toBe(first);
    expect(encode.mock.calls.length).toBe(encodedFirst);
  });

  test("the cache holds at most its bound in characters, the least recently used out first", () => {
    const cache = new TokenCountCache(10);
    const count = vi.fn((text: string) => text.length);
    expect(cache.countOf("aaaa", count)).toBe(4);
    expect(cache.countOf("bbbb", count)).toBe(4);
    // "aaaa" used again: "bbbb" is now the oldest.
    expect(cache.countOf("aaaa", count)).toBe(4);
    expect(cache.countOf("cccc", count)).toBe(4);
    expect(cache.size).toEqual({ texts: 2, characters: 8 });
    count.mockClear();
    cache.countOf("aaaa", count);
    cache.countOf("cccc", count);
    expect(count).not.toHaveBeenCalled();
    cache.countOf("bbbb", count);
    expect(count).toHaveBeenCalledTimes(1);
    // A text over the bound by itself is counted, never kept.
    expect(cache.countOf("x".repeat(11), count)).toBe(11);
    expect(cache.size.characters).toBeLessThanOrEqual(10);
  });
});

describe("the tokenizer-free estimate", () => {
  // Written apart from the counter: a CJK code unit (U+3000–U+9FFF, U+AC00–U+D7AF, U+FF00–U+FFEF) is a token, the
  // other code units four to a token, rounded up.
  const oracle = (text: string) => {
    const units = [...Array(text.length).keys()].map((at) => text.charCodeAt(at));
    const cjk = units.filter((unit) => /[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(String.fromCharCode(unit)));
    return cjk.length + Math.ceil((text.length - cjk.length) / 4);
  };

  test("one token a CJK character, at each end of each range; four other characters a token; a pair of surrogates two units", () => {
    const edges = [
      "\u2fff",
      "\u3000",
      "\u9fff",
      "\ua000",
      "\uabff",
      "\uac00",
      "\ud7af",
      "\ud7b0",
      "\ufeff",
      "\uff00",
      "\uffef",
    ];
    for (const edge of [...edges, "\ufff0", "😀", "a", " ", "。", "，", "한", "ｘ"])
      expect(estimateCounter.count(edge), JSON.stringify(edge)).toBe(oracle(edge));
    expect(estimateCounter.count("把作文移到周五")).toBe(7);
    expect(estimateCounter.count("move the essay")).toBe(4);
    expect(estimateCounter.count("")).toBe(0);
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let run = 0; run < 200; run += 1) {
      const text = Array.from({ length: Math.floor(random() * 40) }, () =>
        String.fromCharCode(Math.floor(random() * 0x10000)),
      ).join("");
      expect(estimateCounter.count(text), JSON.stringify(text)).toBe(oracle(text));
    }
  });
});
