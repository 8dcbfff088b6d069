/**
 * Every stage prompt carries "now" (nodes/shared/now.ts): one line with the date, weekday, time and time zone — the
 * schedule window's zone (its dates and slot times are in it), else the thread's configuration's
 * (`configurable.time_zone`), else UTC; the moment from `configurable.now`, else the graph's clock. Checked through the
 * graph, on the prompts scripted models record.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test, vi } from "vitest";
import { ConfigurationError } from "../../errors/index.js";
import {
  createScheduleDomain,
  generateSchedule,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
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
    plan: [
      json({
        speak: "",
        action: "plan_done",
        reason: "a question",
        complexity: "simple",
        read_only: true,
        plan_steps: [{ content: "List the pending tasks", done_when: "they are listed" }],
      }),
    ],
    execute: [
      json({
        speak: "",
        action: "continue",
        reason: "read",
        tool_call: { name: "list_tasks", arguments: { status: "pending" } },
      }),
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
    const result = await graph.invoke(
      { messages: [new HumanMessage("Which reviews are still pending?")] },
      threadConfig("now-window"),
    );
    expect(result.phase).toBe("done");
    for (const stage of ["chat", "plan", "execute", "deliver"] as const) {
      const prompts = lastMessages(models[stage]);
      expect(prompts.length, stage).toBeGreaterThan(0);
      for (const prompt of prompts)
        expect(prompt.split("\n")[0], stage).toBe("Now: Thu 2024-03-14 14:30 (Asia/Shanghai)");
    }
    // One line: the system prompt is unchanged by the clock (it stays cacheable).
    expect(String(models.plan.calls[0]!.messages[0]!.content)).not.toContain("2024-03-14");
  });

  test("the thread's moment wins, and its time zone where the window has none; a window without one is told in UTC", async () => {
    const ask = (graph: ReturnType<typeof wholeTask>["graph"], thread: string, configurable: Record<string, string>) =>
      graph.invoke(
        { messages: [new HumanMessage("Which reviews are still pending?")] },
        { configurable: { ...threadConfig(thread).configurable, ...configurable } },
      );
    // Mon 18 Mar 01:05 UTC is Mon 09:05 in the window's Shanghai but Sun 18:05 in Los Angeles: the window's days,
    // slot times and clock rule are in Shanghai, so "today" must be its Monday, not the run's Sunday.
    const zoned = wholeTask(sampleWeek());
    await ask(zoned.graph, "now-zone", { time_zone: "America/Los_Angeles", now: "2024-03-18T01:05:00Z" });
    for (const stage of ["chat", "plan", "execute", "deliver"] as const)
      for (const prompt of lastMessages(zoned.models[stage]))
        expect(prompt.split("\n")[0], stage).toBe("Now: Mon 2024-03-18 09:05 (Asia/Shanghai)");

    const undated = wholeTask(generateSchedule({ days: 7, taskCount: 10 }));
    await ask(undated.graph, "now-utc", {});
    expect(lastMessages(undated.models.plan)[0]!.split("\n")[0]).toBe("Now: Thu 2024-03-14 06:30 (UTC)");
    // A window without a zone: the thread's zone tells now.
    const named = wholeTask(generateSchedule({ days: 7, taskCount: 10 }));
    await ask(named.graph, "now-named", { time_zone: "America/Los_Angeles", now: "2024-03-18T01:05:00Z" });
    expect(lastMessages(named.models.chat)[0]!.split("\n")[0]).toBe("Now: Sun 2024-03-17 18:05 (America/Los_Angeles)");
  });

  test("a time zone or a moment that cannot be read is refused with a typed error before anything runs", async () => {
    const { graph, models } = wholeTask(sampleWeek());
    for (const configurable of [{ time_zone: "Mars/Olympus" }, { now: "yesterday" }]) {
      const config = {
        configurable: { ...threadConfig(`now-bad-${Object.keys(configurable)[0]}`).configurable, ...configurable },
      };
      const error = await graph
        .invoke({ messages: [new HumanMessage("Which reviews are still pending?")] }, config)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(
        /configurable\.(time_zone must be an IANA time zone|now must be an ISO date-time)/,
      );
    }
    expect(models.chat.calls).toHaveLength(0);
  });

  test("the served graph ignores a stored value that cannot work, with a note, and runs on its default: a thread that stored one recovers", async () => {
    // The LangGraph server merges a thread's stored configurable into every run; its auth refuses a bad value at
    // admission, so one that reaches the served graph was stored before that check.
    const { graph, models } = scriptedGraph({
      domain: scheduleDomain(sampleWeek()),
      now: CLOCK,
      invalidConfigurable: "ignore",
      chat: [json({ intent: "chat", reply: "You're welcome!", reason: "thanks" })],
    });
    const notes: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((text: unknown) => void notes.push(String(text)));
    try {
      const stored = { time_zone: "Mars/Olympus", now: "2024-02-30T09:00:00Z", max_rounds: -1 };
      const result = await graph.invoke(
        { messages: [new HumanMessage("thanks")] },
        { configurable: { ...threadConfig("now-stored-bad").configurable, ...stored } },
      );
      expect(result.phase).not.toBe("failed");
      expect(result.messages.at(-1)?.content).toBe("You're welcome!");
      // The window's zone and the graph's clock, as if the values had never been set.
      expect(lastMessages(models.chat)[0]!.split("\n")[0]).toBe("Now: Thu 2024-03-14 14:30 (Asia/Shanghai)");
      expect(
        notes.filter((note) => note.includes("thread now-stored-bad: ignored a stored configurable value")),
      ).toHaveLength(3);
      for (const named of [
        /configurable\.time_zone must be an IANA time zone/,
        /configurable\.now must be an ISO date-time/,
        /configurable\.max_rounds must be a whole number/,
      ]) {
        expect(
          notes.some((note) => named.test(note)),
          String(named),
        ).toBe(true);
      }
    } finally {
      warn.mockRestore();
    }
  });
});
