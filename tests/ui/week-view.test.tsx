/**
 * The week view of Agent Chat UI (issue 48), rendered on the server as the browser would draw it: the props the graph
 * pushes (`nodes/shared/week-ui.ts` over the grid model) drawn by `ui/week.tsx` — dates, clock times, the timetable,
 * the placed reviews, free cells, the clock's now line, and a proposal's added, moved and removed reviews in their cells.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import type { EventTask, ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { weekGrid } from "../../tools/schedule/week-grid.js";
import { removeEventTool } from "../../tools/schedule/tools/remove-event.js";
import { restoreEventTool } from "../../tools/schedule/tools/restore-event.js";
import { weekViewProps } from "../../nodes/shared/week-ui.js";
import { HealthPanel } from "../../ui/health.js";
import { StatusLine } from "../../ui/status.js";
import components from "../../ui/index.js";
import { WeekView } from "../../ui/week.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { renderWeek } from "../../cli/week-view.js";

/** The cells of a rendered week: `date/slot` → the cell's state, mark and text. */
function cellsOf(html: string): Map<string, { state: string; mark?: string; text: string }> {
  const cells = new Map<string, { state: string; mark?: string; text: string }>();
  const pattern =
    /<td data-day="([^"]+)" data-slot="(\d+)" data-state="(\w+)"(?: data-mark="(\w+)")?[^>]*>(.*?)<\/td>/g;
  for (const match of html.matchAll(pattern))
    cells.set(`${match[1]}/${match[2]}`, {
      state: match[3]!,
      ...(match[4] ? { mark: match[4] } : {}),
      text: match[5]!.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, ""),
    });
  return cells;
}

const byId = (week: ScheduleState, id: string) => week.tasks.find((task): task is TaskItem => task.id === id)!;

describe("the week view", () => {
  test("draws every day with its date, every slot with its clock time, the timetable, the reviews and free time", () => {
    const week = halfPlacedWeek();
    const props = weekViewProps(weekGrid(week), "en", "Your week");
    const html = renderToString(<WeekView {...props} />);
    const cells = cellsOf(html);
    expect(cells.size).toBe(week.window.totalDays * week.window.slotsPerDay);
    expect(html).toContain("Mon 11 Mar");
    expect(html).toContain("08:00–08:45");
    const dateOf = (day: number) => week.window.days[day - 1]!.date!;
    for (const task of week.tasks) {
      if (task.source === "task_item" && task.status !== "placed") continue;
      for (const range of task.slots ?? []) {
        const first = cells.get(`${dateOf(range.day)}/${range.start}`)!;
        expect(first.state).toBe(task.source === "event" && first.state !== "review" ? "event" : first.state);
        if (task.source === "task_item") expect(first).toMatchObject({ state: "review", text: task.name });
      }
    }
    expect([...cells.values()].some((cell) => cell.state === "free" && cell.text === "")).toBe(true);
    expect(components).toEqual({ week: WeekView, health: HealthPanel, status: StatusLine });
  });

  test("a review marked done stays drawn in its cell, with ✓ before its name", () => {
    const week = halfPlacedWeek();
    const placed = week.tasks.find(
      (task): task is TaskItem => task.source === "task_item" && task.status === "placed",
    )!;
    const done: ScheduleState = {
      ...week,
      tasks: week.tasks.map((task) => (task.id === placed.id ? { ...placed, status: "done" as const } : task)),
    };
    const range = placed.slots![0]!;
    const cell = cellsOf(renderToString(<WeekView {...weekViewProps(weekGrid(done), "en", "Your week")} />)).get(
      `${week.window.days[range.day - 1]!.date!}/${range.start}`,
    );
    expect(cell).toMatchObject({ state: "review", text: `✓ ${placed.name}` });
  });

  test("a proposal shows the added review in its new cell, the moved one before and after, the removed one's ghost", () => {
    const week = halfPlacedWeek();
    const [moved, removed, pending] = ["matrix-review", "vocabulary-list", "linked-list-exercises"].map((id) =>
      byId(week, id),
    );
    const after = applyWrites(week, [
      { name: "place", arguments: { task_id: pending!.id, day: 7, slot_start: 10 } },
      { name: "move", arguments: { task_id: moved!.id, day: 6, slot_start: 7 } },
      { name: "unplace", arguments: { task_id: removed!.id } },
    ])!;
    const props = weekViewProps(weekGrid(week, { after }), "en", "Proposed week");
    const html = renderToString(<WeekView {...props} />);
    const cells = cellsOf(html);
    const dateOf = (day: number) => week.window.days[day - 1]!.date!;
    expect(cells.get(`${dateOf(7)}/10`)).toMatchObject({ state: "review", mark: "added", text: `+ ${pending!.name}` });
    expect(cells.get(`${dateOf(6)}/7`)).toMatchObject({ state: "review", mark: "moved", text: `→ ${moved!.name}` });
    const was = moved!.slots![0]!;
    expect(cells.get(`${dateOf(was.day)}/${was.start}`)?.mark).toBe("left");
    const gone = removed!.slots![0]!;
    expect(cells.get(`${dateOf(gone.day)}/${gone.start}`)?.mark).toBe("left");
    expect(html).toContain(`data-mark="moved"`);
    expect(props.changes.map((change) => change.mark).sort()).toEqual(["added", "moved", "removed"]);
    expect(props.changes.find((change) => change.mark === "moved")!.text).toMatch(/ → Sat 16 Mar 1\d:\d\d–/);
  });

  test("a removed timetable event leaves its ghost, named, where the week no longer holds it", () => {
    const week = halfPlacedWeek();
    const event = week.tasks.find(
      (task) => task.source === "event" && removeEventTool.run(week, { event_id: task.id }).ok,
    )!;
    const after = removeEventTool.run(week, { event_id: event.id }).state!;
    const props = weekViewProps(weekGrid(week, { after }), "en", "Proposed week");
    const cells = cellsOf(renderToString(<WeekView {...props} />));
    const place = event.slots![0]!;
    expect(cells.get(`${week.window.days[place.day - 1]!.date}/${place.start}`)).toMatchObject({
      state: "left",
      mark: "left",
      text: event.name,
    });
    // Its undo draws it back, marked where it arrives.
    const back = restoreEventTool.run(after, { event: event as EventTask }).state!;
    const undone = cellsOf(
      renderToString(<WeekView {...weekViewProps(weekGrid(after, { after: back }), "en", "Proposed week")} />),
    );
    expect(undone.get(`${week.window.days[place.day - 1]!.date}/${place.start}`)).toMatchObject({
      state: "event",
      mark: "added",
      text: `+ ${event.name}`,
    });
    expect(props.changes).toContainEqual({
      mark: "removed",
      text: expect.stringMatching(new RegExp(`^${event.name}: `)),
    });
  });

  test("a review moved out of a timetable entry it sat in leaves its ghost with its name, over the entry", () => {
    const week = halfPlacedWeek();
    const task = byId(week, "linked-list-exercises");
    // The Monday evening study hall (slots 9-11) can hold a review; the review sits in it, then moves to Saturday.
    const before = applyWrites(week, [{ name: "place", arguments: { task_id: task.id, day: 1, slot_start: 10 } }])!;
    const after = applyWrites(before, [{ name: "move", arguments: { task_id: task.id, day: 6, slot_start: 7 } }])!;
    const props = weekViewProps(weekGrid(before, { after }), "en", "Proposed week");
    const cells = cellsOf(renderToString(<WeekView {...props} />));
    const monday = before.window.days[0]!.date!;
    expect(cells.get(`${monday}/10`)).toMatchObject({ state: "event", mark: "left", text: task.name });
    expect(cells.get(`${monday}/11`)).toMatchObject({ state: "event", mark: "left", text: "" });
  });

  test("a review at a study hall's first slot leaves the hall named below it; a one-slot hall holding one, beside it", () => {
    const week = halfPlacedWeek();
    const hall = week.tasks.find((task) => task.id === "mon-study-hall")!;
    // Monday's evening study hall (slots 9-11) holds a two-slot review from its first slot.
    const held = applyWrites(week, [
      { name: "place", arguments: { task_id: "linked-list-exercises", day: 1, slot_start: 9 } },
    ])!;
    expect(byId(held, "linked-list-exercises").embeddedIn).toBe(hall.id);
    const monday = week.window.days[0]!.date!;
    const cells = cellsOf(renderToString(<WeekView {...weekViewProps(weekGrid(held), "en", "Your week")} />));
    expect(cells.get(`${monday}/9`)).toMatchObject({ state: "review", text: "Linked list exercises" });
    expect(cells.get(`${monday}/10`)).toMatchObject({ state: "review", text: hall.name });
    expect(cells.get(`${monday}/11`)).toMatchObject({ state: "event", text: "" });
    // Friday's one-slot quiz made a hall that holds a one-slot review: both names in the one cell.
    const quiz = { ...(week.tasks.find((task) => task.id === "fri-english-quiz") as EventTask), canEmbed: true };
    const small = applyWrites({ ...week, tasks: week.tasks.map((task) => (task.id === quiz.id ? quiz : task)) }, [
      { name: "place", arguments: { task_id: "binary-tree-review", day: 5, slot_start: 3 } },
    ])!;
    expect(byId(small, "binary-tree-review").embeddedIn).toBe(quiz.id);
    const friday = week.window.days[4]!.date!;
    const both = cellsOf(renderToString(<WeekView {...weekViewProps(weekGrid(small), "en", "Your week")} />));
    expect(both.get(`${friday}/3`)).toMatchObject({ state: "review", text: `Binary tree review${quiz.name}` });
  });

  test("a name's direction marks turn only the name: each name is isolated from the times and words beside it", () => {
    // A right-to-left override left open in a name would turn "Sat 16 Mar 16:00–17:40" after it around, in the
    // changes, the tooltip, and the other name of a shared cell.
    const week = halfPlacedWeek();
    const evil = "\u202eweiver xirtaM";
    const named: ScheduleState = {
      ...week,
      tasks: week.tasks.map((task) =>
        task.id === "matrix-review" || task.id === "binary-tree-review" ? { ...task, name: evil } : task,
      ),
    };
    const after = applyWrites(named, [
      { name: "move", arguments: { task_id: "matrix-review", day: 6, slot_start: 7 } },
    ])!;
    const html = renderToString(<WeekView {...weekViewProps(weekGrid(named, { after }), "en", "Proposed week")} />);
    const change = /<li data-mark="moved">(.*?)<\/li>/.exec(html)![1]!.replace(/<!-- -->/g, "");
    expect(change).toMatch(new RegExp(`: <bdi>${evil}</bdi>: Tue 12 Mar 10:00–11:40 → Sat 16 Mar 16:00–17:40$`));
    expect(html).toContain(`<bdi>${evil}</bdi></span></td>`);
    expect(html).toMatch(new RegExp(`data-tempo="pending">.*<bdi>${evil}</bdi>`));
    expect(html).toContain(`title="\u2068${evil}\u2069"`);
    expect(html).toContain(`title="moved: \u2068${evil}\u2069"`);
  });

  test("a 500-character name without a space wraps under the grid instead of widening the chat", () => {
    const week = halfPlacedWeek();
    const long = "x".repeat(500);
    const named: ScheduleState = {
      ...week,
      tasks: week.tasks.map((task) => (task.id === "binary-tree-review" ? { ...task, name: long } : task)),
    };
    const html = renderToString(<WeekView {...weekViewProps(weekGrid(named), "en", "Your week")} />);
    // The grid's cells cut a name with an ellipsis (the whole name in the tooltip); the lines under it wrap anywhere.
    expect(html).toMatch(/<div style="[^"]*overflow-wrap:anywhere[^"]*">.*data-tempo="pending"/);
  });

  test("the clock's now line sits in today's first slot not yet started, and the slots before it are dimmed", () => {
    const week = halfPlacedWeek();
    const now = new Date(`${week.window.days[2]!.date}T${week.window.slotTimes![3]!.start}:30`);
    const props = weekViewProps(weekGrid(week, { now }), "en", "Your week");
    expect(props.now).toMatchObject({ day: 2 });
    const html = renderToString(<WeekView {...props} />);
    expect(html).toMatch(/data-now="\d\d:\d\d"/);
    expect(props.past).toBeGreaterThan(2 * week.window.slotsPerDay);
  });

  test("late in the evening, once today's last slot has started, the now line is under it, as the terminal draws it", () => {
    const week = halfPlacedWeek();
    const now = new Date(`${week.window.days[2]!.date}T23:10:00+08:00`);
    const html = renderToString(<WeekView {...weekViewProps(weekGrid(week, { now }), "en", "Your week")} />);
    const last = week.window.slotsPerDay;
    expect(html).toMatch(
      new RegExp(`data-day="${week.window.days[2]!.date}" data-slot="${last}"[^>]*><div data-now="23:10"[^>]*bottom:0`),
    );
    expect(renderWeek(week, { now })).toMatch(/\n12 21:45 [^\n]*\n now +│[^\n]*── 23:10/);
  });

  test("a Chinese thread gets Chinese dates and words", () => {
    const week = halfPlacedWeek();
    const props = weekViewProps(weekGrid(week, { language: "zh" }), "zh", "你的一周");
    const html = renderToString(<WeekView {...props} />);
    expect(html).toContain('lang="zh"');
    expect(html).toContain("空闲");
    expect(props.days[0]!.label).toMatch(/月.*日/);
  });

  test("the runs are smaller than the grid model they come from", () => {
    const week = halfPlacedWeek();
    const grid = weekGrid(week);
    expect(JSON.stringify(weekViewProps(grid, "en", "Your week")).length).toBeLessThan(JSON.stringify(grid).length / 3);
  });

  test("the health panel writes a part that costs nothing as 0, and a cost with its minus sign", () => {
    const html = renderToString(
      <HealthPanel
        title="Week health"
        before={79.2}
        after={99.5}
        parts={[
          { label: "rhythm", before: 15.8, after: 0 },
          { label: "profile", before: 0, after: 0 },
        ]}
      />,
    );
    const rows = [...html.matchAll(/<tr data-part="(\w+)">(.*?)<\/tr>/g)].map(
      (match) =>
        `${match[1]}: ${match[2]!
          .replace(/<!-- -->/g, "")
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim()}`,
    );
    expect(rows).toEqual(["rhythm: rhythm −15.8 → 0", "profile: profile 0 → 0"]);
  });

  test("the status line draws its text in its language", () => {
    const html = renderToString(<StatusLine text="正在执行 8 项已批准的更改…" language="zh" />);
    expect(html).toContain('data-tempo="status"');
    expect(html).toContain('lang="zh"');
    expect(html).toContain("正在执行 8 项已批准的更改…");
  });

  test("an emptied status draws nothing", () => {
    expect(renderToString(<StatusLine text="" language="en" />)).toBe("");
  });
});
