/**
 * "How many reviews are left?" with the clock moving day by day across a week and the roll into the next: the answer
 * lists exactly the reviews not done or skipped — pending, placed (past ones the student has not marked too) and, after
 * the roll, missed — as the stored week holds them. The oracle reads the repository's task items and their statuses
 * alone: no parsing, listing or wording code of the policy.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The reviews still to do in `week`, by name: the oracle. */
function stillToDo(week: ScheduleState): string[] {
  return week.tasks
    .filter((task): task is TaskItem => task.source === "task_item")
    .filter((task) => task.status !== "done" && task.status !== "skipped")
    .map((task) => task.name)
    .sort();
}

/** The names an answer lists, one "- name, …" / "- name，…" line each. */
function listedNames(answer: string): string[] {
  return answer
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2).split(/[,，]/)[0]!.trim())
    .sort();
}

/** Mon 11 Mar 2024 (the sample week's Monday) … Tue 19 Mar, at 20:00 in Shanghai: the week half over, then rolled. */
const DAYS = [11, 12, 13, 14, 15, 16, 17, 18, 19].map(
  (day) => `2024-03-${String(day).padStart(2, "0")}T20:00:00+08:00`,
);

describe("what is still to do, the clock moving day by day", () => {
  test("each evening the answer names exactly the reviews the stored week holds not done or skipped", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const seen: string[] = [];
    for (const [index, now] of DAYS.entries()) {
      const at = { now };
      // On the way, one review is done (Tuesday) and one skipped (Wednesday): both leave the list for good.
      if (index === 1) await converse(tempo, "I did the matrix review", [], `mark-${index}`, "student", at);
      if (index === 2) await converse(tempo, "skip the vocabulary list this week", [], `skip-${index}`, "student", at);
      const question = index % 2 === 0 ? "how many reviews are left?" : "我这周还有几个复习没做？";
      const asked = await converse(tempo, question, [], `ask-${index}`, "student", at);
      expect(asked.cards, `${now}: a question raises no card`).toEqual([]);
      const expected = stillToDo(await tempo.repository.load("student"));
      const answer = asked.finalAnswer ?? "";
      expect(listedNames(answer), `${now}: ${answer}`).toEqual(expected);
      // The listing's heading (after the roll's notice, on the day it rolls) counts them.
      const lines = answer.split("\n");
      const heading = lines[lines.findIndex((line) => line.startsWith("- ")) - 1] ?? "";
      const count = Number(/^(\d+)/.exec(heading)?.[1]);
      expect(count, `${now}: the heading's count`).toBe(expected.length);
      seen.push(...expected);
    }
    // The sweep saw the marks take effect, and the week roll turned the past unmarked reviews into missed ones.
    const last = await tempo.repository.load("student");
    expect(stillToDo(last)).not.toContain("Matrix operations review");
    expect(stillToDo(last)).not.toContain("Vocabulary list unit 5");
    expect(seen).toContain("Matrix operations review");
    expect(last.tasks.some((task) => task.source === "task_item" && task.status === "missed")).toBe(true);
  });
});
