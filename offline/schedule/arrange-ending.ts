/**
 * How the arrange step ends: its summary (everything proposed, what was skipped or left pending and why), and a step that
 * placed nothing while the arrangement left some out reported as not carried out, never as done.
 */
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import { finish, type Decision, type Finish } from "../decisions.js";
import { callResultOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import type { PromptView } from "../prompt-reading.js";
import { summaryInChinese } from "./replies.js";
import type { Language } from "../../contracts/language.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import type { ArrangeMemory } from "./arrange-memory.js";
import { type Names, withNames } from "./arrange-names.js";

/** The latest whole `propose_arrangement` listing of the step (undefined when none, or it was compressed). */
export function latestArrangement(view: PromptView): ScheduleListing | undefined {
  return toolDataOf(
    view.rounds.findLast((round) => round.name === "propose_arrangement"),
    "propose_arrangement",
  );
}

/**
 * The step's summary at its end: what was proposed, skipped and left out (and, when nothing was to do, what was already
 * placed), in English from the summary phrases (`summaryInChinese` reads it back).
 */
export function arrangeSummary(
  memory: Pick<ArrangeMemory, "skip">,
  leftOutEntries: readonly string[],
  note = "",
): string {
  const skipped = memory.skip.length ? `${saySummary("en", "proposedSkipped")}${memory.skip.join(", ")}` : "";
  const leftOut = leftOutEntries.length ? `${saySummary("en", "proposedLeftPending")}${leftOutEntries.join("; ")}` : "";
  return `${saySummary("en", "everyProposed")}${skipped}${leftOut}${note}`;
}

/**
 * The end of the step, with its summary. A step that placed nothing while the backend's arrangement left some of what
 * it asked out (no room where asked: "tonight" when tonight has passed) ended without doing it: not carried out, as
 * every such step is reported, with what it left pending (issue 45, item 3), never told as done.
 */
export function finishArrange(
  view: PromptView,
  memory: ArrangeMemory,
  leftOut: readonly string[],
  end: Finish,
  language: Language,
  names: Names,
  note = "",
): Decision {
  const summary = arrangeSummary(memory, leftOut, note);
  const rest = summary.slice(saySummary("en", "everyProposed").length);
  // The summary keeps ids (it is parsed back); what is said names the tasks.
  const speak = withNames(
    language === "zh"
      ? rest
        ? `${summaryInChinese(summary)}。`
        : "范围内每个待安排的复习任务都已提出安排。"
      : rest
        ? `Every placement that fits was proposed${rest}.`
        : "Every pending review task in scope has been proposed a place.",
    names,
    language,
  );
  const placedAny = view.rounds.some((round) => round.name === "place" && callResultOf(round) === "applied");
  if (!placedAny && leftOut.length > 0 && (latestArrangement(view)?.left?.length ?? 0) > 0)
    return finish(
      end,
      speak,
      notCarriedOut(`${saySummary("en", "placedNone")}${saySummary("en", "proposedLeftPending")}${leftOut.join("; ")}`),
      "nothing the step asked for could be placed",
    );
  return finish(end, speak, summary, "no placement is left to propose");
}
