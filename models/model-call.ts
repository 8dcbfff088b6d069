/**
 * One model call as the user lives it (docs/design.md#model-failures): while it runs longer than a few seconds the
 * `custom` stream says so ("Waiting for the execute model… 6 s", with `elapsedMs`), the reasoning the reply carries
 * is streamed as its own `reasoning` event, and a failure becomes Tempo's typed model error (`classifyModelError`).
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { isGraphBubbleUp, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { reasoningText } from "../contracts/message-text.js";
import { isTempoError } from "../errors/index.js";
import { emit } from "../streaming/events.js";
import { classifyModelError, describeModel } from "./model-errors.js";

/** How long a model call runs before the first waiting status, and between the next ones, by default (ms). */
export const DEFAULT_MODEL_STATUS_MS = 3_000;

/** The node a stream event of this call names: the graph node running it, else the stage. */
function nodeOf(config: RunnableConfig | undefined, stage: string): string {
  const node = (config?.metadata as { langgraph_node?: unknown } | undefined)?.langgraph_node;
  return typeof node === "string" && node ? node : stage;
}

/** The waiting-status interval: `configurable.model_status_ms` when a positive number, else the default. */
function statusEveryMs(config: RunnableConfig | undefined): number {
  const value = (config?.configurable as { model_status_ms?: unknown } | undefined)?.model_status_ms;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : DEFAULT_MODEL_STATUS_MS;
}

/**
 * Runs `call` (one request to `stage`'s `model`) with waiting statuses while it runs, every `model_status_ms`
 * (default 3 s); the timer is cleared however the call ends. The reasoning of the reply (`replyOf` the result: the
 * result itself by default) is streamed as one `reasoning` event. A failure of the model becomes a typed TempoError
 * (unless `classify` is false); Tempo's own errors, the graph's interrupts and aborts pass through unchanged.
 */
export async function watchModelCall<T>(
  model: unknown,
  stage: string,
  config: RunnableConfig | undefined,
  call: () => Promise<T>,
  options: { classify?: boolean; replyOf?: (result: T) => BaseMessage | undefined } = {},
): Promise<T> {
  const writer = (config as LangGraphRunnableConfig | undefined)?.writer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (writer) {
    const node = nodeOf(config, stage);
    const every = statusEveryMs(config);
    const started = Date.now();
    const tick = () => {
      const elapsedMs = Date.now() - started;
      emit(config as LangGraphRunnableConfig, { kind: "status", node, text: `Waiting for the ${stage} model… ${Math.round(elapsedMs / 1000)} s`, elapsedMs });
      timer = setTimeout(tick, every);
    };
    timer = setTimeout(tick, every);
  }
  try {
    const result = await call();
    emitReasoning(config, stage, options.replyOf ? options.replyOf(result) : (result as BaseMessage | undefined));
    return result;
  } catch (error) {
    if (options.classify === false || isTempoError(error) || isGraphBubbleUp(error) || (error as { name?: string })?.name === "AbortError") throw error;
    throw classifyModelError(error, describeModel(model, stage));
  } finally {
    clearTimeout(timer);
  }
}

/** Streams the reasoning `reply` carries, if any, as one `reasoning` event of the node running `stage`. */
function emitReasoning(config: RunnableConfig | undefined, stage: string, reply: BaseMessage | undefined): void {
  const text = reasoningText(reply);
  if (text.trim() !== "") emit(config as LangGraphRunnableConfig, { kind: "reasoning", node: nodeOf(config, stage), text });
}
