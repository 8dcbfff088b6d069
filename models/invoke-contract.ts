/**
 * Calls a stage model and validates its output against the stage contract.
 * Structured output is used when the model supports it; otherwise (or when
 * structured output fails) the text is parsed tolerantly.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { z } from "zod";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { parseContract } from "../contracts/parse-contract.js";
import { isTempoError, ModelUnavailableError } from "../errors/index.js";
import { messageText } from "../contracts/message-text.js";

export type ContractCall<T> =
  | { ok: true; value: T; raw: string }
  | { ok: false; raw: string; problem: string };

/**
 * The tag LangGraph's `messages` stream mode (the server's `messages-tuple`) honours: calls carrying it are
 * not streamed token by token, so a UI never shows a stage's raw JSON contract output.
 */
export const NOSTREAM_TAG = "langsmith:nostream";

/**
 * Invokes `model` on `messages` and validates the answer against `schema`; a failing model call becomes
 * ModelUnavailableError. The call is tagged not to stream: what a person reads (`speak`, replies) reaches
 * the stream as the AI messages the nodes return.
 */
export async function invokeContract<T>(
  model: BaseChatModel,
  schema: z.ZodType<T>,
  messages: BaseMessage[],
  options: { structured: boolean; name: string; config?: RunnableConfig },
): Promise<ContractCall<T>> {
  const config: RunnableConfig = { ...options.config, tags: [...(options.config?.tags ?? []), NOSTREAM_TAG] };
  try {
    return await invokeAndParse(model, schema, messages, { ...options, config });
  } catch (error) {
    if (isTempoError(error) || isGraphBubbleUp(error) || (error as { name?: string })?.name === "AbortError") throw error;
    throw new ModelUnavailableError(options.name.replace(/_decision$|_summary$/, ""), error);
  }
}

async function invokeAndParse<T>(
  model: BaseChatModel,
  schema: z.ZodType<T>,
  messages: BaseMessage[],
  options: { structured: boolean; name: string; config?: RunnableConfig },
): Promise<ContractCall<T>> {
  if (options.structured) {
    const runnable = model.withStructuredOutput(schema as z.ZodType<Record<string, unknown>>, { includeRaw: true, name: options.name });
    const output = (await runnable.invoke(messages, options.config)) as { raw: BaseMessage; parsed: unknown };
    const raw = messageText(output.raw);
    const structuredArguments = (output.raw as { tool_calls?: Array<{ args: unknown }> }).tool_calls?.[0]?.args;
    const parsed = parseContract(schema, output.parsed ?? structuredArguments ?? raw);
    return parsed.ok ? { ok: true, value: parsed.value, raw: raw || JSON.stringify(output.parsed) } : { ok: false, raw, problem: parsed.problem };
  }
  const reply = await model.invoke(messages, options.config);
  const raw = messageText(reply);
  const parsed = parseContract(schema, raw);
  return parsed.ok ? { ok: true, value: parsed.value, raw } : { ok: false, raw, problem: parsed.problem };
}
