/**
 * What a person reads names the calendar (issue 30): final answers name tasks by name and places by date and clock
 * time, in English and Chinese, and a window without dates keeps the day-and-slot wording; a rule refusal names the
 * exam by name and its start, and is said once; a write that breaks a hard rule never becomes a card — whoever
 * proposes it, the offline policy or a model — and the schedule stays as it was; an arranged week's answer says where
 * each review went.
 */
import { HumanMessage, type ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { Card } from "../../contracts/cards.js";
import {
  createScheduleDomain,
  generateSchedule,
  InMemoryScheduleRepository,
  placeName,
  sampleWeek,
} from "../../tools/schedule/index.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const WEDNESDAY = () => new Date("2024-03-13T02:00:00Z");
/**
 * Monday 11 March 2024 07:00 in Asia/Shanghai, before the week's first slot: a test that moves Monday's or Tuesday's
 * review runs before they are in the past (issue 47: the past is fixed).
 */
const MONDAY_EARLY = () => new Date("2024-03-10T23:00:00Z");

describe("final answers name dates and times of day", () => {
  test("a move, in English and in Chinese: the task by name, both places by date and clock time", async () => {
    const english = await converse(
      await offlineTempo(halfPlacedWeek(), MONDAY_EARLY),
      "move the matrix review to Thursday afternoon",
    );
    expect(english.finalAnswer).toBe(
      'Done: moved "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40.',
    );
    const chinese = await converse(
      await offlineTempo(halfPlacedWeek({ chinese: true }), MONDAY_EARLY),
      "把矩阵运算复习移到周四下午",
    );
    expect(chinese.finalAnswer).toBe('完成：已把"矩阵运算复习" 从3月12日周二 10:00–11:40移到3月14日周四 16:00–17:40。');
    for (const answer of [english.finalAnswer, chinese.finalAnswer])
      expect(answer).not.toMatch(/day \d|slots? \d|matrix-review|第\d+天/);
  });

  test("a window without dates keeps the day-and-slot wording", async () => {
    const week = generateSchedule({ days: 7, taskCount: 12, seed: 3 });
    const placed = week.tasks.find((task) => task.source === "task_item" && task.status === "placed");
    const outcome = await converse(await offlineTempo(week), `unplace ${placed!.id}`);
    // The task by name all the same (the schedule knows it); the place by day and slots.
    expect(outcome.finalAnswer).toMatch(/^Done: unplaced "[^"]+" from day \d+ slots \d+-\d+/);
    expect(outcome.finalAnswer).not.toMatch(/\d\d:\d\d/);
  });

  test("an arranged week's answer says where each review went, by name, date and time", async () => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek(), WEDNESDAY), "arrange my reviews for next week");
    const where = /\n\nWhere things are now: (.*)\.$/.exec(outcome.finalAnswer ?? "")?.[1];
    expect(where).toBeDefined();
    const entries = where!.split("; ");
    // Every review the task placed or moved, each where the schedule now has it.
    const touched = outcome.cards.flatMap((card) =>
      card.action === "place"
        ? [card.args.task_id]
        : card.action === "batch_move"
          ? (card.args.moves as Array<{ task_id: string }>).map((move) => move.task_id)
          : [],
    );
    expect(entries).toHaveLength(new Set(touched).size);
    for (const entry of entries)
      expect(entry).toMatch(/^"[^"]+" — (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d+ Mar, \d\d:\d\d–\d\d:\d\d$/);
    // Where the schedule has each now, as the cards name places.
    for (const id of new Set(touched)) {
      const task = outcome.schedule.tasks.find((candidate) => candidate.id === id)!;
      expect(entries).toContain(`"${task.name}" — ${placeName(outcome.schedule.window, task.slots![0]!)}`);
    }
  });
});

describe("a rule refusal", () => {
  test("names the exam by name and its start time, is said once, and no card shows the move (English and Chinese)", async () => {
    for (const [request, chinese] of [
      ["move review limits to Saturday", false],
      ["把极限与连续复习移到周六", true],
    ] as const) {
      const tempo = await offlineTempo(halfPlacedWeek({ chinese }), MONDAY_EARLY);
      const outcome = await converse(tempo, request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(outcome.schedule).toEqual(halfPlacedWeek({ chinese }));
      expect(outcome.finalAnswer).toMatch(
        chinese
          ? /^日程没有改动："极限与连续复习" 必须在"Calculus midterm exam"（3月16日周六 10:00）之前完成；3月16日周六 \d\d:\d\d–\d\d:\d\d 太晚了。$/
          : /^Your schedule is unchanged: "Review limits and continuity" must be done before "Calculus midterm exam" \(Sat 16 Mar, 10:00\); Sat 16 Mar, \d\d:\d\d–\d\d:\d\d is too late\.$/,
      );
      // Said once: only the final answer tells it.
      expect(outcome.said.filter((text) => /Calculus midterm exam/.test(text))).toHaveLength(1);
    }
  });

  test("a model's rule-breaking move never becomes a card: it gets the refusal as a failed tool result, and the schedule is unchanged", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const move = { task_id: "review-limits", day: 1, slot_start: 5 };
    const late = { task_id: "review-limits", day: 6, slot_start: 7 };
    const { graph, models } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [
        planDone([{ content: "Place the limits review", done_when: "it has a place" }], {
          speak: "One step.",
          reason: "clear",
          complexity: "simple",
        }),
      ],
      execute: [
        // After the midterm (Saturday slot 3): refused before any card.
        json({
          speak: "Placing it on Saturday.",
          action: "confirm",
          reason: "free there",
          tool_call: { name: "place", arguments: late },
        }),
        json({
          speak: "Monday afternoon then.",
          action: "confirm",
          reason: "before the exam",
          tool_call: { name: "place", arguments: move },
        }),
        json({ speak: "", action: "done", reason: "placed", goal_check: "placed on Monday" }),
      ],
      settings: { replanAfterStep: "never" },
    });
    const config = threadConfig(`rule-${Math.random().toString(36).slice(2)}`);
    await graph.invoke({ messages: [new HumanMessage("Place my limits review")] }, config);
    const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
    // The only write card is the second proposal: the refused one never reached a card.
    const card = interruptsOf(waiting)[0]!.value as Card;
    expect(card.action_requests.map((request) => request.args)).toEqual([move]);
    const refused = waiting.messages.filter((message) => message.getType() === "tool") as ToolMessage[];
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status).toBe("error");
    expect(String(refused[0]!.content)).toMatch(
      /^error: cannot place task review-limits .*must be done before event sat-calculus-midterm "Calculus midterm exam" \(day 6 slot 3 \(Sat 16 Mar 2024, 10:00\)\)/,
    );
    // The model chose again having read the refusal; nothing was stored meanwhile.
    expect(models.execute.calls[1]!.messages.map((message) => String(message.content)).join("\n")).toContain(
      "must be done before event sat-calculus-midterm",
    );
    expect(placeOf(await repository.load("user-1"), "review-limits")).toBe("pending");
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(done.phase).toBe("done");
    expect(placeOf(await repository.load("user-1"), "review-limits")).toBe("day 1 slots 5-6");
  });
});
