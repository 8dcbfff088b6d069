/**
 * Waiting for a human: raising a card with `interrupt()` and reading the
 * answer through the card contract (contracts/cards.ts: v1 decisions, the
 * legacy HumanResponse, or text for a question). A value that does not fit
 * gets an `InvalidResumeError`, one addressed to another card a
 * `StaleResumeError`, and the interrupt stays open: the check runs as the
 * interrupt's `responseSchema`, so LangGraph records no resume for the task
 * and the next resume is read afresh.
 */
import { RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { interrupt, isGraphInterrupt, isInvalidResume, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { Card, CardResume } from "../contracts/cards.js";
import { trimEdges } from "../contracts/edge-trim.js";
import { escapedText } from "../contracts/storable-text.js";
import { InvalidResumeError, TempoError } from "../errors/index.js";
import type { PendingInteraction, TempoUpdate } from "../kernel/state.js";
import { emit } from "../streaming/events.js";
import {
  approveDecision,
  readResume,
  rejectDecision,
  verdictOf,
  type AnswerVerdict,
  type ReadableCard,
} from "./resume.js";

/**
 * `update` with the note of a refused answer to `pending`'s card removed (server/run-guard.ts writes it while the
 * card waits): the card is answered, so the note has done its job, and a proposal's calls get their answers right
 * after them again. `update` as it is when there is no note.
 */
export function withRefusalNoteRemoved(pending: PendingInteraction | null, update: TempoUpdate): TempoUpdate {
  const id = pending?.refusalNoteId;
  if (!id || Object.keys(update).length === 0) return update;
  return {
    ...update,
    messages: [new RemoveMessage({ id }), ...((update.messages as BaseMessage[] | undefined) ?? [])],
  };
}

/**
 * Keys an edit sent that its card does not take, as a refusal names them: the first three, quoted and escaped (no
 * control character reaches the message), each cut to 60 characters, and how many more there are.
 */
export function namedKeys(keys: readonly string[]): string {
  const named = keys.slice(0, 3).map((key) => {
    const escaped = escapedText(key);
    return `"${escaped.length > 60 ? `${escaped.slice(0, 59)}…` : escaped}"`;
  });
  return `${named.join(", ")}${keys.length > 3 ? ` and ${keys.length - 3} more` : ""}`;
}

/** Throws an InvalidResumeError describing what was expected. */
export function rejectResume(message: string, details?: Record<string, unknown>): never {
  throw new InvalidResumeError(message, details);
}

/**
 * A card built whole only when it is raised: its answer is read against `outline` (what reading needs of it), so a
 * resumed node does not build the card's descriptions and edit forms again only to read its answer.
 */
export interface UnbuiltCard {
  outline: ReadableCard;
  build: () => Card;
}

/**
 * Raises `card` with `interrupt()` — or takes `answered` when the answer came
 * as a plain message — and returns `read(answers)`, one answer per action
 * request, each read through its verdict (resume.ts's `verdictOf`: no reader names a decision kind). `read` validates and throws `InvalidResumeError`; a refused resume
 * leaves the interrupt open. When the card is raised (an {@link UnbuiltCard} is built then), its `card_id` is set to
 * the LangGraph interrupt id and it goes to the custom stream from `node`.
 */
export function awaitHuman<T>(
  given: Card | UnbuiltCard,
  answered: unknown,
  read: (answers: AnswerVerdict[]) => T,
  config?: LangGraphRunnableConfig,
  node = "confirm",
): T {
  const outline = "outline" in given ? given.outline : given;
  if (answered !== null && answered !== undefined) return read(readResume(outline, answered).decisions.map(verdictOf));
  // The resume is read once, inside the schema LangGraph checks it with; the value `interrupt()` returns is not read again.
  let taken: { value: T } | undefined;
  let refusal: TempoError | undefined;
  const responseSchema = z.unknown().superRefine((value, context) => {
    try {
      taken = { value: read(readResume(outline, value).decisions.map(verdictOf)) };
    } catch (error) {
      if (!(error instanceof TempoError)) throw error;
      refusal = error;
      context.addIssue({ code: "custom", message: error.message });
    }
  });
  // The value `interrupt()` raises: an unbuilt card is built into it once the interrupt is thrown (on a resume
  // `interrupt()` returns the answer and the value is never read), before LangGraph records it.
  const card = "outline" in given ? ({} as Card) : given;
  try {
    interrupt(card, { responseSchema });
  } catch (error) {
    if (isGraphInterrupt(error)) {
      if ("outline" in given) Object.assign(card, given.build());
      // The card's id is the interrupt id LangGraph gave this wait: clients see it in the value and answer by it.
      const raised = error.interrupts.find((pending) => pending.value === card);
      if (raised?.id) card.card_id = raised.id;
      // A copy: the event must not share the interrupt's value object (the server's protocol stream
      // stalls a useStream client when the same object arrives as a custom event and as the interrupt).
      const event = structuredClone(card);
      emit(
        config,
        card.kind === "ask_user"
          ? { kind: "interrupt", node, interrupt: event }
          : { kind: "confirm_request", node, interrupt: event },
      );
      throw error;
    }
    if (!isInvalidResume(error)) throw error;
    if (refusal) throw refusal;
    const issue = (error as { issues?: Array<{ message: string }> }).issues?.[0]?.message;
    throw new InvalidResumeError(
      issue ?? "Invalid resume value.",
      { interrupt: outline.action_requests[0]!.name },
      { cause: error },
    );
  }
  if (!taken)
    throw new InvalidResumeError("The resume value was not read.", { interrupt: outline.action_requests[0]!.name });
  return taken.value;
}

const SHORT_CONFIRMATIONS = new Set([
  "yes",
  "y",
  "ok",
  "okay",
  "sure",
  "confirm",
  "confirmed",
  "go",
  "go ahead",
  "do it",
  "accept",
  "approve",
  // A batch card's whole answer, as people type it rather than the letter "a".
  "accept all",
  "approve all",
  "yes to all",
  "yes all",
  "all",
  "all of them",
  "looks good",
  "sounds good",
  "continue",
  "proceed",
  "lgtm",
  "是",
  "是的",
  "好",
  "好的",
  "行",
  "可以",
  "确认",
  "继续",
  "嗯",
  "对",
  "没问题",
  "全部接受",
  "全部同意",
  "都同意",
  "都可以",
]);
const SHORT_DISMISSALS = new Set([
  "no",
  "n",
  "cancel",
  "stop",
  "skip",
  "ignore",
  "reject all",
  "ignore all",
  "no to all",
  "none",
  "none of them",
  "never mind",
  "nevermind",
  "nvm",
  "forget it",
  "cancel it",
  "cancel that",
  "不",
  "不要",
  "取消",
  "算了",
  "算了吧",
  "不用了",
  "跳过",
  "全部拒绝",
  "都不要",
]);

/**
 * Answers to a question that withdraw the request itself ("never mind", "算了"): narrower than the dismissals, since
 * "no" or "skip" can answer a question.
 */
const WITHDRAWALS = new Set([
  "never mind",
  "nevermind",
  "forget it",
  "forget about it",
  "cancel",
  "cancel it",
  "cancel that",
  "stop",
  "drop it",
  "leave it",
  "取消",
  "算了",
  "算了吧",
  "不用了",
  "不要了",
  "不做了",
  "没事了",
]);
/** Normalises a short reply for matching: lower case, no surrounding punctuation or spaces. */
function normalise(text: string): string {
  // In one pass each way: a regular expression's `[…]+$` is quadratic on a long reply (contracts/edge-trim.ts).
  return trimEdges(text.trim().toLowerCase(), /[\s"'“”‘’.,!?。！？，~]/);
}

/** True for short confirmations ("yes", "ok", "是", "好", "继续"), recognised in code, not by the model. */
export function isShortConfirmation(text: string): boolean {
  return SHORT_CONFIRMATIONS.has(normalise(text));
}

/** True for an answer that withdraws the request the question was about ("never mind", "forget it", "算了"). */
export function isWithdrawal(text: string): boolean {
  return WITHDRAWALS.has(normalise(text));
}

/** True for short dismissals ("no", "cancel", "never mind", "nvm", "取消", "算了"). */
export function isShortDismissal(text: string): boolean {
  return SHORT_DISMISSALS.has(normalise(text));
}

/**
 * Turns a plain user message, sent while a card is open, into the resume it stands for — the one place a reply by
 * message is translated: an answer to a question is its text; on a plan or write card (of `actions` action requests)
 * a short confirmation approves every action, a dismissal rejects them without comment, and anything else rejects them
 * with the text as feedback.
 */
export function replyAsResume(
  text: string,
  kind: "confirm_plan" | "confirm_tool" | "ask_user",
  actions: number,
): CardResume {
  if (kind === "ask_user") return text;
  const decision = isShortConfirmation(text) ? approveDecision() : rejectDecision(isShortDismissal(text) ? "" : text);
  return { decisions: Array.from({ length: Math.max(1, actions) }, () => decision) };
}
