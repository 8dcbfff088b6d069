/**
 * Tempo against a plain LangChain v1 agent on the demo task, in one run (issue 49 item 1): the peer is `createAgent`
 * with `humanInTheLoopMiddleware` (bench/support/peer-agent.ts) given Tempo's schedule tools and the sample week; Tempo is
 * its graph with the offline policy as the model. Both talk to the strict OpenAI server double over HTTP through a
 * real `ChatOpenAI`, every card / interrupt approved, and both are counted the same way: model calls, and prompt
 * tokens on the request bodies as sent (o200k, `promptSize` of bench/model-calls.ts: messages, tool calls, the
 * `tools` and `response_format` JSON). Also the characters of tool schemas (`tools` as sent) per call.
 *
 * The peer's scripted model does what a competent model does: reads (`propose_arrangement`), places the 8 reviews
 * in one reply (one interrupt, approved), answers: 3 calls. It runs twice: with every tool of the schedule domain,
 * and with only the 2 it uses. Tempo runs in each tool-calling mode of bench/model-calls.ts.
 * Goals (issue 49): Tempo ≤ 4 calls and ≤ 0.8 × the peer's prompt tokens (the peer with every tool), in every mode.
 * Exits non-zero when a request is refused or a run does not place the week.
 *
 *   npx tsx bench/peer.ts
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tiktokenCounter } from "../memory/tokens.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../tools/schedule/index.js";
import { startOpenAIDouble, type OpenAIDouble, type RecordedRequest } from "../tests/support/openai-double/index.js";
import { MODES, TASKS, measure, promptSize, type BenchMode } from "./model-calls.js";
import { createPeerAgent, peerBrain, runPeer } from "./support/peer-agent.js";

/** Most model calls Tempo may take for the demo. */
export const PEER_CALL_GOAL = 4;
/** Tempo's prompt tokens at most this share of the peer's. */
export const PEER_TOKEN_GOAL = 0.8;
/** The tools the peer's demo uses. */
export const PEER_USED_TOOLS = ["propose_arrangement", "place"] as const;

/** One side's figures on the demo task. */
export interface SideFigures {
  label: string;
  calls: number;
  promptTokens: number;
  /** Characters of tool schemas (`tools` JSON as sent), per call that carried any, and the calls that did. */
  schemaCharsPerCall: number;
  callsWithTools: number;
  /** Reviews placed at the end. */
  placed: number;
  refused: number;
}

/** Calls, prompt tokens and tool-schema characters of `requests`. */
export function requestFigures(requests: readonly RecordedRequest[]): Omit<SideFigures, "label" | "placed"> {
  const withTools = requests.filter((request) => request.body.tools?.length);
  const schemaChars = withTools.reduce((sum, request) => sum + JSON.stringify(request.body.tools).length, 0);
  return {
    calls: requests.length,
    promptTokens: requests.reduce((sum, request) => sum + promptSize(request.body).promptTokens, 0),
    schemaCharsPerCall: withTools.length > 0 ? Math.round(schemaChars / withTools.length) : 0,
    callsWithTools: withTools.length,
    refused: requests.filter((request) => request.refusal).length,
  };
}

const placedIn = (repository: InMemoryScheduleRepository, user: string) =>
  repository
    .load(user)
    .then((week) => week.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length);

/** The peer on the demo task through `double` (its brain {@link peerBrain}), with `tools` (default every tool). */
export async function measurePeer(
  double: OpenAIDouble,
  label: string,
  tools?: readonly string[],
): Promise<SideFigures> {
  const user = "student";
  const repository = new InMemoryScheduleRepository();
  await repository.seed(user, sampleWeek());
  const agent = createPeerAgent({
    domain: createScheduleDomain({ repository }),
    baseUrl: double.baseUrl,
    apiKey: "test",
    userId: user,
    ...(tools ? { tools } : {}),
  });
  const first = double.requests.length;
  await runPeer(agent, TASKS[0]!.message, `peer-${label}`);
  return { label, ...requestFigures(double.requests.slice(first)), placed: await placedIn(repository, user) };
}

/** Tempo on the demo task in `mode` through `double` (the offline policy's brain). */
export async function measureTempo(double: OpenAIDouble, mode: BenchMode): Promise<SideFigures> {
  const first = double.requests.length;
  const measured = await measure(double, TASKS[0]!, mode);
  const figures = requestFigures(double.requests.slice(first));
  return { label: `Tempo, ${mode.name}`, ...figures, placed: measured.placed };
}

const number = (value: number) => value.toLocaleString("en-US");

/** The table of both sides, and one goal line per Tempo mode against the peer (every tool). */
export function peerReport(peer: SideFigures, peerUsed: SideFigures, tempo: readonly SideFigures[]): string[] {
  const row = (side: SideFigures) =>
    `| ${side.label} | ${side.calls} | ${number(side.promptTokens)} | ${number(side.schemaCharsPerCall)} (${side.callsWithTools} calls) | ${side.placed} | ${side.refused} |`;
  return [
    "| run | model calls | prompt tokens | tool-schema chars per call with tools | placed | refused |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...[peer, peerUsed, ...tempo].map(row),
    "",
    ...tempo.map((side) => {
      const ratio = side.promptTokens / peer.promptTokens;
      const met = side.calls <= PEER_CALL_GOAL && ratio <= PEER_TOKEN_GOAL;
      return `${side.label}: ${side.calls} calls (goal ≤ ${PEER_CALL_GOAL}), prompt tokens ${ratio.toFixed(3)}× the peer's ${number(peer.promptTokens)} (goal ≤ ${PEER_TOKEN_GOAL}; ${(side.promptTokens / peerUsed.promptTokens).toFixed(3)}× the peer with only the tools it uses) → ${met ? "met" : "NOT met"}`;
    }),
  ];
}

async function main(): Promise<void> {
  const peerDouble = await startOpenAIDouble({ brain: peerBrain });
  const tempoDouble = await startOpenAIDouble();
  let lines: string[];
  let sides: SideFigures[];
  try {
    const peer = await measurePeer(peerDouble, "peer: createAgent + HITL, every schedule tool");
    const peerUsed = await measurePeer(
      peerDouble,
      `peer: createAgent + HITL, only ${PEER_USED_TOOLS.join(" + ")}`,
      PEER_USED_TOOLS,
    );
    const tempo: SideFigures[] = [];
    for (const mode of MODES) tempo.push(await measureTempo(tempoDouble, mode));
    sides = [peer, peerUsed, ...tempo];
    lines = peerReport(peer, peerUsed, tempo);
  } finally {
    await peerDouble.close();
    await tempoDouble.close();
  }
  console.log(
    `Demo task ("${TASKS[0]!.message}", the sample week): Tempo against a LangChain v1 createAgent + humanInTheLoopMiddleware peer, real ChatOpenAI through the strict OpenAI double, every card approved; prompt tokens on the request bodies (${tiktokenCounter.name})\n`,
  );
  for (const line of lines) console.log(line);
  if (sides.some((side) => side.refused > 0 || side.placed !== 8)) {
    console.error("\nFAILED: a request was refused or a run did not place the week's 8 reviews.");
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
