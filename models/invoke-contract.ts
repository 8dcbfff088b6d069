/**
 * Calls a stage model and validates its output against the stage contract.
 * Structured output is used when the model supports it; otherwise (or when
 * structured output fails) the text is parsed tolerantly. A model with tools
 * bound (native tool calling) is read from its text and tool calls.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import type { z } from "zod";
import { parseContract, type ContractParse } from "../contracts/parse-contract.js";
import { extractJsonObject } from "../contracts/json-extraction.js";
import { fromStrictOutput, strictJsonSchema } from "../contracts/strict-schema.js";
import { messageText } from "../contracts/message-text.js";
import { ModelRequestRefusedError } from "../errors/index.js";
import { fitModelPrompt, fitStagePrompt, watchModelCall } from "./model-call.js";
import { modelFor, type Stage, type StageModels } from "./stage-models.js";

export type ContractCall<T> = { ok: true; value: T; raw: string } | { ok: false; raw: string; problem: string };

/**
 * The tag LangGraph's `messages` stream mode (the server's `messages-tuple`) honours: calls carrying it are
 * not streamed token by token, so a UI never shows a stage's raw JSON contract output.
 */
export const NOSTREAM_TAG = "langsmith:nostream";

/**
 * Invokes `model` on `messages` and validates the answer against `schema`; a failing model call becomes Tempo's
 * typed model error (models/model-errors.ts), a slow one reports that it is waiting, and the reply's reasoning is
 * streamed as a `reasoning` event (models/model-call.ts). The call is tagged not to stream: what a person reads
 * (`speak`, replies) reaches the stream as the AI messages the nodes return.
 */
export async function invokeContract<T>(
  model: BaseChatModel,
  schema: z.ZodType<T>,
  messages: BaseMessage[],
  options: ContractOptions,
): Promise<ContractCall<T>> {
  return invokeAndParse(model, schema, messages, { ...options, config: unstreamed(options.config) });
}

/** How a contract call is made. */
interface ContractOptions {
  structured: boolean;
  name: string;
  config?: RunnableConfig;
  stage: Stage;
  /**
   * The model with tools bound that answers in text (`tool_choice` "none"), sent instead of the bare model on a
   * call without structured output: the plan request binds the execute requests' tools to share their prefix.
   */
  withTools?: Runnable<BaseMessage[], BaseMessage>;
}

/**
 * The one way a node asks a stage for its contract decision: `stage`'s model (`modelFor`), structured output as
 * the models allow (`structuredOutput`), validated against `schema`, under the run's `name`; `withTools`, when given,
 * is that model with tools bound that answers in text (nodes/shared/tool-offer.ts `planModelWithTools`).
 */
export function callStage<T>(
  models: StageModels,
  stage: Stage,
  schema: z.ZodType<T>,
  messages: BaseMessage[],
  name: string,
  config?: RunnableConfig,
  withTools?: Runnable<BaseMessage[], BaseMessage>,
): Promise<ContractCall<T>> {
  // Within the stage's prompt budget, whatever the messages hold (a cut is said in the prompt and in the stream).
  const fitted = fitStagePrompt(models, stage, messages, config);
  return invokeContract(modelFor(models, stage), schema, fitted, {
    structured: models.structuredOutput ?? false,
    name,
    config,
    stage,
    ...(withTools ? { withTools } : {}),
  });
}

/** A tool call as a natively tool-calling model returns it. */
export interface ModelToolCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * Invokes a model with tools bound (`bindTools`) on `messages` and reads its reply — text and tool calls — with
 * `read`; like {@link invokeContract}, untagged for streaming, told while slow, its reasoning streamed, and a
 * failing call is a typed model error. The prompt is fitted within `promptBudget` tokens (the stage's budget).
 */
export async function invokeToolCalling<T>(
  model: Runnable<BaseMessage[], BaseMessage>,
  messages: BaseMessage[],
  read: (text: string, calls: ModelToolCall[]) => ContractParse<T>,
  options: { name: string; stage: Stage; config?: RunnableConfig; promptBudget: number },
): Promise<ContractCall<T>> {
  // Within the stage's prompt budget, like every other model call.
  const fitted = fitModelPrompt(model, options.stage, messages, options.config, options.promptBudget);
  const reply = await watchModelCall(model, options.stage, options.config, () =>
    model.invoke(fitted, unstreamed(options.config)),
  );
  const text = messageText(reply);
  const calls = ((reply as AIMessage).tool_calls ?? []).map((call) => ({
    name: call.name,
    args: (call.args ?? {}) as Record<string, unknown>,
  }));
  // What the model said and called, for a correction message when the reply does not fit.
  const raw =
    calls.length > 0
      ? [text, ...calls.map((call) => `[called ${call.name} ${JSON.stringify(call.args)}]`)].filter(Boolean).join(" ")
      : text;
  const parsed = read(text, calls);
  return parsed.ok ? { ok: true, value: parsed.value, raw } : { ok: false, raw, problem: parsed.problem };
}

/** The run config with the no-stream tag added. */
function unstreamed(config: RunnableConfig | undefined): RunnableConfig {
  return { ...config, tags: [...(config?.tags ?? []), NOSTREAM_TAG] };
}

async function invokeAndParse<T>(
  model: BaseChatModel,
  schema: z.ZodType<T>,
  messages: BaseMessage[],
  options: ContractOptions,
): Promise<ContractCall<T>> {
  const { stage, config } = options;
  if (options.structured) {
    // The contract as a strict schema (every request valid for OpenAI's structured outputs); zod checks the answer.
    const runnable = model.withStructuredOutput(strictJsonSchema(schema), {
      includeRaw: true,
      name: options.name,
      strict: true,
    });
    const output = (await watchModelCall(model, stage, config, () => runnable.invoke(messages, config), {
      replyOf: (result) => (result as { raw?: BaseMessage }).raw,
    })) as {
      raw: BaseMessage;
      parsed: unknown;
    };
    const raw = messageText(output.raw);
    const structuredArguments = (output.raw as { tool_calls?: Array<{ args: unknown }> }).tool_calls?.[0]?.args;
    // What the server parsed, or the JSON in the text (a server that fenced it, or wrote prose around it).
    const answer = output.parsed ?? structuredArguments ?? extractJsonObject(raw);
    const parsed = parseContract(schema, answer === undefined || answer === null ? raw : fromStrictOutput(answer));
    return parsed.ok
      ? { ok: true, value: parsed.value, raw: raw || JSON.stringify(output.parsed) }
      : { ok: false, raw, problem: parsed.problem };
  }
  const bare = () => watchModelCall(model, stage, config, () => model.invoke(messages, config));
  const reply = options.withTools
    ? await withSharedHead(model, options.withTools, messages, bare, options, (text) => parseContract(schema, text).ok)
    : await bare();
  const raw = messageText(reply);
  const parsed = parseContract(schema, raw);
  return parsed.ok ? { ok: true, value: parsed.value, raw } : { ok: false, raw, problem: parsed.problem };
}

/**
 * The models whose server did not take the shared head's `tool_choice` "none" (refused it, or called tools anyway),
 * for as long as the process runs: {@link sharedHeadRefused}.
 */
const WITHOUT_SHARED_HEAD = new WeakSet<object>();

/** True when `model`'s server did not take the shared head: its plan requests are made as with `TEMPO_SHARED_HEAD=off`. */
export function sharedHeadRefused(model: object): boolean {
  return WITHOUT_SHARED_HEAD.has(model);
}

/**
 * A call through the model with the shared head's tools bound (`tool_choice` "none"). A server that refuses that
 * (a 400 naming tools: vLLM before it took "none", some llama.cpp builds), or that answers with tool calls and no
 * contract in its text (a template that ignores "none"), costs one request: the call is made again on the bare model
 * and the model is remembered ({@link WITHOUT_SHARED_HEAD}), so the user's turn goes on as with
 * `TEMPO_SHARED_HEAD=off` instead of failing on every plan.
 */
async function withSharedHead(
  model: BaseChatModel,
  withTools: Runnable<BaseMessage[], BaseMessage>,
  messages: BaseMessage[],
  bare: () => Promise<BaseMessage>,
  options: ContractOptions,
  fits: (text: string) => boolean,
): Promise<BaseMessage> {
  const fallBack = (why: string) => {
    WITHOUT_SHARED_HEAD.add(model);
    console.warn(
      `Tempo: the ${options.stage} model server ${why}; its plan requests bind no tools from now on (as with TEMPO_SHARED_HEAD=off).`,
    );
    return bare();
  };
  let reply: BaseMessage;
  try {
    reply = await watchModelCall(model, options.stage, options.config, () =>
      withTools.invoke(messages, options.config),
    );
  } catch (error) {
    const serverMessage = error instanceof ModelRequestRefusedError ? String(error.details?.serverMessage ?? "") : "";
    if (!/tool/i.test(serverMessage)) throw error;
    return fallBack(`refused tool_choice "none" beside tools (${serverMessage})`);
  }
  const calls = (reply as AIMessage).tool_calls ?? [];
  if (calls.length > 0 && !fits(messageText(reply)))
    return fallBack(`answered tool_choice "none" with tool calls (${calls.map((call) => call.name).join(", ")})`);
  return reply;
}
