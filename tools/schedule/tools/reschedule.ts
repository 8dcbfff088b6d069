/**
 * `propose_reschedule` (issue 47 item 4): a missed review is proposed again, at the candidates' best place. The
 * backend's candidates (`proposeCandidates`) are listed for the missed reviews alone — each as if pending, the other
 * pending reviews set aside so they take no candidate's room — and the best place of each that still fits beside the
 * others goes into one candidate (`r1`), for `choose_candidate`: a card of `place` writes (place takes a missed task).
 * Nothing else moves. A review no place fits is said, with why.
 */
import { z } from "zod";
import { quoteName } from "../format.js";
import type { CandidateListing, DomainTool, ProposedCandidate } from "../../domain.js";
import { proposeCandidates, MAX_CANDIDATES } from "../candidates.js";
import { failure } from "../format.js";
import type { ScheduleState, TaskItem } from "../state.js";
import { taskIdField } from "./argument-fields.js";
import { placeTool } from "./place.js";

/** The id of the one candidate a reschedule listing offers. */
export const RESCHEDULE_CANDIDATE_ID = "r1";

/** What propose_reschedule found, as data: the candidate, and the missed reviews no place fits, with why. */
export interface RescheduleListing extends CandidateListing {
  /** Missed reviews left without a place, each with its name and why. */
  unplaced: Array<{ id: string; name: string; why: string }>;
}

/** Why a missed review is left without a place, by what bounds where it may go (the listing's words are about scores). */
export const NO_PLACE_BEFORE = {
  deadline: "no free place that keeps its rules is left before its deadline",
  window: "no free place that keeps its rules is left before the window's end",
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
export const NOTHING_MISSED = "no review is missed";

/** The missed reviews' best places on `state`, as one candidate. */
export function proposeReschedule(state: ScheduleState, ids: readonly string[]): RescheduleListing {
  if (ids.length === 0) return { candidates: [], unplaced: [], empty: NOTHING_MISSED };
  const wanted = new Set(ids);
  const writes: ProposedCandidate["writes"] = [];
  const summaries: string[] = [];
  const unplaced: RescheduleListing["unplaced"] = [];
  let current = state;
  for (const id of ids) {
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
    // Its best place that still fits beside the places already taken for the others.
    const places = listing.candidates.filter(
      (candidate) =>
        candidate.writes.length === 1 &&
        candidate.writes[0]!.name === "place" &&
        candidate.writes[0]!.arguments.task_id === id,
    );
    const fitting = places
      .map((candidate) => ({ candidate, run: placeTool.run(current, candidate.writes[0]!.arguments as never) }))
      .find((tried) => tried.run.ok && tried.run.state);
    if (!fitting) {
      const task = state.tasks.find((entry) => entry.id === id);
      const bound = task?.source === "task_item" && task.dueBefore !== undefined ? "deadline" : "window";
      unplaced.push({ id, name: task?.name ?? id, why: NO_PLACE_BEFORE[bound] });
      continue;
    }
    current = fitting.run.state!;
    writes.push(fitting.candidate.writes[0]!);
    summaries.push(fitting.candidate.summary);
  }
  const candidates: ProposedCandidate[] =
    writes.length > 0 ? [{ id: RESCHEDULE_CANDIDATE_ID, writes, summary: summaries.join("; ") }] : [];
  return {
    candidates,
    unplaced,
    ...(candidates.length === 0 ? { empty: "no free place fits the missed review(s)" } : {}),
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
