/**
 * Driving Tempo through the double, shared by the end-to-end tests (`tests/models/real-model-server.test.ts`) and
 * `bench/model-calls.ts`: real `ChatOpenAI` stage models at the double's URL, and the demo's way with cards —
 * every card approved, each write of a batch card on its own.
 */
import type { Interrupt } from "@langchain/langgraph";
import { readSettings } from "../../../config/environment.js";
import { createStageModels } from "../../../models/create-models.js";
import type { StageModels } from "../../../models/stage-models.js";
import { ScheduleOfflinePolicy } from "../../../offline/schedule/policy.js";
import { resume } from "../scripted.js";
import type { OpenAIDouble } from "./index.js";

/** The stage models for `environment` (TEMPO_TOOL_CALLING, TEMPO_STRUCTURED_OUTPUT, …): ChatOpenAI at the double, no retries. */
export function modelsAtDouble(double: OpenAIDouble, environment: Record<string, string>): StageModels {
  const settings = readSettings({
    OPENAI_BASE_URL: double.baseUrl,
    OPENAI_API_KEY: "test",
    TEMPO_MODEL_MAX_RETRIES: "0",
    TEMPO_MODEL_TIMEOUT_MS: "20000",
    ...environment,
  });
  const created = createStageModels(settings.models, () => new ScheduleOfflinePolicy());
  if (created.offline) throw new Error("the models are offline although the double's URL is set");
  return created.models;
}

/** A card's action requests, as a client reads them. */
export type CardRequests = Array<{ name: string; args: Record<string, unknown> }>;

/** A graph as these helpers use it. */
interface Graph {
  getState(config: object): Promise<{ tasks: Array<{ interrupts: unknown[] }> }>;
}

/**
 * Approves every card the thread raises, one after another (at most `limit`), sending each answer with `send`;
 * returns the cards' action requests in order.
 */
export async function approveEveryCard(
  graph: Graph,
  config: object,
  send: (answer: ReturnType<typeof resume>) => Promise<unknown>,
  limit = 20,
): Promise<CardRequests[]> {
  const cards: CardRequests[] = [];
  while (cards.length < limit) {
    const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts as Interrupt[])[0];
    if (!pending) break;
    const requests = (pending.value as { action_requests: CardRequests }).action_requests;
    cards.push(requests);
    await send(resume({ decisions: requests.map(() => ({ type: "approve" })) }));
  }
  return cards;
}
