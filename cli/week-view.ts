/**
 * `/week` and the proposal drawn under a write card (issue 48): the user's schedule read from its repository, a
 * card's writes tried on it (nothing is stored: the card is still the decision), and the grid drawn for the terminal.
 */
import type { Card } from "../contracts/cards.js";
import { languageOf, type Language } from "../contracts/language.js";
import { scheduleTools } from "../tools/schedule/tools/index.js";
import type { ScheduleState } from "../tools/schedule/state.js";
import { drawsProposal, weekGrid } from "../tools/schedule/week-grid.js";
import { staleCardReason } from "../tools/schedule/card-frame.js";
import { renderWeekGrid, type WeekRenderOptions } from "./week-render.js";

export interface WeekViewOptions extends WeekRenderOptions {
  /** The moment past and future are split at. */
  now?: Date;
}

/** The week as it is now. */
export function renderWeek(state: ScheduleState, options: WeekViewOptions = {}): string {
  const language = options.language ?? "en";
  return renderWeekGrid(weekGrid(state, gridOptions(options, language)), state, { ...options, language });
}

/**
 * The week as `card`'s schedule writes would leave it, with what they add, move and swap marked; undefined for a card
 * that carries no schedule write, or whose writes no longer apply to the week (the card's own check will say why) —
 * also one the week changed under since it was made (`frame`: the window rolled on, a review it names moved), whose
 * days would be drawn a week away from the dates it shows.
 * `proposed`: the writes as the thread's proposal holds them, where the card shows words in place of a record (an
 * undo's restore_event), each with the frame its card was made in; without them, the card's arguments.
 */
export function renderCardProposal(
  card: Card,
  state: ScheduleState,
  options: WeekViewOptions = {},
  proposed?: ReadonlyArray<{ name: string; arguments: Record<string, unknown>; frame?: string | undefined }>,
): string | undefined {
  if (proposed?.some((write) => write.frame !== undefined && staleCardReason(state, write, write.frame) !== undefined))
    return undefined;
  const writes =
    proposed && proposed.length === card.action_requests.length
      ? proposed
      : card.action_requests.map((request) => ({ name: request.name, arguments: request.args }));
  // The writes tried on the clock the run keeps them to: a slot that has started takes nothing, an import leaves out
  // the times that have passed (the loaded week carries no clock of its own).
  const clocked =
    options.now === undefined || state.now !== undefined ? state : { ...state, now: options.now.toISOString() };
  const after = triedOn(clocked, writes);
  if (!after) return undefined;
  const language =
    options.language ?? languageOf(card.action_requests.map((request) => request.description).join("\n"));
  const grid = weekGrid(state, { ...gridOptions(options, language), after });
  if (!drawsProposal(grid, writes)) return undefined;
  return renderWeekGrid(grid, state, { ...options, language });
}

/** The week after `writes`, each run by its schedule write tool on the week before it; undefined when one cannot. */
function triedOn(
  state: ScheduleState,
  writes: ReadonlyArray<{ name: string; arguments: unknown }>,
): ScheduleState | undefined {
  let current = state;
  for (const write of writes) {
    const tool = scheduleTools.find((entry) => entry.name === write.name && entry.kind === "write");
    const args = tool?.schema.safeParse(write.arguments);
    if (!tool || !args?.success) return undefined;
    const ran = tool.run(current, args.data);
    if (!ran.ok || !ran.state) return undefined;
    current = ran.state;
  }
  return current;
}

function gridOptions(options: WeekViewOptions, language: Language) {
  return { language, ...(options.now === undefined ? {} : { now: options.now }) };
}
