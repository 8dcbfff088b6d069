/**
 * A write card answered after its time: left open across days or weeks, then approved (by its buttons, or a "yes"
 * typed into the chat). Its places have passed, or the week it was made on is gone. Nothing of such a card applies —
 * never a write into the past, never the rest of a card chosen beside it — and no refusal of it counts as the step's
 * tool errors: the window moves on when its week is gone, the task plans again from now, and the card that proposes
 * again opens with what changed, in the user's language. Whatever the answer says afterwards of what fits is checked
 * against a brute force of the week's free time from the clock on.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { cardCallIds, cardChanges, cardDescriptions, outcomesOf, saidFrom } from "./support/card-answers.js";
import { pendingReview, termWeekWith } from "../support/calendars.js";

/** A moment in Shanghai (no daylight saving: always +08:00). */
const at = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);

/** Mon 7 – Sun 13 Sep 2026 in Shanghai, nothing on it, `reviews` pending. */
const emptyWeek = (reviews: Array<[id: string, name: string, category: string, duration: number]>): ScheduleState =>
  termWeekWith(reviews.map((review) => pendingReview(...review)));

const TWO = emptyWeek([
  ["lim", "Limits review", "calculus", 2],
  ["mat", "Matrix review", "algebra", 2],
]);
const THREE = emptyWeek([
  ["lim", "Limits review", "calculus", 2],
  ["mat", "Matrix review", "algebra", 2],
  ["voc", "Vocabulary list", "english", 1],
]);

/** The instant slot `slot` of day `day` starts in `week`. */
function slotStart(week: ScheduleState, day: number, slot: number): Date {
  return at(week.window.days[day - 1]!.date!, week.window.slotTimes![slot - 1]!.start);
}

/** Minutes of "HH:MM". */
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Brute force: the starts ("2026-09-15 10:00") where review `review` alone fits in `week` at `now` — every slot of it
 * free and not started, its slots back to back (no gap longer than half an hour) — whatever Tempo's search says.
 */
function freeStarts(week: ScheduleState, review: TaskItem, now: Date): string[] {
  const times = week.window.slotTimes!;
  const busy = new Set<string>();
  for (const task of week.tasks) {
    if (task.id === review.id || (task.source === "task_item" && task.status !== "placed")) continue;
    for (const range of task.slots ?? [])
      for (let slot = range.start; slot <= range.end; slot += 1) busy.add(`${range.day}:${slot}`);
  }
  const starts: string[] = [];
  for (let day = 1; day <= week.window.totalDays; day += 1)
    for (let start = 1; start + review.duration - 1 <= times.length; start += 1) {
      if (slotStart(week, day, start).getTime() <= now.getTime()) continue;
      let fits = true;
      for (let slot = start; slot < start + review.duration; slot += 1) {
        if (busy.has(`${day}:${slot}`)) fits = false;
        if (slot > start && minutes(times[slot - 1]!.start) - minutes(times[slot - 2]!.end) > 30) fits = false;
      }
      if (fits) starts.push(`${week.window.days[day - 1]!.date} ${times[start - 1]!.start}`);
    }
  return starts;
}

/** The reviews of `week`. */
const reviewsOf = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");

/**
 * What must hold of the week a task left at `now`: every review placed starts after `now`, within the window; the week
 * keeps its invariants; and no review is left pending where the brute force finds room — so any "fits nowhere",
 * "proved" or "no free slot" said of one is true.
 */
function expectHonestWeek(week: ScheduleState, now: Date, said: string) {
  expect(checkScheduleInvariants(week)).toEqual([]);
  for (const review of reviewsOf(week))
    if (review.status === "placed")
      for (const range of review.slots ?? [])
        expect(slotStart(week, range.day, range.start).getTime()).toBeGreaterThan(now.getTime());
  const pendingWithRoom = reviewsOf(week).filter(
    (review) => review.status === "pending" && freeStarts(week, review, now).length > 0,
  );
  expect(pendingWithRoom.map((review) => review.name)).toEqual([]);
  if (/fits nowhere|proved|no free slot/.test(said))
    for (const review of reviewsOf(week).filter((task) => task.status === "pending"))
      expect(freeStarts(week, review, now)).toEqual([]);
}

/** A thread on `week` whose clock is `clock.now` (set by the test), passed as `configurable.now` too. */
async function threadOn(week: ScheduleState, first: Date) {
  const clock = { now: first };
  const tempo = await offlineTempo(week, () => clock.now);
  const config = () => ({
    configurable: { ...threadConfig("outlived", "student").configurable, now: clock.now.toISOString() },
  });
  /** Sends `message` (or resumes with `answer`) at `when`. */
  const at = async (when: Date, input: { message: string } | { answer: unknown }) => {
    clock.now = when;
    return "message" in input
      ? tempo.graph.invoke({ messages: [new HumanMessage(input.message)] }, config())
      : tempo.graph.invoke(resume(input.answer), config());
  };
  return { tempo, at, clock };
}

/** Every change of the card approved (one v1 decision each). */
const approveAll = (result: object) => ({
  decisions: cardDescriptions(result).map(() => ({ type: "approve" })),
});

describe("a write card approved after the week it was made on is gone", () => {
  test("moves the window on, applies nothing of it, and proposes again on the week of now, on a card that says why", async () => {
    const sunday = at("2026-09-13", "18:00");
    const { tempo, at: on } = await threadOn(TWO, sunday);
    let result = await on(sunday, { message: "arrange my reviews into free slots" });
    result = await on(sunday, { answer: approveAll(result) });
    expect(cardChanges(result)).toEqual([
      'Place "Limits review" on Sun 13 Sep, 19:00–20:40',
      'Place "Matrix review" on Sun 13 Sep, 20:50–22:30',
    ]);
    const oldCalls = cardCallIds(result);

    // Tuesday of the next week: the card is approved, whole.
    const tuesday = at("2026-09-15", "09:00");
    result = await on(tuesday, { answer: approveAll(result) });
    const rolled = await tempo.repository.load("student");
    expect(rolled.window.days[0]!.date).toBe("2026-09-14");
    // Nothing was applied on the old week, nor yet on the new one: the new places wait for their own card.
    expect(reviewsOf(rolled).map((review) => review.status)).toEqual(["pending", "pending"]);
    // The old card's writes did not run: held, not failed (no tool error counted).
    expect(outcomesOf(result.messages, oldCalls)).toEqual(["held", "held"]);
    const [first] = cardDescriptions(result);
    expect(first).toMatch(/^A new week: the window moved on by 7 day\(s\) and now runs Mon 14 Sep – Sun 20 Sep\./);
    expect(first).toContain(
      "The week this card was made on has passed, so nothing on it was applied.\nHere are new ones from now.",
    );
    for (const change of cardChanges(result))
      expect(change).toMatch(/ on (Tue 15|Wed 16|Thu 17|Fri 18|Sat 19|Sun 20) Sep, /);

    const before = result.messages.length;
    result = await on(tuesday, { answer: approveAll(result) });
    expect(interruptsOf(result)).toEqual([]);
    const week = await tempo.repository.load("student");
    expect(reviewsOf(week).map((review) => review.status)).toEqual(["placed", "placed"]);
    const said = saidFrom(result, before);
    expect(said).not.toMatch(/fits nowhere|proved|the rest has passed|tool errors/);
    expectHonestWeek(week, tuesday, said);
  });

  test('"yes" typed on Wednesday of the next week does the same', async () => {
    const sunday = at("2026-09-13", "09:00");
    const { tempo, at: on } = await threadOn(emptyWeek([["lim", "Limits review", "calculus", 2]]), sunday);
    let result = await on(sunday, { message: "arrange my reviews into free slots" });
    result = await on(sunday, { answer: approveAll(result) });
    expect(cardChanges(result)).toEqual(['Place "Limits review" on Sun 13 Sep, 10:00–11:40']);

    const wednesday = at("2026-09-16", "09:00");
    result = await on(wednesday, { message: "yes" });
    expect((await tempo.repository.load("student")).window.days[0]!.date).toBe("2026-09-14");
    expect(cardDescriptions(result)[0]).toContain("The week this card was made on has passed");
    expect(cardChanges(result)).toEqual([
      expect.stringMatching(/^Place "Limits review" on (Wed 16|Thu 17|Fri 18|Sat 19|Sun 20) Sep, /),
    ]);
    expect(saidFrom(result, 0)).not.toContain("can't act on the feedback");
    result = await on(wednesday, { message: "yes" });
    expect(interruptsOf(result)).toEqual([]);
    const week = await tempo.repository.load("student");
    expect(reviewsOf(week)[0]!.status).toBe("placed");
    expectHonestWeek(week, wednesday, saidFrom(result, 0));
  });
});

describe("a write card answered in its week after places on it passed", () => {
  test('"yes" typed Wednesday noon to Monday\'s card: no tool errors, nothing placed in the past, new places from now', async () => {
    const monday = at("2026-09-07", "07:00");
    const { tempo, at: on } = await threadOn(THREE, monday);
    let result = await on(monday, { message: "arrange my reviews into free slots" });
    result = await on(monday, { answer: approveAll(result) });
    expect(cardChanges(result)).toEqual([
      'Place "Limits review" on Mon 7 Sep, 08:00–09:40',
      'Place "Matrix review" on Tue 8 Sep, 08:00–09:40',
      'Place "Vocabulary list" on Wed 9 Sep, 08:00–08:45',
    ]);
    const oldCalls = cardCallIds(result);

    const wednesday = at("2026-09-09", "12:00");
    result = await on(wednesday, { message: "yes" });
    expect(outcomesOf(result.messages, oldCalls)).toEqual(["held", "held", "held"]);
    expect(result.planSteps.map((step: { status: string }) => step.status)).not.toContain("failed");
    expect(reviewsOf(await tempo.repository.load("student")).map((review) => review.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    const [first] = cardDescriptions(result);
    expect(first).toMatch(/^The places on this card have passed, so nothing on it was applied:\n/);
    for (const line of [
      '- Place "Limits review" on Mon 7 Sep, 08:00–09:40',
      '- Place "Matrix review" on Tue 8 Sep, 08:00–09:40',
      '- Place "Vocabulary list" on Wed 9 Sep, 08:00–08:45',
    ])
      expect(first).toContain(line);
    expect(first).toContain("Here are new ones from now.");
    // The chat says it too, as of any change that did not apply.
    expect(saidFrom(result, 0)).toContain(
      'Could not apply: Place "Limits review" on Mon 7 Sep, 08:00–09:40 — its time has passed',
    );
    for (const change of cardChanges(result))
      expect(change).toMatch(/ on (Wed 9 Sep, (1[4-9]|2\d)|Thu 10|Fri 11|Sat 12|Sun 13)/);

    result = await on(wednesday, { message: "yes" });
    expect(interruptsOf(result)).toEqual([]);
    const week = await tempo.repository.load("student");
    expect(reviewsOf(week).map((review) => review.status)).toEqual(["placed", "placed", "placed"]);
    const said = saidFrom(result, 0);
    expect(said).not.toMatch(/tool errors|it fits as the week stands, but was not placed/);
    expectHonestWeek(week, wednesday, said);
  });

  test("one place passed: nothing of the card applies until its new card is approved, and only that one is named", async () => {
    const monday = at("2026-09-07", "07:00");
    const { tempo, at: on } = await threadOn(THREE, monday);
    let result = await on(monday, { message: "arrange my reviews into free slots" });
    result = await on(monday, { answer: approveAll(result) });
    const soon = at("2026-09-07", "08:30");
    result = await on(soon, { answer: approveAll(result) });
    // The Tuesday and Wednesday places were still ahead, but were chosen beside Monday's: none applied unasked.
    expect(reviewsOf(await tempo.repository.load("student")).map((review) => review.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    const [first] = cardDescriptions(result);
    expect(first).toContain('- Place "Limits review" on Mon 7 Sep, 08:00–09:40');
    expect(first).not.toContain('- Place "Matrix review"');
    expect(cardChanges(result)[0]).toBe('Place "Limits review" on Mon 7 Sep, 08:55–10:45');

    result = await on(soon, { answer: approveAll(result) });
    expect(interruptsOf(result)).toEqual([]);
    const week = await tempo.repository.load("student");
    expect(reviewsOf(week).map((review) => review.status)).toEqual(["placed", "placed", "placed"]);
    expectHonestWeek(week, soon, saidFrom(result, 0));
    // A later card of the task no longer opens with the note: it was said.
    expect(result.outlivedCard ?? null).toBeNull();
  });

  test("in Chinese, the card that proposes again says so in Chinese", async () => {
    const week = emptyWeek([
      ["lim", "极限复习", "calculus", 2],
      ["mat", "矩阵复习", "algebra", 2],
    ]);
    const monday = at("2026-09-07", "07:00");
    const { tempo, at: on } = await threadOn(week, monday);
    let result = await on(monday, { message: "把我的复习安排到空闲时间" });
    result = await on(monday, { answer: approveAll(result) });
    const tuesday = at("2026-09-08", "12:00");
    result = await on(tuesday, { message: "好的" });
    const [first] = cardDescriptions(result);
    expect(first).toMatch(
      /^这张卡片上的时间已经过去了，所以卡片上的修改一项都没有执行：\n- 安排 "极限复习" 到 9月7日周一 08:00–09:40/,
    );
    expect(first).toContain("下面是从现在起的新安排。");
    result = await on(tuesday, { message: "好的" });
    expect(interruptsOf(result)).toEqual([]);
    const after = await tempo.repository.load("student");
    expect(reviewsOf(after).map((review) => review.status)).toEqual(["placed", "placed"]);
    expectHonestWeek(after, tuesday, saidFrom(result, 0));
  });
});
