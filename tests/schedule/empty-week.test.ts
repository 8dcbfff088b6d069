/**
 * A user with nothing stored when the sample week is off (`TEMPO_SAMPLE_DATA=false`): the week is empty but dated —
 * the coming week, the default slot times, the sample's zone — and stored at the first load, so a calendar file can
 * be imported onto it (an undated week refuses every import, and nothing the agent can do dates it).
 */
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { createTempoDependencies } from "../../server/create-tempo.js";
import { InMemoryScheduleRepository } from "../../tools/schedule/in-memory-repository.js";
import { withEmptyWeek } from "../../tools/schedule/sample-seeding.js";
import { emptyScheduleState, type ScheduleState } from "../../tools/schedule/state.js";
import { oneEventCalendar } from "../support/calendars.js";
import { runTool } from "./support.js";

describe("the empty week of a user without the sample", () => {
  test("is the coming week, dated, with nothing in it; stored once, so a later load keeps its dates", async () => {
    let now = new Date("2026-12-02T10:00:00+08:00"); // a Wednesday
    const base = new InMemoryScheduleRepository();
    const repository = withEmptyWeek(base, () => now);
    const first = await repository.load("new-user");
    expect(first.tasks).toEqual([]);
    expect(first.categories).toEqual([]);
    expect(first.window.days.map((day) => day.date)).toEqual([
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
      "2026-12-12",
      "2026-12-13",
    ]);
    expect(first.window).toMatchObject({ timeZone: "Asia/Shanghai" });
    expect(first.window.slotTimes).toHaveLength(12);
    now = new Date("2026-12-20T10:00:00+08:00");
    expect((await repository.load("new-user")).window).toEqual(first.window);
    expect((await base.load("new-user")).window).toEqual(first.window);
  });

  test("a weekly lecture imports onto it; on an undated week the same file is refused", async () => {
    const week = await withEmptyWeek(
      new InMemoryScheduleRepository(),
      () => new Date("2026-12-02T10:00:00+08:00"),
    ).load("u");
    // Mondays 10:00–11:40 in Shanghai since 2024.
    const lecture = oneEventCalendar("algebra", "Linear algebra lecture", "20240325T020000Z", "20240325T034000Z", [
      "RRULE:FREQ=WEEKLY",
    ]);
    const imported = runTool("import_calendar", week, { ics: lecture });
    expect(imported.ok, imported.content).toBe(true);
    const added = (imported.state as ScheduleState).tasks;
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ name: "Linear algebra lecture", slots: [{ day: 1, start: 3, end: 4 }] });
    expect(runTool("import_calendar", emptyScheduleState(), { ics: lecture }).ok).toBe(false);
  });

  test("the served domain without the sample gives a new user that week (TEMPO_SAMPLE_DATA=false)", async () => {
    const settings = readSettings({ TEMPO_SAMPLE_DATA: "false" });
    const dependencies = await createTempoDependencies(settings);
    const week = (await dependencies.domain.load("someone-new")) as ScheduleState;
    expect(week.tasks).toEqual([]);
    expect(week.window.days.every((day) => day.date !== undefined)).toBe(true);
  });
});
