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
import { modelWaitText, showModelWait, stageNameInChinese, turnLanguage } from "../streaming/progress-ui.js";
import { say } from "../contracts/language.js";
import { fitPromptToBudget } from "../memory/compression.js";
import { tokenCounterFor } from "../memory/tokens.js";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { classifyModelError, describeModel } from "./model-errors.js";
import { withoutRunTurn } from "./run-turn.js";
import { modelFor, promptBudgetFor, type Stage, type StageModels } from "./stage-models.js";

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
      emit(config as LangGraphRunnableConfig, {
        kind: "status",
        node,
        text: modelWaitText(stage, elapsedMs, turnLanguage()),
        elapsedMs,
      });
      // The same line as the turn's status, where Agent Chat UI draws it (through the writer only: stored nowhere).
      showModelWait(config as LangGraphRunnableConfig, stage, elapsedMs);
      timer = setTimeout(tick, every);
    };
    timer = setTimeout(tick, every);
  }
  try {
    // The wait on the model server holds no connection: the run's turn at its gate is given back meanwhile.
    const result = await withoutRunTurn(call);
    emitReasoning(config, stage, options.replyOf ? options.replyOf(result) : (result as BaseMessage | undefined));
    return result;
  } catch (error) {
    if (
      options.classify === false ||
      isTempoError(error) ||
      isGraphBubbleUp(error) ||
      (error as { name?: string })?.name === "AbortError"
    )
      throw error;
    throw classifyModelError(error, describeModel(model, stage));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `messages` within `stage`'s prompt budget (`promptBudgetFor`), measured by the counter of the model that reads them
 * (`tokenCounterFor`): the one bound every model call goes through (`fitPromptToBudget`). When something had to be
 * cut, the prompt says so where it was cut, and the run's stream says so in a status the user sees.
 */
export function fitStagePrompt(
  models: StageModels,
  stage: Stage,
  messages: BaseMessage[],
  config: RunnableConfig | undefined,
  budget = promptBudgetFor(models, stage),
): BaseMessage[] {
  return fitModelPrompt(modelFor(models, stage), stage, messages, config, budget);
}

/** {@link fitStagePrompt} for a given model (a model with tools bound, for one): `model`'s counter, `budget` tokens. */
export function fitModelPrompt(
  model: unknown,
  stage: Stage,
  messages: BaseMessage[],
  config: RunnableConfig | undefined,
  budget: number,
): BaseMessage[] {
  const counter = tokenCounterFor(unboundModel(model));
  const fitted = fitPromptToBudget(messages, budget, counter);
  if (fitted.cutCharacters > 0 && (config as LangGraphRunnableConfig | undefined)?.writer) {
    emit(config as LangGraphRunnableConfig, {
      kind: "status",
      node: nodeOf(config, stage),
      text: say(
        turnLanguage(),
        `The conversation is too long for the ${stage} model's context budget (${budget} tokens): ${fitted.cutCharacters} characters of ${fitted.cutMessages} message(s) were cut from the middle; their beginning and end were kept`,
        `对话超出了${stageNameInChinese(stage)}模型的上下文预算（${budget} 个 token）：从中间删去了 ${fitted.cutMessages} 条消息中的 ${fitted.cutCharacters} 个字符，保留了开头和结尾`,
      ),
    });
  }
  return fitted.messages;
}

/** The chat model under a `bindTools` / `withConfig` binding (its `bound`), for the token counter. */
function unboundModel(model: unknown): BaseChatModel {
  let current = model as { bound?: unknown; _llmType?: unknown };
  while (typeof current._llmType !== "function" && current.bound) current = current.bound as typeof current;
  return (typeof current._llmType === "function" ? current : { _llmType: () => "unknown" }) as BaseChatModel;
}

/** Streams the reasoning `reply` carries, if any, as one `reasoning` event of the node running `stage`. */
function emitReasoning(config: RunnableConfig | undefined, stage: string, reply: BaseMessage | undefined): void {
  const text = reasoningText(reply);
  if (text.trim() !== "")
    emit(config as LangGraphRunnableConfig, { kind: "reasoning", node: nodeOf(config, stage), text });
}
