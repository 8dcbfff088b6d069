/**
 * The task report's words (contracts/report-words.ts): one table a language. Every phrase has its Chinese with the
 * same places; the report is said in Chinese from its facts (the outcome's reason kept as data); and the English the
 * model reads, read back against the same table (the offline policy, a thread saved before the reason was data),
 * says exactly what the report says at its source — so a reworded English phrase cannot leave the Chinese behind.
 */
import { describe, expect, test } from "vitest";
import {
  factsInLanguage,
  REPORT_WORDS,
  placesOf,
  readBack,
  reasonIn,
  sayOutcomeReason,
  sayReport,
  type OutcomeReason,
  type ReportKey,
} from "../../contracts/report-words.js";
import { WHY_OPEN, WHY_OPEN_ZH } from "../../contracts/why-open.js";
import {
  buildTaskReport,
  judgeOutcome,
  mechanicalSummary,
  unchangedJudged,
  type TaskReport,
} from "../../nodes/deliver/task-report.js";
import { renderExecutionState } from "../../cli/render-state.js";
import type { ExecutionState } from "../../server/execution-state.js";
import type { PlanStep } from "../../kernel/state.js";

const KEYS = Object.keys(REPORT_WORDS.en) as ReportKey[];

/** Runs of 3+ ASCII letters: the report's own English left in a Chinese text (the quoted parts here are Chinese). */
function english(text: string): string[] {
  return text.replace(/\([a-z]+(?:-[a-z]+)+\)/g, " ").match(/[A-Za-z]{3,}/g) ?? [];
}

describe("the report's words table", () => {
  test("every phrase has its Chinese, with the same places, and no Chinese phrase lacks its English", () => {
    expect(Object.keys(REPORT_WORDS.zh).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) {
      expect(REPORT_WORDS.zh[key].trim(), key).not.toBe("");
      expect(english(REPORT_WORDS.zh[key].replace(/\{\w+\}/g, " ")), key).toEqual([]);
      expect(placesOf(REPORT_WORDS.zh[key]).sort(), key).toEqual(placesOf(REPORT_WORDS.en[key]).sort());
    }
    expect(Object.keys(WHY_OPEN_ZH).sort()).toEqual(Object.keys(WHY_OPEN).sort());
  });

  test("every English phrase is read back as it is written (the reader is made from the phrase)", () => {
    for (const key of KEYS) {
      const params = Object.fromEntries(placesOf(REPORT_WORDS.en[key]).map((place, index) => [place, `${index + 3}`]));
      expect(readBack(REPORT_WORDS.en[key], sayReport("en", key, params)), key).toEqual(params);
    }
  });
});

const REASONS: OutcomeReason[] = [
  { key: "allDone", done: 3 },
  { key: "someDone", done: 1, total: 3, why: { key: "stepFailed", step: "安排复习", reason: null } },
  { key: "someDone", done: 0, total: 2, why: { key: "notRun", count: 2 } },
  {
    key: "someDone",
    done: 0,
    total: 3,
    why: { key: "stepFailed", step: "安排", reason: sayReport("en", "cancelledBatch") },
  },
  {
    key: "someDone",
    done: 1,
    total: 2,
    why: { key: "note", text: sayReport("en", "roundBudgetSpent", { rounds: 12 }) },
  },
  { key: "noPlan" },
  { key: "note", text: sayReport("en", "taskStopped", { why: sayReport("en", "cancelledBatch") }) },
  { key: "stillOpen", names: ["导数练习", "链表习题"] },
  { key: "declined", count: 1 },
  { key: "declined", count: 4 },
  { key: "nothingChanged", why: { key: "stepReasons", reasons: [] } },
  { key: "nothingChanged", why: { key: "stepReasons", reasons: ["没有找到", "已经安排好"] } },
  {
    key: "nothingChanged",
    why: { key: "someDone", done: 1, total: 2, why: { key: "stepFailed", step: "移动", reason: "被拒绝" } },
  },
  { key: "nothingFound", reasons: ["没有匹配的任务"] },
];

describe("the outcome's reason, said from its facts", () => {
  test.each(REASONS.map((reason) => [reason.key, reason] as const))(
    "%s: the Chinese has none of the report's English, and reading the English back says the same",
    (_, reason) => {
      const zh = sayOutcomeReason(reason, "zh");
      expect(english(zh)).toEqual([]);
      expect(reasonIn(sayOutcomeReason(reason, "en"), "zh")).toBe(zh);
    },
  );

  test("the outcomes deliver judges keep their reason as data, and the English the model reads is said from it", () => {
    const steps: PlanStep[] = [
      { id: "s1", content: "安排", doneWhen: "", status: "done", summary: "not carried out: 没有匹配的任务" },
      { id: "s2", content: "核对", doneWhen: "", status: "failed", reason: sayReport("en", "cancelledBatch") },
    ];
    const report = buildTaskReport(
      { goal: "安排", planSteps: steps, lastError: null, messages: [], taskStartMessageId: null },
      undefined,
      undefined,
    );
    expect(report.outcome).toEqual(judgeOutcome(steps, null));
    expect(report.outcome.reason).toBe(`1 of 2 step(s) done; step "核对" failed: ${sayReport("en", "cancelledBatch")}`);
    expect(report.outcome.reason).toBe(sayOutcomeReason(report.said!, "en"));
    const unchanged = unchangedJudged(
      { record: report.outcome, said: report.said! },
      steps,
      { readOnlyPlan: false, runMode: null },
      { applied: 0, declined: 0 },
    );
    expect(unchanged.record.kind).toBe("failed");
    expect(unchanged.record.reason).toBe(sayOutcomeReason(unchanged.said, "en"));
    expect(sayOutcomeReason(unchanged.said, "zh")).toBe(
      "没有任何修改：完成了 2 个步骤中的 1 个；步骤“核对”失败：应用已批准的修改时，这次运行被取消了",
    );
  });
});

describe("the factual answer, said in the user's language", () => {
  const SAID: OutcomeReason = {
    key: "someDone",
    done: 1,
    total: 3,
    why: { key: "stepFailed", step: "核对日程", reason: null },
  };
  const report: TaskReport = {
    goal: "安排我这周的复习",
    planSteps: [
      { id: "s1", content: "放进空闲时段", doneWhen: "", status: "done", summary: "已安排 3 项" },
      { id: "s2", content: "核对日程", doneWhen: "", status: "failed", reason: sayReport("en", "cancelledBatch") },
      { id: "s3", content: "总结", doneWhen: "", status: "pending" },
    ],
    outcome: { kind: "partial", reason: sayOutcomeReason(SAID, "en") },
    said: SAID,
    stillOpen: [
      { id: "derivative-drills", name: "导数练习", why: WHY_OPEN.declined },
      { id: "binary-tree", name: "二叉树复习", why: WHY_OPEN.fitsRefused },
    ],
    lastError: sayReport("en", "taskStopped", { why: sayReport("en", "cancelledBatch") }),
    writes: {
      applied: ["甲", "乙", "丙", "丁", "戊", "己", "庚"].map((summary, index) => ({
        id: `w${index}`,
        name: "place",
        summary,
      })),
      approvedNotApplied: [{ id: "w9", name: "place", summary: "辛" }],
    },
  };

  test("the Chinese answer has none of the report's English, and is what reading the English back gives", () => {
    const zh = mechanicalSummary(report, "zh");
    expect(english(zh)).toEqual([]);
    expect(zh).toContain("结果：部分完成，未全部完成 — 完成了 3 个步骤中的 1 个；步骤“核对日程”失败：没有给出原因");
    expect(zh).toContain("2. [失败] 核对日程 — 失败：应用已批准的修改时，这次运行被取消了");
    expect(zh).toContain("已应用的修改（保留）：7 — 甲; 乙; 丙; 丁; 戊 等（另有 2 项）");
    expect(zh).toContain("备注：任务已停止：应用已批准的修改时，这次运行被取消了。");
    const english_ = mechanicalSummary(report);
    expect(factsInLanguage(english_, "zh")).toBe(zh);
  });

  test("/state says the stored reason in the user's language, read back against the table", () => {
    const state = (outcome: ExecutionState["outcome"]): ExecutionState => ({
      sessionId: "t",
      userId: "u",
      goal: "安排复习",
      status: "failed",
      planId: "",
      steps: [],
      currentStepId: null,
      observations: [],
      finalAnswer: null,
      outcome,
      lastError: sayReport("en", "roundBudgetSpent", { rounds: 9 }),
      updatedAt: "",
      workflowVersion: "",
      runMode: null,
      optimization: null,
    });
    for (const said of REASONS) {
      const shown = renderExecutionState(state({ kind: "failed", reason: sayOutcomeReason(said, "en") }), "zh");
      expect(shown).toContain(` — ${sayOutcomeReason(said, "zh")}`);
      expect(shown).toContain("计划完成之前，9 轮的预算已经用完。");
    }
  });
});
