/**
 * The card and resume contracts: what Tempo's interrupts carry, and what a
 * resume may send back. One module for the graph (nodes/), the terminal chat
 * (cli/) and the SSE helper (streaming/).
 *
 * A card is LangChain v1's human-in-the-loop request — `action_requests` /
 * `review_configs`, as `langchain`'s `humanInTheLoopMiddleware` raises it and
 * Agent Chat UI checks it before it renders approve / edit / reject — in both
 * casings (`actionRequests` / `reviewConfigs` for JS clients; every item
 * carries both casings of its own fields, since the SDK's interrupt
 * normalisation may swap the arrays), plus the legacy `HumanInterrupt`
 * fields (`action_request`, `config`, `description`) of older Agent Inbox
 * builds. Current Agent Inbox reads a v1 card first and takes the arguments
 * from `action_requests[0].arguments`, so every action request repeats its
 * `args` there. `card_id` is the LangGraph interrupt id of the wait.
 *
 * A card holds one or more action requests, decided one by one: a v1 resume
 * has one decision per action request, in order. A batch write card holds one per proposed write.
 *
 * Resumes, all read by {@link readCardResume} into one {@link CardAnswer}
 * per action request:
 * - v1: `{ decisions: [{ type: "approve" } | { type: "edit", edited_action | editedAction: { name, args } } | { type: "reject", message? }] }`
 *   (optionally with `card_id`, checked against the card);
 * - legacy `HumanResponse` (`accept` / `edit` / `response` / `ignore`), alone or
 *   in a list of one per action request (Agent Inbox sends a one-element list;
 *   its accept echoes the card's `{ action, args }`, its edits are text). One
 *   response alone that echoes an action decides the card's first action request
 *   only — the one the legacy fields and Agent Inbox show — and leaves the others
 *   undecided (`later`): they come back on the next card, so a client that shows
 *   one write never applies writes it did not show. One that echoes nothing
 *   (accept with null args, ignore, a response's text) decides every action
 *   request alike;
 * - for a question card, also a plain non-empty string.
 *
 * An answer that names another card — another `card_id`, an echoed action or
 * arguments that are not this card's — is refused with `StaleResumeError`
 * (`STALE_RESUME`); one that does not fit, with `InvalidResumeError`.
 */
import { fromJsonText } from "./json-extraction.js";
import { z } from "zod";
import { InvalidResumeError, StaleResumeError } from "../errors/index.js";

/** What a card asks for: the plan, a write tool, or an answer to a question. */
export const CARD_KINDS = ["confirm_plan", "confirm_tool", "ask_user"] as const;
export type CardKind = (typeof CARD_KINDS)[number];

/** The plan card's action name. */
export const CONFIRM_PLAN_ACTION = "confirm_plan";
/** The question card's action name. */
export const ASK_USER_ACTION = "ask_user";
/** The argument a question card's edit form fills in. */
export const ANSWER_FIELD = "answer";
/**
 * The plan card's one argument: the plan as text, one step a line ("1. what to do — done when: how to tell"). An
 * edit sends it back changed; `plan_steps` (a list of {content, done_when}, or its JSON text) is read too.
 */
export const PLAN_STEPS_FIELD = "steps";

/** LangChain v1's decision types. */
export const DECISION_TYPES = ["approve", "edit", "reject"] as const;
export type DecisionType = (typeof DECISION_TYPES)[number];

const ArgumentsSchema = z.record(z.string(), z.unknown());

/** One action a card asks a human to review (v1 `ActionRequest`). */
export const ActionRequestSchema = z.object({
  name: z.string().min(1).describe("The action: a write tool's name, confirm_plan, or ask_user."),
  args: ArgumentsSchema.describe("The action's arguments (an edit sends them back changed)."),
  description: z.string().describe("Markdown a person reads: what the action does and why."),
  arguments: ArgumentsSchema.describe(
    "The same as args: current Agent Inbox reads a v1 card's arguments from this field.",
  ),
});
export type ActionRequest = z.infer<typeof ActionRequestSchema>;

/** How an action may be decided (v1 `ReviewConfig`, in both casings). */
export const ReviewConfigSchema = z.object({
  action_name: z.string().min(1).describe("The action request this config is for."),
  allowed_decisions: z.array(z.enum(DECISION_TYPES)).min(1).describe("The decisions a human may give."),
  args_schema: ArgumentsSchema.optional().describe("JSON schema of the arguments an edit must fit."),
  actionName: z.string().min(1).describe("action_name, camelCase (LangChain JS)."),
  allowedDecisions: z.array(z.enum(DECISION_TYPES)).min(1).describe("allowed_decisions, camelCase (LangChain JS)."),
  argsSchema: ArgumentsSchema.optional().describe("args_schema, camelCase (LangChain JS)."),
});
export type ReviewConfig = z.infer<typeof ReviewConfigSchema>;

/** The legacy `HumanInterrupt` (LangGraph prebuilt, Agent Inbox). */
export const HumanInterruptSchema = z.object({
  action_request: z
    .object({ action: z.string().min(1), args: ArgumentsSchema })
    .describe("The action and its arguments."),
  config: z
    .object({
      allow_ignore: z.boolean(),
      allow_respond: z.boolean(),
      allow_edit: z.boolean(),
      allow_accept: z.boolean(),
    })
    .describe("Which answers the card takes."),
  description: z.string().optional().describe("Markdown shown with the card."),
});
export type HumanInterrupt = z.infer<typeof HumanInterruptSchema>;

/** A Tempo card: the value of every interrupt Tempo raises. */
export const CardSchema = HumanInterruptSchema.extend({
  card_id: z
    .string()
    .optional()
    .describe("The LangGraph interrupt id of this wait; answers addressed to another id are stale."),
  kind: z.enum(CARD_KINDS).describe("confirm_plan, confirm_tool or ask_user."),
  action_requests: z.array(ActionRequestSchema).min(1).describe("The actions to review, decided one by one (v1 HITL)."),
  review_configs: z.array(ReviewConfigSchema).min(1).describe("One per action request, same order (v1 HITL)."),
  actionRequests: z.array(ActionRequestSchema).min(1).describe("action_requests, camelCase (LangChain JS)."),
  reviewConfigs: z.array(ReviewConfigSchema).min(1).describe("review_configs, camelCase (LangChain JS)."),
});
export type Card = z.infer<typeof CardSchema>;

/** One action of a card, as a node describes it. */
export interface CardAction {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowed: readonly DecisionType[];
  argsSchema?: Record<string, unknown>;
}

/**
 * Builds a card from its actions (v1, both casings) and its legacy HumanInterrupt fields. Legacy clients see
 * one action: for a card of several, `legacy` must describe them all, since one legacy answer decides every one.
 */
export function buildCard(
  kind: CardKind,
  actions: readonly [CardAction, ...CardAction[]],
  legacy: HumanInterrupt,
): Card {
  const requests = actions.map((action) => ({
    name: action.name,
    args: action.args,
    description: action.description,
    arguments: action.args,
  }));
  const configs = actions.map((action) => ({
    action_name: action.name,
    allowed_decisions: [...action.allowed],
    actionName: action.name,
    allowedDecisions: [...action.allowed],
    ...(action.argsSchema ? { args_schema: action.argsSchema, argsSchema: action.argsSchema } : {}),
  }));
  return {
    kind,
    action_requests: requests,
    review_configs: configs,
    actionRequests: requests,
    reviewConfigs: configs,
    ...legacy,
  };
}

/** True for a value that passes the check Agent Chat UI makes before it renders a card's buttons. */
export function isHitlRequest(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const { action_requests: requests, review_configs: configs } = value as {
    action_requests?: unknown;
    review_configs?: unknown;
  };
  if (!Array.isArray(requests) || requests.length === 0 || !Array.isArray(configs) || configs.length === 0)
    return false;
  return (
    requests.every(
      (request) => typeof request?.name === "string" && request.args !== null && typeof request.args === "object",
    ) && configs.every((config) => typeof config?.action_name === "string" && Array.isArray(config.allowed_decisions))
  );
}

/** The card in `value`, or null when it is not a Tempo card. */
export function asCard(value: unknown): Card | null {
  const parsed = CardSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

// ── Resumes ─────────────────────────────────────────────────────────────

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

/** A resume value Tempo itself makes (from a reply by message): v1 decisions, or a question's text. */
export type CardResume = DecisionsResponse | string;

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
 * Reads `value` as the answer to `card`: one {@link CardAnswer} per action
 * request. Throws `StaleResumeError` when the value names another card, and
 * `InvalidResumeError` when it does not fit this one.
 */
export function readCardResume(card: Card, value: unknown): CardAnswer[] {
  assertAddressedTo(card, value);
  const question = card.kind === "ask_user";
  if (typeof value === "string") {
    if (question && value.trim() !== "") return [{ type: "answer", text: value }];
    invalid(card, value);
  }
  const decisions = DecisionsResponseSchema.safeParse(value);
  if (decisions.success) {
    const list = decisions.data.decisions;
    if (list.length !== card.action_requests.length) {
      throw new InvalidResumeError(
        `The card has ${card.action_requests.length} action(s) but ${list.length} decision(s) came; send one decision per action, in order.`,
        {
          expected: card.action_requests.length,
        },
      );
    }
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
 * `{ action, args }` back; a v1 edit names its action) that is not this card's.
 */
export function assertAddressedTo(card: Card, value: unknown): void {
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
}

/** LangGraph's interrupt ids: 32 lower-case hex digits (its resume-map keys). */
const INTERRUPT_ID_PATTERN = /^[0-9a-f]{32}$/;

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

/**
 * Refuses, with `StaleResumeError`, a resume bound to a card the thread does not wait on: a resume map naming
 * an interrupt id that is not pending, or a value whose `card_id` or echoed action is not the pending card's.
 * An anonymous value names no card and answers the current one. Run before anything is written.
 */
export function assertResumeIsCurrent(resume: unknown, pending: readonly PendingInterrupt[]): void {
  if (isResumeMap(resume)) {
    for (const [id, value] of Object.entries(resume)) {
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
      const card = asCard(target.value);
      if (card) assertAddressedTo({ ...card, card_id: target.id ?? card.card_id }, value);
    }
    return;
  }
  const named = namedTarget(resume);
  const names = named.cardId !== undefined || named.echoes.length > 0;
  if (names && pending.length === 0) {
    throw new StaleResumeError(
      "This answer is for a card the thread no longer waits on (it waits on none); nothing was changed.",
      { cardId: named.cardId },
    );
  }
  const current = pending.length === 1 ? pending[0]! : undefined;
  const card = current ? asCard(current.value) : null;
  if (card) assertAddressedTo({ ...card, card_id: current?.id ?? card.card_id }, resume);
}

/** True when a resume value names the card it answers: a resume map keyed by interrupt id, or a `card_id`. */
export function namesCard(resume: unknown): boolean {
  return isResumeMap(resume) || namedTarget(resume).cardId !== undefined;
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

function readDecision(card: Card, index: number, decision: Decision): CardAnswer {
  const request = card.action_requests[index]!;
  const allowed = card.review_configs[index]?.allowed_decisions ?? [];
  if (!allowed.includes(decision.type)) {
    const takes = card.kind === "ask_user" ? `it takes ${expectedAnswers(card)}` : `allowed: ${allowed.join(", ")}`;
    throw new InvalidResumeError(`A "${decision.type}" decision is not allowed for ${request.name}; ${takes}.`, {
      expected: allowed,
    });
  }
  if (decision.type === "approve") return { type: "approve" };
  if (decision.type === "reject") return { type: "reject", message: (decision.message ?? "").trim() };
  const edited = (decision.edited_action ?? decision.editedAction)!;
  return editAnswer(card, edited.args);
}

function readHumanResponse(card: Card, index: number, response: HumanResponse): CardAnswer {
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
      if (typeof args !== "string" || args.trim() === "") {
        throw new InvalidResumeError(`A "response" needs its text in args (a non-empty string) for ${request.name}.`, {
          expected: ["response"],
        });
      }
      return question ? { type: "answer", text: args } : { type: "reject", message: args.trim() };
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
function editAnswer(card: Card, edited: Record<string, unknown>): CardAnswer {
  if (card.kind !== "ask_user") return { type: "edit", args: edited };
  const text = edited[ANSWER_FIELD];
  if (typeof text !== "string" || text.trim() === "") {
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

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a card takes, for error messages. */
export function expectedAnswers(card: Card): string {
  if (card.kind === "ask_user") {
    return `a text answer: { decisions: [{ type: "edit", edited_action: { name: "${ASK_USER_ACTION}", args: { ${ANSWER_FIELD}: "..." } } }] }, a HumanResponse { type: "response", args: "..." }, or a plain string`;
  }
  const allowed = card.review_configs[0]?.allowed_decisions ?? [];
  return `{ decisions: [{ type: ${allowed.map((type) => `"${type}"`).join(" | ")}, … }] } (one per action), or a HumanResponse { type: "accept" | "edit" | "response" | "ignore", args }`;
}

function invalid(card: Card, value: unknown): never {
  throw new InvalidResumeError(
    `Invalid resume value ${describeValue(value)} for ${card.action_requests[0]!.name}: expected ${expectedAnswers(card)}.`,
    {
      kind: card.kind,
    },
  );
}

function stale(card: Card, why: string): never {
  throw new StaleResumeError(
    `This answer is for another card than the one the thread waits on (${why}); nothing was changed. Read the thread's current card and answer it.`,
    { cardId: card.card_id, action: card.action_requests[0]!.name },
  );
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
