/**
 * Small rule-bearing weeks for holding the offline policy's claims to the brute-force oracle through the graph
 * (tests/support/schedule-oracle.ts): the generated weeks of `rule-weeks.ts`, their reviews named apart, and a graph
 * on the offline policy whose user keeps the week's standing preferences in long-term memory (where the graph reads
 * them from), with the week's clock.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { withStandingPreferences } from "../../tools/schedule/domain.js";
import type { ScheduleState } from "../../tools/schedule/state.js";
import { offlineTempo } from "../graph/support/offline-conversation.js";
import { clockedWeek, handPlaced, sessionWeek } from "./rule-weeks.js";
import { clockRule, oracle } from "./schedule-oracle.js";

const NAMES = [
  "Alder",
  "Birch",
  "Cedar",
  "Dogwood",
  "Elm",
  "Fir",
  "Ginkgo",
  "Hazel",
  "Ivy",
  "Juniper",
  "Kapok",
  "Larch",
];

/** The week of `seed`, its reviews named apart ("Cedar review"), with a clock not past its last day. */
export function namedWeek(seed: number): ScheduleState | undefined {
  const clocked = clockedWeek(seed);
  const base = seed % 3 === 0 ? { ...sessionWeek(seed), window: clocked.window, now: clocked.now } : clocked;
  const week = seed % 2 === 0 ? handPlaced(base) : base;
  const last = week.window.days.at(-1)!.date!;
  // Past the window the clock rolls it on (another week); before or inside it, the week is the one judged.
  if (week.now! >= new Date(`${last}T23:00:00+08:00`).toISOString()) return undefined;
  return {
    ...week,
    tasks: week.tasks.map((task) =>
      task.source === "task_item" ? { ...task, name: `${NAMES[Number(task.id.split("-")[1]) % 12]} review` } : task,
    ),
  };
}

/** True when (day, slot) of `state` has started by its clock: the oracle's clock rule (docs/design.md#clock-rule). */
export function startedBy(state: ScheduleState, day: number, slot: number): boolean {
  return clockRule(state)(day, slot);
}

/** Where review `id` may go by a write of it alone, by the oracle: its own place left, every other review as it is. */
export function placesFor(state: ScheduleState, id: string): Array<{ day: number; start: number }> {
  const tasks = state.tasks
    .filter((task) => task.id === id || task.source !== "task_item" || task.status !== "pending")
    .map((task) => {
      if (task.id !== id || task.source !== "task_item") return task;
      const { slots: _slots, embeddedIn: _host, ...rest } = task;
      return { ...rest, status: "pending" as const };
    });
  return (oracle({ ...state, tasks }).alone.get(id) ?? []).map((place) => {
    const [day, start] = place.split(":").map(Number) as [number, number];
    return { day, start };
  });
}

/**
 * A graph on the offline policy for user "student" seeded with `week`, its clock the week's `now`, its standing
 * preferences stored in memory; and the week as the graph reads it (the preferences as stored: the oracle's week).
 */
export async function tempoOf(week: ScheduleState) {
  const store = new InMemoryStore();
  const { standing = [], ...rest } = week;
  const add = standing.map(({ id: _id, ...rule }) => rule);
  await applyPreferenceChange(store, "student", { add, lift: [] }, "the generated week", "2024-01-01T00:00:00.000Z");
  const judged = withStandingPreferences(rest, await loadPreferences(store, "student"));
  const tempo = await offlineTempo(rest, () => new Date(week.now!), { store });
  return { tempo, week: judged };
}
