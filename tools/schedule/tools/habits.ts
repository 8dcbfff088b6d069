/**
 * `add_habit` (issue 47 item 5): a recurring task — "vocabulary 3× a week, 30 min, mornings" — through a card like
 * any write. It makes the habit's class (its preferred part of the day is the class's, so the placement search keeps
 * to it as it does for any class) and the occurrences of each week of the window (`habits.ts`), pending; a roll makes
 * the next week's. Bad input — 0 or 8 times a week, a session longer than a day — is refused with the week unchanged.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { canonicalCategory } from "../canonical-form.js";
import { failure, quoteName } from "../format.js";
import { habitOccurrences } from "../habits.js";
import type { ScheduleState, TaskCategory, TaskItem } from "../state.js";
import { clockOfState } from "../window-clock.js";
import { PLAIN_NAME_RULE, plainNameField } from "../../../contracts/plain-name.js";
import { idFrom } from "./task-writes.js";

const addHabitArgumentsSchema = z.object({
  name: plainNameField(120).describe(`The habit's name. ${PLAIN_NAME_RULE}`),
  times_per_week: z.number().int().describe("Sessions a week, 1-7."),
  duration: z.number().int().describe("Slots one session takes."),
  part: z.enum(["morning", "afternoon", "evening"]).optional().describe("Preferred part of the day."),
});

export type AddHabitArguments = z.infer<typeof addHabitArgumentsSchema>;

/** What add_habit did, as data: the habit's class and its occurrences (pending). */
export interface AddHabitData {
  class: TaskCategory;
  tasks: TaskItem[];
}

/** The text add_habit gives for its data: the sessions, and each week the clock left room for fewer in. */
export function addedHabitText(data: AddHabitData): string {
  const perWeek = data.tasks[0]?.group?.perWeek ?? data.tasks.length;
  const inWeek = new Map<number, number>();
  for (const task of data.tasks) inWeek.set(task.group?.week ?? 0, (inWeek.get(task.group?.week ?? 0) ?? 0) + 1);
  const fewer = [...inWeek]
    .filter(([, count]) => count < perWeek)
    .map(([week, count]) => `; only ${count} fit in what is left of week ${week} (none before now)`)
    .join("");
  return `added habit ${data.class.id} ${quoteName(data.class.name)}: ${perWeek} session(s) a week of ${data.tasks[0]?.duration ?? 0} slot(s); ${data.tasks.length} session(s) pending in the window: ${data.tasks.map((task) => task.id).join(", ")}${fewer}`;
}

/**
 * Adds a habit: its class and each week's occurrences, pending (a roll adds the next week's); by the run's clock, a
 * half-over week gets only the sessions what is left of it can hold, none before now.
 */
export const addHabitTool: DomainTool<ScheduleState, AddHabitArguments> = {
  name: "add_habit",
  description:
    "Adds a habit (a recurring task): times_per_week sessions each week, no two on one day, pending; each new week gets its own.",
  schema: addHabitArgumentsSchema,
  kind: "write",
  run(state, args) {
    if (args.times_per_week < 1 || args.times_per_week > 7)
      return failure(`a habit repeats 1 to 7 times a week (no two sessions on one day), not ${args.times_per_week}`);
    const { slotsPerDay } = state.window;
    if (args.duration < 1 || args.duration > slotsPerDay)
      return failure(
        `a session of ${args.duration} slot(s) ${args.duration < 1 ? "is empty" : `is longer than a day (${slotsPerDay} slots)`}: give 1 to ${slotsPerDay}`,
      );
    const taken = new Set([...state.categories.map((category) => category.id), ...state.tasks.map((task) => task.id)]);
    const id = idFrom(args.name, taken);
    const category = canonicalCategory({
      id,
      name: args.name,
      ...(args.part ? { preferredParts: [args.part] } : {}),
    });
    const tasks = habitOccurrences(
      state.window,
      { id, name: args.name, duration: args.duration, categoryId: id, perWeek: args.times_per_week },
      undefined,
      clockOfState(state),
    );
    if (tasks.length === 0)
      return failure(
        `the window has no day left for a session of ${args.duration} slot(s): the clock has passed its days; add the habit when the next week shows`,
      );
    const clash = tasks.find((task) => taken.has(task.id));
    if (clash) return failure(`the id ${clash.id} is taken; give the habit another name`);
    const data: AddHabitData = { class: category, tasks };
    return {
      ok: true,
      content: addedHabitText(data),
      state: { ...state, categories: [...state.categories, category], tasks: [...state.tasks, ...tasks] },
      data,
    };
  },
};
