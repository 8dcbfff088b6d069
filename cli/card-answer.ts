/**
 * Reading the user's answer to a card in the terminal: a choice (approve,
 * edit, reject with feedback, reject without) and, for an edit, the edited
 * tool arguments (JSON) or plan steps. Pure functions from typed text to the
 * v1 `{ decisions }` resume of the card contract (contracts/cards.ts).
 */
import { ANSWER_FIELD, type Card, type DecisionsResponse, type DecisionType } from "../contracts/cards.js";

/** What a line typed at a card means. */
export type CardReply =
  /** A complete answer. */
  | { kind: "answer"; response: DecisionsResponse }
  /** The user chose edit: ask for the edited arguments or plan steps. */
  | { kind: "edit" }
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

/** The decisions the card's (first) action allows. */
function allowedOf(card: Card): readonly DecisionType[] {
  return card.review_configs[0]?.allowed_decisions ?? [];
}

/** The choices a card allows, as "a approve / e edit / r reject with feedback / i ignore". */
export function choicesOf(card: Card): string {
  if (isQuestionCard(card)) return "type your answer";
  const allowed = allowedOf(card);
  const choices: string[] = [];
  if (allowed.includes("approve")) choices.push("a approve");
  if (allowed.includes("edit")) choices.push(isPlanCard(card) ? "e edit the steps" : "e edit the arguments");
  if (allowed.includes("reject")) choices.push("r reject with feedback", "i ignore (reject without)");
  return choices.join(" / ");
}

/** The one-decision resume for a single-action card. */
function decided(decision: DecisionsResponse["decisions"][number]): DecisionsResponse {
  return { decisions: [decision] };
}

/**
 * Reads a line typed at `card`. A question takes any non-empty text; a
 * confirmation card takes a choice word, and `r <feedback>` rejects with
 * the feedback at once.
 */
export function readCardReply(line: string, card: Card): CardReply {
  const text = line.trim();
  if (isQuestionCard(card)) {
    if (text === "") return { kind: "invalid", message: "Type your answer to the question." };
    return { kind: "answer", response: decided({ type: "edit", edited_action: { name: card.action_requests[0]!.name, args: { [ANSWER_FIELD]: text } } }) };
  }
  const [first = "", ...rest] = text.split(/\s+/);
  const word = first.toLowerCase().replace(/[:,.!]+$/, "");
  const feedback = text.slice(first.length).replace(/^[\s:,-]+/, "").trim();
  const allowed = allowedOf(card);
  if (rest.length === 0 && ACCEPT_WORDS.has(word) && allowed.includes("approve")) return { kind: "answer", response: decided({ type: "approve" }) };
  if (rest.length === 0 && EDIT_WORDS.has(word) && allowed.includes("edit")) return { kind: "edit" };
  if (REJECT_WORDS.has(word) && allowed.includes("reject")) {
    return feedback === "" ? { kind: "feedback" } : { kind: "answer", response: decided({ type: "reject", message: feedback }) };
  }
  if (rest.length === 0 && IGNORE_WORDS.has(word) && allowed.includes("reject")) return { kind: "answer", response: decided({ type: "reject" }) };
  return { kind: "invalid", message: `Answer with ${choicesOf(card)} (or a /command).` };
}

/** The reject-with-feedback answer; empty feedback is refused (use ignore to reject without it). */
export function feedbackResponse(feedback: string): EditReading {
  const text = feedback.trim();
  return text === "" ? { ok: false, message: "No feedback given; the card is still waiting." } : { ok: true, response: decided({ type: "reject", message: text }) };
}

/** Reads edited tool arguments: one JSON object. */
export function readEditedArguments(text: string, card: Card): EditReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); the card is still waiting.` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: "The arguments must be a JSON object, e.g. {\"day\": 2}; the card is still waiting." };
  }
  return { ok: true, response: decided({ type: "edit", edited_action: { name: card.action_requests[0]!.name, args: value as Record<string, unknown> } }) };
}

/**
 * Reads edited plan steps: one step a line as `what to do | done when`, or
 * one line holding a JSON list of `{content, done_when}`.
 */
export function readEditedPlan(lines: readonly string[], card: Card): EditReading {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== "");
  if (filled.length === 0) return { ok: false, message: "No steps given; the card is still waiting." };
  let steps: Array<{ content: string; done_when: string }>;
  if (filled.length === 1 && filled[0]!.startsWith("[")) {
    try {
      steps = JSON.parse(filled[0]!) as typeof steps;
    } catch (error) {
      return { ok: false, message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); the card is still waiting.` };
    }
    if (!Array.isArray(steps) || !steps.every((step) => typeof step?.content === "string" && typeof step?.done_when === "string")) {
      return { ok: false, message: "The JSON must be a list of {\"content\": \"...\", \"done_when\": \"...\"}; the card is still waiting." };
    }
  } else {
    steps = [];
    for (const [index, line] of filled.entries()) {
      const [content = "", doneWhen = ""] = line.split("|").map((part) => part.trim());
      if (content === "" || doneWhen === "") {
        return { ok: false, message: `Step ${index + 1} needs both parts: "what to do | done when"; the card is still waiting.` };
      }
      steps.push({ content, done_when: doneWhen });
    }
  }
  return { ok: true, response: decided({ type: "edit", edited_action: { name: card.action_requests[0]!.name, args: { plan_steps: steps } } }) };
}
