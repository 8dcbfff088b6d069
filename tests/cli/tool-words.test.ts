/**
 * Tool activity in people's words (issue 48): the terminal's default view names what the agent does and what came
 * back with task names, dates and clock times, in the user's language; the debug view keeps tool names, ids and JSON.
 */
import { describe, expect, test } from "vitest";
import { renderCard } from "../../cli/render.js";
import { StreamPrinter } from "../../cli/stream-printer.js";
import { describeToolCall, describeToolResult } from "../../cli/tool-words.js";
import type { Card } from "../../contracts/cards.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { formatListing } from "../../tools/schedule/candidate-listing.js";
import { moveTool } from "../../tools/schedule/tools/move.js";
import { NO_PLACE_BEFORE, NO_PLACE_FITS, NOTHING_MISSED } from "../../tools/schedule/tools/reschedule.js";
import { unplaceTool } from "../../tools/schedule/tools/unplace.js";
import { NO_RECOVERY } from "../../tools/schedule/tools/recovery.js";
import { CANCELLED_WRITE_RESULT } from "../../tools/runner.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";

describe("a tool call", () => {
  test("a write by the task's name and the place's date and time; a read by what it does; both languages", () => {
    const week = halfPlacedWeek();
    expect(describeToolCall("move", { task_id: "matrix-review", day: 4, slot_start: 7 }, "en", week)).toBe(
      'Move "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40',
    );
    expect(describeToolCall("move", { task_id: "matrix-review", day: 4, slot_start: 7 }, "zh", week)).toBe(
      '把 "Matrix operations review" 从 3月12日周二 10:00–11:40 移到 3月14日周四 16:00–17:40',
    );
    expect(describeToolCall("propose_arrangement", {}, "en", week)).toBe(
      "looking for the best arrangement of your pending reviews",
    );
    expect(describeToolCall("find_free", { day: 1 }, "zh")).toBe("查找空闲时间");
    expect(describeToolCall("some_new_tool", {}, "en")).toBe("some new tool");
  });
});

describe("a tool result", () => {
  test("the arrangement's listing says the week's score now and what the proposal would make it", () => {
    const week = halfPlacedWeek();
    const data = proposeArrangement(week);
    const listing = formatListing(data);
    const score = /^health score now ([\d.]+)\/100/.exec(listing)![1];
    const after = /^- a1 \(\+[\d.]+ → ([\d.]+)\)/m.exec(listing)![1];
    expect(describeToolResult(listing, data, "en", week)).toBe(
      `the week scores ${score}/100 now; the best proposal (place 4 of 4 pending review(s)) would make it ${after}`,
    );
    expect(describeToolResult(listing, data, "zh", week)).toContain(`这一周现在 ${score}/100 分`);
  });

  test("ids and day numbers become names and dates", () => {
    const week = halfPlacedWeek();
    expect(
      describeToolResult(
        'placed task review-limits "Review limits and continuity" on day 5 slots 9-10 (Fri 15 Mar 2024, 19:00–20:40)',
        undefined,
        "en",
        week,
      ),
    ).toBe('placed "Review limits and continuity" on Fri 15 Mar, 19:00–20:40');
  });
});

describe("a refusal of the clock", () => {
  test("is said from its data: the review by name, its place by date and time, no id, slot or tool name", () => {
    const week = { ...halfPlacedWeek(), now: "2024-03-12T02:00:00.000Z" };
    const refused = unplaceTool.run(week, { task_id: "review-limits" });
    expect(refused.ok).toBe(false);
    // The model's text keeps the ids and the tools to use.
    expect(refused.content).toMatch(/day 1 slot 5.*\(mark_done, mark_missed\)/);
    expect(describeToolResult(refused.content, refused.data, "en", week)).toBe(
      'not done: "Review limits and continuity" (Mon 11 Mar, 14:00–15:40) has already started: the past is fixed, so it is not taken off; tell me you did it or missed it instead',
    );
    expect(describeToolResult(refused.content, refused.data, "zh", week)).toBe(
      "未能完成：“Review limits and continuity”（3月11日周一 14:00–15:40）已经开始了：过去的安排不能改，所以不能撤下；你可以告诉我它已经做完或者错过了",
    );
    const moved = moveTool.run(week, { task_id: "review-limits", day: 4, slot_start: 7 });
    expect(describeToolResult(moved.content, moved.data, "zh", week)).toBe(
      "未能完成：“Review limits and continuity”（3月11日周一 14:00–15:40）已经开始了：过去的安排不能改，所以不能移动",
    );
  });
});

describe("a reschedule that proposes nothing", () => {
  test("says why from its data, in the user's language", () => {
    const data = {
      candidates: [],
      unplaced: [{ id: "x", name: "X", why: NO_PLACE_BEFORE.deadline }],
      empty: NO_PLACE_FITS,
    };
    const content = `nothing to propose: ${NO_PLACE_FITS}\nleft missed: x`;
    expect(describeToolResult(content, data, "en")).toBe("nothing to propose: no free place fits the missed review(s)");
    expect(describeToolResult(content, data, "zh")).toBe("没有可以提出的补排：错过的复习都没有能补做的空闲时段");
    expect(
      describeToolResult("nothing to propose: no review is missed", { ...data, empty: NOTHING_MISSED }, "zh"),
    ).toBe("没有可以提出的补排：没有错过的复习");
  });
});

describe("the printer and the card", () => {
  const events = [
    { kind: "tool_call", node: "execute", id: "c1", name: "propose_arrangement", arguments: {} },
    {
      kind: "tool_result",
      node: "execute",
      id: "c1",
      name: "propose_arrangement",
      ok: true,
      content: "health score now 50/100",
      data: { score: 50, candidates: [] },
    },
  ] as const;

  test("people's words by default, tool names and JSON in the debug view", () => {
    const plain = new StreamPrinter();
    expect(events.map((event) => plain.print(event)).join("")).toBe(
      "  → looking for the best arrangement of your pending reviews\n  ← the week scores 50/100; no change raises it\n",
    );
    const verbose = new StreamPrinter({ verbose: true });
    expect(events.map((event) => verbose.print(event)).join("")).toBe(
      "  → propose_arrangement {}\n  ← health score now 50/100\n",
    );
  });

  test("a write card shows its arguments only in the debug view", () => {
    const card = {
      action_requests: [
        {
          name: "place",
          args: { task_id: "matrix-review", day: 2, slot_start: 7 },
          arguments: { task_id: "matrix-review", day: 2, slot_start: 7 },
          description: 'Place "Matrix operations review" on Tue 12 Mar, 16:00–17:40\n\nApprove, edit or reject.',
        },
      ],
      review_configs: [{ action_name: "place", allowed_decisions: ["approve", "edit", "reject"] }],
    } as unknown as Card;
    expect(renderCard(card)).not.toContain("arguments:");
    expect(renderCard(card)).toContain('Place "Matrix operations review" on Tue 12 Mar, 16:00–17:40');
    expect(renderCard(card, { verbose: true })).toContain(
      'arguments: {"task_id":"matrix-review","day":2,"slot_start":7}',
    );
  });
});

describe("the reads and restores a Chinese term meets", () => {
  const week = halfPlacedWeek();

  test("the reschedule and the recovery are said as what they do", () => {
    expect(describeToolCall("propose_reschedule", {}, "zh", week)).toBe("为错过的复习寻找补做的时段");
    expect(describeToolCall("propose_recovery", {}, "zh", week)).toBe("寻找能补救赶不上截止的复习的修改");
    expect(describeToolCall("propose_recovery", {}, "en", week)).toBe(
      "looking for the change that saves reviews at risk",
    );
  });

  test("a recovery that lists nothing says why from its data, in the user's language", () => {
    const data = { candidates: [], recovers: [], displaces: [], empty: NO_RECOVERY.safe };
    const content = `nothing to recover: ${NO_RECOVERY.safe}`;
    expect(describeToolResult(content, data, "zh", week)).toBe("没有可以补救的：没有有截止日期的复习处于风险中");
    expect(describeToolResult(content, { ...data, empty: NO_RECOVERY.traded }, "zh", week)).not.toMatch(/[A-Za-z]{3}/);
    expect(describeToolResult(content, data, "en", week)).toBe(content);
  });

  test.each([
    ["day 3 week 1 Wed 2024-03-13 slots 1-12:\n- slots 1-2: free", "3月13日周三 第 1-12 节： …"],
    ["health score 99.5/100\nrhythm: …", "健康分 99.5/100 …"],
    [CANCELLED_WRITE_RESULT, "未执行：这次运行在做这项修改之前被取消了。"],
    ['imported 1 event(s): ev-1 "History seminar"', '已导入 1 个日程："History seminar"'],
    [
      'restored task matrix-review "Matrix operations review"; it is placed',
      '已恢复 "Matrix operations review"（现在为已安排）',
    ],
  ])("%j reads in Chinese", (content, chinese) => {
    expect(describeToolResult(content, undefined, "zh", week)).toBe(chinese);
    expect(describeToolResult(content, undefined, "en", week)).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
