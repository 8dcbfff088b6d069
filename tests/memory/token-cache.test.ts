/**
 * The tokenizer's cache (issue 44.8, CPU per conversation): every model call measures its whole prompt, and the
 * prompts repeat (the system prompt, earlier turns, each fitting round), so o200k encoding was about a sixth of a
 * conversation's CPU. A text counted again is looked up, with the same count; the cache stays within its bound.
 */
import { Tiktoken } from "js-tiktoken/lite";
import { afterEach, describe, expect, test, vi } from "vitest";
import { countMessageTokens, TokenCountCache, tiktokenCounter } from "../../memory/tokens.js";
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
