import { z } from "zod";
import { describe, expect, it } from "vitest";
import { findTool } from "../../tools/domain.js";
import { runTool } from "../../tools/runner.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  SCHEDULE_DOMAIN_VERSION,
} from "../../tools/schedule/index.js";
import { parsePlacedResult } from "../../offline/schedule/result-parsing.js";

describe("createScheduleDomain", () => {
  it("describes the schedule domain with its thirty-two tools", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    expect(domain.name).toBe("schedule");
    expect(domain.version).toBe(SCHEDULE_DOMAIN_VERSION);
    expect(domain.description).toMatch(/study schedule/);
    expect(domain.tools).toHaveLength(32);
    expect(createScheduleDomain({ repository: new InMemoryScheduleRepository(), version: "custom" }).version).toBe(
      "custom",
    );
  });

  it("every tool's arguments export to a JSON schema with a description on every property", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    for (const tool of domain.tools) {
      const jsonSchema = z.toJSONSchema(tool.schema) as { properties?: Record<string, { description?: string }> };
      for (const [name, property] of Object.entries(jsonSchema.properties ?? {})) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    expect(findTool(domain, "find_free")?.kind).toBe("read");
  });

  it("runs through the graph's tool runner: load, run, persist as a diff, once per tool-call id", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const call = { id: "call-1", name: "place", arguments: { task_id: "review-limits", day: 1, slot_start: 9 } };
    const first = await runTool(domain, { userId: "student", threadId: "thread-1", stepId: null }, call);
    expect(first).toEqual({
      ok: true,
      applied: true,
      content:
        "placed task review-limits on day 1 slots 9-10 (Mon 11 Mar 2024, 19:00–20:40) embedded in host mon-study-hall",
      data: { id: "review-limits", day: 1, start: 9, end: 10, hostId: "mon-study-hall" },
    });
    expect(parsePlacedResult(first.content)).toEqual({
      id: "review-limits",
      day: 1,
      start: 9,
      end: 10,
      hostId: "mon-study-hall",
    });
    const stored = await repository.load("student");
    expect(stored.tasks.find((task) => task.id === "mon-study-hall")).toMatchObject({ embeds: ["review-limits"] });
    // The same tool call again (a double resume): the tool now fails on the placed task, nothing is applied.
    const again = await runTool(domain, { userId: "student", threadId: "thread-1", stepId: null }, call);
    expect(again.applied).toBe(false);
    expect(JSON.stringify(await repository.load("student"))).toBe(JSON.stringify(stored));
    const read = await runTool(
      domain,
      { userId: "student", threadId: "thread-1", stepId: null },
      { id: "call-2", name: "find_free", arguments: { min_length: 2, days: [1] } },
    );
    expect(read).toEqual({
      ok: true,
      applied: false,
      content: "free runs with min_length=2 on days 1 slots 1-12: 1 found\n- day 1 slots 5-6 (2 free)",
      data: { runs: [{ day: 1, start: 5, end: 6, length: 2 }], found: 1, omitted: 0, lastDay: 1 },
    });
  });
});
