/**
 * The terminal's week (issue 48): the grid drawn with box-drawing characters, every row the same display width —
 * Chinese names take two columns a character — plain on a pipe, coloured on a terminal, the proposal's changes told in
 * words with dates and clock times under the grid.
 */
import { describe, expect, test } from "vitest";
import { displayWidth, fit, renderWeekGrid } from "../../cli/week-render.js";
import { renderCardProposal, renderWeek } from "../../cli/week-view.js";
import type { Card } from "../../contracts/cards.js";
import { weekGrid } from "../../tools/schedule/week-grid.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { rollWindowTool } from "../../tools/schedule/tools/roll-window.js";
import type { EventTask, ScheduleState } from "../../tools/schedule/state.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";

// eslint-disable-next-line no-control-regex -- the test looks for terminal escape sequences
const ESCAPE = /\u001b\[/;
// eslint-disable-next-line no-control-regex -- the test looks for terminal escape sequences
const stripColour = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
const gridRows = (text: string) => text.split("\n").filter((line) => line.includes("│") || line.includes("┼"));

describe("display width", () => {
  test("a Chinese character takes two columns, a combining mark none", () => {
    expect(displayWidth("矩阵运算复习")).toBe(12);
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("複習 review")).toBe(11);
  });

  test("fit cuts and pads to exactly the width, never splitting a wide character", () => {
    for (const text of ["矩阵运算复习", "Matrix operations review", "", "a矩b阵"])
      for (const width of [5, 6, 7, 12, 20]) expect(displayWidth(fit(text, width))).toBe(width);
    expect(fit("矩阵运算复习", 6)).toBe("矩阵… ");
  });
});

describe("the grid", () => {
  test("every row has the same width, in English and in Chinese", () => {
    for (const chinese of [false, true]) {
      const week = halfPlacedWeek({ chinese });
      const text = renderWeek(week, { width: 100, language: chinese ? "zh" : "en" });
      const rows = gridRows(text);
      expect(rows).toHaveLength(2 + week.window.slotsPerDay);
      expect(new Set(rows.map(displayWidth)).size).toBe(1);
      expect(displayWidth(rows[0]!)).toBeLessThanOrEqual(100);
    }
  });

  test("a placed review is drawn by name on its first slot, with its clock time on the row", () => {
    const week = halfPlacedWeek({ chinese: true });
    const text = renderWeek(week, { width: 120, language: "zh" });
    // matrix-review is placed on day 2 from slot 3 (10:00).
    const row = gridRows(text).find((line) => line.startsWith(" 3 10:00"))!;
    const cells = row.split("│");
    expect(cells[2]).toContain("●矩阵运算复习");
    expect(text).toContain("3月12日周二");
    expect(text).toContain("尚未安排：");
  });

  test("plain on a pipe, coloured on a terminal, the same text under the colour", () => {
    const week = halfPlacedWeek();
    const plain = renderWeek(week, { colour: false });
    const coloured = renderWeek(week, { colour: true });
    expect(plain).not.toMatch(ESCAPE);
    expect(coloured).toMatch(ESCAPE);
    expect(stripColour(coloured)).toBe(plain);
  });

  test("the clock: passed slots shaded, a line marks now on today's column", () => {
    const week = halfPlacedWeek();
    const text = renderWeek(week, { now: new Date("2024-03-13T06:30:00Z") });
    expect(text).toContain("▸Wed 13 Mar");
    const nowRow = gridRows(text).find((line) => line.startsWith(" now"))!;
    expect(nowRow.split("│")[3]).toContain("── 14:30 ─");
    const previous = gridRows(text)[gridRows(text).indexOf(nowRow) - 1]!;
    expect(previous.startsWith(" 5 14:00")).toBe(true);
    expect(text).toContain("░passed");
  });

  test("a clock before the day's first slot (Monday 00:00, a 07:00 check-in) draws the now line above the first row", () => {
    const week = halfPlacedWeek();
    for (const [moment, time] of [
      ["2024-03-10T16:00:00Z", "00:00"],
      ["2024-03-10T23:00:00Z", "07:00"],
    ] as const) {
      const rows = gridRows(renderWeek(week, { now: new Date(moment) }));
      expect(rows[0]).toContain("▸Mon 11 Mar");
      expect(rows[2]!.startsWith(" now"), moment).toBe(true);
      expect(rows[2]!.split("│")[1]).toContain(`── ${time} ─`);
      expect(rows[3]!.startsWith(" 1 08:00")).toBe(true);
    }
  });

  test("a review at a study hall's first slot leaves the hall named below it; a one-slot hall holding one, beside it", () => {
    const week = halfPlacedWeek();
    const held = applyWrites(week, [
      { name: "place", arguments: { task_id: "linked-list-exercises", day: 1, slot_start: 9 } },
    ])!;
    const cellOf = cellsOf(renderWeek(held, { width: 200 }));
    expect(cellOf(9, 1)).toContain("●Linked list");
    expect(cellOf(10, 1)).toContain("┆▌Evening self");
    expect(cellOf(11, 1).trim()).toBe("▌");
    const quiz = { ...(week.tasks.find((task) => task.id === "fri-english-quiz") as EventTask), canEmbed: true };
    const small = applyWrites({ ...week, tasks: week.tasks.map((task) => (task.id === quiz.id ? quiz : task)) }, [
      { name: "place", arguments: { task_id: "binary-tree-review", day: 5, slot_start: 3 } },
    ])!;
    // Both names, each cut to its share of the cell, each cut said.
    expect(cellsOf(renderWeek(small, { width: 200 }))(3, 5)).toBe("●Binary…▌Englis…");
  });

  test("after the week rolls over, the missed reviews are named among those still without a place", () => {
    // The sample week with its four placed reviews never marked done: the roll to the next week makes them missed.
    const rolled = rollWindowTool.run(halfPlacedWeek(), { days: 7 });
    const week = rolled.state!;
    const now = new Date("2024-03-19T09:00:00+08:00");
    const missed = week.tasks.filter((task) => task.source === "task_item" && task.status === "missed");
    expect(missed).toHaveLength(4);
    const line = renderWeek(week, { now })
      .split("\n")
      .find((text) => text.startsWith("Still without a place: "));
    for (const task of missed) expect(line).toContain(`${task.name} (missed)`);
    expect(line).toContain("Derivative practice set, ");
    const chinese = renderWeek(week, { now, language: "zh" })
      .split("\n")
      .find((text) => text.startsWith("尚未安排："));
    for (const task of missed) expect(chinese).toContain(`${task.name}（错过）`);
  });
});

describe("names as people and adversaries write them", () => {
  /** The half-placed week with its placed reviews renamed, in task order, and one pending review renamed too. */
  function renamed(names: string[], pending: string): ScheduleState {
    const week = halfPlacedWeek();
    let next = 0;
    week.tasks = week.tasks.map((task) => {
      if (task.source !== "task_item") return task;
      if (task.status === "pending" && pending) {
        const named = { ...task, name: pending };
        pending = "";
        return named;
      }
      return task.status === "placed" && next < names.length ? { ...task, name: names[next++]! } : task;
    });
    return week;
  }

  test("a line break, an escape sequence or a bidi control in a name neither breaks a row nor reaches the terminal", () => {
    const week = renamed(
      ["Limits\nreview\r\nagain", "\u001b]0;owned\u0007\u001b[2JMatrix", "\u202eweiver stimil", "tab\there"],
      "Essay\u001b[31m draft\nsecond line",
    );
    for (const colour of [false, true]) {
      const text = stripColour(renderWeek(week, { width: 120, colour }));
      const rows = gridRows(text);
      expect(rows).toHaveLength(2 + week.window.slotsPerDay);
      expect(new Set(rows.map(displayWidth)).size).toBe(1);
      // eslint-disable-next-line no-control-regex -- the test looks for control characters
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      // The characters are still there to read, as pictures: the name is not silently changed into another.
      expect(text).toContain("●Limits⏎revie…");
      expect(text).toContain("●␛]0;owned␇␛[…");
      expect(text).toContain("Essay␛[31m draft⏎second line");
    }
  });

  test("invisible characters take no column and emoji two: the grid keeps its columns", () => {
    expect(displayWidth("a\u200bb\u200c\u2060c\ufeff")).toBe(3);
    expect(displayWidth("📚🧑‍💻")).toBe(4);
    expect(displayWidth("🚀✅")).toBe(4);
    expect(displayWidth("👍🏽")).toBe(2);
    expect(fit("🧑‍💻🧑‍💻🧑‍💻", 5)).toBe("🧑‍💻🧑‍💻…");
    const week = renamed(
      ["a\u200bb\u200bc\u200b\u200b\u200b\u200b", "📚🧑‍💻🚀 review", "מבחן בחשבון", "x".repeat(500)],
      "",
    );
    const rows = gridRows(renderWeek(week, { width: 120 }));
    expect(new Set(rows.map(displayWidth)).size).toBe(1);
  });

  test("names cut to the same text in the grid are named whole under it, each with its place", () => {
    const week = renamed(
      ["Calculus review, chapter 3", "Calculus review, chapter 9", "Calculus review, chapter 9"],
      "",
    );
    const text = renderWeek(week, { width: 120 });
    expect(cellsOf(text)(5, 1)).toContain("●Calculus rev…");
    expect(cellsOf(text)(3, 2)).toContain("●Calculus rev…");
    expect(text).toContain(
      "●Calculus rev… = Calculus review, chapter 3 (Mon 11 Mar 14:00); Calculus review, chapter 9 (Tue 12 Mar 10:00); " +
        "Calculus review, chapter 9 (Thu 14 Mar 08:00)",
    );
    // The sample week's lectures too: "Data Structures lecture" and "Data Structures programming lab".
    expect(text).toContain(
      "▌Data Structu… = Data Structures lecture (Mon 11 Mar 16:00); Data Structures programming lab",
    );
    // A name cut alike to no other lists nothing.
    expect(renderWeek(renamed(["Calculus review, chapter 3"], ""), { width: 120 })).not.toContain("●Calculus rev… =");
  });

  test("a name cannot draw a column of its own", () => {
    const text = renderWeek(renamed(["Fake │▌Calculus lecture"], ""), { width: 200 });
    const rows = gridRows(text).filter((row) => row.includes("│"));
    expect(new Set(rows.map((row) => row.split("│").length)).size).toBe(1);
    expect(text).toContain("●Fake ¦▌Calcu");
  });
});

/** The drawn grid's cell at `slot` on `day` (1-based), as text. */
function cellsOf(text: string): (slot: number, day: number) => string {
  const rows = gridRows(text);
  return (slot, day) => rows.find((line) => line.startsWith(`${String(slot).padStart(2)} `))!.split("│")[day]!;
}

describe("a write card's proposal", () => {
  const card = (requests: Array<{ name: string; args: Record<string, unknown> }>): Card =>
    ({
      action_requests: requests.map((request) => ({ ...request, arguments: request.args, description: "a write" })),
      review_configs: requests.map((request) => ({ action_name: request.name, allowed_decisions: ["approve"] })),
    }) as unknown as Card;

  test("a placement and a move are drawn where they land, the move's old place marked, both told in words", () => {
    const week = halfPlacedWeek();
    const text = renderCardProposal(
      card([
        { name: "place", args: { task_id: "linked-list-exercises", day: 7, slot_start: 10 } },
        { name: "move", args: { task_id: "matrix-review", day: 6, slot_start: 7 } },
      ]),
      week,
    )!;
    const cellOf = cellsOf(text);
    expect(cellOf(10, 7)).toContain("+Linked list");
    expect(cellOf(7, 6)).toContain("→Matrix");
    expect(cellOf(3, 2)).toContain("×Matrix");
    expect(text).toContain("+ Linked list exercises: Sun 17 Mar, 19:55–21:35");
    expect(text).toContain("→ Matrix operations review: Tue 12 Mar, 10:00–11:40 → Sat 16 Mar, 16:00–17:40");
  });

  test("a review arriving over the old place of another that leaves is named once, at its first slot", () => {
    // Saturday: linked-list exercises at 16:00-17:40 (slots 7-8) leave for Sunday, the essay moves in at slots 6-7.
    const week = applyWrites(halfPlacedWeek(), [
      { name: "place", arguments: { task_id: "linked-list-exercises", day: 6, slot_start: 7 } },
    ])!;
    const text = renderCardProposal(
      card([
        { name: "move", args: { task_id: "linked-list-exercises", day: 7, slot_start: 10 } },
        { name: "move", args: { task_id: "essay-draft", day: 6, slot_start: 6 } },
      ]),
      week,
    )!;
    const cellOf = cellsOf(text);
    expect(cellOf(6, 6)).toContain("→Draft the");
    expect(cellOf(7, 6).trim()).toBe("→┆");
    expect(cellOf(8, 6).trim()).toBe("┆");
    expect(gridRows(text).filter((row) => row.includes("→Draft the"))).toHaveLength(1);
    // The other way round: the review that leaves (the essay, Saturday slots 7-8) comes first in the week's tasks.
    const moved = applyWrites(halfPlacedWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 7 } },
    ])!;
    const other = renderCardProposal(
      card([
        { name: "move", args: { task_id: "essay-draft", day: 7, slot_start: 10 } },
        { name: "place", args: { task_id: "linked-list-exercises", day: 6, slot_start: 6 } },
      ]),
      moved,
    )!;
    expect(cellsOf(other)(6, 6)).toContain("+Linked list");
    expect(cellsOf(other)(7, 6).trim()).toBe("+┆");
    expect(gridRows(other).filter((row) => row.includes("+Linked list"))).toHaveLength(1);
  });

  test("a removal is drawn too: the event's place marked as left, told in words; a review marked done draws nothing", () => {
    const week = halfPlacedWeek();
    const text = renderCardProposal(
      card([{ name: "remove_event", args: { event_id: "fri-calculus-tutorial" } }]),
      week,
    )!;
    expect(cellsOf(text)(1, 5)).toContain("×Calculus");
    expect(text).toContain("× Calculus tutorial: taken off Fri 15 Mar, 08:00–09:40");
    expect(renderCardProposal(card([{ name: "mark_done", args: { task_id: "matrix-review" } }]), week)).toBeUndefined();
  });

  test("a card that is not a schedule write, or whose writes no longer apply, draws nothing", () => {
    const week = halfPlacedWeek();
    expect(renderCardProposal(card([{ name: "add_todo", args: { title: "x" } }]), week)).toBeUndefined();
    expect(
      renderCardProposal(card([{ name: "place", args: { task_id: "no-such-task", day: 1, slot_start: 1 } }]), week),
    ).toBeUndefined();
  });

  test("the grid model the drawing reads is the shared one", () => {
    const week = halfPlacedWeek();
    expect(renderWeekGrid(weekGrid(week), week)).toBe(renderWeek(week));
  });
});
