/**
 * The createAgent + humanInTheLoopMiddleware peer of bench/peer.ts (issue 49 item 1), through the strict OpenAI double:
 * its demo takes read → one interrupt of 8 writes → answer, the writes really land in the week, nothing is refused,
 * and its requests are counted as Tempo's are. Figures, not timing; the goals are the bench's to print.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { offeredTools } from "../../tools/domain.js";
import { MODES, promptSize, TASKS } from "../../bench/model-calls.js";
import {
  measurePeer,
  measureTempo,
  peerReport,
  PEER_USED_TOOLS,
  requestFigures,
  type SideFigures,
} from "../../bench/peer.js";
import { createPeerAgent, peerBrain, proposedPlacements, runPeer } from "../../bench/support/peer-agent.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { startOpenAIDouble, type OpenAIDouble } from "../support/openai-double/index.js";

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble({ brain: peerBrain });
});
afterAll(() => double.close());

describe("the createAgent + HITL peer on the demo task", () => {
  test("reads, raises one interrupt of 8 place calls, answers: 3 calls, the week placed, nothing refused", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const agent = createPeerAgent({ domain, baseUrl: double.baseUrl, apiKey: "test", userId: "student" });
    const first = double.requests.length;
    const run = await runPeer(agent, TASKS[0]!.message, "peer-test");
    const requests = double.requests.slice(first);
    expect(double.refusals).toEqual([]);
    expect(requests).toHaveLength(3);
    // Every request carries Tempo's schedule tools, by name, as the domain offers them to a model (a candidate's
    // write, whose argument is a whole record no model types, is offered to none).
    const offered = offeredTools(domain).map((each) => each.name);
    expect(offered).not.toContain("restore_task");
    for (const request of requests) expect(request.body.tools?.map((each) => each.function?.name)).toEqual(offered);
    expect(run.cards).toHaveLength(1);
    expect(run.cards[0]!.map((request) => request.name)).toEqual(Array(8).fill("place"));
    const week = await repository.load("student");
    const placed = week.tasks.filter((task) => task.source === "task_item" && task.status === "placed");
    expect(placed.map((task) => task.id).sort()).toEqual(
      run.cards[0]!.map((request) => String(request.args.task_id)).sort(),
    );
    expect(run.answer).toMatch(/^Placed 8 review\(s\):/);
    // The read ran before the interrupt; the writes only after it was approved.
    expect(requests[1]!.body.messages?.filter((message) => message.role === "tool")).toHaveLength(1);
    expect(requests[2]!.body.messages?.filter((message) => message.role === "tool")).toHaveLength(9);
  });

  test("counted as Tempo is: o200k on the request bodies; only the tools it uses cost less", async () => {
    const first = double.requests.length;
    const every = await measurePeer(double, "every tool");
    const counted = double.requests.slice(first);
    expect(every).toMatchObject({ calls: 3, placed: 8, refused: 0, callsWithTools: 3 });
    expect(every.promptTokens).toBe(counted.reduce((sum, request) => sum + promptSize(request.body).promptTokens, 0));
    expect(every.schemaCharsPerCall).toBe(JSON.stringify(counted[0]!.body.tools).length);
    const used = await measurePeer(double, "used", PEER_USED_TOOLS);
    expect(used).toMatchObject({ calls: 3, placed: 8, refused: 0 });
    expect(used.promptTokens).toBeLessThan(every.promptTokens);
    expect(used.schemaCharsPerCall).toBeLessThan(every.schemaCharsPerCall);
  });

  test("Tempo in the same run: the offline policy places the week, its figures from the same counting", async () => {
    const tempoDouble = await startOpenAIDouble();
    try {
      const tempo = await measureTempo(tempoDouble, MODES[0]!);
      expect(tempo).toMatchObject({ placed: 8, refused: 0 });
      expect(tempo).toMatchObject(requestFigures(tempoDouble.requests));
    } finally {
      await tempoDouble.close();
    }
  });
});

describe("the peer's parts", () => {
  test("a propose_arrangement listing's placements become place calls", () => {
    const listing = [
      'candidates (choose one with choose_candidate {"id": "<id>"}, or "none"):',
      "- a1 (+96 → 99.5): place 2 of 2 pending review(s)",
      "  - task review-limits on day 5 slots 9-10",
      "  - task binary-tree-review on day 1 slots 9-9 in host mon-study-hall",
    ].join("\n");
    expect(proposedPlacements(listing)).toEqual([
      { name: "place", arguments: { task_id: "review-limits", day: 5, slot_start: 9 } },
      { name: "place", arguments: { task_id: "binary-tree-review", day: 1, slot_start: 9 } },
    ]);
  });

  test("the report: a goal line per Tempo run, met only at ≤ 4 calls and ≤ 0.8 × the peer's tokens", () => {
    const side = (label: string, calls: number, promptTokens: number): SideFigures => ({
      label,
      calls,
      promptTokens,
      schemaCharsPerCall: 100,
      callsWithTools: calls,
      placed: 8,
      refused: 0,
    });
    const lines = peerReport(side("peer", 3, 10_000), side("peer, used", 3, 4_000), [
      side("Tempo, a", 4, 8_000),
      side("Tempo, b", 5, 7_000),
      side("Tempo, c", 4, 8_001),
    ]);
    // The header, its alignment, and a row per run.
    expect(lines.filter((line) => line.startsWith("| "))).toHaveLength(7);
    expect(lines.at(-3)).toBe(
      "Tempo, a: 4 calls (goal ≤ 4), prompt tokens 0.800× the peer's 10,000 (goal ≤ 0.8; 2.000× the peer with only the tools it uses) → met",
    );
    expect(lines.at(-2)).toMatch(/^Tempo, b: 5 calls .* → NOT met$/);
    expect(lines.at(-1)).toMatch(/^Tempo, c: 4 calls .* 0\.800× .* → NOT met$/);
  });
});
