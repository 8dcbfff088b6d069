/**
 * Reading a card's answer (issue 45: one room for a card's answer). Whatever shape a resume came in — v1 decisions,
 * the legacy `HumanResponse` alone or in a list, a question's plain text, LangGraph's resume map — it is read ONCE
 * into the canonical {@link ReadResume} `{ card_id, decisions }`, one {@link CardAnswer} per action request, and
 * every later step takes that value:
 *
 * - at a run's admission (`admitResume`, called by server/run-admission.ts) the resume is read against the card the
 *   thread waits on, and the run's Command carries the canonical value instead of what was sent: the echoed
 *   arguments are compared with the card there, once, and whether the answer names its card is read from it;
 * - the node that raised the card (`awaitHuman`, human-response.ts) takes the canonical value as it is — a value
 *   already read passes `readResume` after a check that it fits the card, without being parsed again. A value no
 *   admission read (a reply by message, a graph without a checkpointer, a resume recorded by an older Tempo in a
 *   saved thread, or an answer that does not fit, refused there with its INVALID_RESUME) is read there, the same way.
 *
 * The resume's wire schemas (v1 decisions, the legacy `HumanResponse`) are here, beside their one reader; the card's
 * stay in contracts/cards.ts.
 */
import { z } from "zod";
import {
  ActionRequestSchema,
  ANSWER_FIELD,
  ASK_USER_ACTION,
  CardSchema,
  ReviewConfigSchema,
} from "../contracts/cards.js";
import { fromJsonText } from "../contracts/json-extraction.js";
import { isBlankText } from "../kernel/commands.js";
import { InvalidResumeError, StaleResumeError } from "../errors/index.js";
import { canonicalJson } from "./canonical-json.js";

// ── The resume's wire schemas (a card's answer as clients send it) ──────

/** LangChain v1's decision types. */
export const DECISION_TYPES = ["approve", "edit", "reject"] as const;
export type DecisionType = (typeof DECISION_TYPES)[number];

const ArgumentsSchema = z.record(z.string(), z.unknown());

const EditedActionSchema = z.object({ name: z.string().min(1), args: ArgumentsSchema });

/** A v1 decision on one action request. */
export const DecisionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("approve") }),
  z
    .object({
      type: z.literal("edit"),
      edited_action: EditedActionSchema.optional(),
      editedAction: EditedActionSchema.optional(),
    })
    .refine((decision) => decision.edited_action !== undefined || decision.editedAction !== undefined, {
      message: "an edit needs edited_action: { name, args }",
    }),
  z.object({ type: z.literal("reject"), message: z.string().optional() }),
]);
export type Decision = z.infer<typeof DecisionSchema>;

/** A v1 resume: one decision per action request of the card. */
export const DecisionsResponseSchema = z.object({
  decisions: z.array(DecisionSchema).min(1).describe("One decision per action request, in order."),
  card_id: z.string().optional().describe("The card answered; refused as stale when it is not the pending card."),
});
export type DecisionsResponse = z.infer<typeof DecisionsResponseSchema>;

/** The legacy `HumanResponse` (LangGraph prebuilt, Agent Inbox). */
export const HumanResponseSchema = z.object({
  type: z.enum(["accept", "ignore", "response", "edit"]),
  args: z.union([z.null(), z.string(), z.object({ action: z.string(), args: ArgumentsSchema })]).optional(),
});
export type HumanResponse = z.infer<typeof HumanResponseSchema>;

/** What one action request was answered with, whatever shape the resume had. */
export type CardAnswer =
  | { type: "approve" }
  /** Edited arguments as sent (edit forms send every value as text: see {@link parseTextValues}). */
  | { type: "edit"; args: Record<string, unknown> }
  /** Rejected; `message` is the feedback, "" when there is none (the legacy ignore). */
  | { type: "reject"; message: string }
  /** The text answer to a question. */
  | { type: "answer"; text: string }
  /** Not decided by this resume (a lone legacy response on a card of several): the action stays on the next card. */
  | { type: "later" };

/**
 * What one answer asks of its action, whatever kind it came as (v1's approve / edit / reject, the legacy accept /
 * ignore / response, a question's text): the one classifier the cards' readers take an answer through, so a new kind
 * is taught here (and to the decisions a card allows, interrupt-cards.ts), not to each card's reader.
 */
export type AnswerVerdict =
  /** Go ahead: as proposed, or with `args` (an edit's arguments as sent) in place of the proposal's. */
  | { verdict: "go"; args?: Record<string, unknown> }
  /** Declined; `feedback` says why, "" when nothing was said. */
  | { verdict: "decline"; feedback: string }
  /** A question's text answer. */
  | { verdict: "reply"; text: string }
  /** Not decided by this answer: the action stays on the next card. */
  | { verdict: "later" };

/** The verdict of one canonical answer (see {@link AnswerVerdict}). */
export function verdictOf(answer: CardAnswer): AnswerVerdict {
  switch (answer.type) {
    case "approve":
      return { verdict: "go" };
    case "edit":
      return { verdict: "go", args: answer.args };
    case "reject":
      return { verdict: "decline", feedback: answer.message };
    case "answer":
      return { verdict: "reply", text: answer.text };
    case "later":
      return { verdict: "later" };
  }
}

// ── Building an answer as a client sends it ──────

/** An approval, as a v1 decision (the terminal chat, the eval's scripted user and a reply by message build here). */
export function approveDecision(): Decision {
  return { type: "approve" };
}

/** A rejection, as a v1 decision: with `message` as its feedback, or without any. */
export function rejectDecision(message?: string): Decision {
  return message === undefined ? { type: "reject" } : { type: "reject", message };
}

/** An edit of action `name`, as a v1 decision: `args` in place of the card's arguments (a question: its answer field). */
export function editDecision(name: string, args: Record<string, unknown>): Decision {
  return { type: "edit", edited_action: { name, args } };
}

/** The legacy accept that echoes nothing (Agent Inbox's accept with null args): it approves every action of a card. */
export const ACCEPT_EVERY_ACTION = Object.freeze({ type: "accept", args: null } as const);

/** A resume as Tempo reads it, once: the card it names (when it names one) and one answer per action request. */
export interface ReadResume {
  /** The card the answer named (its `card_id`, or the interrupt id of a resume map); absent for an anonymous answer. */
  card_id?: string;
  decisions: CardAnswer[];
}

/** The canonical value as it travels in a run's Command and a checkpoint's resume (strict: nothing else fits it). */
const ReadResumeSchema = z.strictObject({
  card_id: z.string().optional(),
  decisions: z
    .array(
      z.discriminatedUnion("type", [
        z.strictObject({ type: z.literal("approve") }),
        z.strictObject({ type: z.literal("edit"), args: z.record(z.string(), z.unknown()) }),
        z.strictObject({ type: z.literal("reject"), message: z.string() }),
        z.strictObject({ type: z.literal("answer"), text: z.string() }),
        z.strictObject({ type: z.literal("later") }),
      ]),
    )
    .min(1),
});

/**
 * Reads `value` as the answer to `card`, once: the canonical {@link ReadResume}. Throws `StaleResumeError` when the
 * value names another card, and `InvalidResumeError` when it does not fit this one. A value already read (the
 * canonical shape) is checked against the card and taken as it is.
 */
export function readResume(card: ReadableCard, value: unknown): ReadResume {
  const named = assertAddressedTo(card, value);
  const read = ReadResumeSchema.safeParse(value);
  if (read.success) return { ...named, decisions: fitting(card, read.data.decisions) };
  return { ...named, decisions: answersOf(card, value) };
}

/** Reads `value` as the answer to `card`: one {@link CardAnswer} per action request (`readResume`'s decisions). */
export function readCardResume(card: ReadableCard, value: unknown): CardAnswer[] {
  return readResume(card, value).decisions;
}

/** Already-read answers, checked against `card`: one per action request, each of a kind the card allows. */
function fitting(card: ReadableCard, answers: CardAnswer[]): CardAnswer[] {
  if (answers.length !== card.action_requests.length) countMismatch(card, answers.length, "decision(s)");
  const question = card.kind === "ask_user";
  return answers.map((answer, index) => {
    const allowed = card.review_configs[index]?.allowed_decisions ?? [];
    const fits =
      answer.type === "answer"
        ? question && !isBlankText(answer.text)
        : answer.type === "later"
          ? answers.length > 1 && answers.some((other) => other.type !== "later")
          : !question && allowed.includes(answer.type);
    if (!fits) notAllowed(card, index, answer.type);
    // Feedback is kept trimmed, as a rejection read from any other shape is.
    return answer.type === "reject" ? { type: "reject", message: feedbackOf(answer.message) } : answer;
  });
}

/** Reads a resume of any shape the contract takes (not yet read) as one answer per action request of `card`. */
function answersOf(card: ReadableCard, value: unknown): CardAnswer[] {
  const question = card.kind === "ask_user";
  if (typeof value === "string") {
    if (question && !isBlankText(value)) return [{ type: "answer", text: value }];
    invalid(card, value);
  }
  const decisions = DecisionsResponseSchema.safeParse(value);
  if (decisions.success) {
    const list = decisions.data.decisions;
    if (list.length !== card.action_requests.length) countMismatch(card, list.length, "decision(s)");
    return list.map((decision, index) => readDecision(card, index, decision));
  }
  const legacy = z.union([HumanResponseSchema, z.array(HumanResponseSchema).min(1)]).safeParse(value);
  if (legacy.success) {
    const responses = Array.isArray(legacy.data) ? legacy.data : [legacy.data];
    if (responses.length !== 1 && responses.length !== card.action_requests.length) {
      throw new InvalidResumeError(
        `The card has ${card.action_requests.length} action(s) but ${responses.length} responses came.`,
        { expected: card.action_requests.length },
      );
    }
    // A lone response that names the action it answers (Agent Inbox's accept and edit echo `{ action, args }`) decides
    // that one — the first, what a legacy client shows — and the rest wait for the next card. One that names none
    // (accept with null args, ignore, a response's text) decides every action request alike.
    if (responses.length === 1 && card.action_requests.length > 1 && echoOf(responses[0], 0).length > 0) {
      return card.action_requests.map((_, index) =>
        index === 0 ? readHumanResponse(card, 0, responses[0]!) : { type: "later" as const },
      );
    }
    if (responses.length === 1 && card.action_requests.length > 1 && responses[0]!.type === "edit") {
      throw new InvalidResumeError(
        `The card holds ${card.action_requests.length} writes: an edit names the one it changes in args { action, args }.`,
        { expected: ["edit"] },
      );
    }
    return card.action_requests.map((_, index) =>
      readHumanResponse(card, index, responses[responses.length === 1 ? 0 : index]!),
    );
  }
  invalid(card, value);
}

/**
 * Throws `StaleResumeError` when `value` names a card other than `card`: a
 * `card_id`, or an echoed action request (Agent Inbox's accept and edit send
 * `{ action, args }` back; a v1 edit names its action) that is not this card's. The echoed arguments are compared
 * with the card's here, the one place they are. Returns the card id the value names, if any.
 */
function assertAddressedTo(card: ReadableCard, value: unknown): { card_id?: string } {
  const named = namedTarget(value);
  if (named.cardId !== undefined && card.card_id !== undefined && named.cardId !== card.card_id) {
    stale(card, `it answers card ${named.cardId}`);
  }
  for (const echo of named.echoes) {
    const request = card.action_requests[echo.index];
    if (!request) continue;
    if (echo.action !== request.name) stale(card, `it answers a ${echo.action} card`);
    if (echo.args !== undefined && !sameArguments(echo.args, request.args))
      stale(card, `it accepts ${echo.action} with other arguments than the card shows`);
  }
  return named.cardId === undefined ? {} : { card_id: named.cardId };
}

/** LangGraph's interrupt ids: 32 lower-case hex digits (its resume-map keys). */
const INTERRUPT_ID_PATTERN = /^[0-9a-f]{32}$/;

/**
 * What an answer is read against, and all that is read of its card: its id, its kind, each action's name and
 * arguments, and the decisions each allows. A raised card (contracts/cards.ts's `Card`) is one; so is a write card's
 * outline (interrupt-cards.ts's `writeCardOutline`), which the node reads an answer against without building the
 * card's descriptions and edit forms again.
 */
const ReadableCardSchema = z.object({
  card_id: CardSchema.shape.card_id,
  kind: CardSchema.shape.kind,
  action_requests: z.array(ActionRequestSchema.pick({ name: true, args: true })).min(1),
  review_configs: z.array(ReviewConfigSchema.pick({ allowed_decisions: true })).min(1),
});
export type ReadableCard = z.infer<typeof ReadableCardSchema>;

/** True for LangGraph's resume map `{ [interruptId]: value }` (what `useStream`'s `respond(value, { interruptId })` sends). */
export function isResumeMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => INTERRUPT_ID_PATTERN.test(key));
}

/** An interrupt a thread waits on, as a state snapshot lists it. */
export interface PendingInterrupt {
  id?: string;
  value?: unknown;
}

/** A resume as a run's admission leaves it: the value to run with, and whether it names the card it answers. */
export interface AdmittedResume {
  /** The canonical value (or resume map of them) where the card was known and the answer fits it; else as sent. */
  resume: unknown;
  /** True when the answer names its card: a resume map keyed by interrupt id, or a `card_id`. */
  namesCard: boolean;
}

/**
 * Reads a run's resume once, at its admission, against the cards the thread waits on (`pending`). Refuses, with
 * `StaleResumeError`, a resume bound to a card the thread does not wait on: a resume map naming an interrupt id that
 * is not pending, or a value whose `card_id` or echoed action is not the pending card's. An anonymous value names no
 * card and answers the current one. Where the card is known the value is read (`readResume`) and the canonical one
 * goes on; one that does not fit goes on as it was sent, for the card's node to refuse with its INVALID_RESUME (a
 * served thread then raises its card again). Run before anything is written.
 */
export function admitResume(resume: unknown, pending: readonly PendingInterrupt[]): AdmittedResume {
  if (isResumeMap(resume)) {
    const read = Object.entries(resume).map(([id, value]) => {
      const target = pending.find((candidate) => candidate.id === id);
      if (!target) {
        throw new StaleResumeError(
          `This answer is addressed to interrupt ${id}, which the thread no longer waits on (it was answered, or never raised); nothing was changed. ` +
            (pending.length
              ? `The thread waits on ${pending.map((candidate) => candidate.id).join(", ")}.`
              : "The thread waits on no card."),
          { interruptId: id, pending: pending.map((candidate) => candidate.id) },
        );
      }
      return [id, readIfFits(target, value, id)] as const;
    });
    return { resume: Object.fromEntries(read), namesCard: true };
  }
  const named = namedTarget(resume);
  if ((named.cardId !== undefined || named.echoes.length > 0) && pending.length === 0) {
    throw new StaleResumeError(
      "This answer is for a card the thread no longer waits on (it waits on none); nothing was changed.",
      { cardId: named.cardId },
    );
  }
  const read = pending.length === 1 ? readIfFits(pending[0]!, resume) : resume;
  return { resume: read, namesCard: named.cardId !== undefined };
}

/**
 * `value` read as the answer to the card of `target` (its card id the interrupt's; `mapped`: the id a resume map
 * named it by), or `value` as it is when `target` holds no Tempo card or the value does not fit it.
 */
function readIfFits(target: PendingInterrupt, value: unknown, mapped?: string): unknown {
  // Only what the answer is read against is parsed of the raised card (not its descriptions and edit forms).
  const parsed = ReadableCardSchema.safeParse(target.value);
  if (!parsed.success) return value;
  const card = parsed.data;
  try {
    const read = readResume({ ...card, card_id: target.id ?? card.card_id }, value);
    return mapped === undefined ? read : { ...read, card_id: mapped };
  } catch (error) {
    if (error instanceof InvalidResumeError) return value;
    throw error;
  }
}

/** An action request a resume echoes: its position among the card's action requests, its name, and (for an accept) its arguments. */
interface Echo {
  index: number;
  action: string;
  args?: Record<string, unknown>;
}

/** The card id and the echoed action requests a resume value names, if any. */
function namedTarget(value: unknown): { cardId?: string; echoes: Echo[] } {
  if (value === null || typeof value !== "object") return { echoes: [] };
  if (Array.isArray(value)) return { echoes: value.flatMap((item, index) => echoOf(item, index)) };
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.decisions)) {
    const echoes = record.decisions.flatMap((decision: unknown, index) => {
      const edited =
        (decision as { edited_action?: unknown; editedAction?: unknown } | null)?.edited_action ??
        (decision as { editedAction?: unknown } | null)?.editedAction;
      const name = (edited as { name?: unknown } | undefined)?.name;
      return typeof name === "string" ? [{ index, action: name }] : [];
    });
    return { cardId: typeof record.card_id === "string" ? record.card_id : undefined, echoes };
  }
  return { echoes: echoOf(record, 0) };
}

/** The action request a legacy HumanResponse echoes in `args: { action, args }`, at `index`. */
function echoOf(response: unknown, index: number): Echo[] {
  const record = response as { type?: unknown; args?: unknown } | null;
  const args = record?.args as { action?: unknown; args?: unknown } | null | undefined;
  if (!args || typeof args !== "object" || typeof args.action !== "string") return [];
  // An accept echoes the card's arguments; an edit changes them on purpose, so only its action is compared.
  const echoed =
    record?.type === "accept" && args.args && typeof args.args === "object"
      ? (args.args as Record<string, unknown>)
      : undefined;
  return [{ index, action: args.action, args: echoed }];
}

/** A rejection's feedback as kept: trimmed, and "" when it shows nothing (only invisible characters). */
function feedbackOf(message: string): string {
  return isBlankText(message) ? "" : message.trim();
}

function readDecision(card: ReadableCard, index: number, decision: Decision): CardAnswer {
  const allowed = card.review_configs[index]?.allowed_decisions ?? [];
  if (!allowed.includes(decision.type)) notAllowed(card, index, decision.type);
  if (decision.type === "approve") return { type: "approve" };
  if (decision.type === "reject") return { type: "reject", message: feedbackOf(decision.message ?? "") };
  const edited = (decision.edited_action ?? decision.editedAction)!;
  return editAnswer(card, edited.args);
}

function readHumanResponse(card: ReadableCard, index: number, response: HumanResponse): CardAnswer {
  const request = card.action_requests[index]!;
  const allowed = card.review_configs[index]?.allowed_decisions ?? [];
  const question = card.kind === "ask_user";
  const permitted = {
    accept: allowed.includes("approve"),
    edit: allowed.includes("edit"),
    response: allowed.includes("reject") || question,
    ignore: allowed.includes("reject"),
  };
  if (!permitted[response.type]) {
    const expected = Object.entries(permitted).flatMap(([type, ok]) => (ok ? [type] : []));
    const takes = question ? `it takes ${expectedAnswers(card)}` : `allowed: ${expected.join(", ")}`;
    throw new InvalidResumeError(`A "${response.type}" response is not allowed for ${request.name}; ${takes}.`, {
      expected,
    });
  }
  const args = response.args ?? null;
  switch (response.type) {
    case "accept":
      return { type: "approve" };
    case "ignore":
      return { type: "reject", message: "" };
    case "response":
      if (typeof args !== "string" || isBlankText(args)) {
        throw new InvalidResumeError(`A "response" needs its text in args (a non-empty string) for ${request.name}.`, {
          expected: ["response"],
        });
      }
      return question ? { type: "answer", text: args } : { type: "reject", message: feedbackOf(args) };
    case "edit":
      if (args === null || typeof args !== "object") {
        throw new InvalidResumeError(`An "edit" needs args { action, args: {...} } for ${request.name}.`, {
          expected: ["edit"],
        });
      }
      return editAnswer(card, args.args);
  }
}

/** An edit: edited arguments, or for a question the text of its answer field. */
function editAnswer(card: ReadableCard, edited: Record<string, unknown>): CardAnswer {
  if (card.kind !== "ask_user") return { type: "edit", args: edited };
  const text = edited[ANSWER_FIELD];
  if (typeof text !== "string" || isBlankText(text)) {
    throw new InvalidResumeError(`The answer to the question goes in args.${ANSWER_FIELD} (a non-empty string).`, {
      expected: ["edit"],
    });
  }
  return { type: "answer", text };
}

/** Values given as JSON text (as Agent Inbox and Agent Chat UI edit forms send them) read as JSON; other values as they are. */
export function parseTextValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, fromJsonText(value)]));
}

/** True when two argument objects are the same once text values are read as JSON (an edit form turns 3 into "3"). */
function sameArguments(left: Record<string, unknown>, right: Record<string, unknown>): boolean {
  return canonicalJson(parseTextValues(left)) === canonicalJson(parseTextValues(right));
}

/** What a card takes, for error messages. */
export function expectedAnswers(card: ReadableCard): string {
  if (card.kind === "ask_user") {
    return `a text answer: { decisions: [{ type: "edit", edited_action: { name: "${ASK_USER_ACTION}", args: { ${ANSWER_FIELD}: "..." } } }] }, a HumanResponse { type: "response", args: "..." }, or a plain string`;
  }
  const allowed = card.review_configs[0]?.allowed_decisions ?? [];
  return `{ decisions: [{ type: ${allowed.map((type) => `"${type}"`).join(" | ")}, … }] } (one per action), or a HumanResponse { type: "accept" | "edit" | "response" | "ignore", args }`;
}

/** Refuses a decision of kind `type` on action request `index`, which its review config does not allow. */
function notAllowed(card: ReadableCard, index: number, type: string): never {
  const allowed = card.review_configs[index]?.allowed_decisions ?? [];
  const takes = card.kind === "ask_user" ? `it takes ${expectedAnswers(card)}` : `allowed: ${allowed.join(", ")}`;
  throw new InvalidResumeError(
    `A "${type}" decision is not allowed for ${card.action_requests[index]!.name}; ${takes}.`,
    {
      expected: allowed,
    },
  );
}

/** Refuses `given` decisions for a card of another number of action requests. */
function countMismatch(card: ReadableCard, given: number, what: string): never {
  throw new InvalidResumeError(
    `The card has ${card.action_requests.length} action(s) but ${given} ${what} came; send one decision per action, in order.`,
    { expected: card.action_requests.length },
  );
}

function invalid(card: ReadableCard, value: unknown): never {
  throw new InvalidResumeError(
    `Invalid resume value ${describeValue(value)} for ${card.action_requests[0]!.name}: expected ${expectedAnswers(card)}.`,
    {
      kind: card.kind,
    },
  );
}

function stale(card: ReadableCard, why: string): never {
  throw new StaleResumeError(
    `This answer is for another card than the one the thread waits on (${why}); nothing was changed. Read the thread's current card and answer it.`,
    { cardId: card.card_id, action: card.action_requests[0]!.name },
  );
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
