import { describe, expect, test } from "vitest";
import { isLiveData, mergeTaskState, sanitizeTaskState, EMPTY_TASK_STATE } from "../../memory/task-state.js";

// What TaskState is for, and what it must never hold (docs/design.md#taskstate).
const GOOD_FITS = [
  "Prepare for the calculus midterm on Saturday",
  "The user wants review sessions spread over the whole week",
  "The user prefers morning study sessions",
  "Chose to skip English reviews this week because of the essay deadline",
];
const BAD_FITS = [
  "wait for API key",
  "call get_exchange_configs",
  "Account balance is 1,204 USDT",
  "Current positions: 2 BTC long",
  "BTC price is 64,000",
  "The exchange is configured",
  "Model config is not configured yet",
  "day 3 slots 5-6 are free",
  "Currently 4 review tasks are pending",
  "Then call place for the next task",
];

describe("TaskState holds durable context only", () => {
  test.each(GOOD_FITS)("keeps: %s", (text) => {
    expect(isLiveData(text)).toBe(false);
  });
  test.each(BAD_FITS)("rejects: %s", (text) => {
    expect(isLiveData(text)).toBe(true);
  });

  test("sanitising drops every bad fit from every field and keeps the good ones", () => {
    const state = sanitizeTaskState({
      currentGoal: "Account balance is 1,204 USDT",
      activeFlow: "weekly review planning",
      openLoops: [...BAD_FITS.slice(0, 3), GOOD_FITS[0]!],
      importantFacts: [...BAD_FITS.slice(3), ...GOOD_FITS.slice(1)],
      lastDecision: GOOD_FITS[3]!,
      updatedAt: "t",
    });
    expect(state).toEqual({
      currentGoal: "",
      activeFlow: "weekly review planning",
      openLoops: [GOOD_FITS[0]],
      importantFacts: GOOD_FITS.slice(1),
      lastDecision: GOOD_FITS[3],
      updatedAt: "t",
    });
  });

  test("merging appends lists without duplicates and replaces scalars only when given", () => {
    const first = mergeTaskState(
      EMPTY_TASK_STATE,
      { currentGoal: "Pass calculus", importantFacts: ["The user prefers mornings"] },
      "t1",
    );
    const second = mergeTaskState(
      first,
      {
        importantFacts: ["The user prefers mornings", "The user studies in the library"],
        lastDecision: "Reviews go before lectures",
      },
      "t2",
    );
    expect(second).toEqual({
      currentGoal: "Pass calculus",
      activeFlow: "",
      openLoops: [],
      importantFacts: ["The user prefers mornings", "The user studies in the library"],
      lastDecision: "Reviews go before lectures",
      updatedAt: "t2",
    });
  });
});
