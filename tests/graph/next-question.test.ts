/**
 * "What's next?" with the clock moving through the sample week (Mon 11 – Sun 17 Mar 2024, Shanghai): what is on now,
 * the next thing that has not started, and the next review — answered from the days ahead, never from the past.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The answer to `said` with the clock at `at` on the half-placed sample week (matrix review Tue 10:00, …). */
async function answerAt(at: string, said: string): Promise<string> {
  const tempo = await offlineTempo(halfPlacedWeek(), () => new Date(at));
  const outcome = await converse(tempo, said, [], `next-${at}`);
  // A read: no card, nothing changed.
  expect(outcome.cards).toEqual([]);
  expect(outcome.schedule).toEqual(halfPlacedWeek());
  return outcome.finalAnswer ?? "";
}

describe("what comes next", () => {
  test("said as people say it, it is one question, not a task named 'next'", () => {
    // Before, "what's next?" asked to explain a task named "next", and the step asked which task that was.
    for (const said of [
      "what's next?",
      "What should I study now?",
      "When's my next review?",
      "接下来做什么",
      "下一个复习是什么时候",
      // Before, "接下来是什么" / "下一个是什么" asked to explain a task named "接下来" / "下一个", and "接下来呢" was
      // not understood.
      "接下来是什么",
      "接下来是什么？",
      "接下来呢",
      "下一个是什么",
    ])
      expect(parseScheduleRequest(said), said).toEqual({ kind: "next" });
    expect(parseScheduleRequest("what's next week look like?").kind).not.toBe("next");
  });

  test("the next class asked for is the same question, not a task named 'next class'", async () => {
    // Before, each asked to explain a task named "next class" / "下一节课", then which task that was.
    for (const said of [
      "what's my next class",
      "When is my next lecture?",
      "whats my next lesson",
      "which class do I have next?",
      "下一节课是什么",
      "下节课几点",
      "我的下一节课在什么时候？",
    ])
      expect(parseScheduleRequest(said), said).toEqual({ kind: "next" });
    // Said as a limit of another request, it is not the question.
    expect(parseScheduleRequest("下节课之前安排链表习题").kind).not.toBe("next");
    expect(await answerAt("2024-03-13T09:00:00+08:00", "what's my next class")).toMatch(
      /^Now: Calculus lecture \(Wed 13 Mar, 08:00–09:40\)\. Next: English listening \(Wed 13 Mar, 14:00–15:40\)\./,
    );
  });

  test("during a lecture: it now, the review after it next", async () => {
    expect(await answerAt("2024-03-12T09:00:00+08:00", "what's next?")).toBe(
      "Now: Linear Algebra lecture (Tue 12 Mar, 08:00–09:40). Next: Matrix operations review (Tue 12 Mar, 10:00–11:40).",
    );
  });

  test("during a review: the next event, then the next review apart", async () => {
    const answer = await answerAt("2024-03-12T10:30:00+08:00", "what's next?");
    expect(answer).toMatch(/^Now: Matrix operations review \(Tue 12 Mar, 10:00–11:40\)\. Next: /);
    expect(answer).toMatch(/Your next review: Vocabulary list unit 5 \(Thu 14 Mar, 08:00–08:45\)\.$/);
  });

  test("after the last review of the week: none is named, the past never is", async () => {
    const answer = await answerAt("2024-03-16T12:00:00+08:00", "what should I study now?");
    expect(answer).toMatch(/No review is placed from now through Sun 17 Mar\.$/);
    expect(answer).not.toContain("Draft the English essay");
  });

  test("in Chinese", async () => {
    expect(await answerAt("2024-03-12T09:00:00+08:00", "接下来做什么")).toMatch(
      /^现在：.*接下来：Matrix operations review（3月12日周二，10:00–11:40）。$/,
    );
  });

  test("'why is X there?' asks about a task's place: answered as the task's explanation", async () => {
    // Before, each of these was not understood ("I can't tell what to do"); a pronoun or no place word stays so.
    for (const [said, task] of [
      ["why is the matrix review there?", "matrix review"],
      ["Why did you put the matrix review on Tuesday?", "matrix review"],
      ["为什么矩阵复习放在那里", "矩阵复习"],
      ["为什么矩阵复习在周二", "矩阵复习"],
    ] as const)
      expect(parseScheduleRequest(said), said).toEqual({ kind: "explain", task });
    expect(parseScheduleRequest("why is it there?").kind).toBe("unknown");
    expect(parseScheduleRequest("why is my week so full?").kind).toBe("unknown");
    expect(await answerAt("2024-03-12T08:00:00+08:00", "why is the matrix review there?")).toMatch(
      /^"Matrix operations review" is a study task in the class .*placed on Tue 12 Mar, 10:00–11:40/,
    );
  });
});
