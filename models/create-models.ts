/**
 * Stage models from settings: `ChatOpenAI` against OpenAI or any
 * OpenAI-compatible base URL, with the per-stage temperature and token
 * limits; or, with no API key and no base URL, the domain's offline policy.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { MODEL_STAGES, RETRY_AFTER_LIMIT_MS, type ModelSettings } from "../config/environment.js";
import { boundedRetries, checkedFetch } from "./model-errors.js";
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
      models: {
        default: offlinePolicy(),
        structuredOutput: false,
        toolCalling: settings.toolCalling,
        sharedHead: settings.sharedHead,
      },
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
      // checkedFetch names a reply that is not a completion (an HTML page, an empty body, `choices: []`) and bounds a
      // body that never ends; boundedRetries keeps a 429's Retry-After within the wait bound (models/model-errors.ts).
      configuration: {
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
        fetch: checkedFetch({ timeoutMs: settings.timeoutMs }),
      },
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      onFailedAttempt: boundedRetries(RETRY_AFTER_LIMIT_MS),
    });
  const models: StageModels = {
    default: build("execute"),
    toolCalling: settings.toolCalling,
    sharedHead: settings.sharedHead,
  };
  for (const stage of MODEL_STAGES) models[stage] = build(stage);
  models.structuredOutput =
    settings.structuredOutput === "on" || (settings.structuredOutput === "auto" && !settings.baseUrl);
  const where = settings.baseUrl ?? "api.openai.com";
  return { models, offline: false, description: `${settings.model} at ${where}` };
}
