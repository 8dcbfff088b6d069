/**
 * The drawn week agrees with the data (issue 48): for random full weeks — events on every day, reviews placed, done,
 * embedded in a lecture that hosts them, pending, missed and skipped, names in several scripts and with the characters
 * people (and adversaries) put in names — every placed review and every event appears exactly once in the drawing, at
 * its day and time, and nothing else does; the cells the clock has passed are the ones drawn as passed. Both drawings:
 * Agent Chat UI's `week` component (`ui/week.tsx` over `weekViewProps`) and the terminal's `/week` (`renderWeek`).
 */
import fc from "fast-check";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { displayWidth, renderWeekGrid } from "../../cli/week-render.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { renderWeek } from "../../cli/week-view.js";
import { weekViewProps } from "../../nodes/shared/week-ui.js";
import type { EventTask, ScheduleState, TaskItem, TaskStatus } from "../../tools/schedule/state.js";
import { parseScheduleState } from "../../tools/schedule/validation.js";
import { weekGrid } from "../../tools/schedule/week-grid.js";
import { clockIn, hasStarted } from "../../tools/schedule/window-clock.js";
import { WeekView } from "../../ui/week.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";

/** What may follow a task's tag in its name: other scripts, emoji, invisible and hostile characters. */
const FILLERS = [
  "",
  " review",
  " 矩阵运算复习",
  " 📚🧑‍💻 notes",
  " a\u200Bb\u200Cc\u2060d",
  " מבחן בחשבון",
  " مراجعة",
  " <img src=x onerror=alert(1)>",
  " </script><script>alert(1)</script>",
  " **bold** [link](javascript:alert(1))",
  " line\nbreak\r\nthird",
  " \u202Eweiver",
  " e\u0301\u0301 ñ",
  " tab\there",
  ` ${"long ".repeat(100)}`,
];

/** One drawn occupant: its tag (the start of its name), its day and its slots. */
interface Placed {
  tag: string;
  day: number;
  start: number;
  end: number;
  kind: "event" | "review";
}

interface RandomWeek {
  state: ScheduleState;
  placed: Placed[];
  /** Tags of the reviews without a place that the drawing lists (pending, missed). */
  unplaced: string[];
  now: Date;
}

const layoutArbitrary = fc.record({
  /** One entry a day: a walk over its slots. */
  days: fc.array(
    fc.array(
      fc.record({
        kind: fc.constantFrom("free", "event", "event", "hall", "review"),
        length: fc.integer({ min: 1, max: 4 }),
        offset: fc.integer({ min: 0, max: 3 }),
        guest: fc.integer({ min: 0, max: 4 }),
        status: fc.constantFrom<TaskStatus>("placed", "placed", "done"),
        filler: fc.nat({ max: FILLERS.length - 1 }),
        locked: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    { minLength: 7, maxLength: 7 },
  ),
  unplaced: fc.array(
    fc.record({
      status: fc.constantFrom<TaskStatus>("pending", "missed", "skipped"),
      filler: fc.nat({ max: FILLERS.length - 1 }),
    }),
    { maxLength: 6 },
  ),
  /** Minutes from an hour before the week to an hour after it. */
  minutes: fc.integer({ min: -60, max: 7 * 24 * 60 + 60 }),
});

type LayoutValue = typeof layoutArbitrary extends fc.Arbitrary<infer T> ? T : never;

function randomWeek(layout: LayoutValue): RandomWeek {
  const base = halfPlacedWeek();
  const slotsPerDay = base.window.slotsPerDay;
  const categories = base.categories.map((category) => category.id);
  const tasks: Array<EventTask | TaskItem> = [];
  const placed: Placed[] = [];
  const unplaced: string[] = [];
  let counter = 0;
  const review = (status: TaskStatus, day: number, start: number, end: number, filler: number, host?: EventTask) => {
    const tag = `R${++counter}`;
    const item: TaskItem = {
      id: `review-${counter}`,
      name: `${tag}${FILLERS[filler]}`,
      source: "task_item",
      duration: end - start + 1,
      categoryId: categories[counter % categories.length]!,
      status,
      slots: [{ day, start, end }],
      ...(host ? { embeddedIn: host.id } : {}),
    };
    if (host) host.embeds.push(item.id);
    tasks.push(item);
    placed.push({ tag, day, start, end, kind: "review" });
  };
  layout.days.forEach((walk, position) => {
    const day = position + 1;
    let slot = 1;
    for (const step of walk) {
      const end = Math.min(slotsPerDay, slot + step.length - 1);
      if (slot > slotsPerDay) break;
      if (step.kind === "review") review(step.status, day, slot, end, step.filler);
      else if (step.kind !== "free") {
        const tag = `E${++counter}`;
        const event: EventTask = {
          id: `event-${counter}`,
          name: `${tag}${FILLERS[step.filler]}`,
          source: "event",
          slots: [{ day, start: slot, end }],
          canEmbed: step.kind === "hall",
          locked: step.locked,
          embeds: [],
        };
        tasks.push(event);
        placed.push({ tag, day, start: slot, end, kind: "event" });
        // A review inside the hall: from its first slot or later, never past its end.
        if (step.kind === "hall" && step.guest > 0) {
          const from = Math.min(end, slot + step.offset);
          review(
            step.status,
            day,
            from,
            Math.min(end, from + step.guest - 1),
            (step.filler + 1) % FILLERS.length,
            event,
          );
        }
      }
      slot = end + 1;
    }
  });
  for (const entry of layout.unplaced) {
    const tag = `R${++counter}`;
    tasks.push({
      id: `review-${counter}`,
      name: `${tag}${FILLERS[entry.filler]}`,
      source: "task_item",
      duration: 1,
      categoryId: categories[0]!,
      status: entry.status,
    });
    if (entry.status !== "skipped") unplaced.push(tag);
  }
  const state = parseScheduleState({ ...base, tasks });
  // The week starts on Monday 2024-03-11 at 00:00 in Shanghai (UTC+8).
  const now = new Date(Date.parse("2024-03-10T16:00:00Z") + layout.minutes * 60_000);
  return { state, placed, unplaced, now };
}

const TAG = /[RE]\d+(?!\d)/g;
const tagsIn = (text: string) => [...text.matchAll(TAG)].map((match) => match[0]);

/** Where each tag is drawn in a grid read as `day/slot` → cell text. */
function tagPlaces(cells: Map<string, string>): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const [key, text] of cells) for (const tag of tagsIn(text)) places.set(tag, [...(places.get(tag) ?? []), key]);
  return places;
}

/** Checks that every placed occupant is drawn once in its run, a review on its first slot, and nothing else is. */
function expectAgreement(week: RandomWeek, cells: Map<string, string>, rest: string): void {
  const places = tagPlaces(cells);
  for (const entry of week.placed) {
    const at = places.get(entry.tag) ?? [];
    expect(at, `${entry.kind} ${entry.tag} drawn once`).toHaveLength(1);
    const [day, slot] = at[0]!.split("/").map(Number);
    expect(day, `${entry.tag}'s day`).toBe(entry.day);
    if (entry.kind === "review") expect(slot, `${entry.tag}'s first slot`).toBe(entry.start);
    else expect(slot! >= entry.start && slot! <= entry.end, `${entry.tag} inside its time`).toBe(true);
  }
  const expected = new Set(week.placed.map((entry) => entry.tag));
  expect(
    [...places.keys()].filter((tag) => !expected.has(tag)),
    "tags drawn in the grid that nothing placed",
  ).toEqual([]);
  // Outside the grid: the reviews without a place (pending and missed), each once; no placed one.
  expect(tagsIn(rest).sort()).toEqual([...week.unplaced].sort());
}

/** Checks that the cells drawn as passed are exactly those the clock has started (what the rules refuse to fill). */
function expectPassedAsTheClockSays(week: RandomWeek, passed: Set<string>): void {
  const clock = clockIn(week.state.window, week.now);
  const expected = new Set<string>();
  for (let day = 1; day <= 7; day++)
    for (let slot = 1; slot <= week.state.window.slotsPerDay; slot++)
      if (hasStarted(day, slot, clock)) expected.add(`${day}/${slot}`);
  expect([...passed].sort()).toEqual([...expected].sort());
}

/** The web component's cells (`day position/slot` → its caption) and whether each is drawn as passed. */
function webCells(html: string): { cells: Map<string, string>; passed: Set<string>; rest: string } {
  const cells = new Map<string, string>();
  const passed = new Set<string>();
  const pattern = /<td data-day="[^"]+" data-slot="(\d+)"[^>]*?style="([^"]*)"[^>]*>(.*?)<\/td>/gs;
  const days = new Map<string, number>();
  for (const match of html.matchAll(/<td data-day="([^"]+)"/g))
    if (!days.has(match[1]!)) days.set(match[1]!, days.size + 1);
  for (const match of html.matchAll(pattern)) {
    const day = days.get(/data-day="([^"]+)"/.exec(match[0])![1]!)!;
    const key = `${day}/${match[1]}`;
    cells.set(key, match[3]!.replace(/<[^>]+>/g, ""));
    if (/opacity:0\.45/.test(match[2]!)) passed.add(key);
  }
  return { cells, passed, rest: html.slice(html.indexOf("</table>")) };
}

/** The terminal grid's cells (`day/slot` → text), the dimmed ones, and the lines under the grid. */
function terminalCells(text: string): { cells: Map<string, string>; passed: Set<string>; rest: string } {
  const cells = new Map<string, string>();
  const passed = new Set<string>();
  const lines = text.split("\n");
  const rows = lines.filter((line) => /^\s?\d+ \d\d:\d\d/.test(line));
  for (const row of rows) {
    const [time, ...columns] = row.split("│");
    const slot = Number(time!.trim().split(" ")[0]);
    columns.forEach((column, position) => {
      const key = `${position + 1}/${slot}`;
      // The dim colour marks a passed cell.
      if (column.startsWith("\u001b[2m")) passed.add(key);
      // eslint-disable-next-line no-control-regex -- colours stripped
      cells.set(key, column.replace(/\u001b\[[0-9;]*m/g, ""));
    });
  }
  const grid = lines.findIndex((line) => line === "");
  return { cells, passed, rest: lines.slice(grid).join("\n") };
}

const RUNS = { numRuns: 40, seed: 4807 };

describe("the drawn week agrees with the data", () => {
  test("Agent Chat UI's week: each placed review and event once at its day and time, nothing else; passed as the clock says", () => {
    fc.assert(
      fc.property(layoutArbitrary, (layout) => {
        const week = randomWeek(layout);
        for (const language of ["en", "zh"] as const) {
          const props = weekViewProps(weekGrid(week.state, { now: week.now, language }), language, "Your week");
          const html = renderToString(<WeekView {...props} />);
          const { cells, passed, rest } = webCells(html);
          expect(cells.size).toBe(7 * week.state.window.slotsPerDay);
          expectAgreement(week, cells, rest);
          expectPassedAsTheClockSays(week, passed);
          // Names are text: no element or attribute of theirs reaches the page.
          expect(/<img|<script|<a /i.test(html), "an element from a name").toBe(false);
        }
      }),
      RUNS,
    );
  });

  test("the terminal's /week: each placed review and event once at its day and time, nothing else; passed as the clock says", () => {
    fc.assert(
      fc.property(layoutArbitrary, (layout) => {
        const week = randomWeek(layout);
        for (const language of ["en", "zh"] as const) {
          const text = renderWeek(week.state, { now: week.now, language, colour: true, width: 140 });
          const { cells, passed, rest } = terminalCells(text);
          expect(cells.size).toBe(7 * week.state.window.slotsPerDay);
          expectAgreement(week, cells, rest);
          expectPassedAsTheClockSays(week, passed);
          // The layout holds: every grid row as wide as the header, and nothing but colours reaches the terminal.
          // eslint-disable-next-line no-control-regex -- colours stripped
          const plain = text.replace(/\u001b\[[0-9;]*m/g, "");
          const rows = plain.split("\n").filter((line) => line.includes("│") || line.includes("┼"));
          expect(rows).toHaveLength(
            2 + week.state.window.slotsPerDay + (plain.includes("──│") || /│── /.test(plain) ? 1 : 0),
          );
          expect(new Set(rows.map(displayWidth)).size).toBe(1);
          // eslint-disable-next-line no-control-regex -- the test looks for control characters
          expect(plain).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        }
      }),
      RUNS,
    );
  });
});

const writesArbitrary = fc.array(
  fc.record({
    kind: fc.constantFrom("place", "move", "move", "unplace", "swap"),
    first: fc.nat({ max: 99 }),
    second: fc.nat({ max: 99 }),
    day: fc.integer({ min: 1, max: 7 }),
    slot: fc.integer({ min: 1, max: 12 }),
  }),
  { minLength: 1, maxLength: 8 },
);

/** `state` after each of `writes` that applies (resolved against the week it meets), and whether any did. */
function proposed(state: ScheduleState, writes: WriteValue[]) {
  let after = state;
  for (const write of writes) {
    const items = after.tasks.filter((task): task is TaskItem => task.source === "task_item");
    const placed = items.filter((task) => task.status === "placed");
    const pending = items.filter((task) => task.status === "pending");
    const pick = (among: TaskItem[], index: number) => among[index % Math.max(1, among.length)]?.id;
    const call =
      write.kind === "place"
        ? { name: "place", arguments: { task_id: pick(pending, write.first), day: write.day, slot_start: write.slot } }
        : write.kind === "move"
          ? { name: "move", arguments: { task_id: pick(placed, write.first), day: write.day, slot_start: write.slot } }
          : write.kind === "unplace"
            ? { name: "unplace", arguments: { task_id: pick(placed, write.first) } }
            : {
                name: "swap",
                arguments: { first_task_id: pick(placed, write.first), second_task_id: pick(placed, write.second) },
              };
    after = applyWrites(after, [call]) ?? after;
  }
  return after;
}

type WriteValue = typeof writesArbitrary extends fc.Arbitrary<Array<infer T>> ? T : never;

const tagOf = (name: string) => /^[RE]\d+/.exec(name)![0];
const placeOf = (state: ScheduleState, id: string) => {
  const task = state.tasks.find((entry) => entry.id === id);
  return task?.source === "task_item" && (task.status === "placed" || task.status === "done")
    ? task.slots?.[0]
    : undefined;
};

/**
 * Checks a proposal's drawing: each review placed after it once at its new first slot; a review that left a place, its
 * ghost at the old first slot when no review stands there now (at most once); each event once in its time; nothing
 * else in the grid; under it, each changed review once and each review without a place once.
 */
function expectProposalAgreement(
  before: ScheduleState,
  after: ScheduleState,
  cells: Map<string, string>,
  rest: string,
): void {
  const places = tagPlaces(cells);
  const covered = new Set(
    after.tasks.flatMap((task) => {
      const place = placeOf(after, task.id);
      if (!place) return [];
      return Array.from({ length: place.end - place.start + 1 }, (_, offset) => `${place.day}/${place.start + offset}`);
    }),
  );
  const changed: string[] = [];
  for (const task of after.tasks) {
    const tag = tagOf(task.name);
    const at = places.get(tag) ?? [];
    if (task.source === "event") {
      expect(at, `event ${tag} drawn once`).toHaveLength(1);
      const [day, slot] = at[0]!.split("/").map(Number);
      const range = task.slots.find((entry) => entry.day === day)!;
      expect(slot! >= range.start && slot! <= range.end, `${tag} inside its time`).toBe(true);
      continue;
    }
    const was = task.status === "done" ? undefined : placeOf(before, task.id);
    const is = task.status === "done" ? undefined : placeOf(after, task.id);
    const done = task.status === "done" ? placeOf(after, task.id) : undefined;
    const left = was && (!is || was.day !== is.day || was.start !== is.start) ? was : undefined;
    if (left || (is && !was)) changed.push(tag);
    const expected = [is ?? done].filter((place) => place !== undefined).map((place) => `${place.day}/${place.start}`);
    if (left && !covered.has(`${left.day}/${left.start}`)) expected.push(`${left.day}/${left.start}`);
    expect([...at].sort(), `review ${tag}'s cells`).toEqual(expected.sort());
  }
  const unplaced = after.tasks
    .filter(
      (task) => task.source === "task_item" && (task.status === "pending" || (task.status === "missed" && !task.slots)),
    )
    .map((task) => tagOf(task.name));
  expect(tagsIn(rest).sort(), "under the grid: the changes and what is without a place").toEqual(
    [...changed, ...unplaced].sort(),
  );
}

describe("a proposal's drawing agrees with the weeks before and after it", () => {
  const proposalArbitrary = fc.record({ layout: layoutArbitrary, writes: writesArbitrary });

  test("Agent Chat UI's proposed week", () => {
    fc.assert(
      fc.property(proposalArbitrary, ({ layout, writes }) => {
        const before = randomWeek(layout).state;
        const after = proposed(before, writes);
        const props = weekViewProps(weekGrid(before, { after }), "en", "Proposed week");
        const { cells, rest } = webCells(renderToString(<WeekView {...props} />));
        expectProposalAgreement(before, after, cells, rest);
      }),
      RUNS,
    );
  });

  test("the terminal's proposal under a write card", () => {
    fc.assert(
      fc.property(proposalArbitrary, ({ layout, writes }) => {
        const before = randomWeek(layout).state;
        const after = proposed(before, writes);
        const { cells, rest } = terminalCells(renderWeekGrid(weekGrid(before, { after }), before, { width: 140 }));
        expectProposalAgreement(before, after, cells, rest);
      }),
      RUNS,
    );
  });
});
