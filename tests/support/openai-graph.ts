/**
 * Tempo's graph on real `ChatOpenAI` models (`createStageModels` with a base URL) against a local OpenAI-compatible
 * test server, on the notes domain and a MemorySaver: what the model-fault tests drive.
 *
 *   const server = await startFakeOpenAIServer(script);
 *   const { graph, domain } = graphOnOpenAI(openAISettings(server.baseUrl, { maxRetries: 1 }));
 */
import { MemorySaver } from "@langchain/langgraph";
import type { ModelSettings } from "../../config/environment.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createStageModels } from "../../models/create-models.js";
import { createNotesDomain } from "./notes-domain.js";

/**
 * Model settings pointing at `baseUrl`: model "fake-model", a test key, the given overrides. The timeout is long (a
 * loaded 2-core machine's slow answer is never abandoned and retried, which would change the requests a test counts);
 * a test that scripts a hang sets its own short `timeoutMs`.
 */
export function openAISettings(baseUrl: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    apiKey: "test-key",
    baseUrl,
    model: "fake-model",
    stageModels: {},
    structuredOutput: "auto",
    timeoutMs: 60_000,
    maxRetries: 2,
    ...overrides,
  };
}

/**
 * The graph on ChatOpenAI models from `settings`, the notes domain (user-1, no notes) and a MemorySaver; or the
 * `checkpointer` and `domain` of another such graph (the same threads, run on other model settings).
 */
export function graphOnOpenAI(
  settings: ModelSettings,
  on: { checkpointer?: MemorySaver; domain?: ReturnType<typeof createNotesDomain> } = {},
) {
  const { models, offline } = createStageModels(settings, () => {
    throw new Error("the offline policy must not be used when a base URL is set");
  });
  if (offline) throw new Error("the models are offline although a base URL is set");
  const domain = on.domain ?? createNotesDomain({ "user-1": [] });
  const checkpointer = on.checkpointer ?? new MemorySaver();
  return { graph: buildTempoGraph({ models, domain, checkpointer }), domain, checkpointer };
}
