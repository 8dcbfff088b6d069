/**
 * A Chinese-speaking student meets Tempo in Chinese throughout a term's week in the terminal chat (in-process, the
 * offline policy): arranging the week, marking a review done and undoing it, a missed review made up, what a day holds,
 * the week's health, a calendar file imported (and one that is not a calendar), the execution state, a deadline that
 * passes, and a run cancelled while it applies a batch. Every line the chat prints after the student's first message
 * is checked for English: no run of three or more ASCII letters may remain once the week's own names (tasks, events,
 * classes), ids and the small list of proper nouns below are set aside.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { exportCalendar } from "../../tools/schedule/calendar-files.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { typedChat } from "./support/typed-chat.js";
import { SEMINAR_CALENDAR } from "../support/calendars.js";
import { threadConfig } from "../support/scripted.js";
import { approveBatchCancelledAfter } from "../support/cancelled-batch.js";

/**
 * What may stay in ASCII in a Chinese user's text besides the week's names and ids: the product's and the formats'
 * names, the clock's zone, the chat's own commands (and the command line it prints to reopen a thread), the
 * environment variables a user sets and the workflow's version stamp in /state. Kept small on purpose.
 */
const PROPER_NOUNS = [
  /\bTempo\b/g,
  /^tempo> /g,
  /\biCalendar\b/g,
  /(?:\b[\w-]+)?\.ics\b/g,
  /\bJSON\b/g,
  /\bISO\b/g,
  /\bUTC\b/g,
  /\bAsia\/Shanghai\b/g,
  /\bOPENAI_(?:API_KEY|BASE_URL)\b/g,
  /\bnpm start -- --thread\b/g,
  /(?<![\w/])\/[a-z]+\b/g,
  /\b[a-z]+@[\w@/.-]+/g,
];

/** An id (`matrix-review`, `cli-1`, `sat_calculus`) or a path: not words. */
const IDS = /\b[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+\b|(?:\/[\w.-]+)+/g;

/** The English words (3+ ASCII letters) left in `line` once `names`, ids and the proper nouns are set aside. */
function englishIn(line: string, names: readonly string[]): string[] {
  let rest = [...names].sort((a, b) => b.length - a.length).reduce((text, name) => text.replaceAll(name, " "), line);
  for (const noun of PROPER_NOUNS) rest = rest.trim().replace(noun, " ");
  return rest.replace(IDS, " ").match(/[A-Za-z]{3,}/g) ?? [];
}

/** A row of the week drawn under a write card: its cells cut names short ("Calculus lec…"). */
const WEEK_ROW = /^ *\d+ \d\d:\d\d +│|^ *现在 +│|^ +│|^─+┼/;

/** The name cut short that opens a line under the week naming the names cut alike ("▌Data Structu… = …"). */
const CUT_ALIKE = /^[▌●✓+→⇄×][^=│]*… = /;

/** The lines of `output` that hold English of Tempo's own, each with the words found. */
function englishLines(output: string, names: readonly string[]): string[] {
  return output
    .split("\n")
    .map((line) => line.replace(CUT_ALIKE, ""))
    .filter((line) => !WEEK_ROW.test(line) && englishIn(line, names).length > 0)
    .map((line) => `${line.trim()}   <- ${englishIn(line, names).join(", ")}`);
}

describe("englishIn", () => {
  test("finds Tempo's own English and sets aside names, ids, times and the proper nouns", () => {
    const names = ["Matrix operations review"];
    expect(englishIn('已把 "Matrix operations review" 安排到 3月12日周二 16:00–17:40', names)).toEqual([]);
    expect(englishIn("会话 cli-1f2e 在等你；继续请运行：npm start -- --thread cli-1f2e", names)).toEqual([]);
    expect(englishIn("← health score 99.5/100 …", names)).toEqual(["health", "score"]);
    expect(englishIn("第 1 步（共 1 步）：把 review-limits 移到 Thursday", names)).toEqual(["Thursday"]);
  });
});

describe("a Chinese term in the terminal chat", () => {
  let directory: string;
  const week = sampleWeek();
  const names = [
    ...week.tasks.map((task) => task.name),
    ...week.categories.map((category) => category.name),
    "History seminar",
    "student",
  ];
  const repository = new InMemoryScheduleRepository();
  const log = new MemoryExecutionLog();
  let clock = new Date("2024-03-10T20:00:00+08:00");
  const graph = buildTempoGraph({
    models: { default: new ScheduleOfflinePolicy() },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    executionLog: log,
    now: () => clock,
  });
  /** The chat on thread `zh-term` (or `on`'s), at `at`, with `lines` typed: what it printed after the first line typed. */
  async function session(
    at: string,
    lines: string[],
    on: { userId: string; threadId: string } = { userId: "student", threadId: "zh-term" },
  ): Promise<string> {
    clock = new Date(at);
    const output = await typedChat(lines, {
      graph,
      ...on,
      registry: new ThreadRegistry(path.join(directory, "threads.json")),
      exportCalendar: async (user: string) => exportCalendar(await repository.load(user)),
      loadSchedule: (user: string) => repository.load(user),
      weekView: { now: () => clock },
      now: clock.toISOString(),
    });
    // Before the student's first words the chat cannot know their language (a new thread's header line).
    return output.slice(output.indexOf(lines[0]!));
  }
  const printed: string[] = [];

  beforeAll(async () => {
    directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-zh-term-"));
    await fs.writeFile(path.join(directory, "seminar.ics"), SEMINAR_CALENDAR);
    await fs.writeFile(path.join(directory, "notes.ics"), "这周的笔记");
    await repository.seed("student", week);
    // Sunday evening: the week ahead is arranged, a review is marked done and the mark undone.
    printed.push(
      await session("2024-03-10T20:00:00+08:00", [
        "安排我这周的复习",
        "是",
        "是",
        "我完成了矩阵复习",
        "是",
        "是",
        "撤销",
        "是",
        "是",
        "/state",
      ]),
    );
    // Wednesday: Tuesday's review was missed and is made up; what Wednesday holds; the week's health; a calendar file.
    printed.push(
      await session("2024-03-13T08:00:00+08:00", [
        "我错过了周二的复习",
        "是",
        "是",
        "是",
        "周三有什么安排",
        "/week",
        "我这周安排得怎么样",
        `/import ${path.join(directory, "seminar.ics")}`,
        "是",
        "是",
        `/import ${path.join(directory, "notes.ics")}`,
        "期中考试前还剩什么",
      ]),
    );
    // Friday evening: Monday's calculus review was missed, and Saturday's midterm is its deadline; a move the student
    // calls off at its plan card; a question the student withdraws.
    printed.push(
      await session("2024-03-15T21:00:00+08:00", [
        "我错过了导数练习",
        "是",
        "是",
        "是",
        "把二叉树复习移到周日",
        "取消",
        "接下来是什么",
        "算了",
      ]),
    );
    // Saturday noon: the midterm has begun, and a review due before it is missed: its deadline has passed.
    printed.push(
      await session("2024-03-16T12:00:00+08:00", [
        "我错过了导数练习",
        "是",
        "是",
        "补救",
        "是",
        "我错过了哪些复习",
        "/state",
      ]),
    );
    // Another student's week: the run applying the week's batch is cancelled after its third write; the next message
    // is told what applied and what did not.
    await repository.seed("student2", sampleWeek());
    clock = new Date("2024-03-10T20:00:00+08:00");
    const base = threadConfig("zh-cancel", "student2");
    const config = { ...base, configurable: { ...base.configurable, now: clock.toISOString() } };
    await graph.invoke({ messages: [new HumanMessage("安排我这周的复习")] }, config);
    await graph.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
    await approveBatchCancelledAfter(graph, log, config, 3);
    printed.push(
      await session("2024-03-10T20:05:00+08:00", ["谢谢", "/state"], { userId: "student2", threadId: "zh-cancel" }),
    );
  });
  afterAll(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  test("every line after the first message is Chinese, names, ids, times and a few proper nouns aside", () => {
    const output = printed.join("\n");
    // The flows ran: a card was approved, the undo answered, the health told, the calendar imported.
    expect(output).toContain("已撤销上一次的修改");
    expect(output).toContain("健康分");
    expect(output).toContain("已导入 1 个日程");
    expect(englishLines(output, names)).toEqual([]);
  });
});
