/**
 * Reading the user's answer to a card in the terminal: a choice (approve,
 * edit, reject with feedback, reject without) and, for an edit, the edited
 * tool arguments (JSON) or plan steps. A batch card (several writes) takes
 * one choice for all ("a" accepts all) or one letter per write, in order
 * ("a a r e": approve, approve, reject with feedback, edit — each r asks for
 * its feedback, each e for its arguments; i rejects without feedback). Pure functions from typed text to the
 * v1 `{ decisions }` resume (review/resume.ts).
 */
import { ANSWER_FIELD, type Card } from "../contracts/cards.js";
import { trimEdges } from "../contracts/edge-trim.js";
import { isBlankText } from "../kernel/commands.js";
import type { Language } from "../contracts/language.js";
import { CARD_WORDS, EDIT_MISTAKES, tell, type Words } from "./chat-words.js";
import { isShortConfirmation, isShortDismissal } from "../review/human-response.js";
import {
  approveDecision,
  DECISION_TYPES,
  editDecision,
  rejectDecision,
  type DecisionsResponse,
  type DecisionType,
} from "../review/resume.js";

/** What a line typed at a card means. */
export type CardReply =
  /** A complete answer. */
  | { kind: "answer"; response: DecisionsResponse }
  /** The user chose edit: ask for the edited arguments or plan steps. */
  | { kind: "edit" }
  /**
   * A batch card answered item by item: `decisions` holds one decision per write; ask for the arguments of the
   * writes in `edits` and for the feedback on those in `feedback` (none given: rejected without).
   */
  | { kind: "items"; decisions: DecisionsResponse["decisions"]; edits: number[]; feedback: number[] }
  /** The user chose reject without feedback yet: ask for it. */
  | { kind: "feedback" }
  /** Not an answer this card takes; `message` says what it takes. */
  | { kind: "invalid"; message: string };

/** Result of reading an edit. */
export type EditReading = { ok: true; response: DecisionsResponse } | { ok: false; message: string };

const ACCEPT_WORDS = new Set(["a", "accept", "approve", "y", "yes", "ok", "okay"]);
const EDIT_WORDS = new Set(["e", "edit"]);
const REJECT_WORDS = new Set(["r", "reject", "n", "no"]);
const IGNORE_WORDS = new Set(["i", "ignore", "skip"]);

/** True for a card that asks a question (answered with free text). */
export function isQuestionCard(card: Card): boolean {
  return card.kind === "ask_user";
}

/** True for the plan card. */
export function isPlanCard(card: Card): boolean {
  return card.kind === "confirm_plan";
}

/** True for a write card holding several writes (a batch card). */
export function isBatchCard(card: Card): boolean {
  return card.kind === "confirm_tool" && card.action_requests.length > 1;
}

/** The decisions the card's (first) action allows. */
function allowedOf(card: Card): readonly DecisionType[] {
  const allowed = card.review_configs[0]?.allowed_decisions ?? [];
  return DECISION_TYPES.filter((type) => allowed.includes(type));
}

/**
 * The choices a card allows, as "a approve / e edit / r reject with feedback / i ignore" — in Chinese for a
 * Chinese-speaking user ("a（或“是”“好的”“确认”）批准 / …"): the letter keys work in both, and so do 是 / 好的 / 确认.
 */
export function choicesOf(card: Card, language: Language = "en"): string {
  const say = (words: Words) => tell(language, words);
  if (isQuestionCard(card)) return say(CARD_WORDS.typeAnswer);
  const allowed = allowedOf(card);
  const batch = isBatchCard(card);
  const choices: string[] = [];
  if (allowed.includes("approve")) choices.push(say(CARD_WORDS.approve(batch)));
  if (allowed.includes("edit") && !batch)
    choices.push(say(isPlanCard(card) ? CARD_WORDS.editSteps : CARD_WORDS.editArguments));
  if (allowed.includes("reject")) choices.push(say(CARD_WORDS.reject(batch)), say(CARD_WORDS.ignore(batch)));
  return choices.join(" / ") + (batch ? say(CARD_WORDS.perChange(itemExample(card, "r"))) : "");
}

type Decision = DecisionsResponse["decisions"][number];

/** "a r a a …": one letter per change of a batch card, `letter` at the second. */
function itemExample(card: Card, letter: string): string {
  return card.action_requests.map((_, index) => (index === 1 ? letter : "a")).join(" ");
}

/** The resume deciding every action of `card` the same way (a single-action card has one). */
function decided(decision: Decision, card?: Card): DecisionsResponse {
  return { decisions: Array.from({ length: card?.action_requests.length ?? 1 }, () => decision) };
}

const ITEM_LETTERS: Readonly<Record<string, "approve" | "edit" | "feedback" | "ignore">> = {
  a: "approve",
  y: "approve",
  e: "edit",
  r: "feedback",
  i: "ignore",
  n: "ignore",
};

/** One letter per write of a batch card ("a a r e" or "aare"), or undefined when `text` is not that. */
function readItemLetters(text: string, card: Card): CardReply | undefined {
  const letters = text
    .toLowerCase()
    .replace(/[\s,]+/g, "")
    .split("");
  if (letters.length !== card.action_requests.length || !letters.every((letter) => letter in ITEM_LETTERS))
    return undefined;
  const meanings = letters.map((letter) => ITEM_LETTERS[letter]!);
  const decisions: Decision[] = meanings.map((meaning) =>
    meaning === "approve" ? approveDecision() : rejectDecision(),
  );
  const where = (wanted: string) => meanings.flatMap((meaning, index) => (meaning === wanted ? [index] : []));
  const [edits, feedback] = [where("edit"), where("feedback")];
  if (edits.length + feedback.length > 0) return { kind: "items", decisions, edits, feedback };
  return { kind: "answer", response: { decisions } };
}

/**
 * Reads a line typed at `card`. A question takes any non-empty text; a
 * confirmation card takes a choice word, and `r <feedback>` rejects with
 * the feedback at once.
 */
export function readCardReply(line: string, card: Card, language: Language = "en"): CardReply {
  const text = line.trim();
  if (isQuestionCard(card)) {
    if (isBlankText(text))
      return {
        kind: "invalid",
        message: tell(language, CARD_WORDS.emptyAnswer),
      };
    return {
      kind: "answer",
      response: decided(editDecision(card.action_requests[0]!.name, { [ANSWER_FIELD]: text })),
    };
  }
  const [first = "", ...rest] = text.split(/\s+/);
  // (Trimmed in one pass: `/[:,.!]+$/` is quadratic on a long run of marks that does not reach the end.)
  const word = trimEdges(first.toLowerCase(), /[:,.!]/, "end");
  const feedback = text
    .slice(first.length)
    .replace(/^[\s:,-]+/, "")
    .trim();
  const allowed = allowedOf(card);
  const batch = isBatchCard(card);
  // On a batch card, one letter per write decides each; "a" alone accepts all, "r …" / "i" reject all.
  const items = batch && (rest.length > 0 || word.length > 1) ? readItemLetters(text, card) : undefined;
  if (items) return items;
  // The chat's short answers in either language ("是", "好的", "确认"; "不", "取消"), as a message to a card takes them.
  if (((rest.length === 0 && ACCEPT_WORDS.has(word)) || isShortConfirmation(text)) && allowed.includes("approve"))
    return { kind: "answer", response: decided(approveDecision(), card) };
  // "r" / "no" alone asks for a reason; a dismissal of several words ("reject all", "none of them") does not.
  const asksReason = rest.length === 0 && (REJECT_WORDS.has(word) || IGNORE_WORDS.has(word));
  if (isShortDismissal(text) && !asksReason && allowed.includes("reject"))
    return { kind: "answer", response: decided(rejectDecision(), card) };
  if (rest.length === 0 && EDIT_WORDS.has(word) && allowed.includes("edit")) {
    // On a batch card, an edit names its change: one letter per change.
    if (batch)
      return {
        kind: "invalid",
        message: tell(language, CARD_WORDS.editWhich(card.action_requests.length, itemExample(card, "e"))),
      };
    return { kind: "edit" };
  }
  if (REJECT_WORDS.has(word) && allowed.includes("reject")) {
    return feedback === ""
      ? { kind: "feedback" }
      : { kind: "answer", response: decided(rejectDecision(feedback), card) };
  }
  if (rest.length === 0 && IGNORE_WORDS.has(word) && allowed.includes("reject"))
    return { kind: "answer", response: decided(rejectDecision(), card) };
  return {
    kind: "invalid",
    message: tell(language, CARD_WORDS.answerWith(choicesOf(card, language))),
  };
}

/** The reject-with-feedback answer (for every write of a batch card); empty feedback is refused (use ignore to reject without it). */
export function feedbackResponse(feedback: string, card?: Card, language: Language = "en"): EditReading {
  const text = feedback.trim();
  return isBlankText(text)
    ? {
        ok: false,
        message: tell(language, CARD_WORDS.noFeedback),
      }
    : { ok: true, response: decided(rejectDecision(text), card) };
}

/**
 * Reads edited tool arguments: one JSON object, for the write at `index` of the card (the resume holds that one
 * decision). A mistake is told in `language`.
 */
export function readEditedArguments(text: string, card: Card, index = 0, language: Language = "en"): EditReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return mistake(language, EDIT_MISTAKES.notJson(error instanceof Error ? error.message : String(error)));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return mistake(language, EDIT_MISTAKES.notObject);
  }
  return {
    ok: true,
    response: decided(editDecision(card.action_requests[index]!.name, value as Record<string, unknown>)),
  };
}

/** An edit the card cannot take: what is wrong, in `language`; the card keeps waiting. */
function mistake(language: Language, words: Words): EditReading {
  return { ok: false, message: tell(language, words) };
}

/**
 * Reads edited plan steps: one step a line as `what to do | done when`, or
 * one line holding a JSON list of `{content, done_when}`. A mistake is told in `language`.
 */
export function readEditedPlan(lines: readonly string[], card: Card, language: Language = "en"): EditReading {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== "");
  if (filled.length === 0) return mistake(language, EDIT_MISTAKES.noSteps);
  let steps: Array<{ content: string; done_when: string }>;
  if (filled.length === 1 && filled[0]!.startsWith("[")) {
    try {
      steps = JSON.parse(filled[0]!) as typeof steps;
    } catch (error) {
      return mistake(language, EDIT_MISTAKES.notJson(error instanceof Error ? error.message : String(error)));
    }
    if (
      !Array.isArray(steps) ||
      !steps.every((step) => typeof step?.content === "string" && typeof step?.done_when === "string")
    ) {
      return mistake(language, EDIT_MISTAKES.notStepList);
    }
  } else {
    steps = [];
    for (const [index, line] of filled.entries()) {
      const [content = "", doneWhen = ""] = line.split("|").map((part) => part.trim());
      if (content === "" || doneWhen === "") {
        return mistake(language, EDIT_MISTAKES.stepHalf(index + 1));
      }
      steps.push({ content, done_when: doneWhen });
    }
  }
  return {
    ok: true,
    response: decided(editDecision(card.action_requests[0]!.name, { plan_steps: steps })),
  };
}
