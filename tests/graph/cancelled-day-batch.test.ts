/**
 * A run cancelled in the middle of a day's batch card answered in part ("clear tomorrow": unplace writes; "skip all my
 * reviews today": skip writes), in process: the approved writes before the cancel stay, the approved ones after it are
 * never applied (not by the carried-on run either), no rejected write applies, and the report names exactly which
 * applied and which approved ones did not.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { threadConfig } from "../support/scripted.js";
import { approveBatchCancelledAfter } from "../support/cancelled-batch.js";
import { writesOnCard } from "../support/card-writes.js";
import { crowdedMondayWeek, offlineTempo } from "./support/offline-conversation.js";

const approve = { type: "approve" };
const reject = { type: "reject", message: "keep it" };

test.each([
  ["clear tomorrow", "2024-03-10T20:00:00+08:00", "pending", "unplaced"],
  ["skip all my reviews today", "2024-03-11T09:00:00+08:00", "skipped", "marked"],
] as const)("%s, answered in part and cancelled after its first write", async (request, now, changed, verb) => {
  const log = new MemoryExecutionLog();
  const { graph, repository } = await offlineTempo(crowdedMondayWeek(), () => new Date(now), { executionLog: log });
  const config = threadConfig(`cancelled-${verb}`, "student");
  await graph.invoke({ messages: [new HumanMessage(request)] }, config);
  await graph.invoke(new Command({ resume: { decisions: [approve] } }), config);
  const card = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts)[0]!.value as {
    action_requests: Array<{ args: { task_id: string } }>;
  };
  const ids = card.action_requests.map((action) => action.args.task_id);
  const calls = writesOnCard((await graph.getState(config)).values).map((write) => write.id);
  expect(ids).toHaveLength(5);
  // Approve the 1st, 3rd and 4th, reject the 2nd and 5th; the run is cancelled once the 1st applied.
  const decisions = [approve, reject, approve, approve, reject];
  await approveBatchCancelledAfter(graph, log, config, 1, decisions);
  // The next message carries the cancelled run on to its end first.
  await graph.invoke({ messages: [new HumanMessage("thanks")] }, config);

  const week = await repository.load("student");
  const status = (id: string) => (week.tasks.find((task) => task.id === id) as TaskItem).status;
  expect(ids.map(status)).toEqual([changed, "placed", "placed", "placed", "placed"]);
  // The log: the first applied; the other approved ones recorded as cancelled (never to apply); the rejected ones none.
  const logged = await Promise.all(calls.map((id) => log.completed(id, config.configurable.thread_id)));
  expect(logged.map((outcome) => outcome?.applied ?? null)).toEqual([true, null, false, false, null]);

  const values = (await graph.getState(config)).values as {
    outcome: { kind: string };
    messages: Array<{ content: unknown }>;
  };
  expect(values.outcome.kind).toBe("partial");
  const report = values.messages
    .map((message) => String(message.content))
    .find((text) => text.includes("Approved but not applied"));
  const name = (id: string) => week.tasks.find((task) => task.id === id)!.name;
  expect(report).toContain(`Changes applied (they stay): 1 — `);
  expect(report).toContain(`Approved but not applied: 2 — `);
  const notApplied = report!.slice(report!.indexOf("Approved but not applied"));
  for (const id of [ids[2]!, ids[3]!]) expect(notApplied).toContain(name(id));
  // The rejected writes are never said to be applied or approved: they are the ones left out at the user's request.
  const told = report!.slice(report!.indexOf("Changes applied"), report!.indexOf("Your decisions on the cards"));
  const leftOut = report!.slice(report!.indexOf("left out at your request"));
  for (const id of [ids[1]!, ids[4]!]) {
    expect(told).not.toContain(name(id));
    expect(leftOut).toContain(name(id));
  }
});
