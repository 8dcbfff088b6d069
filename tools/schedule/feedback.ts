/**
 * Plain-words feedback on a card, as the offline policy and the refinement's task limits (task-limits.ts, which
 * runs with a real model too) understand it:
 * "skip this one", "not Monday", "later in the day", "earlier", "in the
 * evening", "Friday instead" (and their Chinese forms). A day named in a
 * negative sentence is a day to avoid ("Friday is my day off", "I have
 * practice on Friday", "周五我休息", "周五不行", "不要安排在周五"), never the
 * only day. Anything else is `unclear`, and the policy says so instead of
 * guessing.
 */
import { isEmptySelection, normalizeText, readWhere, type DaySelection, type PartOfDay } from "./request-parsing.js";

/** What the feedback asks for. */
export type Feedback =
  | { kind: "none" }
  | { kind: "skip" }
  | { kind: "constrain"; only: DaySelection; not: DaySelection; later: boolean; earlier: boolean; part?: PartOfDay }
  | { kind: "unclear"; text: string };

const SKIP =
  /\b(?:skip|not this one|leave (?:it|this)|don'?t (?:place|schedule|move|do) (?:it|this)|no(?:t)? (?:this|that)|never ?mind|forget (?:it|this)|drop (?:it|this))\b|跳过|不要这个|不用了|算了|先不|别排|不排|不用排/;
const LATER = /\blater\b|\bafter\b|晚一点|晚点|往后|推后|靠后|更晚/;
const EARLIER = /\bearlier\b|\bsooner\b|\bbefore\b|早一点|早点|提前|往前|靠前|更早/;

/** Reads card feedback ("" when the card was rejected without a comment). */
export function parseFeedback(text: string): Feedback {
  const normalized = normalizeText(text);
  if (normalized === "") return { kind: "none" };
  // Days named win over a skip: "don't schedule it on Friday" and "别排周五" avoid Friday, they do not drop the task.
  const where = readWhere(normalized);
  const namesDays = !isEmptySelection(where.only) || !isEmptySelection(where.not);
  if (!namesDays && SKIP.test(normalized)) return { kind: "skip" };
  const later = LATER.test(normalized);
  const earlier = !later && EARLIER.test(normalized);
  // A part of the day named in a negative clause ("I'm busy in the morning") is not where to go.
  const part = where.slots.part;
  if (!namesDays && !later && !earlier && !part) return { kind: "unclear", text: text.trim() };
  const feedback: Feedback = { kind: "constrain", only: where.only, not: where.not, later, earlier };
  if (part) feedback.part = part;
  return feedback;
}

/**
 * Words that make the days a sentence names the user's own days, not one review's: a day off, a day they are busy,
 * away or at work ("Friday is my day off", "I'm busy on Friday", "周五休息", "周五我没空"). "Not Friday" is about the
 * review on the card; these are about every review of the task.
 */
const DAY_OFF =
  /\bdays? off\b|\boff (?:on|every)\b|\b(?:i'?m|i am|i'?ll be|i will be) (?:busy|away|off|out|unavailable|not (?:free|available|around))\b|\bi (?:work|have (?:work|practice|training|a shift|shifts|plans|classes))\b|休息|没空|没时间|没有时间|有事|放假|上班|忙/;

/** The weekdays (1 = Monday) `text` calls the user's days off: for every review of the task, not only the card's. */
export function daysOffIn(text: string): number[] {
  const normalized = normalizeText(text);
  return DAY_OFF.test(normalized) ? readWhere(normalized).not.weekdays : [];
}

/** The feedback a rejected write's result carries ("" for a rejection without a comment). */
export { writeRejectionFeedback as feedbackOfResult } from "../../contracts/rejections.js";

/** True for the result of a write the user rejected. */
export function isRejected(result: string): boolean {
  return result.startsWith("Not applied");
}
