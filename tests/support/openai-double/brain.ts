/**
 * What the OpenAI server double answers: a brain's decision — text and tool calls — in the shape the request
 * asked for, with the switchable imperfections of real models applied.
 *
 * The default brain plays a schedule model: Tempo's offline policy reads the request's messages as
 * LangChain messages and returns the stage's JSON contract (plain text for deliver); `offlineBrain` plays the offline
 * model of several served domains (`npm run double` serves `TEMPO_DOMAINS`' as Tempo does). With `tools` in the request
 * (native tool calling) an execute decision becomes tool calls — its `tool_call` / `tool_calls` (with a proposal's
 * `then`, the control tool `next_plan` / `done` called beside them, goal_check and answer as its arguments), or a
 * call of the control tool `next_plan` / `done` (with done's answer) / `ask_user`; a `tool_choice` naming one function (structured output by
 * function calling) gets the contract as that function's arguments; otherwise the contract is the content.
 */
import { randomBytes } from "node:crypto";
import { offlinePoliciesFor } from "../../../offline/registry.js";
import { OfflineRouter } from "../../../offline/router.js";
import { readPrompt } from "../../../offline/prompt-reading.js";
import { toLangChainMessages, type OpenAIChatMessage } from "../fake-openai-server.js";
import type { ChatMessage, ChatRequestBody } from "./validation.js";
import { stageNamed } from "../../../contracts/stage-tag.js";

/** A request the double received. */
export interface DoubleRequest {
  /** 0 for the first completions request. */
  index: number;
  body: ChatRequestBody;
  /** The stage tag of the system message (`<stage name="plan">` → "plan"), or "". */
  stage: string;
  receivedAt: number;
}

/** A tool call the brain makes; `arguments` as an object, or as text sent verbatim. */
export interface BrainCall {
  name: string;
  arguments: Record<string, unknown> | string;
}

/** What the model says: text (or null) and tool calls, and optionally reasoning. */
export interface BrainReply {
  content: string | null;
  toolCalls?: BrainCall[];
  reasoning?: string;
}

/** Decides a reply to a request: text, or a reply with tool calls. */
export type Brain = (request: DoubleRequest) => string | BrainReply | Promise<string | BrainReply>;

/**
 * Imperfections of real models, switched on per server or per request:
 * - `text-before-call`: some text with every tool call;
 * - `one-call-at-a-time`: of several parallel calls only the first (as with `parallel_tool_calls: false`);
 * - `fenced-json`: JSON content inside a ```json fence (never under strict `json_schema`);
 * - `numbers-as-strings`: numbers in tool arguments as strings (`"day": "3"`);
 * - `json-for-text`: the deliver stage's text as `{"summary": …}`;
 * - `reasoning`: a `reasoning_content` (DeepSeek / vLLM style) on the message or delta.
 */
export type Imperfection =
  "text-before-call" | "one-call-at-a-time" | "fenced-json" | "numbers-as-strings" | "json-for-text" | "reasoning";

export const IMPERFECTIONS: readonly Imperfection[] = [
  "text-before-call",
  "one-call-at-a-time",
  "fenced-json",
  "numbers-as-strings",
  "json-for-text",
  "reasoning",
];

/** The stage tag of the stage messages (contracts/stage-tag.ts) — the stage's own after a shared head — or "". */
export function stageOf(messages: readonly ChatMessage[]): string {
  return stageNamed(messages.map((message) => ({ role: message.role ?? "", text: contentText(message.content) })));
}

export function contentText(content: ChatMessage["content"]): string {
  if (content === null || content === undefined) return "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/** The function a `tool_choice` forces, or undefined. */
function forcedFunction(body: ChatRequestBody): string | undefined {
  return (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
}

/**
 * Tempo's offline model for the served `domains` (plug-in names, as `TEMPO_DOMAINS` lists them), answered in the
 * request's shape: with one domain its policy, with several the router that hands each prompt to the domain it is
 * about — the model Tempo runs in process when no model key is set.
 */
export function offlineBrain(domains: readonly string[]): Brain {
  const policies = offlinePoliciesFor(domains);
  if (policies.length === 0)
    throw new Error(`No offline policy serves ${domains.join(", ") || "no domain"} (offline/registry.ts).`);
  const router = new OfflineRouter(policies);
  return (request) => {
    const messages = toLangChainMessages((request.body.messages ?? []) as OpenAIChatMessage[]);
    return shaped(request, router.policyFor(messages).policy.decide(readPrompt(messages)));
  };
}

/** The schedule model: Tempo's offline policy, answered in the request's shape. */
export const scheduleBrain: Brain = offlineBrain(["schedule"]);

/** A stage answer of the JSON contract (text for deliver) as the request asked for it. */
function shaped(request: DoubleRequest, text: string): string | BrainReply {
  const forced = forcedFunction(request.body);
  if (forced)
    return { content: null, toolCalls: [{ name: forced, arguments: JSON.parse(text) as Record<string, unknown> }] };
  if (!request.body.tools?.length || request.stage !== "execute") return text;
  return nativeExecute(JSON.parse(text) as ExecuteJson);
}

interface ExecuteJson {
  speak?: string;
  action?: string;
  reason?: string;
  goal_check?: string;
  answer?: string;
  not_carried_out?: string;
  then?: "next_plan" | "done" | null;
  tool_call?: { name: string; arguments?: Record<string, unknown> } | null;
  tool_calls?: Array<{ name: string; arguments?: Record<string, unknown> }>;
}

/** An execute decision of the JSON contract as a natively tool-calling model makes it. */
function nativeExecute(decision: ExecuteJson): BrainReply {
  const speak = (decision.speak ?? "").trim();
  const calls = [...(decision.tool_call ? [decision.tool_call] : []), ...(decision.tool_calls ?? [])];
  const answer = (decision.answer ?? "").trim();
  if (calls.length > 0) {
    const toolCalls: BrainCall[] = calls.map((call) => ({ name: call.name, arguments: call.arguments ?? {} }));
    // A proposal's then: next_plan / done called beside the writes, ending the step once they apply.
    if (decision.then)
      toolCalls.push({
        name: decision.then,
        arguments: { goal_check: decision.goal_check ?? "", ...(decision.then === "done" && answer ? { answer } : {}) },
      });
    return { content: speak || null, toolCalls };
  }
  switch (decision.action) {
    case "next_plan":
    case "done":
      return {
        content: speak || null,
        toolCalls: [
          {
            name: decision.action,
            arguments: {
              goal_check: decision.goal_check ?? "",
              ...(decision.not_carried_out ? { not_carried_out: decision.not_carried_out } : {}),
              ...(decision.action === "done" && answer ? { answer } : {}),
            },
          },
        ],
      };
    case "ask_user":
      return { content: null, toolCalls: [{ name: "ask_user", arguments: { question: speak } }] };
    default:
      return { content: speak || decision.reason || "Thinking." };
  }
}

/** A tool-call id like OpenAI's: `call_` and 24 random characters (29 in all, within the 40 allowed). */
export function callId(): string {
  return `call_${randomBytes(18).toString("base64url").slice(0, 24)}`;
}

/** `reply` as the request gets it: imperfections applied, `parallel_tool_calls: false` honoured. */
export function shapeReply(
  reply: BrainReply,
  body: ChatRequestBody,
  stage: string,
  imperfections: ReadonlySet<Imperfection>,
): BrainReply {
  let calls = reply.toolCalls ?? [];
  let content = reply.content;
  const strictSchema = body.response_format?.type === "json_schema";
  const jsonOnly = strictSchema || body.response_format?.type === "json_object";
  if (body.parallel_tool_calls === false || imperfections.has("one-call-at-a-time")) calls = calls.slice(0, 1);
  if (imperfections.has("numbers-as-strings")) {
    calls = calls.map((call) => ({
      ...call,
      arguments: typeof call.arguments === "string" ? call.arguments : numbersAsStrings(call.arguments),
    }));
    if (content && stage === "execute") content = executeNumbersAsStrings(content);
  }
  if (imperfections.has("text-before-call") && calls.length > 0 && !content) content = "Let me look at that.";
  if (imperfections.has("json-for-text") && stage === "deliver" && content && !looksLikeJson(content))
    content = JSON.stringify({ summary: content });
  if (imperfections.has("fenced-json") && !jsonOnly && content && looksLikeJson(content))
    content = "```json\n" + content + "\n```";
  const reasoning =
    reply.reasoning ??
    (imperfections.has("reasoning") ? `The ${stage || "model"} stage: reading the request and deciding.` : undefined);
  return { content, toolCalls: calls, ...(reasoning ? { reasoning } : {}) };
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

function numbersAsStrings(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, typeof value === "number" ? String(value) : value]),
  );
}

/** The execute contract's tool arguments with numbers as strings (other JSON left as it is). */
function executeNumbersAsStrings(content: string): string {
  if (!looksLikeJson(content)) return content;
  const decision = JSON.parse(content) as ExecuteJson;
  const fix = (call: { name: string; arguments?: Record<string, unknown> }) => ({
    ...call,
    arguments: numbersAsStrings(call.arguments ?? {}),
  });
  return JSON.stringify({
    ...decision,
    ...(decision.tool_call ? { tool_call: fix(decision.tool_call) } : {}),
    ...(decision.tool_calls ? { tool_calls: decision.tool_calls.map(fix) } : {}),
  });
}
