/**
 * Served together (`combineDomains`), each domain holds the task's card decisions for its own tools
 * (`ToolDomain.decisions`, issue 46 item 4): a schedule write onto a day the user called off is refused on the
 * schedule's part of the state, a propose_arrangement gets the day off, and another domain's calls go through as
 * they are.
 */
import { describe, expect, test } from "vitest";
import { combineDomains } from "../../tools/combined-domain.js";
import type { DecidedWrite } from "../../tools/domain.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { createNotesDomain } from "../support/notes-domain.js";

const dayOff: DecidedWrite = {
  name: "place",
  arguments: { task_id: "derivative-drills", day: 5, slot_start: 9 },
  outcome: "declined",
  edited: false,
  feedback: "Friday is my day off",
};

describe("combined domains keep each domain's task decisions", () => {
  test("a schedule write onto the day off is refused; a notes call and its arguments pass unchanged", () => {
    const schedule = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    const combined = combineDomains([schedule, createNotesDomain()]);
    const task = { writes: [dayOff], reopens: false };
    const state = { schedule: sampleWeek(), notes: {} };
    expect(
      combined.decisions!.write(state, task, "place", { task_id: "binary-tree-review", day: 5, slot_start: 1 }),
    ).toContain('Friday is your day off (you said so in this task: "Friday is my day off")');
    expect(combined.decisions!.write(state, task, "add_note", { text: "Friday" })).toBeUndefined();
    expect(combined.decisions!.read(task, "propose_arrangement", {})).toMatchObject({ avoid_weekdays: [5] });
    expect(combined.decisions!.read(task, "list_notes", { limit: 3 })).toEqual({ limit: 3 });
  });
});
