/**
 * The task report a Chinese-speaking student reads — the factual answer deliver gives when a model's summary claims
 * too much, and the offline policy's answer over the same facts — says its own words in Chinese: a failed step's
 * reason, the writes applied and not, the note, and the reasons beside an item still pending (a standing preference,
 * another session of the same task) that were left in English.
 */
import { describe, expect, test } from "vitest";
import { finalAnswer } from "../../offline/schedule/replies.js";
import { reportLineIn } from "../../contracts/report-words.js";
import { CANCELLED_BATCH_REASON } from "../../review/apply.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's names (tasks, events, classes): the student's own, not Tempo's words. */
const NAMES = [...sampleWeek().tasks.map((task) => task.name), ...sampleWeek().categories.map((entry) => entry.name)];

/** English words of the report's own in `text`: runs of 3+ ASCII letters once names, ids and commands are set aside. */
function english(text: string): string[] {
  return (
    NAMES.reduce((rest, name) => rest.replaceAll(name, " "), text)
      .replace(/"[^"\n]*"|“[^”\n]*”/g, " ")
      .replace(/\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b/g, " ")
      .replace(/\/(?:prefs|forget)\b/g, " ")
      .match(/[A-Za-z]{3,}/g) ?? []
  );
}

describe("the report's own words, in Chinese", () => {
  test("a step failed by a cancelled run, the writes and the note", () => {
    const answer = finalAnswer({
      goal: "安排我这周的复习",
      language: "zh",
      outcome: "partial",
      steps: [
        {
          content: "把所有待安排的复习任务放进能容纳它们的时段",
          status: "failed",
          summary: `failed: ${CANCELLED_BATCH_REASON}`,
        },
        {
          content:
            "核对日程\n\nChanges applied (they stay): 1 — 已把 review-limits 安排在3月15日周五\n\nApproved but not applied: 6 — a; b; c; d; e and 1 more",
          status: "pending",
          summary: "",
        },
      ],
      note: `The task stopped: ${CANCELLED_BATCH_REASON}.`,
    });
    expect(answer).toContain("— 失败：应用已批准的修改时，这次运行被取消了");
    expect(answer).toContain("已应用的修改（保留）：1 — ");
    expect(answer).toContain("已批准但未应用：6 — a; b; c; d; e 等（另有 1 项）");
    expect(answer).toContain("备注：任务已停止：应用已批准的修改时，这次运行被取消了。");
    expect(english(answer)).toEqual([]);
  });

  test("the reasons beside an item still pending: a standing preference, another session of the task", () => {
    const answer = finalAnswer({
      goal: "安排我这周的复习",
      language: "zh",
      outcome: "partial",
      steps: [
        {
          content: "把所有待安排的复习任务放进能容纳它们的时段",
          status: "done",
          summary: "every placement the plan had room for was proposed",
        },
        { content: "核对日程", status: "done", summary: "the schedule shows 2 review task(s) still pending" },
      ],
      stillPending: [
        'Still pending: Binary tree review (binary-tree-review) — your standing preference "no sundays" rules out the free time it fits in (/prefs lists your preferences, /forget removes one)',
        "Still pending: Linked list exercises (linked-list-exercises) — another session of task linked-list-exercises is on each day with room for it",
      ],
    });
    expect(answer).toContain("仍待安排：Linked list exercises (linked-list-exercises) — 能容纳它的每一天都已有任务");
    expect(english(answer)).toEqual([]);
  });

  test("the outcome line and the note of a cancelled run", () => {
    expect(
      reportLineIn(`Outcome: partial — 0 of 3 step(s) done; step "安排" failed: ${CANCELLED_BATCH_REASON}`, "zh"),
    ).toBe(
      "结果：部分完成，未全部完成 — 完成了 3 个步骤中的 0 个；步骤“安排”失败：应用已批准的修改时，这次运行被取消了",
    );
    expect(reportLineIn(`Note: The task stopped: ${CANCELLED_BATCH_REASON}.`, "zh")).toBe(
      "备注：任务已停止：应用已批准的修改时，这次运行被取消了。",
    );
  });
});

describe("the factual answer deliver gives a Chinese student", () => {
  test("tells the step's summary in Chinese: marking a pending review done", async () => {
    // The matrix review is pending in the sample week: marking it done leaves the week's other reviews pending, so the
    // task is partial and the offline summary is replaced by the facts.
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "我完成了矩阵复习");
    expect(outcome.finalAnswer).toContain("记为已完成（原为待安排）");
    expect(english(outcome.finalAnswer!)).toEqual([]);
  });
});

describe("a Chinese plan card's steps", () => {
  test.each([
    "把二叉树复习移到周四",
    "交换极限复习和矩阵复习",
    "取消安排矩阵复习",
    "我错过了哪些复习",
    "期中考试前还剩什么",
    "我这周安排得怎么样",
    "删除周五的辅导课",
  ])("%s: what each step is done when is said without a tool's name", async (request) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const outcome = await converse(tempo, request, () => ({ type: "ignore", args: null }));
    const plans = outcome.cards.filter((card) => card.action === "confirm_plan");
    for (const plan of plans) expect(english(String(plan.args.steps))).toEqual([]);
  });
});
