/**
 * "What do I have today?" / "when am I free today?" late in the day, on the offline policy with the run's clock
 * (`configurable.now`): time that has started is not offered as free (the place tools refuse it, and find_free leaves
 * it out), and a review whose time passed without being marked done is named so — one marked done is not.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Monday of the sample week (11 March 2024, Shanghai) at `time`. */
const monday = (time: string) => ({ now: new Date(`2024-03-11T${time}:00+08:00`).toISOString() });

/** The half-placed week (the limits review on Monday 14:00–15:40), that review marked done at 15:45 with `done`. */
function week(done = false) {
  const state = halfPlacedWeek();
  if (done)
    state.tasks = state.tasks.map((task) =>
      task.id === "review-limits"
        ? ({ ...task, status: "done", markedAt: "2024-03-11T15:45:00+08:00" } as TaskItem)
        : task,
    );
  return state;
}

/** The day's answer, line by line. */
async function today(done: boolean, time: string) {
  const tempo = await offlineTempo(week(done));
  const day = await converse(tempo, "what do I have today?", [], undefined, "student", monday(time));
  return { tempo, lines: (day.finalAnswer ?? "").split("\n") };
}

describe("today, once its time has passed", () => {
  test("at 23:59 no passed time is free, and the review not marked done is named", async () => {
    const { tempo, lines } = await today(false, "23:59");
    expect(lines.filter((line) => /: free$|free for embedding/.test(line))).toEqual([]);
    expect(lines).toContain("- 21:45–22:30: passed, no longer free");
    expect(lines).toContain("- 19:00–21:35: Evening self-study hall (embeddable)");
    expect(lines).toContain(
      "- 14:00–15:40: Review limits and continuity — its time has passed and it is not marked done",
    );

    const free = await converse(tempo, "when am I free today?", [], undefined, "student", monday("23:59"));
    expect(free.finalAnswer).toMatch(/^You have no free run of 1 slot\(s\) on Mon 11 Mar\./);
    expect(free.finalAnswer).toMatch(/Time that has already passed is not counted\.$/);
  });

  test("a review marked done is not named as unmarked", async () => {
    const { lines } = await today(true, "23:59");
    expect(lines).toContain("- 14:00–15:40: Review limits and continuity");
  });

  test("at noon the evening is still free", async () => {
    const { lines } = await today(false, "12:00");
    expect(lines).toContain("- 21:45–22:30: free");
    expect(lines).toContain("- 19:00–21:35: Evening self-study hall (embeddable), free for embedding");
    expect(lines).toContain("- 14:00–15:40: Review limits and continuity");
  });
});

describe("a review put on today once today's time has passed", () => {
  // Wednesday 13 March 2024, 23:50 in Shanghai: Wednesday's free time has all passed. The left-out reason said "no
  // free slot fits only on Wednesday", as if Wednesday had no room; it says the time that would fit it has passed.
  const lateWednesday = { now: new Date("2024-03-13T23:50:00+08:00").toISOString() };

  test.each([
    [
      "put the binary tree review today",
      false,
      '"Binary tree review" (no free slot fits only on Wednesday: the time there that would fit it has passed)',
    ],
    ["把二叉树复习安排在今天", true, '"二叉树复习"（只在周三：能容纳它的时间已经过去了）'],
  ])("%s: nothing placed, and it says the day's time has passed", async (request, chinese, reason) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request, [], undefined, "student", lateWednesday);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toContain(reason);
    const review = outcome.schedule.tasks.find((task) => task.id === "binary-tree-review");
    expect(review && "status" in review ? review.status : undefined).toBe("pending");
  });

  test("at noon the same request places it that day", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const noon = { now: new Date("2024-03-13T12:00:00+08:00").toISOString() };
    const outcome = await converse(tempo, "put the binary tree review today", [], undefined, "student", noon);
    expect(outcome.finalAnswer).not.toMatch(/has passed/);
    expect(outcome.schedule.tasks.find((task) => task.id === "binary-tree-review")?.slots?.[0]?.day).toBe(3);
  });
});
