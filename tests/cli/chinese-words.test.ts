/**
 * A Chinese-speaking student's terminal chat is Chinese around the cards too (issue 48 item 4): a card's title, its
 * changes' heading and the choices it takes, the tool lines (a failed or declined call's too), the prompts, a mistake in
 * an edit, /help, /state and the chat's own messages are in the conversation's language (`languageOf` over the
 * student's messages, so a short "a" keeps it Chinese). Names in quotes, ids, numbers, commands and the letter keys
 * stay; an English conversation's lines are as they were.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { chooseStartingThread } from "../../cli/starting-thread.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { applyPreferenceChange } from "../../memory/preferences.js";
import { writeRejectionText } from "../../contracts/rejections.js";
import { exportCalendar } from "../../tools/schedule/calendar-files.js";
import { typedChat } from "./support/typed-chat.js";
import { choicesOf, readCardReply } from "../../cli/card-answer.js";
import { renderCard, renderEditInstructions, renderError, renderReasoning } from "../../cli/render.js";
import { InvalidResumeError } from "../../errors/index.js";
import { StreamPrinter } from "../../cli/stream-printer.js";
import { languageOf } from "../../contracts/language.js";
import { batchInterrupt, planInterrupt, questionInterrupt, toolInterrupt } from "../../review/interrupt-cards.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { formatListing } from "../../tools/schedule/candidate-listing.js";
import { findFreeTool } from "../../tools/schedule/tools/find-free.js";
import { listTasksTool } from "../../tools/schedule/tools/list-tasks.js";
import { batchMoveTool } from "../../tools/schedule/tools/batch-move.js";
import { moveTool } from "../../tools/schedule/tools/move.js";
import { placeTool } from "../../tools/schedule/tools/place.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { unplaceTool } from "../../tools/schedule/tools/unplace.js";
import { markDoneTool } from "../../tools/schedule/tools/task-life.js";
import { scheduleTools } from "../../tools/schedule/index.js";
import { smallSchedule } from "../schedule/support.js";
import type { ToolRun } from "../../tools/domain.js";
import { decisionUndone } from "../../tools/schedule/task-limits.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";

/** The conversation: a Chinese request, then a bare "a" at the plan card. */
const LANGUAGE = languageOf([new HumanMessage("帮我安排本周的复习"), new HumanMessage("a")]);

/** Runs of three or more ASCII words (an English sentence), once quoted names and JSON are taken out. */
function englishRuns(text: string): string[] {
  const unquoted = text.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^{}]*\}/g, "{}");
  return unquoted.match(/[A-Za-z]+(?:[ ,;:()'/-]+[A-Za-z]+){2,}/g) ?? [];
}

/** A proposed write as the card shows it, its summary and reason in Chinese as the graph writes them. */
function write(name: string, args: Record<string, unknown>, summary: string, reason: string) {
  return { id: `call-${name}`, name, arguments: args, summary, reason };
}
const PLACE = write(
  "place",
  { task_id: "linked-list-exercises", day: 5, slot_start: 9 },
  '安排 "Linked list exercises" 到 3月15日周五 19:00–20:40',
  "有能容纳它的空闲时段",
);
const MOVE = write(
  "move",
  { task_id: "matrix-review", day: 4, slot_start: 7 },
  '把 "Matrix operations review" 从 3月12日周二 10:00–11:40 移到 3月14日周四 16:00–17:40',
  "周四下午有空",
);
const STEP = { index: 1, total: 1, content: "把所有待安排的复习任务放进能容纳它们的时段" };

describe("a Chinese conversation in the terminal", () => {
  test("is told in Chinese, a short answer included", () => {
    expect(LANGUAGE).toBe("zh");
  });

  test("its cards' titles, headings and choices have no English sentence; the letter keys still work", () => {
    const plan = planInterrupt(
      "帮我安排本周的复习",
      [{ id: "s1", content: "安排复习", doneWhen: "没有待安排的复习", status: "pending" }] as never,
      "zh",
    );
    const cards = [
      plan,
      toolInterrupt(PLACE, STEP, undefined, "zh"),
      batchInterrupt([PLACE, MOVE], STEP, new Map(), "zh"),
      questionInterrupt("复习要安排在哪一天？"),
    ];
    for (const card of cards) {
      const shown = renderCard(card, { language: LANGUAGE });
      expect(englishRuns(shown), shown).toEqual([]);
      expect(englishRuns(renderEditInstructions(card, 0, LANGUAGE))).toEqual([]);
    }
    const batch = cards[2]!;
    expect(choicesOf(batch, LANGUAGE)).toContain("是");
    expect(englishRuns(choicesOf(batch, LANGUAGE))).toEqual([]);
    const invalid = readCardReply("随便", batch, LANGUAGE);
    expect(invalid.kind).toBe("invalid");
    expect(englishRuns(invalid.kind === "invalid" ? invalid.message : "")).toEqual([]);
    expect(readCardReply("a r", batch, LANGUAGE).kind).toBe("items");
    expect(readCardReply("好的", cards[1]!, LANGUAGE).kind).toBe("answer");
    expect(readCardReply("a", cards[1]!, LANGUAGE).kind).toBe("answer");
  });

  test("its tool lines have no English sentence: names, dates and numbers, fixed words in Chinese", () => {
    const week = halfPlacedWeek();
    const arrangement = proposeArrangement(week);
    const runs = [
      { name: "propose_arrangement", run: { ok: true, content: formatListing(arrangement), data: arrangement } },
      { name: "place", run: placeTool.run(week, { task_id: "linked-list-exercises", day: 5, slot_start: 9 }) },
      { name: "move", run: moveTool.run(week, { task_id: "matrix-review", day: 4, slot_start: 7 }) },
      { name: "unplace", run: unplaceTool.run(week, { task_id: "matrix-review" }) },
      { name: "list_tasks", run: listTasksTool.run(week, {}) },
      { name: "find_free", run: findFreeTool.run(week, { min_length: 1 }) },
    ];
    const printer = new StreamPrinter({ language: LANGUAGE, schedule: week });
    const lines = runs.map(({ name, run }, index) => {
      expect(run.ok, `${name}: ${run.content}`).toBe(true);
      return printer.print({
        kind: "tool_result",
        node: "execute",
        id: `c${index}`,
        name,
        ok: run.ok,
        content: run.content,
        data: run.data,
      });
    });
    for (const line of lines) expect(englishRuns(line), line).toEqual([]);
    expect(lines[1]).toContain('已把"Linked list exercises" 安排在3月15日周五 19:00–20:40');
    expect(lines[4]).toMatch(/全部任务：共 \d+ 个中的 \d+ 个/);
  });

  test("a write's result is told in the schedule's table's words, as the answers tell it", () => {
    const week = halfPlacedWeek();
    const line = (state: ScheduleState, name: string, args: Record<string, unknown>, language: "en" | "zh" = "zh") => {
      const tool = scheduleTools.find((each) => each.name === name)!;
      const run = tool.run(state, tool.schema.parse(args));
      expect(run.ok, run.content).toBe(true);
      const printer = new StreamPrinter({ language, schedule: state });
      return printer.print({ kind: "tool_result", node: "execute", id: "c1", name, ok: true, content: run.content });
    };
    const done = markDoneTool.run(week, { task_id: "matrix-review" }).state!;
    // Before the week begins, a review marked done frees its place.
    const early = { ...week, now: "2024-03-10T02:00:00.000Z" };
    expect([
      line(week, "place", { task_id: "linked-list-exercises", day: 5, slot_start: 9 }),
      line(week, "move", { task_id: "matrix-review", day: 4, slot_start: 7 }),
      line(week, "unplace", { task_id: "matrix-review" }),
      line(week, "swap", { first_task_id: "review-limits", second_task_id: "matrix-review" }),
      line(week, "batch_move", { moves: [{ task_id: "matrix-review", day: 4, slot_start: 7 }] }),
      line(week, "mark_done", { task_id: "matrix-review" }),
      line(early, "mark_done", { task_id: "matrix-review" }),
      line(week, "skip", { task_id: "linked-list-exercises" }),
      line(done, "reopen", { task_id: "matrix-review" }),
    ]).toEqual([
      '  ← 已把"Linked list exercises" 安排在3月15日周五 19:00–20:40\n',
      '  ← 已把"Matrix operations review" 从3月12日周二 10:00–11:40移到3月14日周四 16:00–17:40\n',
      '  ← 已把"Matrix operations review" 从3月12日周二 10:00–11:40撤下，它重新待安排\n',
      '  ← 已交换"Review limits and continuity" 和"Matrix operations review" …\n',
      "  ← 移动了 1 个任务 …\n",
      '  ← 已把"Matrix operations review" 记为已完成（原为已安排）\n',
      '  ← 已把"Matrix operations review" 记为已完成（原为已安排），原来的时段空出来了\n',
      '  ← 已把"Linked list exercises" 记为跳过（原为待安排）\n',
      '  ← 已把"Matrix operations review" 重新设为待安排（原为已完成）\n',
    ]);
    // A week without dates, a review inside a host: its places by day and slot in Chinese too (they stayed English).
    const small = smallSchedule();
    const hosted = placeTool.run(small, { task_id: "a", day: 1, slot_start: 4 }).state!;
    expect([
      line(small, "place", { task_id: "a", day: 1, slot_start: 4 }),
      line(hosted, "unplace", { task_id: "a" }),
    ]).toEqual([
      '  ← 已把"Task a" 安排在第1天第4-5节（嵌入 "Event hall"）\n',
      '  ← 已把"Task a" 从第1天第4-5节撤下（原嵌入 "Event hall"），它重新待安排\n',
    ]);
    // An English conversation's lines as they were.
    expect([
      line(week, "move", { task_id: "matrix-review", day: 4, slot_start: 7 }, "en"),
      line(hosted, "unplace", { task_id: "a" }, "en"),
      line(early, "mark_done", { task_id: "matrix-review" }, "en"),
    ]).toEqual([
      '  ← moved "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40\n',
      '  ← unplaced "Task a" from day 1 slots 4-5 (was inside "Event hall"); it is pending again\n',
      '  ← marked "Matrix operations review" done (it was placed); its place is free again\n',
    ]);
  });

  test("an English conversation's lines stay as they were", () => {
    const week = halfPlacedWeek();
    const placed = placeTool.run(week, { task_id: "linked-list-exercises", day: 5, slot_start: 9 });
    const printer = new StreamPrinter({ language: "en", schedule: week });
    expect(
      printer.print({
        kind: "tool_result",
        node: "execute",
        id: "c1",
        name: "place",
        ok: true,
        content: placed.content,
      }),
    ).toBe('  ← placed "Linked list exercises" on Fri 15 Mar, 19:00–20:40\n');
  });
});

/** A failed call as the terminal prints it, in people's words, for `language`. */
function failureLine(name: string, run: { ok: boolean; content: string }, language: "en" | "zh"): string {
  const printer = new StreamPrinter({ language, schedule: halfPlacedWeek() });
  return printer.print({ kind: "tool_result", node: "execute", id: "c1", name, ok: run.ok, content: run.content });
}

/**
 * Places the week's rules refuse for "Linked list exercises": a day its class excludes, after its due day, before its
 * earliest day, on a day a standing preference rules out, after the exam it is due before.
 */
function ruledRefusals(): Array<[string, ToolRun<unknown>]> {
  const week = halfPlacedWeek();
  const task = week.tasks.find((entry) => entry.id === "linked-list-exercises")! as TaskItem;
  const ruled = (rules: Partial<TaskItem>) => ({
    ...week,
    categories: week.categories.map((entry) =>
      entry.id === task.categoryId ? { ...entry, excludedDaysOfWeek: [7] } : entry,
    ),
    tasks: week.tasks.map((entry) => (entry.id === task.id ? { ...task, ...rules } : entry)),
    standing: [{ kind: "avoid_day" as const, value: 3, text: "周三不要排", id: "p-1" }],
  });
  const dated = ruled({ dueBefore: { day: 5 }, earliestDay: 2 });
  const place = (state: ScheduleState, day: number) =>
    placeTool.run(state, { task_id: task.id, day, slot_start: 9 }) as ToolRun<unknown>;
  return [
    ["place", place(dated, 7)],
    ["place", place(dated, 6)],
    ["place", place(dated, 1)],
    ["place", place(dated, 3)],
    ["place", place(ruled({ dueBefore: { eventId: "sat-calculus-midterm" } }), 6)],
  ];
}

/**
 * Writes that undo what the student decided in this task (`decisionUndone`): a day they called off, a day they turned
 * down for a review, a review they put in place themselves.
 */
function undoneDecisions(): Array<[string, ToolRun<unknown>]> {
  const week = halfPlacedWeek();
  const decided = (name: string, args: Record<string, unknown>, outcome: "declined" | "applied", more = {}) => ({
    reopens: false,
    writes: [{ name, arguments: args, outcome, edited: false, feedback: "", ...more }],
  });
  const at = (day: number, slot: number) => ({ task_id: "linked-list-exercises", day, slot_start: slot });
  const refused = (undone: string | undefined): ToolRun<unknown> => ({ ok: false, content: undone ?? "" });
  return [
    [
      "place",
      refused(
        decisionUndone(week, decided("place", at(5, 1), "declined", { feedback: "周五我休息" }), "place", at(5, 9)),
      ),
    ],
    [
      "place",
      refused(
        decisionUndone(week, decided("place", at(1, 9), "declined", { feedback: "not Monday" }), "place", at(1, 11)),
      ),
    ],
    ["place", refused(decisionUndone(week, decided("place", at(3, 7), "declined"), "place", at(3, 7)))],
    [
      "unplace",
      refused(
        decisionUndone(week, decided("place", at(3, 7), "applied", { edited: true }), "unplace", {
          task_id: "linked-list-exercises",
        }),
      ),
    ],
  ];
}

describe("a Chinese conversation's failed and declined calls", () => {
  const week = halfPlacedWeek();
  const failures: Array<[string, ToolRun<unknown>]> = [
    ["place", placeTool.run(week, { task_id: "linked-list-exercises", day: 1, slot_start: 1 })],
    ["place", placeTool.run(week, { task_id: "matrix-review", day: 5, slot_start: 9 })],
    ["place", placeTool.run(week, { task_id: "nope", day: 5, slot_start: 9 })],
    ["place", placeTool.run(week, { task_id: "linked-list-exercises", day: 99, slot_start: 9 })],
    ["move", moveTool.run(week, { task_id: "linked-list-exercises", day: 4, slot_start: 7 })],
    ["move", moveTool.run(week, { task_id: "matrix-review", day: 1, slot_start: 1 })],
    ["unplace", unplaceTool.run(week, { task_id: "linked-list-exercises" })],
    ["place", { ok: false, content: writeRejectionText("周五我休息") }],
    ["place", { ok: false, content: writeRejectionText("") }],
    ...ruledRefusals(),
    ...undoneDecisions(),
  ];

  test("are told in Chinese: what was refused and why, names and dates kept, no English sentence", () => {
    const lines = failures.map(([name, run]) => {
      expect(run.ok, run.content).toBe(false);
      return failureLine(name, run, "zh");
    });
    // Ids stay as the tools write them (the decisions' refusals name the review by its id).
    for (const line of lines) expect(englishRuns(line.replace(/linked-list-exercises/g, "id")), line).toEqual([]);
    expect(lines[0]).toBe(
      '  ✗ 未能完成：无法安排"Linked list exercises"（时长 2 节）：3月11日周一 08:00–09:40 与 "Calculus lecture"（3月11日周一 08:00–09:40）时间冲突\n',
    );
    expect(lines[1]).toBe(
      '  ✗ 未能完成："Matrix operations review" 已经安排在 3月12日周二 10:00–11:40；要换时间请移动它\n',
    );
    expect(lines[2]).toBe('  ✗ 未能完成：没有 id 为 "nope" 的任务\n');
    expect(lines[3]).toContain("第 99 天不在日程范围内（第 1–7 天）");
    expect(lines[7]).toBe("  ✗ 未执行：你拒绝了这项修改。你的理由：周五我休息\n");
    expect(lines[8]).toBe("  ✗ 未执行：你拒绝了这项修改（没有说明理由）。\n");
    expect(lines.slice(9)).toEqual([
      '  ✗ 未能完成："Linked list exercises" 不能安排在3月17日周日：它的课程 "Data Structures" 不排周日\n',
      '  ✗ 未能完成："Linked list exercises" 必须在3月15日周五之前完成；3月16日周六 太晚了\n',
      '  ✗ 未能完成："Linked list exercises" 不能早于3月12日周二（它的最早日期）；3月11日周一 太早了\n',
      '  ✗ 未能完成："Linked list exercises" 不能安排在3月13日周三：你的长期偏好“周三不要排”排除了周三；要改变它，请删除它（/prefs 查看偏好，/forget p-1 删除这一条），或者告诉我“周三可以了”\n',
      '  ✗ 未能完成："Linked list exercises" 必须在"Calculus midterm exam"（3月16日周六 10:00）之前完成；3月16日周六 19:00–20:40 太晚了\n',
      '  ✗ 未能完成：周五是你的休息日（你在这个任务里说过："周五我休息"），所以第 5 天不安排复习。没有做任何修改。\n',
      '  ✗ 未能完成：你在这个任务里拒绝了把 linked-list-exercises 放在周一（"not Monday"），所以它不会放在那里。没有做任何修改。\n',
      "  ✗ 未能完成：你在这个任务里拒绝了把 linked-list-exercises 放在第 3 天第 7 节起，所以它不会放在那里。没有做任何修改。\n",
      "  ✗ 未能完成：你在这个任务里亲手把 linked-list-exercises 放在第 3 天第 7 节起（改过它的卡片），所以它留在那里。没有做任何修改。\n",
    ]);
  });

  test("a rule's refusal is told from the schedule's table, a shape the terminal had no words of its own for too", () => {
    const afternoons: ScheduleState = {
      ...week,
      standing: [{ kind: "only_part_of_day", value: "afternoon", text: "只要下午", id: "p-3" }],
    };
    const said = "“只要下午”";
    const lift = saySummary("zh", "liftStanding", { rule: "p-3" });
    const cases = [
      [3, saySummary("zh", "standingStartRange", { slot: 3, said, from: 5, to: 8 })],
      [8, saySummary("zh", "standingEndBy", { slot: 9, said, to: 8 })],
    ] as const;
    for (const [slot, chinese] of cases) {
      const run = placeTool.run(afternoons, { task_id: "linked-list-exercises", day: 7, slot_start: slot });
      expect(run.ok, run.content).toBe(false);
      expect(failureLine("place", run, "zh")).toBe(`  ✗ 未能完成："Linked list exercises"${chinese}${lift}\n`);
    }
  });

  test("a move to where the task already is, and a batch that moved nothing, are said in the schedule's table's words", () => {
    const lines = [
      ["move", moveTool.run(week, { task_id: "matrix-review", day: 2, slot_start: 3 })],
      ["batch_move", batchMoveTool.run(week, { moves: [{ task_id: "matrix-review", day: 1, slot_start: 1 }] })],
      ["batch_move", batchMoveTool.run(week, { moves: [{ task_id: "linked-list-exercises", day: 3, slot_start: 1 }] })],
    ].map(([name, run]) => failureLine(name as string, run as ToolRun<unknown>, "zh"));
    // The table's alreadyOn and nothingMoved ("{subject} 已经在{where}，不用移动", "；没有移动任何任务").
    expect(lines[0]).toBe('  ✗ 未能完成："Matrix operations review" 已经在3月12日周二 10:00–11:40，不用移动\n');
    // The overlap's bracket closes on its place: the table's "；没有移动任何任务" follows it, not inside it.
    expect(lines[1]!.slice(lines[1]!.indexOf(" 与 "))).toBe(
      ' 与 "Calculus lecture"（3月11日周一 08:00–09:40）时间冲突；没有移动任何任务\n',
    );
    expect(lines[2]).toBe(
      '  ✗ 未能完成：move 1 of 1: "Linked list exercises" 还没有安排，不在日程上；没有移动任何任务\n',
    );
    // The English the tools write (from the same table) stays as it was.
    expect([
      moveTool.run(week, { task_id: "matrix-review", day: 2, slot_start: 3 }).content,
      batchMoveTool.run(week, { moves: [{ task_id: "linked-list-exercises", day: 3, slot_start: 1 }] }).content,
    ]).toEqual([
      "error: task matrix-review is already on day 2 slots 3-4 (Tue 12 Mar 2024, 10:00–11:40); nothing to move",
      'error: move 1 of 1: task linked-list-exercises "Linked list exercises" is pending, not on the schedule; use place to put it there; nothing was moved',
    ]);
  });

  test("an English conversation's failure lines stay as they were", () => {
    expect(failures.map(([name, run]) => failureLine(name, run, "en"))).toEqual([
      '  ✗ error: cannot place "Linked list exercises" (duration 2): Mon 11 Mar, 08:00–09:40 overlaps "Calculus lecture" on Mon 11 Mar, 08:00–09:40\n',
      '  ✗ error: "Matrix operations review" is already placed on Tue 12 Mar, 10:00–11:40; use move to change it\n',
      '  ✗ error: no task with id "nope" among 26 tasks; use list_tasks to find ids\n',
      '  ✗ error: cannot place "Linked list exercises" (duration 2): day 99 is outside the window (days 1-7)\n',
      '  ✗ error: "Linked list exercises" is pending, not on the schedule; use place to put it there\n',
      '  ✗ error: cannot move "Matrix operations review": Mon 11 Mar, 08:00–09:40 overlaps "Calculus lecture" on Mon 11 Mar, 08:00–09:40\n',
      '  ✗ error: "Linked list exercises" is already pending; nothing to unplace\n',
      "  ✗ Not applied: the user rejected this change. Their feedback: 周五我休息\n",
      "  ✗ Not applied: the user rejected this change without comment. Choose a different action.\n",
      '  ✗ error: "Linked list exercises" cannot go on Sun 17 Mar: its class "Data Structures" excludes Sun\n',
      '  ✗ error: "Linked list exercises" is due before Fri 15 Mar; Sat 16 Mar is too late\n',
      '  ✗ error: "Linked list exercises" cannot go before Tue 12 Mar (its earliest day); Mon 11 Mar is too early\n',
      '  ✗ error: "Linked list exercises" cannot go on Wed 13 Mar: your standing preference "周三不要排" rules Wed out; to change it, remove it (/prefs lists your preferences, /forget p-1 removes this one) or tell me "Wednesdays are fine now"\n',
      '  ✗ error: "Linked list exercises" must be done before "Calculus midterm exam" (Sat 16 Mar, 10:00); Sat 16 Mar, 19:00–20:40 is too late\n',
      '  ✗ Error: Friday is your day off (you said so in this task: "周五我休息"), so no review goes on day 5. Nothing was changed; choose another day.\n',
      '  ✗ Error: the user rejected linked-list-exercises on Monday in this task: "not Monday", so it does not go there. Nothing was changed; choose another place.\n',
      "  ✗ Error: the user rejected linked-list-exercises on day 3 from slot 7 in this task, so it does not go there. Nothing was changed; choose another place.\n",
      "  ✗ Error: the user put linked-list-exercises on day 3 from slot 7 themselves (they edited its card in this task), so it stays there. Nothing was changed; leave it where it is.\n",
    ]);
  });
});

describe("a Chinese conversation's error and reasoning labels", () => {
  test("are Chinese; the error's code and message and the model's reasoning are kept as they are", () => {
    expect(renderError(new InvalidResumeError("Expected a response."), "zh")).toBe(
      "出错：[INVALID_RESUME] Expected a response.",
    );
    expect(renderReasoning("先看空闲时间\n再安排", "zh")).toBe("  ┆ 思考过程\n  ┆ 先看空闲时间\n  ┆ 再安排");
    expect(renderReasoning("free time first", "en")).toBe("  ┆ reasoning\n  ┆ free time first");
  });
});

describe("the terminal chat of a Chinese conversation, on a pipe", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-zh-chat-"));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  /** The graph on the offline policy and the half-placed week, with long-term memory. */
  async function chatTempo() {
    const store = new InMemoryStore();
    const clock = () => new Date("2024-03-10T02:00:00Z");
    return { ...(await offlineTempo(halfPlacedWeek(), clock, { store })), store };
  }

  /** The chat on the offline policy and the half-placed week, `lines` typed ahead; it can /export, not draw /week. */
  async function chat(lines: string[], tempo?: Awaited<ReturnType<typeof chatTempo>>) {
    const graph = tempo ?? (await chatTempo());
    const output = await typedChat(lines, {
      graph: graph.graph,
      userId: "student",
      threadId: "zh-1",
      registry: new ThreadRegistry(path.join(directory, "threads.json")),
      exportCalendar: async (user: string) => exportCalendar(await graph.repository.load(user)),
      newThreadId: () => "zh-2",
    });
    return { output, tempo: graph };
  }

  /**
   * The chat's own lines, for a search for English: what was typed, `file`'s path and the command to continue taken out. Left out: the banner of
   * a thread before its first message (no language yet), the graph's own reply to /clear on the fresh thread, /state's
   * last tool result (the tool's text) and a card's choices (its letter keys; the card is the test's above).
   */
  function chatLinesOf(output: string, file?: string): string[] {
    return (file === undefined ? output : output.split(file).join(""))
      .split("\n")
      .map((line) => line.replace(/> .*$/, "> ").replace(/npm start -- --thread \S+/, ""))
      .filter((line) => !/^(Thread zh-1 \(user student\): new|tempo> |工具：|└─ )/.test(line));
  }

  /**
   * What the student types: `message`, then at the plan card an edit with a step `half` written (no "| done when"),
   * the plan approved; at the week's card the second change edited twice with arguments it cannot take; then the
   * commands, at the card and after /clear on the fresh thread.
   */
  const typed = (message: string, half: string, file: string) => [
    message,
    "e",
    half,
    "",
    "a",
    "a e a a",
    "{oops",
    "a e a a",
    "[1]",
    "/help",
    "/state",
    "/history",
    "/threads",
    "/debug",
    "/debug",
    "/frobnicate",
    "/state now",
    "/resume",
    "/resume nope",
    "/forget",
    "/import",
    "/import missing.ics",
    "/week",
    `/export ${file}`,
    "/clear",
    "/import missing.ics",
  ];

  test("its prompts, edit mistakes, /help, /state and the chat's own messages are Chinese", async () => {
    const file = path.join(directory, "week.ics");
    const { output, tempo } = await chat(typed("帮我安排本周的复习", "只有一部分", file));
    // The chat's own lines, each answered after its prompt: Chinese.
    for (const expected of [
      "选择> e\n请输入计划",
      "第 1 步> 只有一部分\n第 2 步> \n第 1 步需要两部分：“要做什么 | 完成标志”；卡片仍在等待。\n选择> a\n",
      "选择> a e a a\n",
      "第 2 项的参数> {oops\n这不是有效的 JSON；卡片仍在等待。\n选择> a e a a\n",
      '第 2 项的参数> [1]\n参数必须是一个 JSON 对象，例如 {"day": 2}；卡片仍在等待。\n选择> /help\n',
      "输入消息给 Tempo 一个任务或和它聊天。遇到卡片时，用选项字母回答。\n  /clear ",
      "  /resume <thread>    切换到一个对话（等待中的卡片会再次显示）\n",
      "对话：  zh-1（用户 student）\n状态：  等你确认\n目标：  帮我安排本周的复习\n",
      "  1. [进行中] 把所有待安排的复习任务放进能容纳它们的时段  ← 当前\n",
      "1 个步骤快照，从早到晚：\n  ",
      " 第 1 步（共 3 步） → 进行中  （对话等你确认；检查点 ",
      "student 的对话（最新的在前；用 /resume <对话> 切换）：\n* zh-1 ",
      "调试视图已打开：显示工具名、id 和 JSON 参数。\n",
      "调试视图已关闭：任务用名称，位置用日期和时间。\n",
      "没有 /frobnicate 这个命令。输入 /help 查看命令。\n",
      "/state 不带参数。输入 /help 查看命令。\n",
      "用法：/resume <对话>。/threads 会列出你的对话。\n",
      "没有保存的对话 nope。/threads 会列出你的对话。\n",
      "用法：/forget <编号或 id>。/prefs 会列出你的长期偏好。\n",
      "用法：/import <文件.ics>。\n",
      "这个对话在等你回答上面的卡片；请先回答它（或用 /clear 开始新对话）。没有导入任何内容。\n",
      "这里不能用 /week（没有提供日程）。\n",
      `已把你的一周写入 ${file}。\n`,
      "新对话 zh-2（之前的对话 zh-1 仍然保留：/resume zh-1）。\n你> /import missing.ics\n",
      "你> /import missing.ics\n无法导入 missing.ics：没有这个文件。没有做任何修改。\n",
    ])
      expect(output).toContain(expected);
    expect(chatLinesOf(output, file).flatMap(englishRuns)).toEqual([]);
    expect(output).not.toMatch(/choice> |answer> |arguments \d> |step \d> /);

    // Reopened, the thread's banner, its card's prompt, /prefs and /forget and the word at the end of the input are
    // Chinese; a restarted chat reopens the waiting thread in its language.
    await applyPreferenceChange(
      tempo.store,
      "student",
      { add: [{ kind: "avoid_day", value: 1, text: "周一不要排" }], lift: [] },
      "卡片上的反馈",
      "2026-01-05T10:00:00.000Z",
    );
    const reopened = await chat(["/resume zh-1", "/prefs", "/forget 2", "/forget 1", "/prefs", "/forget 1"], tempo);
    for (const expected of [
      "对话 zh-1（用户 student）：等你确认 — 目标：帮我安排本周的复习\n┌─ 确认 4 项修改\n",
      "选择> /resume zh-1\n已切换到对话 zh-1（用户 student）：等你确认 — 目标：帮我安排本周的复习\n",
      "你的长期偏好：\n1. 周一不要排 — 卡片上的反馈，2026-01-05 [",
      "]\n\n用 /forget <编号或 id> 删除一条。\n",
      '没有偏好 "2"：请给出它在 /prefs 中的编号（1-1）或它的 id。\n',
      "已删除：“周一不要排”。之后的任务不再遵守它。\n",
      "还没有长期偏好。可以直接说一条",
      "你没有可删除的长期偏好。\n",
      "对话 zh-1 在等你的回答；继续请运行：npm start -- --thread zh-1\n",
    ])
      expect(reopened.output).toContain(expected);
    expect(chatLinesOf(reopened.output).flatMap(englishRuns)).toEqual([]);
    const registry = new ThreadRegistry(path.join(directory, "threads.json"));
    expect(await chooseStartingThread(tempo.graph, registry, "student", undefined)).toEqual({
      threadId: "zh-1",
      reason: "waiting",
      language: "zh",
    });
  });

  test("an English conversation's chat lines are as they were", async () => {
    const file = path.join(directory, "week.ics");
    const { output, tempo } = await chat(typed("Help me arrange this week's reviews, please.", "only one part", file));
    for (const expected of [
      'step 1> only one part\nstep 2> \nStep 1 needs both parts: "what to do | done when"; the card is still waiting.\nchoice> a\n',
      "arguments 2> {oops\nNot valid JSON (",
      "); the card is still waiting.\nchoice> a e a a\nEnter the arguments of change 2 as one JSON object",
      'arguments 2> [1]\nThe arguments must be a JSON object, e.g. {"day": 2}; the card is still waiting.\nchoice> /help\n',
      "Type a message to give Tempo a task or to chat. At a card, answer with a choice letter.\n  /clear              start a fresh thread (your task summary is cleared; the old thread stays resumable)\n",
      "thread:  zh-1 (user student)\nstatus:  waiting_user_confirmation\ngoal:    Help me arrange this week's reviews, please.\n",
      "1 step snapshot(s), oldest first:\n  ",
      " step 1 of 3 → running  (thread waiting_user_confirmation; checkpoint ",
      "Threads of student (newest first; /resume <thread> to switch):\n* zh-1 ",
      "Debug view on: tool names, ids and JSON arguments are shown.\n",
      "Debug view off: tasks by name, places by date and time.\n",
      "Unknown command /frobnicate. Type /help for the commands.\n",
      "/state takes no argument. Type /help for the commands.\n",
      "Usage: /resume <thread>. /threads lists your threads.\n",
      "No saved thread nope. /threads lists your threads.\n",
      "Usage: /forget <number or id>. /prefs lists your standing preferences.\n",
      "Usage: /import <file.ics>.\n",
      "This thread waits for your answer to the card above; answer it first (or /clear for a fresh thread). Nothing was imported.\n",
      "/week is not available here (no schedule is served).\n",
      `Wrote your week to ${file}.\n`,
      "New thread zh-2 (the previous one, zh-1, stays available: /resume zh-1).\nyou> /import missing.ics\n",
      "you> /import missing.ics\nCannot import missing.ics: there is no such file. Nothing was changed.\n",
    ])
      expect(output).toContain(expected);
    expect(output).not.toMatch(/[\u4e00-\u9fff]/);
    const reopened = await chat(["/resume zh-1"], tempo);
    const banner =
      "zh-1 (user student): waiting_user_confirmation — goal: Help me arrange this week's reviews, please.";
    expect(reopened.output).toContain(`Thread ${banner}\n┌─ Confirm 4 writes\n`);
    expect(reopened.output).toContain(`choice> /resume zh-1\nResumed thread ${banner}\n`);
    expect(reopened.output).toContain("Thread zh-1 waits for your answer; continue with: npm start -- --thread zh-1\n");
    const registry = new ThreadRegistry(path.join(directory, "threads.json"));
    expect((await chooseStartingThread(tempo.graph, registry, "student", undefined)).language).toBe("en");
  });
});
