/**
 * `upsert_task_class` (a course with its study profile: session lengths, days, buffers, exam) and `remove_task_class`,
 * each refusing, with the week unchanged, a rule a placed session would break.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { canonicalCategory } from "../canonical-form.js";
import { failure, quoteName, someIds } from "../format.js";
import { TASK_ID_PATTERN, type ScheduleState, type TaskCategory, type TaskItem } from "../state.js";
import { PLAIN_NAME_RULE, plainNameField } from "../../../contracts/plain-name.js";
import { saySummary } from "../summary-phrases.js";
import { dayList, idFrom, placedRuleProblem, sessionProblem } from "./task-writes.js";

const upsertTaskClassArgumentsSchema = z.object({
  class_id: z
    .string()
    .min(1)
    .optional()
    .describe("Id of the class to change; omit to create one (its id is made from the name)."),
  name: plainNameField(80).describe(`The class's name (a course or subject). ${PLAIN_NAME_RULE}`),
  preferred_parts: z
    .array(z.enum(["morning", "afternoon", "evening"]))
    .max(3)
    .optional()
    .describe("Parts of the day its sessions should lie in; [] clears them (your standing preference applies)."),
  min_session: z.number().int().min(1).max(24).optional().describe("Fewest slots one session takes."),
  max_session: z.number().int().min(1).max(24).optional().describe("Most slots one session takes."),
  excluded_days_of_week: z
    .array(z.number().int().min(1).max(7))
    .max(7)
    .optional()
    .describe("Weekdays none of its sessions may use (1 = Monday … 7 = Sunday); [] clears them."),
  blocked_days: dayList("Whole days (day indices) none of its sessions may use."),
  strategy: z
    .enum(["steady", "compact"])
    .optional()
    .describe("steady: spread over the days; compact: together on few days."),
  buffer_slots: z
    .number()
    .int()
    .min(0)
    .max(12)
    .optional()
    .describe("Free slots kept between a session and anything else that day."),
});

/** Creates a task class, or changes one's name or profile (the fields given replace those stored). */
export const upsertTaskClassTool: DomainTool<ScheduleState, z.infer<typeof upsertTaskClassArgumentsSchema>> = {
  name: "upsert_task_class",
  description:
    "Creates a task class (a course) or changes one: its name and study profile — preferred parts of the day, session length bounds, excluded weekdays, blocked days, strategy, buffer.",
  schema: upsertTaskClassArgumentsSchema,
  kind: "write",
  run(state, args) {
    const existing =
      args.class_id === undefined ? undefined : state.categories.find((category) => category.id === args.class_id);
    if (args.class_id !== undefined && !TASK_ID_PATTERN.test(args.class_id))
      return failure(`class id ${quoteName(args.class_id)} may hold only A-Z a-z 0-9 _ . : - (1-64)`);
    const id = args.class_id ?? idFrom(args.name, new Set(state.categories.map((category) => category.id)));
    const next: TaskCategory = { ...(existing ?? {}), id, name: args.name };
    // An empty list clears the field: a class with no parts of its own follows the user's standing preference.
    const list = <K extends "preferredParts" | "excludedDaysOfWeek" | "blockedDays">(
      field: K,
      values: TaskCategory[K] | undefined,
    ) => {
      if (values === undefined) return;
      if (values.length === 0) delete next[field];
      else next[field] = values;
    };
    list("preferredParts", args.preferred_parts && [...new Set(args.preferred_parts)]);
    if (args.min_session !== undefined) next.minSession = args.min_session;
    if (args.max_session !== undefined) next.maxSession = args.max_session;
    list(
      "excludedDaysOfWeek",
      args.excluded_days_of_week && [...new Set(args.excluded_days_of_week)].sort((a, b) => a - b),
    );
    list("blockedDays", args.blocked_days && [...new Set(args.blocked_days)].sort((a, b) => a - b));
    if (args.strategy !== undefined) next.strategy = args.strategy;
    if (args.buffer_slots !== undefined) next.bufferSlots = args.buffer_slots;
    if (next.minSession !== undefined && next.maxSession !== undefined && next.minSession > next.maxSession)
      return failure(`min_session ${next.minSession} is more than max_session ${next.maxSession}`);
    const outside = (next.blockedDays ?? []).find((day) => day > state.window.totalDays);
    if (outside !== undefined)
      return failure(`blocked day ${outside} is outside the window (days 1-${state.window.totalDays})`);
    const members = state.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.categoryId === id,
    );
    for (const task of members) {
      const problem = sessionProblem(task.duration, next);
      if (problem) return failure(`${problem} for task ${task.id} ${quoteName(task.name)}; change its duration first`);
    }
    const category = canonicalCategory(next);
    const data: TaskClassData = {
      class: category,
      created: !existing,
      ...(existing ? { before: canonicalCategory(existing) } : {}),
    };
    const after: ScheduleState = {
      ...state,
      categories: existing
        ? state.categories.map((entry) => (entry.id === id ? category : entry))
        : [...state.categories, category],
    };
    const broken = placedRuleProblem(after, new Set(members.map((task) => task.id)));
    if (broken) return failure(broken);
    return { ok: true, content: taskClassText(data), state: after, data };
  },
};

/** What upsert_task_class did, as data: the class as stored, and whether the write created it. */
export interface TaskClassData {
  class: TaskCategory;
  created: boolean;
  /** The class as it was before a change (what undo gives back); absent when created, or on an older card. */
  before?: TaskCategory;
}

/** The text upsert_task_class gives for its data. */
export function taskClassText(data: TaskClassData): string {
  return saySummary("en", data.created ? "classCreated" : "classUpdated", {
    id: data.class.id,
    said: quoteName(data.class.name),
  });
}

const removeTaskClassArgumentsSchema = z.object({
  class_id: z.string().min(1).max(64).describe("Id of the task class to remove."),
});

/** What remove_task_class did, as data: the class as it was (what undo creates again). */
export interface RemoveTaskClassData {
  class: TaskCategory;
}

/**
 * Removes a task class that no task item uses, done, missed and skipped ones included: their history names it. So
 * "undo that" can take back a class a card created, and a user can drop a course that has no work left.
 */
export const removeTaskClassTool: DomainTool<ScheduleState, z.infer<typeof removeTaskClassArgumentsSchema>> = {
  name: "remove_task_class",
  description:
    "Removes a task class (a course) that no task uses, done ones included; remove its tasks or give them another class first.",
  schema: removeTaskClassArgumentsSchema,
  kind: "write",
  run(state, args) {
    const existing = state.categories.find((category) => category.id === args.class_id);
    if (existing === undefined)
      return failure(
        `no task class ${quoteName(args.class_id)}; the classes are ${state.categories.map((entry) => entry.id).join(", ") || "none"}`,
      );
    const users = state.tasks.filter((task) => task.source === "task_item" && task.categoryId === existing.id);
    if (users.length > 0) {
      return failure(
        `task class ${existing.id} ${quoteName(existing.name)} is used by ${users.length} task(s) (${someIds(users.map((task) => task.id))}); remove them or give them another class first; nothing was removed`,
      );
    }
    const data: RemoveTaskClassData = { class: canonicalCategory(existing) };
    return {
      ok: true,
      content: `removed task class ${existing.id} ${quoteName(existing.name)}`,
      state: { ...state, categories: state.categories.filter((category) => category.id !== existing.id) },
      data,
    };
  },
};
