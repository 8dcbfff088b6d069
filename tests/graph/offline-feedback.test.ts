/**
 * Plain-words feedback on the offline policy's cards: the simple cases are
 * honoured ("not Friday", "later in the day", "skip this one", "Friday
 * instead", feedback on the plan card), anything else is said to be beyond
 * the offline policy and the task is left as it was.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const accept = { type: "accept", args: null };
const respond = (text: string) => ({ type: "response", args: text });

/** The last place card: the placement proposed again after the feedback. */
const lastPlace = (cards: ReadonlyArray<{ action: string; args: Record<string, unknown> }>) =>
  cards.filter((card) => card.action === "place").at(-1);

describe("feedback on the offline policy's cards", () => {
  test('"not Friday" on a place card: the same task is proposed again on another day, the rest still placed', async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [accept, respond("not Friday")]);
    // The card's first placement is review-limits on Friday (day 5 of the sample week, which starts on a Monday).
    expect(outcome.cards[1]).toEqual({ action: "place", args: { task_id: "review-limits", day: 5, slot_start: 9 } });
    // The week's placements came on one batch card; the rejected one comes back alone, on another day; then the
    // refinement's one change around where the feedback put it (never back onto Friday).
    expect(outcome.cardCounts).toEqual([1, 8, 1, 1]);
    expect(["move", "swap", "batch_move"]).toContain(outcome.cards.at(-1)?.action);
    expect(lastPlace(outcome.cards)?.args.task_id).toBe("review-limits");
    expect(lastPlace(outcome.cards)?.args.day).not.toBe(5);
    expect(placeOf(outcome.schedule, "review-limits")).not.toMatch(/^day 5 /);
    expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
      [],
    );
    expect(outcome.finalAnswer).toContain("Your review week is arranged.");
  });

  test('"later in the day": the same day, a later slot', async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [accept, respond("later in the day please")]);
    expect(outcome.cards[1]).toEqual({ action: "place", args: { task_id: "review-limits", day: 5, slot_start: 9 } });
    // Slots 9-10 were turned down: the next later place that fits is slots 11-12.
    expect(lastPlace(outcome.cards)).toEqual({
      action: "place",
      args: { task_id: "review-limits", day: 5, slot_start: 11 },
    });
    expect(placeOf(outcome.schedule, "review-limits")).toBe("day 5 slots 11-12");
  });

  test('"skip this one": the task stays pending, the other writes of the card apply', async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [accept, respond("skip this one")]);
    // The plan and the week's batch card (the refinement after it finds nothing to change, and never places the
    // skipped task).
    expect(outcome.cardCounts).toEqual([1, 8]);
    expect(outcome.cards.filter((card) => card.args.task_id === "review-limits")).toHaveLength(1);
    expect(placeOf(outcome.schedule, "review-limits")).toBe("pending");
    expect(outcome.finalAnswer).toContain("Your review week is partly arranged: 1 review task(s) are still pending.");
  });

  test("feedback it cannot act on is said so, and the task is left pending", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [
      accept,
      respond("make it feel more balanced somehow"),
    ]);
    expect(outcome.said).toContain(
      'Offline, I can\'t act on "make it feel more balanced somehow" (a model key unlocks free-form feedback), so I\'m leaving "Review limits and continuity" pending.',
    );
    expect(placeOf(outcome.schedule, "review-limits")).toBe("pending");
  });

  test('"Friday instead" on a move card: the move is proposed again on Friday', async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "Move my matrix review to Thursday", [accept, respond("Friday instead")]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 4, slot_start: 7 });
    expect(outcome.cards[2]?.args).toMatchObject({ task_id: "matrix-review", day: 5 });
    expect(placeOf(outcome.schedule, "matrix-review")).toMatch(/^day 5 /);
  });

  test('"in the evening" on a move to the day before an event: that day\'s evening, not any evening', async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "Move my matrix review to the day before the physics lab", [
      accept,
      respond("in the evening"),
    ]);
    // The physics lab is on Friday: Thursday, first at 16:00 (the vocabulary list has 08:00); then Thursday's evening,
    // after the robotics club.
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 4, slot_start: 7 });
    expect(outcome.cards[2]?.args).toEqual({ task_id: "matrix-review", day: 4, slot_start: 11 });
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 4 slots 11-12");
  });

  test("feedback on the plan card changes the plan's scope; the plan card comes again", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [respond("not on Monday")]);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(outcome.cards[1]).toMatchObject({
      action: "confirm_plan",
      args: {
        steps: expect.stringMatching(
          /^1\. Place each pending review task into a free slot that fits it, not on Monday — done when: .+\n2\. /,
        ),
      },
    });
    expect(outcome.cards.slice(2).map((card) => card.args.day)).not.toContain(1);
    expect(outcome.said).toContain(
      "I've changed the plan as you asked. Here is the plan: place the pending review tasks into free slots that fit them, then verify.",
    );
  });

  test("feedback on the plan card it cannot act on keeps the plan and says so", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "Arrange my reviews", [
      respond("make it fun"),
      { type: "ignore", args: null },
    ]);
    expect(outcome.said).toContain(
      'Offline, I can\'t act on the feedback "make it fun" (a model key unlocks free-form requests). The plan is unchanged: accept it, edit its steps, or ignore it to drop it.',
    );
    expect(outcome.cards[1]?.args.steps).toEqual(outcome.cards[0]?.args.steps);
  });
});

describe("feedback in Chinese", () => {
  test("“不要周五”、“晚一点”、“跳过” on place cards", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const notFriday = await converse(tempo, "帮我安排复习", [accept, respond("不要周五")], "zh-not-friday");
    expect(notFriday.cards[1]).toEqual({ action: "place", args: { task_id: "review-limits", day: 5, slot_start: 9 } });
    expect(lastPlace(notFriday.cards)?.args.task_id).toBe("review-limits");
    expect(placeOf(notFriday.schedule, "review-limits")).not.toMatch(/^day 5 /);

    const later = await converse(
      await offlineTempo(sampleWeek()),
      "帮我安排复习",
      [accept, respond("晚一点")],
      "zh-later",
    );
    expect(lastPlace(later.cards)).toEqual({
      action: "place",
      args: { task_id: "review-limits", day: 5, slot_start: 11 },
    });

    const skipped = await converse(
      await offlineTempo(sampleWeek()),
      "帮我安排复习",
      [accept, respond("跳过这个")],
      "zh-skip",
    );
    expect(placeOf(skipped.schedule, "review-limits")).toBe("pending");

    const unclear = await converse(
      await offlineTempo(sampleWeek()),
      "帮我安排复习",
      [accept, respond("弄得好看一点")],
      "zh-unclear",
    );
    expect(unclear.said).toContain(
      "离线模式下我无法理解“弄得好看一点”（配置模型密钥后可处理自由表述的反馈），“Review limits and continuity” 先保持待安排。",
    );
  });
});
