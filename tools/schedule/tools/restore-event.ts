/**
 * `restore_event` (issue 47 item 4): puts back a timetable event that `remove_event` removed, as that write recorded
 * it — a one-off on its slots, a series with every occurrence the window shows — so "undo that" can reverse a removal
 * through a card of ordinary writes. It comes back with no guests (a task placed inside it before is placed again by
 * `place`); the whole-week checks apply (nothing placed since may sit where it was). A removal the clock had begun
 * kept the times that had started (`remove_event`): those are taken back into the event, which stands where it stood.
 */
import { z } from "zod";
import type { Language } from "../../../contracts/language.js";
import type { DomainTool } from "../../domain.js";
import { placeName } from "../calendar.js";
import { buildEventTask } from "../canonical-form.js";
import { expandSeries, SeriesError } from "../event-series.js";
import { failure, quoteName } from "../format.js";
import { eventTaskSchema, type EventTask, type ScheduleState, type SeriesRule, type SlotRange } from "../state.js";
import { checkScheduleInvariants } from "../validation.js";
import { startedTimes } from "./remove-event.js";

/** Puts a removed timetable event back, as it was recorded; its data is `{ event }`, the event as it is back. */
export const restoreEventTool: DomainTool<ScheduleState, { event: z.infer<typeof eventTaskSchema> }> = {
  name: "restore_event",
  description:
    "Puts back a timetable event that remove_event removed, as it was recorded. Only as propose_undo's candidate u1 " +
    "gives it; never to make up an event (import_calendar does that).",
  schema: z.object({
    event: eventTaskSchema.describe("The event as remove_event recorded it (propose_undo gives it)."),
  }),
  kind: "write",
  candidateOf: "propose_undo",
  run(state, args) {
    const recorded = args.event as EventTask;
    // What a removal kept of it (the times that had started, `remove_event`) is taken back into it, in its place.
    const at = state.tasks.findIndex((entry) => entry.id === recorded.id);
    const remnant = at >= 0 ? state.tasks[at]! : undefined;
    if (
      remnant !== undefined &&
      !(
        remnant.source === "event" &&
        remnant.series === undefined &&
        remnant.name === recorded.name &&
        remnant.embeds.length === 0 &&
        startedTimes(state, remnant).length === (remnant.slots ?? []).length
      )
    )
      return failure(`a task or event with id ${quoteName(recorded.id)} exists again; nothing was restored`);
    const back = slotsBack(recorded, state);
    if (back instanceof SeriesError) return failure(`${back.message}; nothing was restored`);
    const slots = back;
    const event = buildEventTask({ ...recorded, slots, embeds: [] });
    const tasks = at >= 0 ? state.tasks.map((task, index) => (index === at ? event : task)) : [...state.tasks, event];
    const next: ScheduleState = { ...state, tasks };
    const problems = checkScheduleInvariants(next);
    if (problems.length > 0) return failure(`${problems.join("; ")}; nothing was restored`);
    return { ok: true, content: `restored event ${event.id} ${quoteName(event.name)}`, state: next, data: { event } };
  },
  cardArguments(state, args, language) {
    return restoredEventCard(state, args.event as EventTask, language);
  },
};

/**
 * Where the recorded event comes back in the window as it is now: a series what the window holds of it, a one-off the
 * slots it had; the SeriesError of a series the window cannot expand. `run` and its card read it alike.
 */
function slotsBack(recorded: EventTask, state: ScheduleState): SlotRange[] | SeriesError {
  if (!recorded.series) return recorded.slots;
  try {
    return expandSeries(recorded.series, state.window).slots;
  } catch (error) {
    if (error instanceof SeriesError) return error;
    throw error;
  }
}

/** The most places a card lists of an event (a daily series over a long window); the rest are counted. */
const SHOWN_PLACES = 7;

/**
 * What a restore_event card shows a person in place of the recorded event (`DomainTool.cardArguments`): its name,
 * where it comes back in the window as it is now (a series expanded anew, as `run` does), and for a series how it
 * repeats — `{ event: "Calculus tutorial", when: "Fri 11 Dec, 08:00–09:40", repeats: "weekly" }`.
 */
export function restoredEventCard(
  state: ScheduleState,
  recorded: EventTask,
  language: Language,
): Record<string, string> {
  const zh = language === "zh";
  // A series the window cannot expand is refused when it applies; the card names the event without its times.
  const back = slotsBack(recorded, state);
  const slots: readonly SlotRange[] = back instanceof SeriesError ? [] : back;
  const places = slots.slice(0, SHOWN_PLACES).map((range) => placeName(state.window, range, language));
  const more = slots.length - places.length;
  if (more > 0) places.push(zh ? `另外 ${more} 次` : `${more} more`);
  const when =
    places.length > 0 ? places.join(zh ? "；" : "; ") : zh ? "这段日程里没有它的时间" : "no time in the week shown";
  const repeats = recorded.series ? repeatsText(recorded.series.rule, language) : undefined;
  return { event: recorded.name, when, ...(repeats ? { repeats } : {}) };
}

/** How a series repeats, in words: "weekly", "every 2 weeks" / "每周", "每 2 周". */
function repeatsText(rule: SeriesRule, language: Language): string {
  const every = rule.interval > 1 ? rule.interval : 1;
  if (language === "zh") {
    const unit = { daily: "天", weekly: "周", monthly: "月", yearly: "年" }[rule.freq];
    return every === 1 ? `每${unit}` : `每 ${every} ${unit === "月" ? "个月" : unit}`;
  }
  if (every === 1) return rule.freq;
  const unit = { daily: "days", weekly: "weeks", monthly: "months", yearly: "years" }[rule.freq];
  return `every ${every} ${unit}`;
}
