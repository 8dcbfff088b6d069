/** The honest answer: the report of a task's real outcome, and the check of a model's phrasing against it. */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { PlanStep } from "../../kernel/state.js";
import { buildTaskReport, judgeOutcome, mechanicalSummary, overclaim } from "../../nodes/deliver/task-report.js";

const step = (id: string, status: PlanStep["status"], extra: Partial<PlanStep> = {}): PlanStep => ({
  id,
  content: `Step ${id}`,
  doneWhen: "done",
  status,
  ...extra,
});
const open = [
  { id: "rev-1", name: "Calculus review 1" },
  { id: "rev-2", name: "English review 2" },
];

describe("judgeOutcome", () => {
  test.each([
    [[step("1", "done"), step("2", "skipped")], "completed"],
    [[step("1", "done"), step("2", "failed", { reason: "3 tool errors" })], "partial"],
    [[step("1", "done"), step("2", "pending")], "partial"],
    [[step("1", "failed", { reason: "budget" }), step("2", "pending")], "failed"],
    [[], "failed"],
  ] as Array<[PlanStep[], string]>)("steps %j → %s", (planSteps, kind) => {
    expect(judgeOutcome(planSteps, null).kind).toBe(kind);
  });
});

describe("buildTaskReport", () => {
  const messages = [
    new HumanMessage({ id: "start", content: "Arrange my reviews" }),
    new AIMessage({
      id: "a1",
      content: "Placing rev-1.",
      tool_calls: [{ id: "call-1", name: "place", args: { task_id: "rev-1" }, type: "tool_call" }],
    }),
    new ToolMessage({ id: "t1", content: "Not applied: the user rejected this change.", tool_call_id: "call-1" }),
  ];
  const base = {
    goal: "Arrange my reviews",
    planSteps: [step("1", "done")],
    lastError: null,
    messages,
    taskStartMessageId: "start",
  };

  test("items the task named and left open make a completed task partial, each with why; the outcome records them", () => {
    const report = buildTaskReport(base, open, open);
    const stillOpen = [{ id: "rev-1", name: "Calculus review 1", why: "you declined the proposed change" }];
    expect(report.outcome).toEqual({
      kind: "partial",
      reason: "every step finished, but 1 item(s) are still pending: Calculus review 1",
      stillOpen,
    });
    expect(report.stillOpen).toEqual([
      { id: "rev-1", name: "Calculus review 1", why: "you declined the proposed change" },
    ]);
  });

  test("an item whose write the tool refused is open with the tool's reason, not as one the task did not get to", () => {
    const reason =
      'error: cannot place "Calculus review 1" (duration 1): "Review 4" keeps 2 free slot(s) around it (its class "Calculus"), ' +
      "but it is at day 1 slot 3, and the rest of this long reason goes on well past what one line of an answer holds";
    const refused = [
      messages[0]!,
      new AIMessage({
        id: "a1",
        content: "Placing rev-1.",
        tool_calls: [
          { id: "call-1", name: "place", args: { task_id: "rev-1", day: 1, slot_start: 4 }, type: "tool_call" },
        ],
      }),
      new ToolMessage({ id: "t1", content: reason, tool_call_id: "call-1" }),
    ];
    const report = buildTaskReport({ ...base, messages: refused }, open, open);
    const why = report.stillOpen[0]?.why ?? "";
    expect(why).toMatch(
      /^a change to it was refused: cannot place "Calculus review 1" \(duration 1\): "Review 4" keeps 2/,
    );
    expect(why.length).toBeLessThanOrEqual("a change to it was refused: ".length + 200);
    expect(why.endsWith("…")).toBe(true);
    // A write on another item that failed says nothing of this one.
    const other = buildTaskReport(
      {
        ...base,
        messages: [refused[0]!, refused[1]!, new ToolMessage({ id: "t1", content: reason, tool_call_id: "call-9" })],
      },
      open,
      open,
    );
    expect(other.stillOpen[0]?.why).toBe("this task did not get to it");
  });

  test("when the task closed some items, every item still open is reported; unrelated items of an untouched domain are not", () => {
    expect(
      buildTaskReport(base, [open[1]!], [...open, { id: "rev-3", name: "Data review" }]).stillOpen.map(
        (item) => item.id,
      ),
    ).toEqual(["rev-2"]);
    const unrelated = buildTaskReport({ ...base, goal: "Move the lab", messages: [messages[0]!] }, open, open);
    expect(unrelated.stillOpen).toEqual([]);
    expect(unrelated.outcome).toEqual({ kind: "completed", reason: "all 1 step(s) done" });
  });

  test("a task asked for one item by name is about that item: closing it says nothing of the others", () => {
    // "put back the matrix review": the search is asked for it (a read's selection), the write places it, and an
    // unrelated review pending elsewhere in the week keeps the task from nothing.
    const putBack = [
      new HumanMessage({ id: "start", content: "put back the matrix review" }),
      new AIMessage({
        id: "a1",
        content: "",
        tool_calls: [{ id: "call-1", name: "propose_arrangement", args: { task_ids: ["rev-1"] }, type: "tool_call" }],
      }),
      new ToolMessage({ id: "t1", content: "1 placement proposed", tool_call_id: "call-1" }),
      new AIMessage({
        id: "a2",
        content: "",
        tool_calls: [{ id: "call-2", name: "place", args: { task_id: "rev-1", day: 4 }, type: "tool_call" }],
      }),
      new ToolMessage({
        id: "t2",
        content: "placed rev-1",
        tool_call_id: "call-2",
        artifact: { outcome: "applied" },
      }),
    ];
    const report = buildTaskReport(
      { ...base, goal: "put back the matrix review", messages: putBack },
      [open[1]!],
      open,
    );
    expect(report.stillOpen).toEqual([]);
    expect(report.outcome).toEqual({ kind: "completed", reason: "all 1 step(s) done" });
    // Without the selection (arranging "my reviews"), the write alone names what it closed: the whole week is judged.
    const arranged = buildTaskReport(
      { ...base, goal: "arrange my reviews", messages: [putBack[0]!, putBack[3]!, putBack[4]!] },
      [open[1]!],
      open,
    );
    expect(arranged.stillOpen.map((item) => item.id)).toEqual(["rev-2"]);
    expect(arranged.outcome.kind).toBe("partial");
  });

  test("a task that quotes a short name of one item is about that item: marking it done says nothing of the others", () => {
    // "I did the calculus review": the plan quotes the student's words, the mark names the task by its id only.
    const marked = [
      new HumanMessage({ id: "start", content: "I did the calculus review" }),
      new AIMessage({
        id: "a1",
        content: "",
        tool_calls: [
          { id: "call-1", name: "mark_task", args: { task_id: "rev-1", status: "done" }, type: "tool_call" },
        ],
      }),
      new ToolMessage({ id: "t1", content: "marked", tool_call_id: "call-1", artifact: { outcome: "applied" } }),
    ];
    const asked = (content: string) =>
      buildTaskReport(
        { ...base, goal: "I did the calculus review", messages: marked, planSteps: [step("1", "done", { content })] },
        [open[1]!],
        open,
      );
    const quoted = asked('Mark "calculus review" done');
    expect(quoted.stillOpen).toEqual([]);
    expect(quoted.outcome.kind).toBe("completed");
    // A quoted phrase with a word the name lacks asks for nothing: the whole week is judged, as before.
    const other = asked('Mark "calculus homework" done');
    expect(other.stillOpen.map((item) => item.id)).toEqual(["rev-2"]);
    expect(other.outcome.kind).toBe("partial");
  });

  test("the factual summary tells the outcome, each step and what is still pending", () => {
    expect(mechanicalSummary(buildTaskReport(base, open, open))).toBe(
      [
        "Task: Arrange my reviews",
        "Outcome: partial — every step finished, but 1 item(s) are still pending: Calculus review 1",
        "Finished 1 of 1 steps:",
        "1. [done] Step 1",
        "Still pending: Calculus review 1 (rev-1) — you declined the proposed change",
        // A blank line between paragraphs: Markdown front ends keep them apart.
      ].join("\n\n"),
    );
  });

  test("a step's reason beside an item's id is read whole, brackets of its own and all", () => {
    const reason = "no free slot fits in what is left of the week (the rest has passed)";
    const report = buildTaskReport(
      {
        ...base,
        messages: [messages[0]!],
        planSteps: [step("1", "done", { summary: `left pending: rev-1 (${reason}); rev-2 (its deadline has passed)` })],
      },
      open,
      open,
    );
    expect(report.stillOpen.map((item) => item.why)).toEqual([reason, "its deadline has passed"]);
  });
});

describe("overclaim", () => {
  const report = buildTaskReport(
    { goal: "Arrange", planSteps: [step("1", "done")], lastError: null, messages: [], taskStartMessageId: null },
    open,
    [...open, { id: "rev-9", name: "Closed one" }],
  );

  test.each([
    ["Your review week is arranged.", "it claims full success, but the task is partial"],
    ["全部完成！", "it claims full success, but the task is partial"],
    ["I placed the reviews you accepted.", "it does not say what was left (the task is partial)"],
    [
      "Most reviews are placed; Calculus review 1 is still pending.",
      "it does not name what is still pending: English review 2",
    ],
    ["Placed most reviews; Calculus review 1 and rev-2 are still pending.", ""],
  ])("%s → %s", (text, problem) => {
    expect(overclaim(text, report)).toBe(problem);
  });

  test("a completed task may be phrased freely", () => {
    expect(overclaim("All done!", { ...report, outcome: { kind: "completed", reason: "" }, stillOpen: [] })).toBe("");
  });
});

describe("the answer as Markdown shows it", () => {
  test("plain lines are parted by a blank line (Markdown would join them); list items stay one to a line; no run of blank lines", async () => {
    const { withParagraphBreaks } = await import("../../nodes/deliver/index.js");
    const text =
      "Your review week is partly arranged.\n- [done] Place — placed 7\n- [done] Verify\nWhere things are now: A — Mon; and 2 more.\nStill pending: B (b) — you declined the proposed change\n\n\nNote: x";
    expect(withParagraphBreaks(text)).toBe(
      "Your review week is partly arranged.\n- [done] Place — placed 7\n- [done] Verify\n\nWhere things are now: A — Mon; and 2 more.\n\nStill pending: B (b) — you declined the proposed change\n\nNote: x",
    );
    expect(withParagraphBreaks(withParagraphBreaks(text))).toBe(withParagraphBreaks(text));
  });
});
