/**
 * How a write step ends: the last write's outcome in the step's rounds (applied, refused by the tool, rejected by the
 * user), what the policy says of each, and the step's ending when its words name no task.
 */
import { finish, type Decision, type Finish } from "../decisions.js";
import { feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import { appliedWriteSummary, refusalOf, callResultOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { cannotActOn } from "./replies.js";
import type { Dating } from "../../tools/schedule/format.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";

/** The last round, when it is one of the step's writes: applied, rejected or failed. */
export function lastWriteOutcome(
  rounds: RoundView[],
  names: readonly string[],
): { round: RoundView; outcome: "applied" | "rejected" | "failed" } | undefined {
  const last = rounds.at(-1);
  if (!last || !names.includes(last.name)) return undefined;
  return { round: last, outcome: callResultOf(last) };
}

/** What the policy says when a rejected write is left as it was. */
export function unchangedBecause(feedback: ReturnType<typeof parseFeedback>, language: Language): string {
  if (feedback.kind === "unclear")
    return cannotActOn(feedback.text, { en: "so I left it as it was", zh: "所以保持原样" });
  return say(language, "Understood: I left it as it was.", "明白：保持原样。");
}

/**
 * What the policy says when the tool refused a write: nothing of its own — the refusal is the step's summary, and the
 * final answer tells it (`finalAnswer`): a person hears why once, not in a note and again in the answer.
 */
export const REFUSAL_TOLD_IN_ANSWER = "";

export function noTaskMatching(names: string, language: Language): string {
  return say(language, `${noTaskFound(names)}.`, `我没有找到与 ${names} 匹配的任务。`);
}

/** A step's ending when the phrases it was given (`matching`: quoted, joined by ", " and " or ") name no task. */
export function noTaskFound(matching: string): string {
  return saySummary("en", "noTaskFound", { matching });
}

/**
 * How a step of one write ends once its card was answered (undefined while the write is still to propose): applied
 * — the result, its lines joined —, refused by the tool (the answer tells it), or rejected (the user's feedback said
 * back: why nothing changed).
 */
export function writeEnding(
  rounds: RoundView[],
  tools: readonly string[],
  end: Finish,
  dating: Dating,
  language: Language,
  rejected: string = SUMMARY_WORDS.en.rejectedIt,
): Decision | undefined {
  const outcome = lastWriteOutcome(rounds, tools);
  if (!outcome) return undefined;
  if (outcome.outcome === "applied")
    return finish(end, "", appliedWriteSummary(outcome.round, language, dating).replace(/\n- /g, "; "));
  if (outcome.outcome === "failed")
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(outcome.round, "en", dating)));
  const feedback = parseFeedback(feedbackOfResult(outcome.round.result));
  return finish(end, unchangedBecause(feedback, language), notCarriedOut(rejected));
}
