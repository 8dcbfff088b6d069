/**
 * What the graph decides in code so a model is not asked (issue 24, item 5): a clean step goes on without a
 * planner call; a proposal's `then` ends its step once every write applies unchanged (an edit, a rejection or a
 * failed write gives the decision back); a completed task answered by done's `answer` needs no deliver call; the
 * execute prompt holds the domain's live state, read again after a write.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, planDone, resume, scriptedGraph, stepsOf, threadConfig } from "../support/scripted.js";

const addNote = (text: string, extra: Record<string, unknown> = {}) =>
  json({ speak: `Adding ${text}.`, action: "confirm", tool_call: { name: "add_note", arguments: { text } }, ...extra });
const next = (summary: string) => json({ action: "next_plan", goal_check: summary });
const text = (messages: BaseMessage[]) => messages.map((message) => String(message.content)).join("\n");

describe("replan after a step, when needed", () => {
  test("a clean step goes straight on to the next; a step with a declined write gets the planner's review", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [
        planDone(stepsOf("Collect notes", "Add note x", "Report")),
        json({ action: "continue", reason: "still holds" }),
      ],
      execute: [
        next("collected"),
        addNote("x"),
        addNote("x2"),
        next("x2 added"),
        json({ action: "done", goal_check: "reported" }),
      ],
      settings: { replanAfterStep: "when_needed" },
    });
    const config = threadConfig("replan-when-needed");
    await graph.invoke({ messages: [new HumanMessage("organise my notes")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    // Step 1 ended clean: no planner call between it and step 2's proposal.
    expect(models.plan.calls).toHaveLength(1);
    await graph.invoke(resume({ type: "ignore", args: null }), config);
    const final = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(final.phase).toBe("done");
    // Step 2 met a declined write: the planner reviewed the plan before step 3, once.
    expect(models.plan.calls).toHaveLength(2);
    expect(text(models.plan.calls[1]!.messages as BaseMessage[])).toContain("Mode: replan");
  });
});

describe("a proposal's then", () => {
  async function proposeWithThen(answer: unknown) {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({
      domain,
      plan: [planDone(stepsOf("Add note x"))],
      execute: [
        addNote("x", { then: "done", goal_check: "x is added", answer: "Added the note x." }),
        json({ action: "done", goal_check: "decided again", answer: "" }),
      ],
      deliver: ["The deliver model's summary."],
    });
    const config = threadConfig(`then-${JSON.stringify(answer).length}`);
    await graph.invoke({ messages: [new HumanMessage("add note x")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    const final = await graph.invoke(resume(answer), config);
    return { final, models, domain };
  }

  test("approved unchanged and applied: the task ends with no further execute call and no deliver call", async () => {
    const { final, models, domain } = await proposeWithThen({ type: "accept", args: null });
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    expect(final.phase).toBe("done");
    expect(final.outcome?.kind).toBe("completed");
    expect(final.planSteps.map((step: { summary?: string }) => step.summary)).toEqual(["x is added"]);
    expect(models.execute.calls).toHaveLength(1);
    expect(models.deliver.calls).toHaveLength(0);
    expect(final.finalAnswer).toBe("Added the note x.");
  });

  test("an edit gives the decision back to the model, and without an answer the deliver model phrases the end", async () => {
    const { final, models, domain } = await proposeWithThen({
      type: "edit",
      args: { action: "add_note", args: { text: "y" } },
    });
    expect(domain.data.get("user-1")).toEqual({ notes: ["y"] });
    expect(models.execute.calls).toHaveLength(2);
    expect(final.planSteps.map((step: { summary?: string }) => step.summary)).toEqual(["decided again"]);
    expect(models.deliver.calls).toHaveLength(1);
    // The model's words, then the user's own decision on the card, named whoever phrased the answer.
    expect(final.finalAnswer).toMatch(
      /^The deliver model's summary\.\n\nYour decisions on the cards: applied with your edit — .*y.*\.$/,
    );
  });

  test("a rejection gives the decision back to the model; nothing is applied", async () => {
    const { final, models, domain } = await proposeWithThen({ type: "ignore", args: null });
    expect(domain.data.get("user-1")?.notes ?? []).toEqual([]);
    expect(models.execute.calls).toHaveLength(2);
    expect(final.phase).toBe("done");
  });

  test("natively: next_plan called beside the writes ends the step once they apply", async () => {
    const domain = createNotesDomain();
    const call = (name: string, args: Record<string, unknown>, id: string) => ({
      name,
      args,
      id,
      type: "tool_call" as const,
    });
    const { graph, models } = scriptedGraph({
      domain,
      plan: [planDone(stepsOf("Add notes", "Report"))],
      execute: [
        new AIMessage({
          content: "Adding both.",
          tool_calls: [
            call("add_note", { text: "a" }, "c1"),
            call("add_note", { text: "b" }, "c2"),
            call("next_plan", { goal_check: "a and b added" }, "c3"),
          ],
        }),
        new AIMessage({
          content: "",
          tool_calls: [call("done", { goal_check: "reported", answer: "Added a and b." }, "c4")],
        }),
      ],
      toolCalling: "native",
      settings: { replanAfterStep: "when_needed" },
    });
    const config = threadConfig("then-native");
    await graph.invoke({ messages: [new HumanMessage("add a and b")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    const final = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
    expect(domain.data.get("user-1")).toEqual({ notes: ["a", "b"] });
    expect(final.planSteps.map((step: { status: string; summary?: string }) => [step.status, step.summary])).toEqual([
      ["done", "a and b added"],
      ["done", "reported"],
    ]);
    expect(models.execute.calls).toHaveLength(2);
    expect(models.plan.calls).toHaveLength(1);
    expect(models.deliver.calls).toHaveLength(0);
    expect(final.finalAnswer).toBe("Added a and b.");
  });

  test("then without confirm, or without goal_check, is corrected, not acted on", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [planDone(stepsOf("Add note x"))],
      execute: [
        json({ action: "continue", then: "done", goal_check: "x" }),
        json({ action: "done", goal_check: "nothing to do" }),
      ],
    });
    const config = threadConfig("then-invalid");
    await graph.invoke({ messages: [new HumanMessage("add note x")] }, config);
    const final = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(final.phase).toBe("done");
    expect(text(models.execute.calls[1]!.messages as BaseMessage[])).toContain("then is only for action confirm");
  });
});

describe("live state in the execute prompt", () => {
  test("the execute model sees the week without reading it, and the week as it is after a write", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const place = { name: "place", arguments: { task_id: "review-limits", day: 1, slot_start: 5 } };
    const { graph, models } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [planDone(stepsOf("Place the limits review"))],
      execute: [
        json({ speak: "", action: "confirm", tool_call: place }),
        json({ action: "done", goal_check: "placed", answer: "Placed." }),
      ],
    });
    const config = threadConfig("live-state");
    await graph.invoke({ messages: [new HumanMessage("place my limits review")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    const [before, after] = models.execute.calls.map((call) => text(call.messages as BaseMessage[]));
    expect(before).toContain("<live_state>\nget_overview (fetched just now):");
    expect(before).toContain("8 task items (0 placed, 8 pending)");
    expect(after).toContain("8 task items (1 placed, 7 pending)");
  });
});
