/**
 * `propose_reschedule` (issue 47 item 4): a missed review is proposed again, at the candidates' best place. First the
 * exact search says which of the missed reviews fit together (the most, with the placed reviews where they are: a
 * review's best place taken first can be the only place of another); then, review by review, the backend's candidates
 * (`proposeCandidates`) are listed for it alone — as if pending, the other pending reviews set aside so they take no
 * candidate's room — and its best place that leaves room for the rest goes into one candidate (`r1`), for
 * `choose_candidate`: a card of `place` writes (place takes a missed task). Nothing else moves. A review left without a
 * place is said, with why: no place on its own, not beside the others, or not proved (the search's budget ran out).
 */
import { z } from "zod";
import type { Language } from "../../../contracts/language.js";
import { quoteName } from "../format.js";
import type { CandidateListing, DomainTool, ProposedCandidate } from "../../domain.js";
import { proposeCandidates } from "../candidates.js";
import { MAX_CANDIDATES } from "../candidate-listing.js";
import { deadlinePassed, ruleBookOf } from "../rules.js";
import { failure } from "../format.js";
import { describeScheduleCall } from "../describe-call.js";
import {
  searchInputOf,
  searchPlacements,
  startBudget,
  type PlannedPlacement,
  type SearchBudget,
} from "../placement-search.js";
import { withRules } from "../rules.js";
import type { ScheduleState, TaskItem } from "../state.js";
import { taskIdField } from "./argument-fields.js";
import { placeTool } from "./place.js";
import { SUMMARY_WORDS } from "../summary-phrases.js";

/** A write call: a tool name and its arguments. */
type Write = ProposedCandidate["writes"][number];

/** The id of the one candidate a reschedule listing offers. */
export const RESCHEDULE_CANDIDATE_ID = "r1";

/** What propose_reschedule found, as data: the candidate, and the missed reviews no place fits, with why. */
export interface RescheduleListing extends CandidateListing {
  /** Missed reviews left without a place, each with its name and why. */
  unplaced: Array<{ id: string; name: string; why: string }>;
}

/**
 * Why a missed review is left without a place. `deadline` / `window`: the search proved no free place holds it even on
 * its own; `beside`: it fits on its own, but the search proved no arrangement places more of the missed reviews than
 * the ones placed; `unproved`: the search stopped at its budget before it could say.
 */
export const NO_PLACE_BEFORE = {
  deadline: SUMMARY_WORDS.en.noPlaceBeforeDeadline,
  window: SUMMARY_WORDS.en.noPlaceBeforeWindowEnd,
  beside: SUMMARY_WORDS.en.notBesideOthers,
  unproved: SUMMARY_WORDS.en.notFoundBesideOthers,
  /** Its deadline has passed by the clock: no place is before it, whatever the room. */
  passed: SUMMARY_WORDS.en.deadlinePassed,
} as const;

/** Arguments of propose_reschedule. */
export const rescheduleArgumentsSchema = z.object({
  task_ids: z
    .array(taskIdField("A missed task item."))
    .max(100)
    .optional()
    .describe("The missed task items to place again (default: every missed one)."),
});

/** What a reschedule listing says when no review is missed. */
export const NOTHING_MISSED = SUMMARY_WORDS.en.nothingMissed;

/** What a reschedule listing says when no missed review fits anywhere (each is in `unplaced`, with why). */
export const NO_PLACE_FITS = SUMMARY_WORDS.en.noPlaceForMissed;

/** What a reschedule listing with no candidate says: no place fits, or every review left is past its deadline. */
export const NO_RESCHEDULE = { room: NO_PLACE_FITS, passed: SUMMARY_WORDS.en.missedPastDeadline } as const;

/** A reschedule listing's `empty` (`NOTHING_MISSED`, `NO_PLACE_FITS`) in `language`; another text as it is. */
export function rescheduleEmptyText(empty: string, language: Language): string {
  if (language === "en") return empty;
  return (
    {
      [NOTHING_MISSED]: "没有错过的复习",
      [NO_PLACE_FITS]: "错过的复习都没有能补做的空闲时段",
      [NO_RESCHEDULE.passed]: "错过的复习已过了截止时间",
    }[empty] ?? empty
  );
}

/** True when `data` is a reschedule listing (propose_reschedule's data). */
export function isRescheduleListing(data: unknown): data is RescheduleListing {
  const listing = data as Partial<RescheduleListing> | null | undefined;
  return (
    typeof listing === "object" &&
    listing !== null &&
    Array.isArray(listing.candidates) &&
    Array.isArray(listing.unplaced)
  );
}

/** Places as `place` writes. */
function placeWrite(placement: PlannedPlacement): Write {
  return { name: "place", arguments: { task_id: placement.id, day: placement.day, slot_start: placement.start } };
}

/** The exact search for the reviews `ids` together on `state` (placed reviews where they are). */
function searchTogether(state: ScheduleState, ids: readonly string[], budget: SearchBudget) {
  const input = searchInputOf(state);
  const tasks = ids.flatMap((id) => {
    const task = state.tasks.find((entry) => entry.id === id);
    return task?.source === "task_item" ? [withRules({ id, duration: task.duration }, task, input.rules)] : [];
  });
  return searchPlacements(tasks, input.room, budget);
}

/**
 * The missed reviews' best places on `state`, as one candidate: as many of them as fit together (the exact search's
 * most, with the placed reviews where they are), each at its best-scored place that leaves room for the rest.
 */
export function proposeReschedule(
  state: ScheduleState,
  ids: readonly string[],
  budget: SearchBudget = {},
): RescheduleListing {
  if (ids.length === 0) return { candidates: [], unplaced: [], empty: NOTHING_MISSED };
  const work = startBudget(budget);
  const book = ruleBookOf(state);
  const wanted = new Set(ids);
  // Which of them fit together: one review's best place taken first can be the only place of another.
  const together = searchTogether(state, ids, work);
  const chosen = new Set(together.exact ? together.placements.map((placement) => placement.id) : ids);
  const writes: ProposedCandidate["writes"] = [];
  const summaries: string[] = [];
  const unplaced: RescheduleListing["unplaced"] = [];
  /** Why `id` is left without a place: none on its own, not beside the others, or not proved. */
  const leftOut = (id: string): RescheduleListing["unplaced"][number] => {
    const task = state.tasks.find((entry) => entry.id === id);
    const alone = searchTogether(state, [id], work);
    const item = task?.source === "task_item" ? task : undefined;
    if (item && deadlinePassed(item, book)) return { id, name: item.name, why: NO_PLACE_BEFORE.passed };
    const bound = item?.dueBefore !== undefined ? "deadline" : "window";
    const why =
      alone.exact && alone.placements.length === 0
        ? NO_PLACE_BEFORE[bound]
        : together.exact
          ? NO_PLACE_BEFORE.beside
          : NO_PLACE_BEFORE.unproved;
    return { id, name: task?.name ?? id, why };
  };
  let current = state;
  for (const [index, id] of ids.entries()) {
    if (!chosen.has(id)) {
      unplaced.push(leftOut(id));
      continue;
    }
    const rest = ids.slice(index + 1).filter((other) => chosen.has(other));
    /** True when the chosen reviews after this one still fit together on `after`. */
    const roomForRest = (after: ScheduleState) =>
      !together.exact || rest.length === 0 || searchTogether(after, rest, work).placements.length === rest.length;
    // The candidates for this review alone, on the week with the others' places taken so far: listed for all at once,
    // the best few candidates were one review's, and the rest were told no place fits in a week with room.
    const trial: ScheduleState = {
      ...current,
      tasks: current.tasks.map((task) =>
        task.source !== "task_item"
          ? task
          : task.id === id
            ? { ...task, status: "pending" }
            : task.status === "pending" || (wanted.has(task.id) && task.status === "missed")
              ? { ...task, status: "skipped" }
              : task,
      ),
    };
    const listing = proposeCandidates(trial, { k: MAX_CANDIDATES, movable: new Set() });
    // Its best place that still fits beside the places already taken, and leaves room for the rest.
    const best = listing.candidates
      .filter(
        (candidate) =>
          candidate.writes.length === 1 &&
          candidate.writes[0]!.name === "place" &&
          candidate.writes[0]!.arguments.task_id === id,
      )
      .map((candidate) => ({ write: candidate.writes[0]!, summary: candidate.summary }));
    /** `option` taken when it applies and leaves room for the rest. */
    const take = (option: { write: Write; summary?: string }) => {
      const run = placeTool.run(current, option.write.arguments as never);
      return run.ok && run.state && roomForRest(run.state) ? { ...option, after: run.state } : undefined;
    };
    let taken: { write: Write; summary?: string; after: ScheduleState } | undefined;
    for (const option of best) {
      taken = take(option);
      if (taken) break;
    }
    // None of those leaves room: where a search of it and the rest together puts it (searched only then).
    if (!taken && together.exact) {
      const searched = searchTogether(current, [id, ...rest], work);
      const fallback = searched.placements.find((placement) => placement.id === id);
      if (fallback && searched.placements.length === rest.length + 1) taken = take({ write: placeWrite(fallback) });
    }
    if (!taken) {
      unplaced.push(leftOut(id));
      continue;
    }
    writes.push(taken.write);
    summaries.push(
      taken.summary ?? describeScheduleCall(current, "place", taken.write.arguments, "en") ?? taken.write.name,
    );
    current = taken.after;
  }
  const candidates: ProposedCandidate[] =
    writes.length > 0 ? [{ id: RESCHEDULE_CANDIDATE_ID, writes, summary: summaries.join("; ") }] : [];
  return {
    candidates,
    unplaced,
    ...(candidates.length === 0
      ? {
          empty:
            unplaced.length > 0 && unplaced.every((entry) => entry.why === NO_PLACE_BEFORE.passed)
              ? NO_RESCHEDULE.passed
              : NO_RESCHEDULE.room,
        }
      : {}),
  };
}

/** Lists the best place of each missed review, as one candidate. */
export const proposeRescheduleTool: DomainTool<ScheduleState, z.infer<typeof rescheduleArgumentsSchema>> = {
  name: "propose_reschedule",
  description:
    "Lists the best free place (the backend's candidates) for missed task items as candidate r1, to propose them again " +
    "after mark_missed or a roll, unless the user said not to. Choose r1 with choose_candidate; nothing moves before its card.",
  schema: rescheduleArgumentsSchema,
  kind: "read",
  proposes: true,
  run(state, args) {
    const missed = state.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.status === "missed",
    );
    const ids = args.task_ids ?? missed.map((task) => task.id);
    const wrong = ids.filter((id) => !missed.some((task) => task.id === id));
    if (wrong.length > 0)
      return failure(
        `${wrong.join(", ")} ${wrong.length === 1 ? "is" : "are"} not a missed task item; ` +
          `missed ones: ${missed.map((task) => task.id).join(", ") || "none"}`,
      );
    const listing = proposeReschedule(state, ids);
    const lines = [
      ...(listing.empty ? [`nothing to propose: ${listing.empty}`] : []),
      ...listing.candidates.map((candidate) => `${candidate.id}: ${candidate.summary}`),
      ...listing.unplaced.map((entry) => `no place for ${entry.id} ${quoteName(entry.name)}: ${entry.why}`),
    ];
    return { ok: true, content: lines.join("\n") || "no missed task items to reschedule", data: listing };
  },
};
