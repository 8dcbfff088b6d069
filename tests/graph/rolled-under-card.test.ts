/**
 * A write card whose week another change rolled on while it waited: the daily check-in, or a request on another thread
 * of the same student, the Monday after the card was made on Sunday. Its days name days of the old window
 * (`day: 7` is Sun 13 Sep; after the roll, Sun 20 Sep), so approving it must apply none of it — not one write on a
 * date its card never showed, not the rest chosen beside them — count no tool error, and plan again on the week as it
 * is, on a card that says why. The places of the card that proposes again are checked by this file's own arithmetic:
 * each starts after the clock, on a day of the week the window now runs.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { runCheckin } from "../../cli/checkin.js";
import { datedWindow, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { pendingReview, termWeekWith } from "../support/calendars.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { cardCallIds, cardChanges, cardDescriptions, outcomesOf, saidFrom } from "./support/card-answers.js";

/** A moment in Shanghai (no daylight saving: always +08:00). */
const at = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);

/** Sunday 13 Sep 2026, the last day of the week Mon 7 – Sun 13 Sep, when the card is made. */
const SUNDAY = at("2026-09-13", "09:00");
/** The Monday after: the first request of the day (the check-in's, another thread's) rolls the window on. */
const MONDAY = at("2026-09-14", "09:00");
/** When the old card is approved. */
const LATER = at("2026-09-14", "10:00");
/** The dates of the week the window runs after the roll. */
const NEW_WEEK = ["2026-09-14", "2026-09-15", "2026-09-16", "2026-09-17", "2026-09-18", "2026-09-19", "2026-09-20"];

/** The week Mon 7 – Sun 13 Sep with three reviews pending, named `names`. */
const threeReviews = (names: [string, string, string]): ScheduleState =>
  termWeekWith([
    pendingReview("lim", names[0], "calculus", 2),
    pendingReview("mat", names[1], "algebra", 2),
    pendingReview("voc", names[2], "english", 1),
  ]);

/** The Shanghai date of `instant`. */
const dateIn = (instant: Date) => new Date(instant.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

const MONTHS: Readonly<Record<string, string>> = { Sep: "09" };

/**
 * The instant a card's change ("Place "X" on Tue 15 Sep, 10:00–11:40", or "安排 "X" 到 9月15日周二 10:00–11:40")
 * starts, read from its words.
 */
function startOf(change: string): Date {
  const english = / on \w{3} (\d{1,2}) (\w{3}), (\d{2}:\d{2})–/.exec(change);
  if (english) return at(`2026-${MONTHS[english[2]!]}-${english[1]!.padStart(2, "0")}`, english[3]!);
  const chinese = / 到 (\d{1,2})月(\d{1,2})日周. (\d{2}:\d{2})–/.exec(change)!;
  return at(`2026-${chinese[1]!.padStart(2, "0")}-${chinese[2]!.padStart(2, "0")}`, chinese[3]!);
}

/** Where each review of `week` is: "pending", or the instant its first slot starts (by the window's own dates). */
function placesOf(week: ScheduleState): string[] {
  return week.tasks
    .filter((task): task is TaskItem => task.source === "task_item")
    .map((task) => {
      if (task.status !== "placed") return task.status;
      const range = task.slots![0]!;
      const date = week.window.days[range.day - 1]!.date!;
      return at(date, week.window.slotTimes![range.start - 1]!.start).toISOString();
    });
}

/** Thread `threadId` of the student, on the clock `now`. */
const on = (threadId: string, now: Date) => ({
  configurable: { ...threadConfig(threadId, "student").configurable, now: now.toISOString() },
});

/** Every change of the card `result` waits on approved. */
const approveAll = (result: object) => resume({ decisions: cardDescriptions(result).map(() => ({ type: "approve" })) });

/** Sunday: thread "plans" asks to arrange the reviews and approves the plan; returns with its write card open. */
async function sundayCard(tempo: Awaited<ReturnType<typeof offlineTempo>>, request: string) {
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, on("plans", SUNDAY));
  result = await tempo.graph.invoke(approveAll(result), on("plans", SUNDAY));
  expect(cardChanges(result)).toHaveLength(3);
  for (const change of cardChanges(result)) expect(dateIn(startOf(change))).toBe("2026-09-13");
  return result;
}

/**
 * The old card answered at LATER (`answer`): what must hold of it — its calls held (no tool error), nothing applied on
 * any week, and a new card whose every place starts after the clock on a day of the new week. Returns the new card.
 */
async function answeredLate(
  tempo: Awaited<ReturnType<typeof offlineTempo>>,
  card: { messages: BaseMessage[] },
  answer: Parameters<typeof tempo.graph.invoke>[0],
) {
  const oldCalls = cardCallIds(card);
  const result = await tempo.graph.invoke(answer, on("plans", LATER));
  expect(outcomesOf(result.messages, oldCalls)).toEqual(["held", "held", "held"]);
  expect(result.planSteps.map((step: { status: string }) => step.status)).not.toContain("failed");
  expect(saidFrom(result, card.messages.length)).not.toMatch(/tool errors/);
  expect(placesOf(await tempo.repository.load("student"))).toEqual(["pending", "pending", "pending"]);
  const changes = cardChanges(result);
  expect(changes).toHaveLength(3);
  for (const change of changes) {
    expect(startOf(change).getTime()).toBeGreaterThan(LATER.getTime());
    expect(NEW_WEEK).toContain(dateIn(startOf(change)));
  }
  return result;
}

/** The new card approved: its places, and only they, are where the reviews now are. */
async function approvedNewCard(tempo: Awaited<ReturnType<typeof offlineTempo>>, card: object) {
  const shown = cardChanges(card)
    .map((change) => startOf(change).toISOString())
    .sort();
  const result = await tempo.graph.invoke(approveAll(card), on("plans", LATER));
  expect(interruptsOf(result)).toEqual([]);
  const week = await tempo.repository.load("student");
  expect(week.window.days.map((day) => day.date)).toEqual(NEW_WEEK);
  expect(placesOf(week).sort()).toEqual(shown);
  return result;
}

describe("a write card approved after another change rolled its week on", () => {
  test("the check-in rolled it: nothing of the card applies, no tool error, a new card from now says why", async () => {
    // Stored a week earlier (Mon 31 Aug – Sun 6 Sep): Sunday's own request rolls it on to the card's week first, and
    // says so; that is old news by Monday, and no card of the thread says it again.
    const earlier = datedWindow({ firstDate: "2026-08-31", days: 7, timeZone: "Asia/Shanghai" });
    const week = threeReviews(["Limits review", "Matrix review", "Vocabulary list"]);
    const tempo = await offlineTempo({ ...week, window: earlier }, () => SUNDAY);
    const card = await sundayCard(tempo, "arrange my reviews into free slots");
    expect(card.movedOn).toMatch(/^A new week: the window moved on by 7 day\(s\) and now runs Mon 7 Sep/);

    const checkin = await runCheckin(tempo.graph, "student", MONDAY, "Asia/Shanghai");
    expect(checkin.movedOn).toMatch(/^A new week: the window moved on by 7 day\(s\) and now runs Mon 14 Sep/);
    expect((await tempo.repository.load("student")).window.days.map((day) => day.date)).toEqual(NEW_WEEK);

    const result = await answeredLate(tempo, card, approveAll(card));
    const [first] = cardDescriptions(result);
    expect(first).toMatch(/^The schedule has moved on to another week since this card was made, so nothing on it/);
    expect(first).not.toContain("now runs Mon 7 Sep");
    expect(first).toContain("Here are new ones from now.");
    expect(saidFrom(result, card.messages.length)).toContain(
      'Could not apply: Place "Limits review" on Sun 13 Sep, 10:00–11:40 — this card was made on the week of Mon 7 Sep – Sun 13 Sep, and the schedule has moved on to Mon 14 Sep – Sun 20 Sep since',
    );
    const done = await approvedNewCard(tempo, result);
    expect(saidFrom(done, result.messages.length)).not.toMatch(/tool errors|fits nowhere/);
  });

  test("in Chinese, another thread rolled it: the same, said in Chinese", async () => {
    const tempo = await offlineTempo(threeReviews(["极限复习", "矩阵复习", "单词表"]), () => SUNDAY);
    const card = await sundayCard(tempo, "把我的复习安排到空闲时间");

    // Monday, another thread of the student: its request rolls the window on first.
    await tempo.graph.invoke({ messages: [new HumanMessage("这周我有哪些复习还没安排？")] }, on("other", MONDAY));
    expect((await tempo.repository.load("student")).window.days.map((day) => day.date)).toEqual(NEW_WEEK);

    const result = await answeredLate(tempo, card, { messages: [new HumanMessage("好的")] });
    const [first] = cardDescriptions(result);
    expect(first).toMatch(/^这张卡片做出之后，日程已经移到了另一周，所以卡片上的修改一项都没有执行。/);
    expect(first).toContain("下面是从现在起的新安排。");
    expect(saidFrom(result, card.messages.length)).toContain(
      '未能执行：安排 "极限复习" 到 9月13日周日 10:00–11:40 — 这张卡片是按 9月7日周一 – 9月13日周日 那一周做的，日程此后已移到 9月14日周一 – 9月20日周日',
    );
    await approvedNewCard(tempo, result);
  });
});
