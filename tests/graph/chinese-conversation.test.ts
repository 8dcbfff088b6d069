/**
 * Gap D of issue 48 item 4: a Chinese-speaking student hears Chinese everywhere Tempo speaks, not only in the answers
 * and the cards. One offline conversation in Chinese through the graph — arrange, a missed review, a move, undo — and
 * the day's check-in: every status line streamed while Tempo works and every answer is free of English sentences
 * (ids, task names and quoted names aside); the check-in's own lines are Chinese too.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { beforeAll, describe, expect, test } from "vitest";
import type { TempoEvent } from "../../streaming/events.js";
import { threadConfig } from "../support/scripted.js";
import { checkinLanguage, runCheckin, waitingLine } from "../../cli/checkin.js";
import { createScheduleDomain } from "../../tools/schedule/domain.js";
import { finalAnswer } from "../../offline/schedule/replies.js";
import { halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

type Tempo = Awaited<ReturnType<typeof offlineTempo>>;

/** What a person saw of one request: the status lines streamed and the assistant's messages. */
interface Heard {
  statuses: string[];
  said: string[];
}

/** Sends `message` on `threadId`, answers every card "是" (approve all), collecting the status lines and what was said. */
async function talk(tempo: Tempo, threadId: string, message: string, now: Date): Promise<Heard> {
  const base = threadConfig(threadId, "student");
  const config = { ...base, configurable: { ...base.configurable, now: now.toISOString() } };
  const statuses: string[] = [];
  const before = ((await tempo.graph.getState(config)).values.messages ?? []).length as number;
  let input: unknown = { messages: [new HumanMessage(message)] };
  for (let turn = 0; turn < 20; turn += 1) {
    const stream = await tempo.graph.stream(input as never, { ...config, streamMode: "custom" });
    for await (const event of stream as AsyncIterable<TempoEvent>)
      if (event.kind === "status") statuses.push(event.text);
    const state = await tempo.graph.getState(config);
    const card = state.tasks.flatMap((task) => task.interrupts)[0];
    if (!card) break;
    const count = (card.value as { action_requests: unknown[] }).action_requests.length;
    input = new Command({ resume: { decisions: Array.from({ length: count }, () => ({ type: "approve" })) } });
  }
  const messages = (await tempo.graph.getState(config)).values.messages as Array<{
    getType(): string;
    content: unknown;
  }>;
  const said = messages
    .slice(before)
    .filter((entry) => entry.getType() === "ai")
    .map((entry) => String(entry.content))
    .filter(Boolean);
  return { statuses, said };
}

/** The names of the week's tasks and events (the timetable keeps its English names): proper names, not sentences. */
const NAMES = halfPlacedWeek({ chinese: true })
  .tasks.map((task) => task.name)
  .sort((left, right) => right.length - left.length);

/** `text` without what may stay as it is: quoted names ("…", “…”), the week's names and ids (matrix-review, u1). */
function ownWords(text: string): string {
  const unnamed = NAMES.reduce((rest, name) => rest.replaceAll(name, " "), text);
  return unnamed.replace(/"[^"\n]*"|“[^”\n]*”/g, " ").replace(/\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b/g, " ");
}

/** An English sentence in `text`: a run of ASCII holding three words or more, quoted names and ids aside. */
function englishSentenceIn(text: string): string | undefined {
  return (ownWords(text).match(/[\x20-\x7e]+/g) ?? []).find((run) => (run.match(/[A-Za-z]{2,}/g) ?? []).length >= 3);
}

/** An English word in a status line (a status is short: one word of its own is English enough to fail). */
function englishWordIn(text: string): string | undefined {
  return /[A-Za-z]{3,}/.exec(ownWords(text))?.[0];
}

describe("a Chinese conversation, offline: arrange, a missed review, a move, undo", () => {
  /** The eve of the sample week: every request's writes go ahead of the clock. */
  const now = new Date("2024-03-10T20:00:00+08:00");
  let heard: Heard[] = [];
  let tempo: Tempo;

  beforeAll(async () => {
    tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), () => now);
    heard = [];
    for (const request of ["帮我安排下周的复习", "我周二的复习没做", "把矩阵运算复习移到周五", "撤销"])
      heard.push(await talk(tempo, "zh-life", request, now));
  });

  test("each request is heard: status lines stream while Tempo works, and an answer comes", () => {
    expect(heard.map((entry) => entry.statuses.length > 0 && entry.said.length > 0)).toEqual([true, true, true, true]);
  });

  test("no status line has an English word of Tempo's own", () => {
    const statuses = heard.flatMap((entry) => entry.statuses);
    expect(statuses).toContain("正在执行第 1 步（共 3 步）：把所有待安排的复习任务放进能容纳它们的时段");
    expect(statuses.filter((line) => englishWordIn(line) !== undefined)).toEqual([]);
  });

  test("no answer has an English sentence: the tools' English is said in Chinese, names and ids aside", () => {
    const said = heard.flatMap((entry) => entry.said).flatMap((text) => text.split("\n"));
    expect(said).toContain("撤销上一次的修改（共 1 项修改，卡片上逐项列出）。");
    expect(said.filter((line) => englishSentenceIn(line) !== undefined)).toEqual([]);
  });

  test("the next Monday's check-in speaks Chinese: what the clock moved, the answers, what waits", async () => {
    const monday = new Date("2024-03-18T07:00:00+08:00");
    const week = await tempo.repository.load("student");
    const language = checkinLanguage(["帮我安排下周的复习", "撤销"], week);
    expect(language).toBe("zh");
    const domain = createScheduleDomain({ repository: tempo.repository });
    const outcome = await runCheckin(tempo.graph, "student", monday, "Asia/Shanghai", [domain], language);
    // The week moved on, and the missed review's card waits.
    expect(outcome.movedOn).toMatch(/^新的一周/);
    expect(outcome.waiting.length).toBeGreaterThan(0);
    const lines = [outcome.movedOn ?? "", ...outcome.said, outcome.atRisk ?? "", waitingLine(outcome, language)];
    expect(lines.flatMap((text) => text.split("\n")).filter((line) => englishSentenceIn(line) !== undefined)).toEqual(
      [],
    );
  });
});

describe("the check-in's language", () => {
  const englishWeek = halfPlacedWeek();
  const chineseWeek = halfPlacedWeek({ chinese: true });

  test.each([
    ["the student's last words, Chinese", ["arrange my reviews for next week", "我周二的复习没做"], englishWeek, "zh"],
    [
      "the student's last words, English",
      ["帮我安排下周的复习", "arrange my reviews for next week"],
      chineseWeek,
      "en",
    ],
    ["a short last word does not tell: the one before does", ["帮我安排下周的复习", "ok"], englishWeek, "zh"],
    ["no words: the week's names, Chinese", [], chineseWeek, "zh"],
    ["no words: the week's names, English", [], englishWeek, "en"],
    ["nothing at all", [], undefined, "en"],
  ] as const)("%s", (_, messages, week, language) => {
    expect(checkinLanguage(messages, week)).toBe(language);
  });

  test("an English check-in's closing line is unchanged, a Chinese one is Chinese", () => {
    const outcome = { threadId: "checkin-ana-2024-03-18", waiting: ["place", "place"] };
    expect(waitingLine(outcome, "en")).toBe(
      "A card waits on thread checkin-ana-2024-03-18 (place, place): npm start -- --thread checkin-ana-2024-03-18",
    );
    expect(waitingLine(outcome, "zh")).toBe(
      "会话 checkin-ana-2024-03-18 上有一张卡片等你确认（place、place）：运行“npm start -- --thread checkin-ana-2024-03-18”打开它",
    );
    expect(waitingLine({ ...outcome, waiting: [] }, "zh")).toBe("会话 checkin-ana-2024-03-18 上没有等你处理的事。");
  });
});

describe("a refusal the rules gave, quoted in a Chinese answer", () => {
  test("a class's buffer refusing a move is said in Chinese; in English it is as it was", () => {
    const why =
      'cannot move task matrix-review: task review-limits "Review limits and continuity" keeps 1 free slot(s) around it (its class "Calculus"), but task matrix-review "Matrix operations review" is at day 5 slot 10 (Fri 15 Mar 2024, 19:55–20:40)';
    const step = (content: string) => ({ content, status: "done" as const, summary: `not carried out: ${why}` });
    const chinese = finalAnswer({
      goal: "把矩阵复习移到周五",
      steps: [step('把 "矩阵复习" 移到 周五（第5天）')],
      outcome: "failed",
      language: "zh",
    });
    expect(chinese).toBe(
      '日程没有改动：无法移动任务 matrix-review："Review limits and continuity" 前后要留出 1 节空闲（它的课程 "Calculus"），但"Matrix operations review" 在3月15日周五 19:55–20:40。',
    );
    expect(englishSentenceIn(chinese)).toBeUndefined();
    expect(
      finalAnswer({
        goal: "move the matrix review to Friday",
        steps: [step('Move "matrix review" to Friday (day 5)')],
        outcome: "failed",
        language: "en",
      }),
    ).toBe(
      'Your schedule is unchanged: cannot move task matrix-review: "Review limits and continuity" keeps 1 free slot(s) around it (its class "Calculus"), but "Matrix operations review" is at Fri 15 Mar, 19:55–20:40.',
    );
  });
});

describe("a refusal that ends its own sentence", () => {
  test("is quoted with one full stop, in English and Chinese", () => {
    const why = "The calendar file is larger than 1,000,000 characters.";
    const step = { content: "Import the timetable", status: "done" as const, summary: `not carried out: ${why}` };
    const english = finalAnswer({ goal: "import my timetable", steps: [step], outcome: "failed", language: "en" });
    expect(english).toBe("Your schedule is unchanged: The calendar file is larger than 1,000,000 characters.");
    const chinese = finalAnswer({ goal: "导入我的课表", steps: [step], outcome: "failed", language: "zh" });
    expect(chinese).not.toMatch(/[.。]{2}/);
    expect(chinese.endsWith("。")).toBe(true);
  });
});
