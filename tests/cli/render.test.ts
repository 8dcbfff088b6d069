/** The chat's look: cards, stream lines, and the /state, /history and /threads output. */
import { describe, expect, test } from "vitest";
import type { ExecutionState, StepSnapshot } from "../../server/execution-state.js";
import type { PlanStep } from "../../kernel/state.js";
import { batchInterrupt, planInterrupt, questionInterrupt, toolInterrupt } from "../../review/interrupt-cards.js";
import { choicesOf, readCardReply } from "../../cli/card-answer.js";
import { renderExecutionState, renderStepSnapshots, renderThreads } from "../../cli/render-state.js";
import { cardPrompt, renderCard, renderError } from "../../cli/render.js";
import type { Card } from "../../contracts/cards.js";
import { StreamPrinter } from "../../cli/stream-printer.js";
import { InvalidResumeError, ModelNotFoundError } from "../../errors/index.js";

const PLAN: PlanStep[] = [
  { id: "step-1", content: "Read the notes", doneWhen: "the notes are known", status: "done", summary: "2 notes" },
  { id: "step-2", content: "Add the note", doneWhen: "list_notes shows it", status: "running" },
];
const PLAN_CARD = planInterrupt("Add a note", PLAN);
const TOOL_CARD = toolInterrupt({
  id: "call-1",
  name: "add_note",
  arguments: { text: "call mom" },
  summary: 'add_note {"text":"call mom"}',
  reason: "the user asked",
});
const QUESTION_CARD = questionInterrupt("What should the note say?");
const TOOL_WITH_STEP = toolInterrupt(
  {
    id: "call-1",
    name: "add_note",
    arguments: { text: "call mom" },
    summary: 'add_note {"text":"call mom"}',
    reason: "the user asked",
  },
  { index: 2, total: 2, content: "Add the note" },
);

describe("cards", () => {
  test("the plan is a numbered card with each step's done-when and the four choices", () => {
    expect(renderCard(PLAN_CARD)).toBe(
      [
        "┌─ Plan",
        "│ Plan for: Add a note",
        "│ 1. Read the notes",
        "│    done when: the notes are known",
        "│ 2. Add the note",
        "│    done when: list_notes shows it",
        "└─ a approve / e edit the steps / r reject with feedback / i ignore (reject without)",
      ].join("\n"),
    );
    expect(cardPrompt(PLAN_CARD)).toBe("choice> ");
  });

  test("a write tool shows what it does, the reason, where execution stands and its arguments", () => {
    expect(renderCard(TOOL_WITH_STEP, { verbose: true })).toBe(
      [
        "┌─ Confirm write: add_note",
        '│ add_note {"text":"call mom"}',
        "│ Why: the user asked",
        "│ Step 2 of 2: Add the note",
        '│ arguments: {"text":"call mom"}',
        "└─ a approve / e edit the arguments / r reject with feedback / i ignore (reject without)",
      ].join("\n"),
    );
  });

  test("a batch card lists each change with its arguments, then why and where the plan stands", () => {
    const note = (index: number, text: string) => ({
      id: `call-${index}`,
      name: "add_note",
      arguments: { text },
      summary: `add_note ${text}`,
      reason: "the user asked",
    });
    const card = batchInterrupt([note(1, "call mom"), note(2, "buy milk")], {
      index: 2,
      total: 2,
      content: "Add the notes",
    });
    expect(renderCard(card, { verbose: true })).toBe(
      [
        "┌─ Confirm 2 writes",
        "│ 2 changes proposed together:",
        "│ 1. add_note call mom",
        '│    arguments: {"text":"call mom"}',
        "│ 2. add_note buy milk",
        '│    arguments: {"text":"buy milk"}',
        "│ Why: the user asked",
        "│ Step 2 of 2: Add the notes",
        "└─ a accept all / r reject all with feedback / i ignore all (reject without) — or one letter per change, in order: a / e edit / r reject with feedback / i ignore (e.g. a r)",
      ].join("\n"),
    );
  });

  test("a question takes a typed answer", () => {
    expect(renderCard(QUESTION_CARD)).toBe(
      ["┌─ Question", "│ What should the note say?", "└─ type your answer"].join("\n"),
    );
    expect(cardPrompt(QUESTION_CARD)).toBe("answer> ");
  });

  test("choices follow what the card allows", () => {
    const config = { ...TOOL_CARD.review_configs[0]!, allowed_decisions: ["approve" as const] };
    const approveOnly: Card = { ...TOOL_CARD, review_configs: [config] };
    expect(choicesOf(approveOnly)).toBe("a approve");
    expect(readCardReply("e", approveOnly)).toEqual({
      kind: "invalid",
      message: "Answer with a approve (or a /command).",
    });
  });
});

describe("stream lines", () => {
  test("assistant chunks join into one line per message; other events are lines of their own; cards are not printed", () => {
    const printer = new StreamPrinter({ verbose: true });
    const text = [
      printer.print({ kind: "status", node: "chat", text: "Planning" }),
      printer.print({ kind: "assistant_text", node: "plan", messageId: "m1", text: "Here is " }),
      printer.print({ kind: "assistant_text", node: "plan", messageId: "m1", text: "the plan." }),
      printer.print({ kind: "assistant_text", node: "plan", messageId: "m2", text: "Next." }),
      printer.print({ kind: "tool_call", node: "execute", id: "c1", name: "list_notes", arguments: {} }),
      printer.print({
        kind: "tool_result",
        node: "execute",
        id: "c1",
        name: "list_notes",
        ok: true,
        content: "1. buy milk\n2. call mom",
      }),
      printer.print({
        kind: "tool_result",
        node: "confirm",
        id: "c2",
        name: "add_note",
        ok: false,
        content: "Not applied",
      }),
      printer.print({ kind: "confirm_request", node: "plan", interrupt: PLAN_CARD }),
      printer.print({ kind: "assistant_text", node: "deliver", messageId: "m3", text: "Done." }),
      printer.close(),
    ].join("");
    expect(text).toBe(
      [
        "  · Planning",
        "tempo> Here is the plan.",
        "tempo> Next.",
        "  → list_notes {}",
        "  ← 1. buy milk …",
        "  ✗ Not applied",
        "tempo> Done.",
        "",
      ].join("\n"),
    );
  });

  test("a model's reasoning is a block of its own, closing an open answer line; a waiting status is a status line", () => {
    const printer = new StreamPrinter({ verbose: true });
    const text = [
      printer.print({ kind: "assistant_text", node: "plan", messageId: "m1", text: "Planning." }),
      printer.print({ kind: "status", node: "execute", text: "Waiting for the execute model… 6 s", elapsedMs: 6010 }),
      printer.print({ kind: "reasoning", node: "execute", text: "The week has room on Monday.\nPlace it there." }),
      printer.print({ kind: "assistant_text", node: "execute", messageId: "m2", text: "Placing it." }),
      printer.close(),
    ].join("");
    expect(text).toBe(
      [
        "tempo> Planning.",
        "  · Waiting for the execute model… 6 s",
        "  ┆ reasoning",
        "  ┆ The week has room on Monday.",
        "  ┆ Place it there.",
        "tempo> Placing it.",
        "",
      ].join("\n"),
    );
  });

  test("errors show their code", () => {
    expect(renderError(new InvalidResumeError("Expected a response."))).toBe(
      "error: [INVALID_RESUME] Expected a response.",
    );
    expect(
      renderError(
        new ModelNotFoundError({ stage: "plan", model: "qwen3", baseUrl: "http://localhost:8000/v1" }, "no such model"),
      ),
    ).toMatch(
      /^error: \[MODEL_NOT_FOUND\] The plan model "qwen3" was not found at http:\/\/localhost:8000\/v1 \(HTTP 404: no such model\)\./,
    );
    expect(renderError("boom")).toBe("error: boom");
  });
});

describe("state, history and threads", () => {
  const state: ExecutionState = {
    sessionId: "t1",
    userId: "alice",
    goal: "Add a note",
    status: "running",
    planId: "plan-abc",
    steps: PLAN,
    currentStepId: "step-2",
    observations: [
      { kind: "tool", toolCallId: "c1", tool: "list_notes", arguments: {}, result: "1. buy milk" },
      { kind: "user_reply", question: "Which note?", answer: "call mom", at: "2026-01-01T00:00:00.000Z" },
    ],
    finalAnswer: null,
    outcome: null,
    lastError: null,
    updatedAt: "2026-01-01T00:00:00.000Z",
    workflowVersion: "graph@1/notes@1",
    runMode: null,
    optimization: null,
  };

  test("/state lists the plan with statuses, the current step, tool calls and replies", () => {
    expect(renderExecutionState(state)).toBe(
      [
        "thread:  t1 (user alice)",
        "status:  running",
        "goal:    Add a note",
        "plan:    plan-abc",
        "  1. [done] Read the notes",
        "     2 notes",
        "  2. [running] Add the note  ← current",
        "tools:   1 call(s); last: list_notes → 1. buy milk",
        "asked:   Which note? → call mom",
        "updated: 2026-01-01T00:00:00.000Z",
        "version: graph@1/notes@1",
      ].join("\n"),
    );
  });

  test("/state of an ended task says how it ended and what was still open", () => {
    const ended: ExecutionState = {
      ...state,
      status: "partial",
      currentStepId: null,
      outcome: {
        kind: "partial",
        reason: "every step finished, but 1 item(s) are still pending: Calculus",
        stillOpen: [{ id: "rev-1", name: "Calculus", why: "you declined the proposed change" }],
      },
      finalAnswer: "Placed one; Calculus is still pending.",
    };
    const text = renderExecutionState(ended);
    expect(text).toContain(
      "ended:   partial — every step finished, but 1 item(s) are still pending: Calculus\n  still open: Calculus (rev-1) — you declined the proposed change\nanswer:  Placed one;",
    );
  });

  test("/state for a Chinese user: the report's reasons and the tools' words in Chinese, as the chat says them", () => {
    const stopped: ExecutionState = {
      ...state,
      status: "failed",
      currentStepId: null,
      steps: [{ ...PLAN[0]!, summary: "undid the last change: placed task rev-1 on day 2 slots 7-8" }],
      observations: [
        {
          kind: "tool",
          toolCallId: "c9",
          tool: "place",
          arguments: {},
          result: "Not applied: the run was cancelled before this change was made.",
        },
      ],
      outcome: {
        kind: "failed",
        reason: "every step finished, but 1 item(s) are still pending: Calculus",
        stillOpen: [
          { id: "rev-1", name: "Calculus", why: "it fits as the week stands, but this task did not place it" },
        ],
      },
      lastError: "The task stopped: the run was cancelled while it applied the approved changes.",
    };
    const words = { summary: (text: string) => `«${text}»`, result: (text: string) => `«${text}»` };
    const text = renderExecutionState(stopped, "zh", words);
    expect(text).toContain("     «undid the last change: placed task rev-1 on day 2 slots 7-8»");
    expect(text).toContain("最后一次：«Not applied: the run was cancelled before this change was made.»");
    expect(text).toContain("结束：  失败 — 每个步骤都完成了，但还有 1 项未完成：Calculus");
    expect(text).toContain("仍未完成：Calculus (rev-1) — 按目前的日程放得下，但这次任务没有安排它");
    expect(text).toContain("错误：  任务已停止：应用已批准的修改时，这次运行被取消了。");
    // In English, as the thread keeps it.
    expect(renderExecutionState(stopped, "en", words)).toContain(
      "last: place → Not applied: the run was cancelled before this change was made.",
    );
  });

  test("/history prints one line per step snapshot, or says there are none", () => {
    const snapshot: StepSnapshot = {
      checkpointId: "ck-1",
      stepId: "step-2",
      status: "running",
      createdAt: "2026-01-01T00:00:01.000Z",
      state,
    };
    expect(renderStepSnapshots([snapshot])).toBe(
      [
        "1 step snapshot(s), oldest first:",
        "  2026-01-01T00:00:01.000Z  step 2 of 2 → running  (thread running; checkpoint ck-1)",
      ].join("\n"),
    );
    expect(renderStepSnapshots([])).toMatch(/^No step snapshots on this thread yet/);
  });

  test("/threads marks the current thread and shows what each waits for", () => {
    const text = renderThreads(
      [
        {
          threadId: "t2",
          userId: "alice",
          lastMessage: "Arrange my week",
          updatedAt: "2026-01-02T00:00:00.000Z",
          waitingFor: "place",
        },
        { threadId: "t1", userId: "alice", lastMessage: "", updatedAt: "2026-01-01T00:00:00.000Z", waitingFor: null },
      ],
      "t1",
      "alice",
    );
    expect(text).toBe(
      [
        "Threads of alice (newest first; /resume <thread> to switch):",
        '  t2  2026-01-02T00:00:00.000Z  waiting: place  "Arrange my week"',
        "* t1  2026-01-01T00:00:00.000Z",
      ].join("\n"),
    );
    expect(renderThreads([], "t1", "alice")).toBe("No threads of alice seen by this CLI yet.");
  });
});
