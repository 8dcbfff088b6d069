/** Recalled memory in prompts, within its token budget. */
import { describe, expect, test } from "vitest";
import { memoryContext } from "../../memory/prompt-memory.js";
import { estimateCounter } from "../../memory/tokens.js";

const recalled = {
  taskState: 'Goal: arrange the review week\nOpen loops:\n- "arrange" ended partial; still pending: Calculus review 2',
  facts: ["I prefer mornings", "I never study on Sundays"],
  episodes: ["arrange the week → [partial] 7 of 8 placed", "move the lab → [completed] moved"],
  conversation: ["oldest summary", "middle summary", "newest summary"],
};
const size = (context: Record<string, string>) =>
  Object.values(context).reduce((total, text) => total + estimateCounter.count(text), 0);

describe("memoryContext", () => {
  test("within the budget every chosen section is given whole, tagged, conversation memory oldest first", () => {
    expect(memoryContext(recalled, ["taskState", "conversation"], 1_000)).toEqual({
      task_state: recalled.taskState,
      conversation_memory: "oldest summary\nmiddle summary\nnewest summary",
    });
  });

  test("over the budget the oldest conversation summaries go first, then the lowest-ranked episodes and facts; TaskState is cut last", () => {
    const all = ["taskState", "facts", "episodes", "conversation"] as const;
    const full = size(memoryContext(recalled, all, 10_000));
    const tighter = memoryContext(recalled, all, full - 1);
    expect(tighter.conversation_memory).toBe("middle summary\nnewest summary");
    expect(tighter.task_state).toBe(recalled.taskState);
    const tight = memoryContext(recalled, all, 45);
    expect(size(tight)).toBeLessThanOrEqual(45);
    expect(tight.task_state).toBe(recalled.taskState);
    expect([tight.facts, tight.episodes, tight.conversation_memory]).toEqual([
      "I prefer mornings",
      "arrange the week → [partial] 7 of 8 placed",
      "",
    ]);
    const tiny = memoryContext(recalled, all, 8);
    expect(size(tiny)).toBeLessThanOrEqual(8 + 1);
    expect(tiny.task_state).toMatch(/^Goal: arr/);
  });
});
