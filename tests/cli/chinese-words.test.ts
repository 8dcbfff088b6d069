/**
 * A Chinese-speaking student's terminal chat is Chinese around the cards too (issue 48 item 4): a card's title, its
 * changes' heading and the choices it takes, and the tool lines, are in the conversation's language (`languageOf` over
 * the student's messages, so a short "a" keeps it Chinese). Names in quotes, ids, numbers and the letter keys stay.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { choicesOf, readCardReply } from "../../cli/card-answer.js";
import { renderCard, renderEditInstructions } from "../../cli/render.js";
import { StreamPrinter } from "../../cli/stream-printer.js";
import { languageOf } from "../../contracts/language.js";
import { batchInterrupt, planInterrupt, questionInterrupt, toolInterrupt } from "../../review/interrupt-cards.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { formatListing } from "../../tools/schedule/candidates.js";
import { findFreeTool } from "../../tools/schedule/tools/find-free.js";
import { listTasksTool } from "../../tools/schedule/tools/list-tasks.js";
import { moveTool } from "../../tools/schedule/tools/move.js";
import { placeTool } from "../../tools/schedule/tools/place.js";
import { unplaceTool } from "../../tools/schedule/tools/unplace.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";

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
    expect(lines[1]).toContain('已把 "Linked list exercises" 安排到 3月15日周五 19:00–20:40');
    expect(lines[4]).toMatch(/全部任务：共 \d+ 个中的 \d+ 个/);
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
