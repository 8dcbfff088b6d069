/**
 * A separate Tempo process for the crash test:
 *
 *   npx tsx tests/reliability/support/schedule-worker.ts <databaseUrl> <openaiBaseUrl> <threadId> <userId> start|resume
 *
 * "start" sends the request and accepts every card until the task ends;
 * "resume" continues the thread from its last checkpoint (`invoke(null)`,
 * LangGraph's resume of an interrupted run) and does the same. The models are
 * the real `ChatOpenAI` at the given base URL. Prints one JSON object per line:
 * {"event":"card","action":...} for each card, then {"event":"final",...}.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { TempoState } from "../../../kernel/state.js";
import { createStageModels } from "../../../models/create-models.js";
import { interruptsOf } from "../../support/scripted.js";
import { openScheduleTempo, summarizeConversation } from "./schedule-runtime.js";

const [databaseUrl, baseUrl, threadId, userId, mode, request = "Help me arrange next week's review"] =
  process.argv.slice(2);
if (!databaseUrl || !baseUrl || !threadId || !userId || (mode !== "start" && mode !== "resume")) {
  console.error("usage: schedule-worker.ts <databaseUrl> <openaiBaseUrl> <threadId> <userId> start|resume");
  process.exit(2);
}

const { models } = createStageModels(
  {
    apiKey: "test-key",
    baseUrl,
    model: "fake-model",
    stageModels: {},
    structuredOutput: "off",
    timeoutMs: 300_000,
    maxRetries: 0,
  },
  () => {
    throw new Error("a base URL is set: the offline policy is not used");
  },
);
const tempo = await openScheduleTempo({ databaseUrl, models, poolSize: 4 });
const config = { configurable: { thread_id: threadId, user_id: userId } };
const print = (value: object) => console.log(JSON.stringify(value));
try {
  let result: object =
    mode === "start"
      ? await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, config)
      : await tempo.graph.invoke(null, config);
  for (let turn = 0; turn < 40; turn += 1) {
    const card = interruptsOf(result)[0];
    if (!card) break;
    print({ event: "card", action: (card.value as { action_request: { action: string } }).action_request.action });
    result = await tempo.graph.invoke(new Command({ resume: { type: "accept", args: null } }), config);
  }
  const state = (await tempo.graph.getState(config)).values as TempoState;
  print({ event: "final", summary: summarizeConversation(state, await tempo.repository.load(userId)) });
} finally {
  await tempo.close();
}
