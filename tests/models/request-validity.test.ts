/**
 * What Tempo sends a model server is valid where OpenAI's API checks it: tool-call ids of at most 40 characters
 * (also for threads saved with longer ones), contract schemas in the strict structured-output subset, one output
 * rule per stage; and what a model sends back is read as a person would mean it (numbers as text in tool
 * arguments, a batch with a bad call returned to the model whole, a JSON summary read as text).
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { ChatDecisionSchema } from "../../contracts/chat.js";
import { ExecuteDecisionSchema } from "../../contracts/execute.js";
import { TaskStateSummarySchema } from "../../contracts/memory.js";
import { parseContract } from "../../contracts/parse-contract.js";
import { PlanDecisionSchema } from "../../contracts/plan.js";
import { PreferenceExtractionSchema } from "../../contracts/preferences.js";
import { fromStrictOutput, strictJsonSchema } from "../../contracts/strict-schema.js";
import { plainText } from "../../nodes/deliver/index.js";
import { newToolCallId } from "../../nodes/shared/messages.js";
import { DELIVER_STAGE_PROMPT } from "../../prompts/deliver.js";
import { answersAfterCalls, buildStageMessages, sendableToolCallId } from "../../prompts/stage-messages.js";
import { checkToolArguments } from "../../tools/runner.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { findTool } from "../../tools/domain.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { MemorySaver } from "@langchain/langgraph";
import { z } from "zod";
import { schemaProblem } from "../support/openai-double/index.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

const CONTRACTS = {
  chat_decision: ChatDecisionSchema,
  plan_decision: PlanDecisionSchema,
  execute_decision: ExecuteDecisionSchema,
  task_state_summary: TaskStateSummarySchema,
  preference_extraction: PreferenceExtractionSchema,
};

describe("tool-call ids", () => {
  test("a minted id is at most 40 characters, and a whole offline task mints no longer one", async () => {
    expect(newToolCallId()).toMatch(/^call_[0-9a-f]{24}$/);
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig("ids");
    await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, config);
    await graph.invoke(resume({ type: "accept", args: null }), config);
    const done = await graph.invoke(resume({ type: "accept", args: null }), config);
    const ids = (done.messages as BaseMessage[]).flatMap((message) => [
      ...((message as AIMessage).tool_calls ?? []).map((call) => call.id ?? ""),
      ...(message.getType() === "tool" ? [(message as ToolMessage).tool_call_id] : []),
    ]);
    expect(ids.length).toBeGreaterThan(4);
    expect(ids.filter((id) => id.length > 40)).toEqual([]);
  });

  test("a thread saved with longer ids is sent with short ones, call and answer still paired", () => {
    const long = `call-${"0".repeat(8)}-1111-2222-3333-${"4".repeat(12)}`;
    expect(long).toHaveLength(41);
    const workspace = [
      new AIMessage({
        id: "a1",
        content: "Reading.",
        tool_calls: [{ id: long, name: "get_overview", args: {}, type: "tool_call" }],
      }),
      new ToolMessage({ id: "t1", content: "week", tool_call_id: long, name: "get_overview" }),
    ];
    const messages = buildStageMessages({
      stagePrompt: '<stage name="execute"></stage>',
      conversation: [],
      workspace,
      stageState: "",
      instruction: "Go.",
    });
    const call = (messages[2] as AIMessage).tool_calls![0]!;
    expect(call.id).toBe(sendableToolCallId(long));
    expect(call.id!.length).toBeLessThanOrEqual(40);
    expect((messages[3] as ToolMessage).tool_call_id).toBe(call.id);
    // The saved messages are not changed: the execution log keeps its keys.
    expect((workspace[0] as AIMessage).tool_calls![0]!.id).toBe(long);
    expect(sendableToolCallId("call_short")).toBe("call_short");
  });
});

describe("a card's answers", () => {
  test("answered at two times (a rejection on the card, the approved write as it applies), they are sent right after their calls, in call order", () => {
    const call = (id: string) => ({ id, name: "place", args: { task_id: id }, type: "tool_call" as const });
    const workspace = [
      new AIMessage({ id: "p", content: "Placing both.", tool_calls: [call("call_a"), call("call_b")] }),
      new ToolMessage({
        id: "tb",
        content: "Not applied: the user rejected this change.",
        tool_call_id: "call_b",
        name: "place",
        status: "error",
      }),
      new AIMessage({ id: "note", content: "1 change(s) on this card had already been applied." }),
      new ToolMessage({ id: "ta", content: "placed task call_a", tool_call_id: "call_a", name: "place" }),
    ];
    const sent = buildStageMessages({
      stagePrompt: "",
      conversation: [],
      workspace,
      stageState: "",
      instruction: "Go.",
    }).slice(2, -1);
    expect(sent.map((message) => message.id)).toEqual(["p", "ta", "tb", "note"]);
    expect(answersAfterCalls(workspace)).toHaveLength(workspace.length);
  });
});

describe("strict structured-output schemas", () => {
  test.each(Object.entries(CONTRACTS))(
    "%s is in OpenAI's strict subset (the strict double's check)",
    (_name, schema) => {
      expect(schemaProblem(strictJsonSchema(schema), true)).toBeUndefined();
    },
  );

  test("the zod contract as JSON Schema is not (so the check above can fail)", () => {
    expect(schemaProblem(z.toJSONSchema(ExecuteDecisionSchema), true)).toMatch(
      /'required' is required .* Missing '\w+'|is not permitted/,
    );
  });

  test("a strict answer (nulls for what is left out, arguments as JSON text) reads as the contract's decision", () => {
    const answer = {
      speak: "Placing.",
      action: "confirm",
      reason: null,
      goal_check: null,
      not_carried_out: null,
      tool_call: null,
      tool_calls: [{ name: "place", arguments: '{"task_id":"review-limits","day":1,"slot_start":5}' }],
    };
    const parsed = parseContract(ExecuteDecisionSchema, fromStrictOutput(answer));
    expect(parsed).toEqual({
      ok: true,
      value: {
        speak: "Placing.",
        action: "confirm",
        reason: "",
        goal_check: "",
        answer: "",
        not_carried_out: "",
        tool_calls: [{ name: "place", arguments: { task_id: "review-limits", day: 1, slot_start: 5 } }],
      },
    });
    const broken = parseContract(ExecuteDecisionSchema, {
      action: "confirm",
      tool_call: { name: "place", arguments: "{not json" },
    });
    expect(broken.ok).toBe(false);
  });
});

describe("one output rule per stage", () => {
  test("the deliver prompt asks for plain text only; a contract stage for one JSON object only", () => {
    const deliver = String(
      buildStageMessages({ stagePrompt: DELIVER_STAGE_PROMPT, conversation: [], stageState: "", instruction: "" })[0]!
        .content,
    );
    expect(deliver).toContain("plain text");
    expect(deliver).not.toMatch(/JSON object/);
  });

  test("a summary given as JSON anyway is read as its text; plain text and unusable JSON are told apart", () => {
    expect(plainText('{"summary": "Your week is arranged."}')).toBe("Your week is arranged.");
    expect(plainText('```json\n{"final_answer": "Done: 8 placed."}\n```')).toBe("Done: 8 placed.");
    expect(plainText("Placed 8 reviews {see the grid}.")).toBe("Placed 8 reviews {see the grid}.");
    expect(plainText('{"placed": 8, "left": 0}')).toBe("");
  });
});

describe("tool arguments as a model sends them", () => {
  const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
  const place = findTool(domain, "place")!;

  test("numbers given as text are read as numbers; a text field holding digits stays text", () => {
    expect(checkToolArguments(place, { task_id: "review-limits", day: "3", slot_start: "5" })).toEqual({
      ok: true,
      arguments: { task_id: "review-limits", day: 3, slot_start: 5 },
    });
    const digits = checkToolArguments(place, { task_id: "123", day: "2", slot_start: 1 });
    expect(digits).toEqual({ ok: true, arguments: { task_id: "123", day: 2, slot_start: 1 } });
    const wrong = checkToolArguments(place, { task_id: "review-limits", day: "Monday", slot_start: 5 });
    expect(wrong.ok).toBe(false);
  });

  test("a batch with one invalid write goes back to the model whole, and the card it proposes next shows every write", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const place = (task: string, day: unknown, slot: number) => ({
      name: "place",
      arguments: { task_id: task, day, slot_start: slot },
    });
    const execute = [
      json({
        speak: "Placing both.",
        action: "confirm",
        reason: "",
        tool_calls: [place("review-limits", "1", 5), place("derivative-drills", "Tuesday", 3)],
      }),
      json({
        speak: "Placing both.",
        action: "confirm",
        reason: "",
        tool_calls: [place("review-limits", 1, 5), place("derivative-drills", 2, 3)],
      }),
      json({ speak: "", action: "done", reason: "", goal_check: "both placed" }),
    ];
    const oneStep = planDone([{ content: "Place the calculus reviews", done_when: "both placed" }], {
      complexity: "simple",
    });
    const { graph, models } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [oneStep],
      execute,
      toolCalling: "json",
    });
    const config = threadConfig("batch-invalid");
    await graph.invoke({ messages: [new HumanMessage("Place my calculus reviews")] }, config);
    const card = await graph.invoke(resume({ type: "accept", args: null }), config);
    const requests = (interruptsOf(card)[0]?.value as { action_requests: Array<{ args: Record<string, unknown> }> })
      .action_requests;
    expect(requests.map((request) => request.args)).toEqual([
      { task_id: "review-limits", day: 1, slot_start: 5 },
      { task_id: "derivative-drills", day: 2, slot_start: 3 },
    ]);
    // The model was told about the bad call and that the good one was not proposed yet.
    const second = (models.execute.calls[1]!.messages as BaseMessage[])
      .filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(second).toEqual([
      expect.stringMatching(/^Error: invalid arguments for place: day/),
      expect.stringMatching(/^Not proposed yet: 1 other write/),
    ]);
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
    expect(done.phase).toBe("done");
    const placed = (await repository.load("user-1")).tasks
      .filter((task) => task.source === "task_item" && task.status === "placed")
      .map((task) => task.id);
    expect(placed.sort()).toEqual(["derivative-drills", "review-limits"]);
  });
});
