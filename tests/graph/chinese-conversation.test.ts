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

/** `text` without what may stay as it is: quoted names ("…", “…”) and ids (matrix-review, u1). */
function ownWords(text: string): string {
  return text.replace(/"[^"\n]*"|“[^”\n]*”/g, " ").replace(/\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b/g, " ");
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

  beforeAll(async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), () => now);
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
});
