/**
 * Every stage prompt carries "now" (nodes/shared/now.ts): one line with the date, weekday, time and time zone — the
 * zone from the thread's configuration (`configurable.time_zone`), else the schedule window's, else UTC; the moment
 * from `configurable.now`, else the graph's clock. Checked through the graph, on the prompts scripted models record.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { ConfigurationError } from "../../errors/index.js";
import { createScheduleDomain, generateSchedule, InMemoryScheduleRepository, sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { json, scriptedGraph, threadConfig } from "../support/scripted.js";

const CLOCK = () => new Date("2024-03-14T06:30:00Z");

/** The schedule domain over `week`, telling its window's time zone. */
function scheduleDomain(week: ScheduleState) {
  const repository = new InMemoryScheduleRepository({ whenMissing: () => structuredClone(week) });
  return createScheduleDomain({ repository });
}

/** A task through every stage: chat, plan (one read step), execute (a read, then done with no answer of its own), deliver. */
function wholeTask(week: ScheduleState) {
  return scriptedGraph({
    domain: scheduleDomain(week),
    now: CLOCK,
    plan: [json({ speak: "", action: "plan_done", reason: "a question", complexity: "simple", read_only: true, plan_steps: [{ content: "List the pending tasks", done_when: "they are listed" }] })],
    execute: [
      json({ speak: "", action: "continue", reason: "read", tool_call: { name: "list_tasks", arguments: { status: "pending" } } }),
      json({ speak: "", action: "done", reason: "listed", goal_check: "the pending tasks are listed" }),
    ],
    deliver: ["Eight reviews are pending."],
  });
}

/** The last message of every prompt a stage's model was sent. */
function lastMessages(model: { calls: Array<{ messages: BaseMessage[] }> }): string[] {
  return model.calls.map((call) => String(call.messages.at(-1)!.content));
}

describe("every stage prompt carries now", () => {
  test("in the window's time zone by default: chat, plan, execute and deliver each start their last message with it", async () => {
    const { graph, models } = wholeTask(sampleWeek());
    const result = await graph.invoke({ messages: [new HumanMessage("Which reviews are still pending?")] }, threadConfig("now-window"));
    expect(result.phase).toBe("done");
    for (const stage of ["chat", "plan", "execute", "deliver"] as const) {
      const prompts = lastMessages(models[stage]);
      expect(prompts.length, stage).toBeGreaterThan(0);
      for (const prompt of prompts) expect(prompt.split("\n")[0], stage).toBe("Now: Thu 2024-03-14 14:30 (Asia/Shanghai)");
    }
    // One line: the system prompt is unchanged by the clock (it stays cacheable).
    expect(String(models.plan.calls[0]!.messages[0]!.content)).not.toContain("2024-03-14");
  });

  test("the thread's time zone and moment win; a window without one is told in UTC", async () => {
    const zoned = wholeTask(sampleWeek());
    await zoned.graph.invoke({ messages: [new HumanMessage("Which reviews are still pending?")] }, { configurable: { ...threadConfig("now-zone").configurable, time_zone: "America/Los_Angeles", now: "2024-03-18T01:05:00Z" } });
    expect(lastMessages(zoned.models.chat)[0]!.split("\n")[0]).toBe("Now: Sun 2024-03-17 18:05 (America/Los_Angeles)");
    expect(lastMessages(zoned.models.deliver)[0]!.split("\n")[0]).toBe("Now: Sun 2024-03-17 18:05 (America/Los_Angeles)");

    const undated = wholeTask(generateSchedule({ days: 7, taskCount: 10 }));
    await undated.graph.invoke({ messages: [new HumanMessage("Which reviews are still pending?")] }, threadConfig("now-utc"));
    expect(lastMessages(undated.models.plan)[0]!.split("\n")[0]).toBe("Now: Thu 2024-03-14 06:30 (UTC)");
  });

  test("a time zone or a moment that cannot be read is refused with a typed error before anything runs", async () => {
    const { graph, models } = wholeTask(sampleWeek());
    for (const configurable of [{ time_zone: "Mars/Olympus" }, { now: "yesterday" }]) {
      const config = { configurable: { ...threadConfig(`now-bad-${Object.keys(configurable)[0]}`).configurable, ...configurable } };
      const error = await graph.invoke({ messages: [new HumanMessage("Which reviews are still pending?")] }, config).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/configurable\.(time_zone must be an IANA time zone|now must be an ISO date-time)/);
    }
    expect(models.chat.calls).toHaveLength(0);
  });
});
