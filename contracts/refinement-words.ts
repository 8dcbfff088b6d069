/**
 * The refinement loop's own words (`nodes/execute/refinement.ts` `refinementSummary`: what a refinement step gained and
 * why the code stopped it), one table a language, each phrase a template with `{named}` places (issue 45), as
 * `contracts/report-words.ts` is for the task report.
 *
 * It lives in the foundation, not beside the schedule's summary phrases (`tools/schedule/summary-phrases.ts`): the
 * loop is domain-neutral (`nodes/` imports no tool domain), so its words cannot be one domain's. A domain that says
 * step summaries in Chinese reads the loop's English back against these templates (the schedule's
 * `summaryInChinese` does), so a reworded phrase is read back as it is now written.
 *
 * A summary is a head, the reason it stopped, then what is forced: `{head}{why}{forced}` — each its own phrase, so
 * each reads back on its own (the reason and what is forced are lists a domain may word, after the head).
 */
import { fill, type Language, type Params } from "./language.js";

const EN = {
  // The heads, by what the loop did.
  refined: "refined in {rounds} round(s): health score {from} → {to}; stopped: ",
  refinedPlaced: "refined in {rounds} round(s): {placed} more placed; health score {from} → {to}; stopped: ",
  notRefined: "not refined: health score {from}, {offered} listed change(s) not taken; stopped: ",
  notRefinedAny: "not refined: health score {from}, the listed change(s) not taken; stopped: ",
  nothingToRefine: "nothing to refine: health score {from}; stopped: ",
  // Why the code stopped the loop (`Optimization.verdict`).
  forced: "no change raises the score any more",
  stagnant: "no gain of {gain} or more in {rounds} rounds in a row",
  budget: "the budget of {rounds} rounds is spent",
  passed: "none of the listed changes was taken in {turns} turns in a row",
  // What no change can fix: by id for the model, in general for a person.
  forcedNamed: "; forced, no change can fix: ",
  forcedInGeneral: "; some problems are proved beyond any change",
} as const;

/** A phrase of the refinement's summary, by its key. */
export type RefinementKey = keyof typeof EN;

const ZH: Readonly<Record<RefinementKey, string>> = {
  refined: "优化了 {rounds} 轮：健康分 {from} → {to}；停止原因：",
  refinedPlaced: "优化了 {rounds} 轮：多安排了 {placed} 项；健康分 {from} → {to}；停止原因：",
  notRefined: "未优化：健康分 {from}，列出的 {offered} 项调整没有采用；停止原因：",
  notRefinedAny: "未优化：健康分 {from}，列出的调整没有采用；停止原因：",
  nothingToRefine: "无需优化：健康分 {from}；停止原因：",
  forced: "没有调整能再提高分数",
  stagnant: "连续 {rounds} 轮提升不足 {gain}",
  budget: "{rounds} 轮的优化预算已用完",
  passed: "连续 {turns} 轮没有选择列出的调整",
  forcedNamed: "；无法改善（已证明）：",
  forcedInGeneral: "；有些问题已证明无法通过调整改善",
};

/** The refinement's phrases, a table a language. */
export const REFINEMENT_WORDS: Readonly<Record<Language, Readonly<Record<RefinementKey, string>>>> = { en: EN, zh: ZH };

/** The heads of a refinement's summary, read at its start. */
export const REFINEMENT_HEADS: readonly RefinementKey[] = [
  "refinedPlaced",
  "refined",
  "notRefined",
  "notRefinedAny",
  "nothingToRefine",
];

/** The reasons the loop stopped, read anywhere after the head. */
export const REFINEMENT_STOPS: readonly RefinementKey[] = ["forced", "stagnant", "budget", "passed"];

/** The phrase `key` in `language`, its places filled from `params`. */
export function sayRefinement(language: Language, key: RefinementKey, params: Params = {}): string {
  return fill(REFINEMENT_WORDS[language][key], params);
}
