/**
 * The optimisation tools (seed 003: the backend decides, the model chooses): `analyze_health` judges the week,
 * `propose_arrangement` and `propose_candidates` list changes the backend generated and scored, which the model
 * picks by id with `choose_candidate` — instead of searching the week itself. All three only read.
 */
import { z } from "zod";
import { KEPT_BY_CODE, type DomainTool, type ToolRun } from "../../domain.js";
import { proposeArrangement, proposeArrangementAsync, type ArrangementOptions } from "../arrangement.js";
import { DEFAULT_CANDIDATES, formatListing, MAX_CANDIDATES, type ScheduleListing } from "../candidate-listing.js";
import { proposeCandidates, proposeCandidatesAsync, type CandidateOptions } from "../candidates.js";
import { analyzeHealth, formatHealth, type HealthReport } from "../health.js";
import type { ScheduleState } from "../state.js";
import { taskIdField } from "./argument-fields.js";

/** Judges the week: its score out of 100, its metrics, and the issues behind the lost points. */
export const analyzeHealthTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "analyze_health",
  description: "Judges the week: a health score out of 100 and what costs points.",
  schema: z.object({}),
  kind: "read",
  run(state) {
    const report: HealthReport = analyzeHealth(state);
    return { ok: true, content: formatHealth(report), data: report };
  },
};

/** The argument both proposing tools take for days of the week the user called off. */
const WEEKDAYS_OFF = 'Weekdays called off ("Friday is my day off": [5]).';

const dayList = (description: string) => z.array(z.number().int().min(1)).max(400).optional().describe(description);

const proposeArrangementArgumentsSchema = z.object({
  task_ids: z.array(z.string().min(1)).max(400).optional().describe("Only these pending tasks."),
  skip_task_ids: z.array(z.string().min(1)).max(400).optional().describe("Tasks to leave pending."),
  days: dayList("Only these days."),
  avoid_days: dayList("Days to keep free of reviews."),
  avoid_weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional().describe(WEEKDAYS_OFF),
  slots: z
    .object({ from: z.number().int().min(1).optional(), to: z.number().int().min(1).optional() })
    .optional()
    .describe("Only slots from-to of a day."),
  keep_free: z
    .array(z.object({ day: z.number().int().min(1), from: z.number().int().min(1), to: z.number().int().min(1) }))
    .max(400)
    .optional()
    .describe('Parts of days to keep free of reviews: the day, slots from-to ("not tonight").'),
  limits: z
    .array(
      z.object({
        task_id: z.string().min(1),
        days: z.array(z.number().int().min(1)).max(400).optional(),
        not_days: z.array(z.number().int().min(1)).max(400).optional(),
        not_weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional(),
        from: z.number().int().min(1).optional(),
        to: z.number().int().min(1).optional(),
        not_at: z
          .array(z.object({ day: z.number().int().min(1), slot_start: z.number().int().min(1) }))
          .max(100)
          .optional(),
      }),
    )
    .max(200)
    .optional()
    .describe(
      "Per task, from feedback: only days, never not_days / not_weekdays, slots from-to, not_at rejected places.",
    )
    // Filled from the task's card decisions for every call (task-limits.ts): the model is not shown it.
    .meta(KEPT_BY_CODE),
  max_places: z.number().int().min(1).max(400).optional().describe("At most this many placements."),
});

/** One proposal placing as many pending reviews as fit, found by the exact search, within the limits given. */
export const proposeArrangementTool: DomainTool<ScheduleState, z.infer<typeof proposeArrangementArgumentsSchema>> = {
  name: "propose_arrangement",
  description:
    "Proposes where the pending reviews go (the most that fit); nothing is applied. The way to arrange: choose it with choose_candidate (id a1).",
  schema: proposeArrangementArgumentsSchema,
  kind: "read",
  proposes: true,
  run(state, args) {
    const options = arrangementOptions(state, args);
    return "problem" in options ? options.problem : listed(proposeArrangement(state, options));
  },
  async runAsync(state, args) {
    const options = arrangementOptions(state, args);
    return "problem" in options ? options.problem : listed(await proposeArrangementAsync(state, options));
  },
};

/** The window's day indices that fall on `weekdays` (1 = Monday). */
function windowDaysOn(state: ScheduleState, weekdays: readonly number[]): number[] {
  return state.window.days.filter((day) => weekdays.includes(day.dayOfWeek)).map((day) => day.dayIndex);
}

/** A listing as a tool's result: its text for the model, itself as data. */
function listed(listing: ScheduleListing): ToolRun<ScheduleState> {
  return { ok: true, content: formatListing(listing), data: listing };
}

/** propose_arrangement's arguments as the search's options, or the refusal of unknown task ids. */
function arrangementOptions(
  state: ScheduleState,
  args: z.infer<typeof proposeArrangementArgumentsSchema>,
): ArrangementOptions | { problem: ToolRun<ScheduleState> } {
  const known = new Set(state.tasks.map((task) => task.id));
  const unknown = [
    ...(args.task_ids ?? []),
    ...(args.skip_task_ids ?? []),
    ...(args.limits ?? []).map((entry) => entry.task_id),
  ].filter((id) => !known.has(id));
  if (unknown.length > 0)
    return {
      problem: {
        ok: false,
        content: `Error: unknown task id(s): ${[...new Set(unknown)].join(", ")}. Nothing was proposed; list_tasks shows the ids.`,
      },
    };
  const daysOn = (weekdays: readonly number[] = []) => windowDaysOn(state, weekdays);
  const avoidDays = [...new Set([...(args.avoid_days ?? []), ...daysOn(args.avoid_weekdays)])];
  const limits = args.limits?.map(({ not_weekdays, ...entry }) =>
    not_weekdays ? { ...entry, not_days: [...new Set([...(entry.not_days ?? []), ...daysOn(not_weekdays)])] } : entry,
  );
  return {
    ...(args.task_ids ? { taskIds: args.task_ids } : {}),
    ...(args.skip_task_ids ? { skipIds: args.skip_task_ids } : {}),
    ...(args.days ? { days: args.days } : {}),
    ...(avoidDays.length > 0 ? { avoidDays } : {}),
    ...(args.slots ? { slots: args.slots } : {}),
    ...(args.keep_free?.length ? { keepFree: args.keep_free } : {}),
    ...(limits ? { limits } : {}),
    ...(args.max_places ? { maxPlaces: args.max_places } : {}),
  };
}

const proposeCandidatesArgumentsSchema = z.object({
  k: z.number().int().min(1).max(MAX_CANDIDATES).default(DEFAULT_CANDIDATES).describe("How many to list."),
  avoid_days: z.array(z.number().int().min(1)).max(400).optional().describe("Days to keep free of reviews."),
  place_pending: z.boolean().optional().describe("false: only move and swap placed tasks."),
  retry_pending: z
    .array(z.string().min(1))
    .max(400)
    .optional()
    .describe("With place_pending false: pending tasks to place all the same where they fit.")
    // Filled from the task's writes (task-limits.ts): the placings the tool refused.
    .meta(KEPT_BY_CODE),
  avoid: z
    .array(
      z.object({
        task_id: taskIdField("The task."),
        day: z.number().int().min(1).optional().describe("A day it must not go to (no day: it stays put)."),
        slot_start: z.number().int().min(1).optional().describe("With day: a rejected place."),
        weekday: z.number().int().min(1).max(7).optional().describe("A weekday it must not go to (1 = Monday)."),
      }),
    )
    .max(200)
    .optional()
    .describe("Where tasks must not go.")
    // Filled from the task's card decisions for every call (task-limits.ts): the model is not shown it.
    .meta(KEPT_BY_CODE),
  avoid_weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional().describe(WEEKDAYS_OFF),
  task_ids: z.array(z.string().min(1)).max(400).optional().describe("Only these placed tasks may move."),
});

/** The top k single changes (move, swap, place) that raise the health score, each with its score delta. */
export const proposeCandidatesTool: DomainTool<ScheduleState, z.infer<typeof proposeCandidatesArgumentsSchema>> = {
  name: "propose_candidates",
  description:
    "Lists the changes (moves, swaps, placements) that raise the health score most, best first; nothing is applied. Choose one with choose_candidate.",
  schema: proposeCandidatesArgumentsSchema,
  kind: "read",
  proposes: true,
  run(state, args) {
    const options = candidateOptions(state, args);
    return typeof options === "string" ? { ok: false, content: options } : listed(proposeCandidates(state, options));
  },
  async runAsync(state, args) {
    const options = candidateOptions(state, args);
    return typeof options === "string"
      ? { ok: false, content: options }
      : listed(await proposeCandidatesAsync(state, options));
  },
};

/**
 * propose_candidates' arguments as the listing's options — weekdays as the window's day indices — or, when they name
 * a task the week does not have, the error to return (nothing is proposed).
 */
function candidateOptions(
  state: ScheduleState,
  args: z.infer<typeof proposeCandidatesArgumentsSchema>,
): CandidateOptions | string {
  const known = new Set(state.tasks.map((task) => task.id));
  const unknown = [...(args.task_ids ?? []), ...(args.avoid ?? []).map((entry) => entry.task_id)].filter(
    (id) => !known.has(id),
  );
  if (unknown.length > 0)
    return `Error: unknown task id(s): ${[...new Set(unknown)].join(", ")}. Nothing was proposed; list_tasks shows the ids.`;
  const daysOn = (weekdays: readonly number[]) => windowDaysOn(state, weekdays);
  const avoidDays = [...new Set([...(args.avoid_days ?? []), ...daysOn(args.avoid_weekdays ?? [])])];
  const avoid = (args.avoid ?? []).flatMap(({ weekday, ...place }) =>
    weekday === undefined ? [place] : daysOn([weekday]).map((day) => ({ task_id: place.task_id, day })),
  );
  return {
    k: args.k,
    preferences: avoidDays.length > 0 ? { avoidDays } : {},
    ...(avoid.length > 0 ? { avoid } : {}),
    ...(args.place_pending === false ? { placePending: false } : {}),
    // The code fills it from the task's refused writes, which may name a task the week does not have (a model's
    // made-up id): such an id has nothing to place, and takes nothing away from the listing.
    ...(args.retry_pending ? { retryPending: new Set(args.retry_pending.filter((id) => known.has(id))) } : {}),
    ...(args.task_ids ? { movable: new Set(args.task_ids) } : {}),
  };
}
