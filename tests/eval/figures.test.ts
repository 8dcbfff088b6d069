/**
 * The eval's measuring functions on their own: the hard-rule check of a final week, the exact maximum with placed
 * reviews free to move, honest endings, the repeated-prefix share, and reading usage from a JSON or SSE answer.
 */
import { describe, expect, test } from "vitest";
import { exactMaximum, hardRuleProblems, honestEnding, modelFigures } from "../../eval/figures.js";
import { readAnswer, type Exchange } from "../../eval/recording-proxy.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { sampleWeek, type TaskItem } from "../../tools/schedule/index.js";

describe("hardRuleProblems", () => {
  test("a sound week has none", () => {
    expect(hardRuleProblems(halfPlacedWeek())).toEqual([]);
  });

  test("a review on a weekday its class excludes, and two reviews on one slot, are reported", () => {
    const week = halfPlacedWeek();
    const review = week.tasks.find((task): task is TaskItem => task.id === "matrix-review")!;
    // Its class now excludes the weekday it sits on (day 2), and vocabulary-list lands on review-limits' slots.
    const weekday = week.window.days[1]!.dayOfWeek;
    week.categories = week.categories.map((category) =>
      category.id === review.categoryId ? { ...category, excludedDaysOfWeek: [weekday] } : category,
    );
    const limits = week.tasks.find((task) => task.id === "review-limits")!;
    week.tasks = week.tasks.map((task) =>
      task.id === "vocabulary-list" ? { ...task, slots: (limits.slots ?? []).map((range) => ({ ...range })) } : task,
    );
    const problems = hardRuleProblems(week);
    expect(problems.some((problem) => problem.includes("matrix-review") && problem.includes("excludes"))).toBe(true);
    expect(problems.some((problem) => !problem.includes("excludes"))).toBe(true);
  });
});

describe("exactMaximum", () => {
  test("counts every review that fits, the placed ones free to move", () => {
    expect(exactMaximum(sampleWeek())).toEqual({ maximum: 8, proved: true });
    expect(exactMaximum(halfPlacedWeek())).toEqual({ maximum: 8, proved: true });
  });
});

describe("honestEnding", () => {
  test("a write that changed nothing is not completed and claims nothing; a read changes nothing", () => {
    expect(honestEnding("write", 1, "completed", "Done: moved.")).toEqual({ honest: true });
    expect(honestEnding("write", 0, "completed", "Done.").honest).toBe(false);
    expect(honestEnding("arrange", 0, "failed", "Done: your week is arranged.").honest).toBe(false);
    expect(honestEnding("arrange", 0, "failed", "Nothing was changed; the steps below say why.")).toEqual({
      honest: true,
    });
    expect(honestEnding("read", 0, "completed", "You are free at 14:00.")).toEqual({ honest: true });
    expect(honestEnding("read", 2, "completed", "You are free.").honest).toBe(false);
  });
});

const exchange = (messages: Array<{ role: string; content: string }>, extra: Partial<Exchange> = {}): Exchange => ({
  body: { messages, tools: [{ type: "function", function: { name: "list_tasks" } }] },
  stage: "execute",
  status: 200,
  completionText: "list_tasks{}",
  milliseconds: 5,
  ...extra,
});

describe("modelFigures", () => {
  test("the second call repeating the first's prefix counts toward the share; the first never does", () => {
    const rules = Array.from({ length: 60 }, (_, index) => `rule ${index}: keep slot ${index % 9} free.`).join(" ");
    const system = { role: "system", content: `<stage name="execute">${rules}` };
    const figures = modelFigures([
      exchange([system, { role: "user", content: "arrange" }]),
      exchange([system, { role: "user", content: "arrange" }, { role: "tool", content: "3 pending" }]),
    ]);
    expect(figures.total.calls).toBe(2);
    expect(figures.stages.execute?.calls).toBe(2);
    const second = modelFigures([exchange([system, { role: "user", content: "arrange" }])]).total;
    expect(second.prefixTokens).toBe(0);
    // The second call's prefix is all of the first call's prompt.
    expect(figures.total.prefixTokens).toBe(second.renderedTokens);
    expect(figures.total.prefixTokens / figures.total.renderedTokens).toBeGreaterThan(0.45);
  });

  test("usage when the server returned it (cached tokens too), o200k counts when it did not", () => {
    const messages = [{ role: "user", content: "hello there" }];
    const reported = modelFigures([
      exchange(messages, {
        usage: { prompt_tokens: 1234, completion_tokens: 56, prompt_tokens_details: { cached_tokens: 1024 } },
      }),
    ]).total;
    expect(reported).toMatchObject({ promptTokens: 1234, completionTokens: 56, usageReported: 1, cachedTokens: 1024 });
    const counted = modelFigures([exchange(messages)]).total;
    expect(counted.usageReported).toBe(0);
    expect(counted.cachedTokens).toBeNull();
    expect(counted.promptTokens).toBeGreaterThan(5);
    expect(counted.completionTokens).toBeGreaterThan(0);
  });
});

describe("readAnswer", () => {
  test("usage and text from a whole JSON answer and from server-sent events; nothing from prose", () => {
    expect(
      readAnswer(
        JSON.stringify({
          choices: [{ message: { content: "hi", tool_calls: [{ function: { name: "place", arguments: "{}" } }] } }],
          usage: { prompt_tokens: 9, completion_tokens: 2 },
        }),
      ),
    ).toEqual({ usage: { prompt_tokens: 9, completion_tokens: 2 }, completionText: "hiplace{}" });
    const events = [
      { choices: [{ delta: { content: "Hel" } }] },
      { choices: [{ delta: { content: "lo" } }] },
      { choices: [], usage: { prompt_tokens: 7, completion_tokens: 1 } },
    ]
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join("");
    expect(readAnswer(`${events}data: [DONE]\n\n`)).toEqual({
      usage: { prompt_tokens: 7, completion_tokens: 1 },
      completionText: "Hello",
    });
    expect(readAnswer("Sure! Here is my answer.")).toEqual({ completionText: "" });
  });
});
