/**
 * Reading the user's answer to a card in the terminal: a choice (accept,
 * edit, reject with feedback, ignore) and, for an edit, the edited tool
 * arguments (JSON) or plan steps. Pure functions from typed text to the
 * `HumanResponse` the graph resumes with.
 */
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";

/** The plan card's action (nodes/interrupt-cards.ts). */
export const PLAN_CARD_ACTION = "confirm_plan";
/** The question card's action (nodes/interrupt-cards.ts). */
export const QUESTION_CARD_ACTION = "ask_user";

/** What a line typed at a card means. */
export type CardReply =
  /** A complete answer. */
  | { kind: "answer"; response: HumanResponse }
  /** The user chose edit: ask for the edited arguments or plan steps. */
  | { kind: "edit" }
  /** The user chose reject without feedback yet: ask for it. */
  | { kind: "feedback" }
  /** Not an answer this card takes; `message` says what it takes. */
  | { kind: "invalid"; message: string };

/** Result of reading an edit. */
export type EditReading = { ok: true; response: HumanResponse } | { ok: false; message: string };

const ACCEPT_WORDS = new Set(["a", "accept", "y", "yes", "ok", "okay"]);
const EDIT_WORDS = new Set(["e", "edit"]);
const REJECT_WORDS = new Set(["r", "reject", "n", "no"]);
const IGNORE_WORDS = new Set(["i", "ignore", "skip"]);

/** True for a card that asks a question (answered with free text). */
export function isQuestionCard(card: HumanInterrupt): boolean {
  return card.action_request.action === QUESTION_CARD_ACTION || onlyResponds(card);
}

/** True for the plan card. */
export function isPlanCard(card: HumanInterrupt): boolean {
  return card.action_request.action === PLAN_CARD_ACTION;
}

function onlyResponds(card: HumanInterrupt): boolean {
  const { allow_accept, allow_edit, allow_ignore, allow_respond } = card.config;
  return allow_respond && !allow_accept && !allow_edit && !allow_ignore;
}

/** The choices a card allows, as "a accept / e edit / r reject with feedback / i ignore". */
export function choicesOf(card: HumanInterrupt): string {
  if (isQuestionCard(card)) return "type your answer";
  const choices: string[] = [];
  if (card.config.allow_accept) choices.push("a accept");
  if (card.config.allow_edit) choices.push(isPlanCard(card) ? "e edit the steps" : "e edit the arguments");
  if (card.config.allow_respond) choices.push("r reject with feedback");
  if (card.config.allow_ignore) choices.push("i ignore");
  return choices.join(" / ");
}

/**
 * Reads a line typed at `card`. A question takes any non-empty text; a
 * confirmation card takes a choice word, and `r <feedback>` rejects with
 * the feedback at once.
 */
export function readCardReply(line: string, card: HumanInterrupt): CardReply {
  const text = line.trim();
  if (isQuestionCard(card)) {
    return text === "" ? { kind: "invalid", message: "Type your answer to the question." } : { kind: "answer", response: { type: "response", args: text } };
  }
  const [first = "", ...rest] = text.split(/\s+/);
  const word = first.toLowerCase().replace(/[:,.!]+$/, "");
  const feedback = text.slice(first.length).replace(/^[\s:,-]+/, "").trim();
  const { allow_accept, allow_edit, allow_respond, allow_ignore } = card.config;
  if (rest.length === 0 && ACCEPT_WORDS.has(word) && allow_accept) return { kind: "answer", response: { type: "accept", args: null } };
  if (rest.length === 0 && EDIT_WORDS.has(word) && allow_edit) return { kind: "edit" };
  if (REJECT_WORDS.has(word) && allow_respond) {
    return feedback === "" ? { kind: "feedback" } : { kind: "answer", response: { type: "response", args: feedback } };
  }
  if (rest.length === 0 && IGNORE_WORDS.has(word) && allow_ignore) return { kind: "answer", response: { type: "ignore", args: null } };
  return { kind: "invalid", message: `Answer with ${choicesOf(card)} (or a /command).` };
}

/** The reject-with-feedback answer; empty feedback is refused (use ignore to reject without it). */
export function feedbackResponse(feedback: string): EditReading {
  const text = feedback.trim();
  return text === "" ? { ok: false, message: "No feedback given; the card is still waiting." } : { ok: true, response: { type: "response", args: text } };
}

/** Reads edited tool arguments: one JSON object. */
export function readEditedArguments(text: string, card: HumanInterrupt): EditReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON (${error instanceof Error ? error.message : String(error)}); the card is still waiting.` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: "The arguments must be a JSON object, e.g. {\"day\": 2}; the card is still waiting." };
  }
  return { ok: true, response: { type: "edit", args: { action: card.action_request.action, args: value as Record<string, unknown> } } };
}

/**
 * Reads edited plan steps: one step a line as `what to do | done when`, or
 * one line holding a JSON list of `{content, done_when}`.
 */
export function readEditedPlan(lines: readonly string[], card: HumanInterrupt): EditReading {
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
  const goal = (card.action_request.args as { goal?: unknown }).goal;
  return {
    ok: true,
    response: { type: "edit", args: { action: card.action_request.action, args: { ...(typeof goal === "string" ? { goal } : {}), plan_steps: steps } } },
  };
}
