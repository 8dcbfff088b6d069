/**
 * The in-memory execution log (graphs built without a database): the Postgres log's contract — one completed entry
 * per write and thread, the first kept, answered by tool-call id — so a card whose writes it holds is reconciled, not
 * applied twice, without a database too.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { runTool, type ExecutionLogEntry } from "../../tools/runner.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, planDone, resume, scripted, stepsOf, threadConfig } from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";

const write = (toolCallId: string, threadId: string, result: string): ExecutionLogEntry => ({
  threadId,
  userId: "user-1",
  stepId: null,
  toolCallId,
  tool: "add_note",
  kind: "write",
  arguments: {},
  result,
  ok: true,
  applied: true,
  startedAt: new Date(0),
  finishedAt: new Date(0),
});

describe("MemoryExecutionLog", () => {
  test("a write completes once per thread: a second completed entry is refused, the first is what is answered", async () => {
    const log = new MemoryExecutionLog();
    await log.append(write("call-1", "t1", "added note 1"));
    await expect(log.append(write("call-1", "t1", "added it again"))).rejects.toMatchObject({
      code: "PERSISTENCE_FAILED",
    });
    await log.append({ ...write("call-1", "t1", "replayed"), status: "replayed", applied: false });
    expect(await log.completed("call-1", "t1")).toEqual({ ok: true, content: "added note 1", applied: true });
    // Another thread's call with the same id is its own.
    expect(await log.completed("call-1", "t2")).toBeUndefined();
    await log.append(write("call-1", "t2", "added note 1 on t2"));
    expect(await log.completed("call-1", "t2")).toMatchObject({ content: "added note 1 on t2" });
  });

  test("bounded: past its limit the oldest completed calls are forgotten", async () => {
    const log = new MemoryExecutionLog(2);
    for (const id of ["a", "b", "c"]) await log.append(write(id, "t", id));
    expect(await log.completed("a", "t")).toBeUndefined();
    expect(await log.completed("b", "t")).toMatchObject({ content: "b" });
    expect(await log.completed("c", "t")).toMatchObject({ content: "c" });
    // Looked up without a thread, as the Postgres log allows.
    expect(await log.completed("c")).toMatchObject({ content: "c" });
  });

  test("the runner answers a write it holds from the record: applied once, whatever runs it again", async () => {
    const domain = createNotesDomain();
    const log = new MemoryExecutionLog();
    const call = { id: "call-x", name: "add_note", arguments: { text: "x" } };
    const context = { userId: "user-1", threadId: "t", stepId: null };
    expect(await runTool(domain, context, call, log)).toMatchObject({ ok: true, applied: true });
    expect(await runTool(domain, context, call, log)).toMatchObject({ ok: true, applied: false });
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
  });

  test("a graph with no database reconciles a card whose write its log already holds: not applied twice, not asked again", async () => {
    const domain = createNotesDomain();
    const executionLog = new MemoryExecutionLog();
    const models = {
      chat: scripted([json({ intent: "task" })]),
      plan: scripted([planDone(stepsOf("Add note x"))]),
      execute: scripted([
        json({
          speak: "Adding x.",
          action: "confirm",
          reason: "asked",
          tool_call: { name: "add_note", arguments: { text: "x" } },
        }),
        json({ speak: "", action: "done", reason: "", goal_check: "x added" }),
      ]),
      deliver: scripted(["Done."]),
    };
    const graph = buildTempoGraph({
      models: { default: models.chat, ...models },
      domain,
      checkpointer: new MemorySaver(),
      executionLog,
    });
    const config = threadConfig("memory-log-reconcile");
    await graph.invoke({ messages: [new HumanMessage("add note x")] }, config);
    const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
    const [card] = writesOnCard(waiting);
    // Applied behind the card, as a run that died after the write and before its checkpoint would have.
    await runTool(
      domain,
      { userId: "user-1", threadId: "memory-log-reconcile", stepId: "step-1" },
      card!,
      executionLog,
    );

    const result = await graph.invoke(resume({ type: "ignore", args: null }), config);
    expect(domain.applied).toHaveLength(1);
    expect(interruptsOf(result)).toEqual([]);
    expect(result.messages.map((message) => String(message.content)).join("\n")).toContain(
      "1 change(s) on this card had already been applied",
    );
  });
});
