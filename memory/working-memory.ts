/**
 * The working-memory reminder (docs/design.md#working-memory-reminder): the agent's scratchpad tracks the
 * execute rounds since its last update; past a round threshold — or past a
 * lower round count when the prompt uses much of its token budget — a
 * reminder with the figures goes into the context. Updating the scratchpad
 * (the `update_working_memory` tool) resets the count.
 */
import type { WorkingMemoryReminderSettings } from "../config/configuration.js";
import type { WorkingMemory } from "../kernel/state.js";

/** The scratchpad with the execute rounds since its last update (see `roundsSinceUpdate` in kernel/state.ts). */
export interface WorkingMemoryView {
  memory: WorkingMemory;
  roundsSinceUpdate: number;
}

export interface ContextFigures {
  /** Prompt tokens of this round, before the reminder. */
  tokensUsed: number;
  /** The stage's prompt budget. */
  tokensMax: number;
  /** Messages in the conversation state. */
  messagesInHistory: number;
}

/** Whether a reminder is due: past the round threshold, or past a lower one when the prompt uses much of its budget. */
export function reminderDue(
  { roundsSinceUpdate: rounds }: WorkingMemoryView,
  figures: ContextFigures,
  settings: WorkingMemoryReminderSettings,
): boolean {
  if (!settings.enabled) return false;
  if (rounds < settings.minRoundsBeforeCheck) return false;
  if (rounds > settings.maxRoundsWithoutUpdate) return true;
  return tokenPercent(figures) > settings.tokenThresholdPercent && rounds > settings.minRoundsBeforeCheck;
}

/** The reminder text with the figures. */
export function buildReminder({ memory, roundsSinceUpdate }: WorkingMemoryView, figures: ContextFigures): string {
  const sizeKb = (Buffer.byteLength(memory.content, "utf8") / 1024).toFixed(2);
  return [
    "⚠️ WORKING MEMORY UPDATE NEEDED",
    `You have not updated your working memory for ${roundsSinceUpdate} rounds.`,
    `- Token use: ${Math.round(tokenPercent(figures))}% (${figures.tokensUsed} / ${figures.tokensMax})`,
    `- Messages in history: ${figures.messagesInHistory}`,
    `- Working memory size: ${sizeKb} KB`,
    "Suggested: summarise what is done, update the current task's status, drop stale notes, keep recent decisions and open questions.",
    'Call the tool update_working_memory with {"content": "..."} (action "continue").',
  ].join("\n");
}

function tokenPercent(figures: ContextFigures): number {
  return figures.tokensMax > 0 ? (figures.tokensUsed / figures.tokensMax) * 100 : 0;
}
