/**
 * Models per stage. Each stage may have its own model; `default` serves the
 * rest. Models are plain `BaseChatModel`s; `structured` marks models that
 * support structured output (JSON schema / tool calling), the others are
 * parsed from text.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { DEFAULT_WORKFLOW_SETTINGS, type ContextSettings } from "../config/configuration.js";
import { ConfigurationError } from "../errors/index.js";

export type Stage = "chat" | "plan" | "plan_deep" | "execute" | "deliver" | "memory";

export interface StageModels {
  default: BaseChatModel;
  chat?: BaseChatModel;
  plan?: BaseChatModel;
  /** The deep planning pass for complex tasks; falls back to `plan`. */
  plan_deep?: BaseChatModel;
  execute?: BaseChatModel;
  deliver?: BaseChatModel;
  memory?: BaseChatModel;
  /** Use `withStructuredOutput` for contract stages (set for ChatOpenAI; fakes and the offline policy answer in text). */
  structuredOutput?: boolean;
  /**
   * How the execute stage's model acts (`TEMPO_TOOL_CALLING`): "native" binds the tools (`bindTools`) and reads its
   * tool calls; "json" asks for the JSON contract in text (the named fallback); "auto" (the default) is native for
   * a model that has `bindTools`, json otherwise.
   */
  toolCalling?: ToolCallingMode;
  /**
   * Whether the plan request begins with the execute requests' head (`TEMPO_SHARED_HEAD`; default true): their
   * system message and, in native tool calling, their tools bound with `tool_choice` "none", so a provider's prompt
   * cache reuses it. False: the plan request has its own head (the planner's brief) and binds no tools.
   */
  sharedHead?: boolean;
  /**
   * The prompt token budget of each stage (`settings.context.promptBudget`, set by `createTempoBuilder`): every prompt
   * a stage's model is sent is fitted within it (`fitStagePrompt`). Stages left out use the default settings' budget.
   */
  promptBudget?: Partial<Record<Stage, number>>;
}

/** Each stage's prompt budget from the settings' four: the deep pass shares plan's, the memory stage takes plan's too. */
export function stagePromptBudgets(budget: ContextSettings["promptBudget"]): Record<Stage, number> {
  return {
    chat: budget.chat,
    plan: budget.plan,
    plan_deep: budget.plan,
    execute: budget.execute,
    deliver: budget.deliver,
    memory: budget.plan,
  };
}

/** The prompt token budget of `stage`: the models' own, else the default settings'. */
export function promptBudgetFor(models: Pick<StageModels, "promptBudget"> | undefined, stage: Stage): number {
  return models?.promptBudget?.[stage] ?? stagePromptBudgets(DEFAULT_WORKFLOW_SETTINGS.context.promptBudget)[stage];
}

export const TOOL_CALLING_MODES = ["auto", "native", "json"] as const;
export type ToolCallingMode = (typeof TOOL_CALLING_MODES)[number];

/** True when `stage`'s model calls tools natively under the models' tool-calling mode; "native" on a model without `bindTools` is a configuration error. */
export function callsToolsNatively(models: StageModels, stage: Stage): boolean {
  const mode = models.toolCalling ?? "auto";
  if (mode === "json") return false;
  const model = modelFor(models, stage);
  const canBind = typeof (model as { bindTools?: unknown }).bindTools === "function";
  if (mode === "native" && !canBind) {
    throw new ConfigurationError(
      `Tool calling is set to native, but the ${stage} model (${model.getName()}) has no bindTools; use TEMPO_TOOL_CALLING=json or auto.`,
    );
  }
  return canBind;
}

/** The model serving `stage`. */
export function modelFor(models: StageModels, stage: Stage): BaseChatModel {
  if (stage === "plan_deep") return models.plan_deep ?? models.plan ?? models.default;
  return models[stage] ?? models.default;
}

/** Per-stage sampling settings (docs/design.md#stage-sampling). */
export const STAGE_SAMPLING: Record<Stage, { temperature: number; maxTokens: number }> = {
  chat: { temperature: 0.3, maxTokens: 800 },
  plan: { temperature: 0.2, maxTokens: 1600 },
  plan_deep: { temperature: 0.2, maxTokens: 3200 },
  execute: { temperature: 0.3, maxTokens: 1200 },
  deliver: { temperature: 0.5, maxTokens: 800 },
  memory: { temperature: 0.2, maxTokens: 800 },
};
