/**
 * Recalled memory as prompt sections, within a token budget: what recall
 * loaded at invocation start (TaskState, facts, episodes, this thread's
 * conversation memory) reaches the stages that need it, and never crowds
 * out the stage's own context. Over the budget, the least useful entries go
 * first: the oldest conversation summaries, then the lowest-ranked episodes
 * and facts; TaskState is cut last, from its end.
 */
import type { RecalledMemory } from "../kernel/state.js";
import { estimateCounter, type TokenCounter } from "./tokens.js";
import { preferencePromptLines } from "./preferences.js";
import { PREFERENCES_TAG } from "../contracts/preferences.js";

export type MemorySection = "taskState" | "facts" | "episodes" | "conversation";

/** Prompt tag of each section. */
const TAGS: Record<MemorySection, string> = {
  taskState: "task_state",
  facts: "facts",
  episodes: "episodes",
  conversation: "conversation_memory",
};

/** The chosen sections of `recalled`, tagged for `buildStageMessages`' context, within `budgetTokens`. */
export function memoryContext(
  recalled: RecalledMemory,
  sections: readonly MemorySection[],
  budgetTokens: number,
  counter: TokenCounter = estimateCounter,
): Record<string, string> {
  // Best first: facts and episodes come ranked; conversation memory oldest first, so it is reversed.
  const lists: Record<Exclude<MemorySection, "taskState">, string[]> = {
    facts: [...recalled.facts],
    episodes: [...recalled.episodes],
    conversation: [...recalled.conversation].reverse(),
  };
  let taskState = recalled.taskState;
  const render = (): Record<string, string> => {
    const context: Record<string, string> = {};
    for (const section of sections) {
      if (section === "taskState") context[TAGS.taskState] = taskState;
      else
        context[TAGS[section]] = (section === "conversation" ? [...lists.conversation].reverse() : lists[section]).join(
          "\n",
        );
    }
    return context;
  };
  const size = () => Object.values(render()).reduce((total, text) => total + counter.count(text), 0);
  const dropOrder: Array<Exclude<MemorySection, "taskState">> = ["conversation", "episodes", "facts"];
  while (size() > budgetTokens) {
    const section =
      dropOrder.find((candidate) => sections.includes(candidate) && lists[candidate].length > 1) ??
      dropOrder.find((candidate) => sections.includes(candidate) && lists[candidate].length > 0);
    if (section) {
      lists[section].pop();
      continue;
    }
    // Only TaskState is left: keep its beginning (goal, flow, open loops come first).
    const characters = Math.max(
      0,
      Math.floor(taskState.length * (budgetTokens / Math.max(1, counter.count(taskState)))) - 1,
    );
    taskState = characters > 0 ? `${taskState.slice(0, characters)}…` : "";
    if (characters <= 0) break;
  }
  return render();
}

export { PREFERENCES_TAG };

/**
 * The user's standing preferences as a prompt section ("Your standing preferences"), for every stage and every
 * prompt shape (a shape that drops the other memory keeps them: they bind the tools too), within `budgetTokens`:
 * over it, the newest entries stay (the oldest go first, as the store drops them).
 */
export function preferencesContext(
  recalled: RecalledMemory,
  budgetTokens: number,
  counter: TokenCounter = estimateCounter,
): Record<string, string> {
  const lines = preferencePromptLines(recalled.preferences ?? []);
  if (lines.length === 0) return {};
  const render = () =>
    `Your standing preferences (the user set them; keep to them until the user changes them — the tools refuse what a hard one rules out):\n${lines.join("\n")}`;
  while (lines.length > 1 && counter.count(render()) > budgetTokens) lines.shift();
  return { [PREFERENCES_TAG]: render() };
}
