/**
 * The backend decides, the model chooses (issue 29): a scripted model that never writes by hand arranges and refines
 * the sample week by choosing candidates by id — the candidate's writes reach the batch card as they are, and apply
 * once each. An unknown id, an id of an earlier listing, a listing made stale by an applied write, and a choice
 * with no listing are clear errors back to the model; "none" chooses nothing. `choose_candidate` is offered with
 * the tools that list candidates, and only then.
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { asCard } from "../../contracts/cards.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import {
  interruptsOf,
  nativeToolGraph,
  planDone,
  recordingBoundTools,
  resume,
  scripted,
  threadConfig,
} from "../support/scripted.js";
import { halfPlacedWeek } from "./support/offline-conversation.js";

const PLAN = planDone(
  [
    {
      content: "Arrange and refine the week",
      done_when: "nothing pending fits and no candidate helps",
      // The candidates and placing by hand at once (no run mode: by default a step would get one or the other).
      packs: ["schedule.read", "schedule.optimize", "schedule.place"],
    },
  ],
  { speak: "One step.", complexity: "simple" },
);

let callCount = 0;
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `call-${(callCount += 1)}`, name, args, type: "tool_call" }] });

async function setup(script: AIMessage[], week = sampleWeek()) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", week);
  const domain = createScheduleDomain({ repository });
  const execute = scripted(script);
  const offered = recordingBoundTools(execute);
  const graph = nativeToolGraph(domain, scripted([PLAN]), execute);
  return { graph, repository, offered, execute };
}

/** Every tool message of the thread, as "name: content". */
function toolResults(messages: BaseMessage[]): string[] {
  return messages
    .filter((message) => message.getType() === "tool")
    .map((message) => `${(message as ToolMessage).name}: ${String(message.content)}`);
}

describe("choose_candidate", () => {
  test("arranging and refining by choosing: the chosen candidates' writes reach the card as they are and apply", async () => {
    const { graph, repository } = await setup(
      [
        calling("propose_arrangement"),
        calling("choose_candidate", { id: "a1" }),
        calling("propose_candidates", { k: 3 }),
        calling("choose_candidate", { id: "c2" }),
        calling("done", { goal_check: "arranged and refined" }),
      ],
      halfPlacedWeek(),
    );
    const config = threadConfig("choose");
    let result = await graph.invoke({ messages: [new HumanMessage("Arrange my week")] }, config);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config); // the plan
    const arrangement = asCard(interruptsOf(result)[0]!.value)!;
    // The four pending reviews placed (polished among themselves); the four placed by hand stay for the refinement.
    expect(arrangement.action_requests.map((request) => request.name)).toEqual(Array(4).fill("place"));
    result = await graph.invoke(
      resume({ decisions: arrangement.action_requests.map(() => ({ type: "approve" })) }),
      config,
    );
    const week = await repository.load("user-1");
    expect(week.tasks.filter((task) => task.source === "task_item" && task.status === "placed")).toHaveLength(8);
    const before = analyzeHealth(week).score;
    const refinement = asCard(interruptsOf(result)[0]!.value)!;
    // The card holds c2's writes exactly as the listing gave them.
    const listings = result.messages.filter(
      (message) => message.getType() === "tool" && (message as ToolMessage).name === "propose_candidates",
    );
    const listed = (
      (listings.at(-1) as ToolMessage).artifact as {
        data: {
          candidates: Array<{ id: string; writes: Array<{ name: string; arguments: Record<string, unknown> }> }>;
        };
      }
    ).data.candidates;
    const chosen = listed.find((candidate) => candidate.id === "c2")!;
    expect(refinement.action_requests.map((request) => ({ name: request.name, arguments: request.args }))).toEqual(
      chosen.writes,
    );
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    expect(analyzeHealth(await repository.load("user-1")).score).toBeGreaterThan(before);
    const results = toolResults(result.messages);
    expect(results.filter((line) => line.startsWith("choose_candidate: chose"))).toHaveLength(2);
    expect(results.filter((line) => line.startsWith("place: placed task"))).toHaveLength(4);
  });

  test("an unknown id, an id of an earlier listing, a stale listing and no listing are errors back to the model; none chooses nothing", async () => {
    const { graph } = await setup([
      calling("choose_candidate", { id: "c1" }),
      calling("propose_arrangement"),
      calling("choose_candidate", { id: "c9" }),
      calling("propose_candidates", { k: 2 }),
      calling("choose_candidate", { id: "a1" }),
      calling("choose_candidate", { id: "none" }),
      calling("propose_arrangement"),
      calling("choose_candidate", { id: "a1" }),
      calling("choose_candidate", { id: "a1" }),
      calling("done", { goal_check: "tried" }),
    ]);
    const config = threadConfig("choose-errors");
    await graph.invoke({ messages: [new HumanMessage("Arrange my week")] }, config);
    let result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    result = await graph.invoke(resume({ decisions: card.action_requests.map(() => ({ type: "approve" })) }), config);
    const chooses = toolResults(result.messages).filter((line) => line.startsWith("choose_candidate"));
    expect(chooses[0]).toBe(
      "choose_candidate: Error: no candidates were listed in this step; call propose_arrangement or propose_candidates first, then choose by id.",
    );
    expect(chooses[1]).toBe(
      'choose_candidate: Error: no candidate "c9"; the latest listing offers a1, or "none". Nothing was changed.',
    );
    expect(chooses[2]).toMatch(
      /^choose_candidate: Error: candidate "a1" is from an earlier listing; the latest listing (offers c1|is empty)/,
    );
    expect(chooses[3]).toBe("choose_candidate: no candidate chosen");
    expect(chooses[4]).toMatch(/^choose_candidate: chose a1: place 8 of 8 pending review\(s\)/);
    // The arrangement applied: the listing it came from is stale now.
    expect(chooses[5]).toBe(
      "choose_candidate: Error: the candidates a1 are stale: a change applied since propose_arrangement listed them. Call propose_arrangement again and choose from the new list.",
    );
    expect(result.phase).toBe("done");
  });

  test("offered with the tools that list candidates, and only then", async () => {
    const { graph, offered, execute } = await setup([
      calling("context_tools_remove", { packs: ["schedule.optimize"] }),
      calling("get_overview"),
      calling("done", { goal_check: "read" }),
    ]);
    await graph.invoke({ messages: [new HumanMessage("What does my week look like?")] }, threadConfig("offer"));
    await graph.invoke(resume({ decisions: [{ type: "approve" }] }), threadConfig("offer")); // the plan
    expect(offered[0]).toEqual(
      expect.arrayContaining(["analyze_health", "propose_arrangement", "propose_candidates", "choose_candidate"]),
    );
    expect(offered[1]).not.toContain("choose_candidate");
    expect(offered[1]).not.toContain("propose_candidates");
    // The rule to prefer the candidates comes with them.
    const prompt = (index: number) =>
      execute.calls[index]!.messages.map((message) => String(message.content)).join("\n");
    expect(prompt(0)).toContain("<choosing>");
    expect(prompt(1)).not.toContain("<choosing>");
  });
});
