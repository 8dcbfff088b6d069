/**
 * A name the model writes in a tool's arguments (a task's, a class's, a habit's, a to-do's) is held to the rule a
 * calendar file's names are made to (`plainEventName`): plain text on one line. A bidi override, a control character
 * or zero-width spam is a tool error the model can correct (naming the character and where), never a name on the card
 * that reads otherwise than it applies; a joiner inside an emoji or a Persian word is text. Names saved before still
 * load as they were.
 */
import { describe, expect, test } from "vitest";
import { checkToolArguments } from "../../tools/runner.js";
import { addHabitTool } from "../../tools/schedule/tools/habits.js";
import { addTaskTool, updateTaskTool } from "../../tools/schedule/tools/task-items.js";
import { upsertTaskClassTool } from "../../tools/schedule/tools/task-classes.js";
import { parseScheduleState } from "../../tools/schedule/validation.js";
import { emptyScheduleState } from "../../tools/schedule/state.js";
import { addTodoTool } from "../../tools/todo/tools.js";
import { parseTodoState } from "../../tools/todo/state.js";
import type { DomainTool } from "../../tools/domain.js";

const HOSTILE: Array<[string, RegExp]> = [
  ["Review \u202egnippam\u202c", /holds U\+202E \(a bidi control\) at character 8/],
  ["\u2066Calculus\u2069", /holds U\+2066 \(a bidi control\) at character 1/],
  ["Exam\u200b\u200b\u200b\u200b prep", /holds U\+200B \(an invisible character\) at character 5/],
  ["Linear\u200dalgebra\u200d\u200d", /holds U\+200D \(an invisible character\) at character 15/],
  ["Review\nIgnore the above", /holds U\+000A \(a control character or line break\) at character 7/],
  ["Review \u001b[31mred", /holds U\+001B \(a control character or line break\) at character 8/],
  ["Phy\ufeffsics", /holds U\+FEFF \(an invisible character\) at character 4/],
];

const TOOLS: Array<[DomainTool<never>, (name: string) => Record<string, unknown>]> = [
  [addTaskTool as DomainTool<never>, (name) => ({ name, class_id: "calculus", duration: 2 })],
  [updateTaskTool as DomainTool<never>, (name) => ({ task_id: "review-1", name })],
  [upsertTaskClassTool as DomainTool<never>, (name) => ({ name })],
  [addHabitTool as DomainTool<never>, (name) => ({ name, times_per_week: 3, duration: 1 })],
  [addTodoTool as DomainTool<never>, (title) => ({ title })],
];

describe("names the model writes", () => {
  test.each(TOOLS.map(([tool, args]) => [tool.name, tool, args] as const))(
    "%s refuses control, bidi and invisible characters in a name, naming the character",
    (name, tool, args) => {
      for (const [hostile, problem] of HOSTILE) {
        const check = checkToolArguments(tool as DomainTool<unknown>, args(hostile));
        expect(check.ok, JSON.stringify(hostile)).toBe(false);
        expect((check as { problem: string }).problem).toMatch(new RegExp(`^invalid arguments for ${name}: `));
        expect((check as { problem: string }).problem).toMatch(problem);
        expect((check as { problem: string }).problem).toMatch(
          /write it without control, bidi or invisible characters/,
        );
      }
      // Plain names pass, joiners inside emoji and words and non-Latin scripts included.
      for (const plain of [
        "Calculus review",
        "复习线性代数",
        "مرور ریاضی\u200cها",
        "Study 👩\u200d💻",
        "Café — ch. 3",
      ]) {
        const check = checkToolArguments(tool as DomainTool<unknown>, args(plain));
        expect(check, JSON.stringify(plain)).toMatchObject({ ok: true });
      }
    },
  );

  test("names saved before with such characters still load", () => {
    const week = emptyScheduleState();
    const saved = {
      ...week,
      categories: [{ id: "calculus", name: "Calc\u202eulus" }],
      tasks: [
        {
          id: "review-1",
          name: "Review\u200b\u200b 1",
          source: "task_item",
          duration: 1,
          categoryId: "calculus",
          status: "pending",
        },
      ],
    };
    expect(parseScheduleState(saved).tasks[0]!.name).toBe("Review\u200b\u200b 1");
    expect(parseScheduleState(saved).categories[0]!.name).toBe("Calc\u202eulus");
    expect(parseTodoState({ items: [{ id: "todo-1", title: "Buy\u2066 milk", done: false }] }).items[0]!.title).toBe(
      "Buy\u2066 milk",
    );
  });
});
