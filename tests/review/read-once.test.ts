/**
 * One served Agent Inbox Accept of one write of a batch, through the graph: the resume is read once, at the run's
 * admission, and the run — its checkpoint's recorded answer included — carries the canonical `{ decisions }`
 * the node takes as it is (review/resume.ts).
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, threadConfig } from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";

const TWO = [
  { task_id: "review-limits", day: 1, slot_start: 5 },
  { task_id: "matrix-review", day: 2, slot_start: 3 },
];

describe("a served Accept of one write of a batch", () => {
  test("the checkpoint records the canonical answer read at admission; the first write applies, the second comes back", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const { graph, checkpointer } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [
        planDone([{ content: "Place both", done_when: "both placed" }], {
          speak: "",
          reason: "",
          complexity: "simple",
        }),
      ],
      execute: [
        json({
          speak: "Placing both.",
          action: "confirm",
          reason: "the plan",
          tool_calls: TWO.map((args) => ({ name: "place", arguments: args })),
        }),
      ],
      settings: { replanAfterStep: "never" },
      refusedAnswers: "ask_again",
    });
    const config = threadConfig("read-once");
    await graph.invoke({ messages: [new HumanMessage("Place my review tasks")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    const atCard = await graph.getState(config);
    const cardCheckpoint = atCard.config.configurable?.checkpoint_id as string;

    const after = await graph.invoke(resume([{ type: "accept", args: { action: "place", args: TWO[0] } }]), config);

    const tuple = await checkpointer.getTuple({
      configurable: { thread_id: "read-once", checkpoint_id: cardCheckpoint },
    });
    const answers = (tuple?.pendingWrites ?? [])
      .filter(([, channel]) => channel === "__resume__")
      .map(([, , value]) => value);
    // What LangGraph recorded as the card's answer is the canonical value, not the Agent Inbox list that was sent.
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers.flat())
      expect(answer).toEqual({ decisions: [{ type: "approve" }, { type: "later" }] });
    // The first write applied; the second is on the next card, not applied.
    expect(writesOnCard((await graph.getState(config)).values).map((write) => write.arguments)).toEqual([TWO[1]]);
    expect(interruptsOf(after)).toHaveLength(1);
    const placed = (await repository.load("user-1")).tasks.filter(
      (task) => task.source === "task_item" && task.status === "placed",
    );
    expect(placed.map((task) => task.id)).toContain("review-limits");
    expect(placed.map((task) => task.id)).not.toContain("matrix-review");
  });
});
