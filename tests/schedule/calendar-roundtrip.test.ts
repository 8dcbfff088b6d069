/**
 * Export → import (QA's round trip): a week exported as .ics and imported again is the same week. The placed reviews
 * the export marks CATEGORIES:review are not turned into timetable events (they are left out and told, on the card
 * and in the answer); an event's flags — it can hold a review, it is locked — are written as CATEGORIES and read back;
 * and the events already on the schedule are recognised as the same (not "it overlaps <itself>"), so importing a
 * week's own export onto it changes nothing — whatever is placed, whatever the clock has passed.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { alreadyThereText, reviewsLeftOutText } from "../../tools/schedule/calendar-files.js";
import { appliedWriteSummary } from "../../offline/schedule/tool-data.js";
import { summaryInChinese } from "../../offline/schedule/replies.js";
import { appliedRound } from "./support.js";
import {
  canonicalScheduleState,
  describeTaskWrite,
  exportCalendarTool,
  importCalendarTool,
  parseScheduleState,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";

/** The sample week with its reviews arranged: 18 timetable events (4 can hold a review, 2 locked), reviews placed. */
function arrangedWeek(): ScheduleState {
  const week = sampleWeek();
  const arranged = applyWrites(week, proposeArrangement(week).candidates[0]?.writes ?? [])!;
  expect(arranged.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length).toBe(8);
  return arranged;
}

/** A week without its timetable, its reviews pending and without deadlines (the midterm they name is an event). */
function withoutEvents(state: ScheduleState): ScheduleState {
  return {
    ...state,
    tasks: state.tasks.flatMap((task) => {
      if (task.source === "event") return [];
      const { dueBefore: _due, ...rest } = task;
      return [rest];
    }),
  };
}

const exported = (state: ScheduleState) => exportCalendarTool.run(state, {}).content;
const placedReviews = (state: ScheduleState) =>
  state.tasks.filter((task) => task.source === "task_item" && task.status === "placed").map((task) => task.name);

describe("export → import", () => {
  test("placed reviews (CATEGORIES:review) are not imported as timetable events: left out, told on the card and in the answer", () => {
    const week = arrangedWeek();
    const reviews = placedReviews(week);
    const ics = exported(week);
    expect(ics.match(/^CATEGORIES:review\r?$/gm)).toHaveLength(reviews.length);
    const target = withoutEvents(sampleWeek());
    const imported = importCalendarTool.run(target, { ics });
    expect(imported.ok, imported.content).toBe(true);
    const events = imported.state!.tasks.filter((task) => task.source === "event");
    // The timetable comes back, and no review is an event.
    expect(events.map((event) => event.name).sort()).toEqual(
      week.tasks
        .filter((task) => task.source === "event")
        .map((task) => task.name)
        .sort(),
    );
    expect(events.filter((event) => reviews.includes(event.name))).toEqual([]);
    // The review tasks are as they were: pending, each once.
    expect(imported.state!.tasks.filter((task) => task.source === "task_item")).toEqual(
      target.tasks.filter((task) => task.source === "task_item"),
    );
    // What was left out, and why: in the answer, in the data, and on the card in both languages.
    expect(imported.content).toContain(`left out: ${reviewsLeftOutText(reviews)}`);
    expect(imported.data).toMatchObject({ reviews });
    expect(describeTaskWrite(target, "import_calendar", { ics }, "en")).toContain(
      `: placed reviews (CATEGORIES:review), not timetable events; not imported`,
    );
    expect(describeTaskWrite(target, "import_calendar", { ics }, "zh")).toContain(
      `${reviews.join("、")}：是已安排的复习（CATEGORIES:review），不是课表日程，未导入`,
    );
    // The answer of the applied import, in Chinese, from its data: the reviews told in Chinese, not in English.
    const zh = appliedWriteSummary(appliedRound("import_calendar", { ics }, imported.data), "zh");
    expect(zh).toContain(`未导入：${reviewsLeftOutText(reviews, "zh")}`);
    expect(zh).not.toContain("CATEGORIES:review), not");
  });

  test("an event's flags survive: it can hold a review, it is locked — whatever its name says", () => {
    const sample = sampleWeek();
    // A locked event whose name says nothing of an exam, and a host whose name says nothing of study.
    const week: ScheduleState = {
      ...sample,
      tasks: sample.tasks.map((task) =>
        task.id === "thu-club" && task.source === "event"
          ? { ...task, locked: true }
          : task.id === "tue-physical-education" && task.source === "event"
            ? { ...task, canEmbed: true }
            : task,
      ),
    };
    const flags = (state: ScheduleState) =>
      state.tasks
        .flatMap((task) =>
          task.source === "event"
            ? [`${task.name} ${JSON.stringify(task.slots)} canEmbed=${task.canEmbed} locked=${task.locked}`]
            : [],
        )
        .sort();
    const ics = exported(week);
    expect(ics.match(/^CATEGORIES:timetable,can-hold-reviews\r?$/gm)).toHaveLength(5);
    expect(ics.match(/^CATEGORIES:timetable,locked\r?$/gm)).toHaveLength(3);
    const imported = importCalendarTool.run(withoutEvents(week), { ics });
    expect(imported.ok, imported.content).toBe(true);
    expect(flags(imported.state!)).toEqual(flags(week));
    expect(flags(week).filter((line) => line.includes("canEmbed=true"))).toHaveLength(5);
    // A review fits inside an imported host again, as it did before the export.
    const hall = imported.state!.tasks.find((task) => task.name === "Evening self-study hall")!;
    const placed = applyWrites(imported.state!, [
      { name: "place", arguments: { task_id: "binary-tree-review", day: 1, slot_start: 9 } },
    ]);
    expect(placed?.tasks.find((task) => task.id === "binary-tree-review")).toMatchObject({
      status: "placed",
      embeddedIn: hall.id,
    });
  });

  test("importing a week's own export onto it changes nothing: its events are already there, its reviews left out", () => {
    const week = arrangedWeek();
    const ics = exported(week);
    const result = importCalendarTool.run(week, { ics });
    const events = [...new Set(week.tasks.filter((task) => task.source === "event").map((task) => task.name))];
    expect(result.ok).toBe(false);
    expect(result.state).toBeUndefined();
    expect(result.content).toBe(
      `error: nothing new to import: ${alreadyThereText(events)}; ${reviewsLeftOutText(placedReviews(week))}`,
    );
    expect(result.content).not.toContain("overlaps");
    // Said in a Chinese chat: the refusal's heading in Chinese.
    expect(summaryInChinese(result.content.replace(/^error: /, ""))).toMatch(/^文件里没有新的日程可导入：/);
  });

  test("an export imported onto its week less one event adds that event alone; the card says what is there already", () => {
    const week = arrangedWeek();
    const ics = exported(week);
    const lessClub: ScheduleState = { ...week, tasks: week.tasks.filter((task) => task.id !== "thu-club") };
    const result = importCalendarTool.run(lessClub, { ics });
    expect(result.ok, result.content).toBe(true);
    const club = week.tasks.find((task) => task.id === "thu-club")!;
    const added = result.state!.tasks.filter((task) => !lessClub.tasks.some((other) => other.id === task.id));
    expect(added.map((task) => [task.name, task.slots])).toEqual([[club.name, club.slots]]);
    expect(result.content).toContain(": already on the schedule; left as they are");
    expect(result.content).not.toContain("overlaps");
    const card = describeTaskWrite(lessClub, "import_calendar", { ics }, "en")!;
    expect(card).toMatch(/^Import 1 event\(s\) from the calendar file: Robotics club meeting — /);
    expect(card).toContain("Calculus lecture, College English");
    expect(card).toContain("already on the schedule; left as they are");
    expect(describeTaskWrite(lessClub, "import_calendar", { ics }, "zh")).toContain("已在日程中，保持不变");
  });

  /** examples/week.json: its lectures are weekly series (RRULE on export), its quiz and midterm one-offs. */
  const exampleWeek = (): ScheduleState =>
    parseScheduleState(JSON.parse(readFileSync(new URL("../../examples/week.json", import.meta.url), "utf8")));

  test("property: export any arrangement of the sample weeks, at any moment of the week, import it onto the same week: unchanged", () => {
    const weeks = [sampleWeek(), exampleWeek()].map((week) => ({
      week,
      writes: proposeArrangement(week).candidates[0]?.writes ?? [],
    }));
    const canonical = (state: ScheduleState) => JSON.stringify(canonicalScheduleState(state));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: weeks.length - 1 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        // No clock, or a moment from before the week to after it (Shanghai is UTC+8: 2024-03-10T16:00Z is its Monday 00:00).
        fc.option(fc.integer({ min: 0, max: 8 * 24 * 60 }), { nil: undefined }),
        (which, keep, minutes) => {
          const { week, writes } = weeks[which]!;
          // Some of the arrangement's places taken: the week placed and not.
          const placed = applyWrites(
            week,
            writes.filter((_, index) => keep[index % keep.length]),
          )!;
          const state: ScheduleState =
            minutes === undefined
              ? placed
              : { ...placed, now: new Date(Date.UTC(2024, 2, 10, 16) + minutes * 60_000).toISOString() };
          const ics = exportCalendarTool.run(state, {}).content;
          const result = importCalendarTool.run(state, { ics });
          expect(canonical(result.state ?? state)).toBe(canonical(state));
          expect(result.content).toMatch(/^error: nothing new to import: /);
          expect(result.content).not.toMatch(/overlaps|have passed/);
        },
      ),
      { numRuns: 40 },
    );
  });
});
