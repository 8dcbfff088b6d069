/**
 * Stage models from settings: `ChatOpenAI` against OpenAI or any
 * OpenAI-compatible base URL, with the per-stage temperature and token
 * limits; or, with no API key and no base URL, the domain's offline policy.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { MODEL_STAGES, type ModelSettings } from "../config/environment.js";
import { STAGE_SAMPLING, type Stage, type StageModels } from "./stage-models.js";

export interface CreatedModels {
  models: StageModels;
  /** True when the offline policy drives the graph. */
  offline: boolean;
  /** One line for the start-up banner. */
  description: string;
}

/** True when settings name no model service at all. */
export function isOffline(settings: ModelSettings): boolean {
  return !settings.apiKey && !settings.baseUrl;
}

/** Builds the stage models; `offlinePolicy` is used when no model service is configured. */
export function createStageModels(settings: ModelSettings, offlinePolicy: () => BaseChatModel): CreatedModels {
  if (isOffline(settings)) {
    return {
      models: { default: offlinePolicy(), structuredOutput: false, toolCalling: settings.toolCalling },
      offline: true,
      description: "offline policy (no OPENAI_API_KEY or OPENAI_BASE_URL set): deterministic, no network",
    };
  }
  const build = (stage: Stage) =>
    new ChatOpenAI({
      model: settings.stageModels[stage] ?? settings.model,
      temperature: STAGE_SAMPLING[stage].temperature,
      maxTokens: STAGE_SAMPLING[stage].maxTokens,
      // Local OpenAI-compatible servers often need no key, but the client requires one.
      apiKey: settings.apiKey ?? "not-needed",
      configuration: settings.baseUrl ? { baseURL: settings.baseUrl } : undefined,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
    });
  const models: StageModels = { default: build("execute"), toolCalling: settings.toolCalling };
  for (const stage of MODEL_STAGES) models[stage] = build(stage);
  models.structuredOutput = settings.structuredOutput === "on" || (settings.structuredOutput === "auto" && !settings.baseUrl);
  const where = settings.baseUrl ?? "api.openai.com";
  return { models, offline: false, description: `${settings.model} at ${where}` };
}
