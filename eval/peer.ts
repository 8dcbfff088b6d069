/**
 * The eval's peer line (`npm run eval -- --peer`, issue 49 item 1): the createAgent + humanInTheLoopMiddleware peer of
 * bench/peer.ts run on the demo scenario against the same server, through the same recording proxy, so its calls
 * and tokens are counted exactly as Tempo's are — on the user's own model, not a scripted one. Every interrupt is
 * approved. Against the server double the peer's requests are answered by its scripted model (`peerBrain`).
 */
import type { TempoSettings } from "../config/environment.js";
import { createScheduleDomain, InMemoryScheduleRepository } from "../tools/schedule/index.js";
import { createPeerAgent, PEER_SYSTEM_PROMPT, peerBrain, runPeer } from "../bench/support/peer-agent.js";
import { contentText, type Brain } from "../tests/support/openai-double/brain.js";
import { failureOf, modelFigures, weekFigures, type ScenarioResult } from "./figures.js";
import type { RecordingProxy } from "./recording-proxy.js";
import type { Scenario } from "./scenarios.js";

/** A brain for the double that answers the peer's requests (its system prompt) with `peerBrain`, the rest with `brain`. */
export function withPeerBrain(brain: Brain): Brain {
  return (request) => {
    const system = (request.body.messages ?? []).find((message) => message.role === "system");
    return contentText(system?.content) === PEER_SYSTEM_PROMPT ? peerBrain(request) : brain(request);
  };
}

/**
 * Runs the peer on `scenario` (its week and message) on the model `settings` name, through `proxy`: the scenario's
 * result as Tempo's are measured (placed against the maximum, rule problems, calls, tokens), a failure included.
 */
export async function runPeerScenario(
  settings: TempoSettings,
  proxy: RecordingProxy,
  scenario: Scenario,
  now?: Date,
): Promise<ScenarioResult> {
  const user = `peer-${scenario.name}`;
  const repository = new InMemoryScheduleRepository();
  const before = scenario.week();
  await repository.seed(user, before);
  const models = settings.models;
  const agent = createPeerAgent({
    domain: createScheduleDomain({ repository }),
    baseUrl: proxy.baseUrl,
    apiKey: models.apiKey ?? "unused",
    model: models.stageModels.execute ?? models.model,
    userId: user,
    ...(now ? { now } : {}),
  });
  const first = proxy.exchanges.length;
  let answer = "";
  let cards = 0;
  let failure: ScenarioResult["failure"];
  try {
    const run = await runPeer(agent, scenario.message, `peer-${scenario.name}-${first}`);
    answer = run.answer;
    cards = run.cards.length;
  } catch (error) {
    failure = failureOf(error);
  }
  const after = await repository.load(user);
  const outcome = failure ? "failed" : "completed";
  return {
    name: scenario.name,
    description: `the createAgent + humanInTheLoopMiddleware peer: ${scenario.description}`,
    kind: scenario.kind,
    ...weekFigures(scenario, before, after, outcome, answer),
    outcome,
    finalAnswer: answer,
    cards,
    ...modelFigures(proxy.exchanges.slice(first)),
    ...(failure ? { failure } : {}),
  };
}
