/**
 * A run cancelled while it applies a card's approved writes (the user's stop, a multitask interrupt), in process: the
 * writes applied before the cancel stay, the rest are approved but not applied — and the task's outcome, which front
 * ends show as the thread's status and memory keeps in the episode, is `partial`, not `failed` ("failed" would say
 * nothing was done, with three reviews placed). The served, Postgres-backed path is tests/persistence/served-cancel.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { sampleWeek } from "../../tools/schedule/index.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { threadConfig } from "../support/scripted.js";
import { approveBatchCancelledAfter } from "../support/cancelled-batch.js";
import { offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

test("a batch cancelled after its third write ends partial, telling what applied and what did not", async () => {
  const log = new MemoryExecutionLog();
  const { graph, repository } = await offlineTempo(sampleWeek(), () => SAMPLE_WEEK_EVE, { executionLog: log });
  const config = threadConfig("cancelled-batch", "student");
  await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, config);
  await graph.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
  const writes = await approveBatchCancelledAfter(graph, log, config, 3);
  expect(writes).toBeGreaterThan(4);
  // The next message carries the cancelled run on to its end first.
  await graph.invoke({ messages: [new HumanMessage("thanks")] }, config);

  const values = (await graph.getState(config)).values as { outcome: { kind: string } };
  expect(values.outcome.kind).toBe("partial");
  const placed = (await repository.load("student")).tasks.filter(
    (task) => task.source === "task_item" && task.status === "placed",
  );
  expect(placed).toHaveLength(3);
  const report = ((await graph.getState(config)).values.messages as Array<{ content: unknown }>)
    .map((message) => String(message.content))
    .find((text) => text.includes("Approved but not applied"));
  expect(report).toContain("Changes applied (they stay): 3 — ");
  expect(report).toContain(`Approved but not applied: ${writes - 3} — `);
});
