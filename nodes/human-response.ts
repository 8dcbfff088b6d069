/**
 * Reading a human's answer to an interrupt. Resumes take LangGraph's
 * `HumanResponse` (a one-element array, as Agent Inbox sends, is accepted
 * too). A value that does not fit gets an `InvalidResumeError` naming what
 * was expected, and the interrupt stays open: the check runs as the
 * interrupt's `responseSchema`, so LangGraph records no resume for the
 * task and the next resume is read afresh.
 */
import { interrupt, isInvalidResume } from "@langchain/langgraph";
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { InvalidResumeError } from "../errors/index.js";

type ResponseType = HumanResponse["type"];

/** Throws an InvalidResumeError describing what was expected. */
export function rejectResume(message: string, details?: Record<string, unknown>): never {
  throw new InvalidResumeError(message, details);
}

/**
 * Raises `card` with `interrupt()` — or takes `answered` when the answer came
 * as a plain message — and returns `read(answer)`. `read` validates and
 * throws `InvalidResumeError`; a rejected resume leaves the interrupt open.
 */
export function awaitHuman<T>(card: HumanInterrupt, answered: HumanResponse | null, read: (answer: unknown) => T): T {
  if (answered !== null) return read(answered);
  const responseSchema = z.unknown().superRefine((value, context) => {
    try {
      read(value);
    } catch (error) {
      if (!(error instanceof InvalidResumeError)) throw error;
      context.addIssue({ code: "custom", message: error.message });
    }
  });
  let answer: unknown;
  try {
    answer = interrupt(card, { responseSchema });
  } catch (error) {
    if (!isInvalidResume(error)) throw error;
    const issue = (error as { issues?: Array<{ message: string }> }).issues?.[0]?.message;
    throw new InvalidResumeError(issue ?? "Invalid resume value.", { interrupt: card.action_request.action }, { cause: error });
  }
  return read(answer);
}

/** Validates `value` as a HumanResponse of one of the `allowed` types. */
export function readHumanResponse(value: unknown, allowed: readonly ResponseType[], waitingFor: string): HumanResponse {
  const candidate = Array.isArray(value) && value.length === 1 ? value[0] : value;
  const expected = `a HumanResponse {type: ${allowed.map((type) => `"${type}"`).join(" | ")}, args} for ${waitingFor}`;
  if (candidate === null || typeof candidate !== "object" || !("type" in candidate)) {
    rejectResume(`Invalid resume value ${describe(value)}: expected ${expected}.`, { expected: allowed });
  }
  const response = candidate as { type: unknown; args?: unknown };
  if (typeof response.type !== "string" || !allowed.includes(response.type as ResponseType)) {
    rejectResume(`Invalid resume type ${describe(response.type)}: expected ${expected}.`, { expected: allowed });
  }
  const type = response.type as ResponseType;
  const args = response.args ?? null;
  if (type === "response" && (typeof args !== "string" || args.trim() === "")) {
    rejectResume(`A "response" resume needs its text in args (a non-empty string) for ${waitingFor}.`, { expected: allowed });
  }
  if (type === "edit" && (args === null || typeof args !== "object" || !("args" in args) || typeof (args as { args: unknown }).args !== "object")) {
    rejectResume(`An "edit" resume needs args {action, args: {...}} for ${waitingFor}.`, { expected: allowed });
  }
  return { type, args: args as HumanResponse["args"] };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

const SHORT_CONFIRMATIONS = new Set([
  "yes", "y", "ok", "okay", "sure", "confirm", "confirmed", "go", "go ahead", "do it", "accept", "approve", "continue", "proceed", "lgtm",
  "是", "是的", "好", "好的", "行", "可以", "确认", "继续", "嗯", "对", "没问题",
]);
const SHORT_DISMISSALS = new Set(["no", "n", "cancel", "stop", "skip", "ignore", "不", "不要", "取消", "算了", "跳过"]);

/** Normalises a short reply for matching: lower case, no surrounding punctuation or spaces. */
function normalise(text: string): string {
  return text.trim().toLowerCase().replace(/^[\s"'“”‘’.,!?。！？，~]+|[\s"'“”‘’.,!?。！？，~]+$/g, "");
}

/** True for short confirmations ("yes", "ok", "是", "好", "继续"), recognised in code, not by the model. */
export function isShortConfirmation(text: string): boolean {
  return SHORT_CONFIRMATIONS.has(normalise(text));
}

/** True for short dismissals ("no", "cancel", "取消"). */
export function isShortDismissal(text: string): boolean {
  return SHORT_DISMISSALS.has(normalise(text));
}

/** Turns a plain user message into the HumanResponse it stands for while `kind` is pending. */
export function replyAsHumanResponse(text: string, kind: "confirm_plan" | "confirm_tool" | "ask_user"): HumanResponse {
  if (kind === "ask_user") return { type: "response", args: text };
  if (isShortConfirmation(text)) return { type: "accept", args: null };
  if (isShortDismissal(text)) return { type: "ignore", args: null };
  return { type: "response", args: text };
}
