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

/**
 * The reminder text with the figures: two lines, as it goes into most rounds of a long step (its share of a 100-round
 * execution counts, issue 49). Mode-neutral: the tool's name says what to call, in JSON or native tool calling.
 */
export function buildReminder({ memory, roundsSinceUpdate }: WorkingMemoryView, figures: ContextFigures): string {
  const sizeKb = (Buffer.byteLength(memory.content, "utf8") / 1024).toFixed(2);
  return [
    `⚠️ WORKING MEMORY UPDATE NEEDED: not updated for ${roundsSinceUpdate} rounds; prompt ${Math.round(tokenPercent(figures))}% of budget (${figures.tokensUsed} / ${figures.tokensMax}), ${figures.messagesInHistory} messages, scratchpad ${sizeKb} KB.`,
    "Call update_working_memory with its whole new text: what is done, the step's status, recent decisions, open questions; drop stale notes.",
  ].join("\n");
}

function tokenPercent(figures: ContextFigures): number {
  return figures.tokensMax > 0 ? (figures.tokensUsed / figures.tokensMax) * 100 : 0;
}
