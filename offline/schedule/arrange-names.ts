/** Task ids told by their names in what the arrange step says: every task listing in view, the step's own and the live state's. */
import { parseTaskListing } from "./result-parsing.js";
import type { ListTasksData } from "../../tools/schedule/tools/index.js";
import { callResultOf, liveOverviewOf, toolDataOf } from "./tool-data.js";
import type { PromptView, RoundView } from "../prompt-reading.js";
import type { Language } from "../../contracts/language.js";

export const LISTING_ARGUMENTS = { source: "task_item", limit: 100 };

/** Task id → name, from every task listing in view (the live state's and the step's list_tasks rounds). */
export type Names = ReadonlyMap<string, string>;

export function namesOf(view: PromptView): Names {
  const names = new Map<string, string>();
  // The live state's pending tasks and a whole round's listing are data; the summaries of compressed rounds, text.
  const listed = (round: RoundView) =>
    round.summarised ? parseTaskListing(round.result) : (toolDataOf(round, "list_tasks")?.tasks ?? []);
  const listings: ReadonlyArray<ReadonlyArray<{ id: string; name: string }>> = [
    liveOverviewOf(view)?.pendingTasks ?? [],
    ...view.rounds.filter((round) => round.name === "list_tasks").map(listed),
  ];
  for (const listing of listings) for (const task of listing) if (task.name) names.set(task.id, task.name);
  return names;
}

/** A whole list_tasks round's listing: its data, or nothing listed when it failed; undefined without data (read again). */
export function listingOfRound(round: RoundView): ListTasksData | undefined {
  return callResultOf(round) === "failed"
    ? { tasks: [], matching: 0, total: 0, omitted: 0 }
    : toolDataOf(round, "list_tasks");
}

/** A task as the policy names it when it speaks: by its name ("Review limits and continuity"), by id only when no listing in view names it. */
export function taskName(id: string, names: Names, language: Language): string {
  const name = names.get(id);
  if (name === undefined) return id;
  return language === "zh" ? `“${name}”` : JSON.stringify(name);
}

/** `text` with the task ids it holds told by their names (for speech made from a summary the policy parses back). */
export function withNames(text: string, names: Names, language: Language): string {
  let told = text;
  for (const [id, name] of names) {
    if (!name || !told.includes(id)) continue;
    const escaped = id.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
    told = told.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, "g"), () => taskName(id, names, language));
  }
  return told;
}
