/**
 * The card and resume contracts: what Tempo's interrupts carry, and what a
 * resume may send back: the card's wire schema, for the graph, the terminal chat (cli/) and the SSE helper
 * (streaming/); the resume's is review/resume.ts's, and the card's building review/interrupt-cards.ts's.
 *
 * A card is LangChain v1's human-in-the-loop request in the snake_case the front ends read — `action_requests` /
 * `review_configs`, which Agent Chat UI checks before it renders approve / edit / reject and current Agent Inbox
 * reads first — plus the legacy `HumanInterrupt` fields (`action_request`, `config`, `description`) of older Agent
 * Inbox builds. Each fact is carried once per reader: current Agent Inbox takes the arguments from
 * `action_requests[0].arguments` and Agent Chat UI from `args`, so every action request has both, and nothing else
 * is repeated. No camelCase copies (`actionRequests` / `reviewConfigs`): no front end reads them (the SDK's
 * `useStream` adds them on the client for JS code that wants them), and Tempo's own readers read snake_case. A card
 * an older Tempo raised carries them too, unread: such a card still parses, so a thread paused on it resumes.
 * `card_id` is the LangGraph interrupt id of the wait.
 *
 * A card holds one or more action requests, decided one by one: a v1 resume
 * has one decision per action request, in order. A batch write card holds one per proposed write.
 *
 * Resumes — their wire schemas and their reader are review/resume.ts's (`readResume`), read into one canonical
 * `{ card_id, decisions }`, one answer per action request:
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
import { z } from "zod";

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

/** How an action may be decided (v1 `ReviewConfig`). */
export const ReviewConfigSchema = z.object({
  action_name: z.string().min(1).describe("The action request this config is for."),
  allowed_decisions: z.array(z.string().min(1)).min(1).describe("The decisions a human may give (review/ says which)."),
  args_schema: ArgumentsSchema.optional().describe("JSON schema of the arguments an edit must fit."),
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
});
export type Card = z.infer<typeof CardSchema>;

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

/**
 * The card in `value`, or null when it is not a Tempo card. A card an older Tempo raised (with camelCase copies of
 * its arrays) is read as well; the copies are left out.
 */
export function asCard(value: unknown): Card | null {
  const parsed = CardSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * A resume Tempo itself keeps (an answer that came as a message, as chat translated it): v1 `{ decisions }`, or a
 * question's text. What a decision may be is review/'s (review/resume.ts reads every shape): here it is opaque.
 */
export type CardResume = { decisions: readonly unknown[]; card_id?: string } | string;
