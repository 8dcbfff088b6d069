/**
 * What the offline policy does after a rejected placement and an edited plan step, through the graph: a day named
 * in a negative sentence ("Friday is my day off", "周五我休息") is a day to avoid, never the only day; a rejected
 * place is never proposed again in the step; a task left pending is told why truthfully; a step's constraint in
 * parentheses limits the placements instead of becoming a task name; a step whose tasks match nothing never
 * claims success; and the policy's speech names tasks by name, not id.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { Card } from "../../contracts/cards.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { findFreeTool, type ScheduleState, type ScheduleTask } from "../../tools/schedule/index.js";
import { parseFreeRuns } from "../../offline/schedule/result-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf, type SeenCard } from "./support/offline-conversation.js";

const accept = { type: "accept", args: null };
const respond = (text: string) => ({ type: "response", args: text });
const zh = (text: string) => /[\u3400-\u9fff]/.test(text);
const ID = /\b[a-z]+(?:-[a-z]+)+\b/;

/** The arrange conversation on the half-placed week, with derivative-drills' placement on the batch card rejected with `feedback` (and later ones with `again`). */
async function rejectDerivative(feedback: string, again: string[] = []) {
  const chinese = zh(feedback);
  const request = chinese ? "帮我安排复习" : "arrange my reviews into free slots";
  // Where derivative-drills sits on the batch card: the same run accepted to the end shows the order.
  const probe = await converse(await offlineTempo(halfPlacedWeek({ chinese })), request);
  const index = probe.cards.findIndex((card) => card.args.task_id === "derivative-drills");
  expect(probe.cards[index]?.args).toMatchObject({ day: 5 });
  const answers = probe.cards
    .slice(0, index + 1)
    .map((_, position) => (position === index ? respond(feedback) : accept));
  // The rest of the batch is accepted; the cards after it hold one placement each: reject them with `again` in turn.
  // (The probe's last card, the refinement's batch_move, comes after those and is accepted by default.)
  answers.push(
    ...probe.cards
      .slice(index + 1)
      .filter((card) => card.action === "place")
      .map(() => accept),
    ...again.map(respond),
  );
  const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
  return converse(tempo, request, answers);
}

const derivativeCards = (cards: SeenCard[]) =>
  cards.filter((card) => card.action === "place" && card.args.task_id === "derivative-drills");

describe("a day named in a negative sentence is a day to avoid", () => {
  test.each([
    "Friday is my day off",
    "not Friday",
    "keep it off Friday",
    "I have practice on Friday",
    "don't schedule it on Friday",
    "周五我休息",
    "周五不行",
    "不要安排在周五",
  ])('"%s" on Friday\'s placement: the task is proposed again on another day and placed there', async (feedback) => {
    const outcome = await rejectDerivative(feedback);
    const proposals = derivativeCards(outcome.cards);
    expect(proposals).toHaveLength(2);
    expect(proposals[1]?.args.day).not.toBe(5);
    expect(placeOf(outcome.schedule, "derivative-drills")).toMatch(/^day [1-46-7] /);
    expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
      [],
    );
  });

  test("a rejected place is never proposed again, whatever the feedback says", async () => {
    const outcome = await rejectDerivative("not Friday", ["not Friday", "not Friday"]);
    const places = derivativeCards(outcome.cards).map(
      (card) => `${String(card.args.day)}:${String(card.args.slot_start)}`,
    );
    expect(places.length).toBeGreaterThanOrEqual(3);
    expect(new Set(places).size).toBe(places.length);
    expect(places.slice(1).some((place) => place.startsWith("5:"))).toBe(false);
  });

  test("rejected in Chinese twice: each proposal is new, none on Friday after the first", async () => {
    const outcome = await rejectDerivative("周五我休息", ["周五我休息", "周五我休息"]);
    const places = derivativeCards(outcome.cards).map(
      (card) => `${String(card.args.day)}:${String(card.args.slot_start)}`,
    );
    expect(new Set(places).size).toBe(places.length);
    expect(places.slice(1).filter((place) => place.startsWith("5:"))).toEqual([]);
  });
});

/** The half-placed week with derivative-drills the only pending task and every free slot outside Friday taken by a locked event. */
function onlyFridayFree(): ScheduleState {
  const week = halfPlacedWeek();
  week.tasks = week.tasks.filter(
    (task) => task.source !== "task_item" || task.status === "placed" || task.id === "derivative-drills",
  );
  const runs = parseFreeRuns(findFreeTool.run(week, { min_length: 1, limit: 100 }).content).filter(
    (run) => run.day !== 5 && !run.hostId,
  );
  const blockers: ScheduleTask[] = runs.map((run) => ({
    id: `busy-${run.day}-${run.start}`,
    name: "Busy",
    source: "event",
    slots: [{ day: run.day, start: run.start, end: run.end }],
    canEmbed: false,
    locked: true,
    embeds: [],
  }));
  // Hosts' free room goes too: nothing outside Friday can take a review.
  week.tasks = [
    ...week.tasks.map((task) =>
      task.source === "event" && task.canEmbed && task.slots[0]?.day !== 5 ? { ...task, canEmbed: false } : task,
    ),
    ...blockers,
  ];
  return week;
}

test("when nothing fits outside Friday, the step says which limit blocks the task, not that no slot fits", async () => {
  const tempo = await offlineTempo(onlyFridayFree());
  const outcome = await converse(tempo, "arrange my reviews into free slots", [
    accept,
    respond("Friday is my day off"),
  ]);
  expect(derivativeCards(outcome.cards)).toHaveLength(1);
  expect(placeOf(outcome.schedule, "derivative-drills")).toBe("pending");
  expect(outcome.finalAnswer).toContain('left pending: "Derivative practice set" (no free slot fits outside Friday)');
  expect(outcome.said).toContain(
    'Every placement that fits was proposed; left pending: "Derivative practice set" (no free slot fits outside Friday).',
  );
});

describe("an edited plan step", () => {
  /** The arrange conversation with the place step's text edited to `step` on the plan card. */
  async function withEditedStep(
    step: string,
    week = halfPlacedWeek(),
    request = "arrange my reviews into free slots",
    later: Array<{ type: string; args: unknown }> = [],
  ) {
    const probe = await converse(await offlineTempo(week), request, [{ type: "ignore", args: null }]);
    const steps = String(probe.cards[0]?.args.steps).replace(/^1\. [^—]+ —/, `1. ${step} —`);
    return converse(await offlineTempo(week), request, [
      { type: "edit", args: { action: "confirm_plan", args: { steps } } },
      ...later,
    ]);
  }
  const NO_MATCH = "Place the quantum physics review into a free slot that fits it";

  test.each([
    ["Place each pending review task into a free slot that fits it (not Friday)", "en"],
    ["Place each pending review task into a free slot that fits it, not on Friday", "en"],
    ["Place each pending review task into a free slot that fits it (Friday is my day off)", "en"],
    ["把所有待安排的复习任务放进能容纳它们的时段（不要周五）", "zh"],
    ["把所有待安排的复习任务放进能容纳它们的时段，周五不行", "zh"],
  ])('"%s": every pending task is placed, none on Friday', async (step, language) => {
    const chinese = language === "zh";
    const outcome = await withEditedStep(
      step,
      halfPlacedWeek({ chinese }),
      chinese ? "帮我安排复习" : "arrange my reviews into free slots",
    );
    expect(outcome.planSteps[0]).toBe(step);
    const places = outcome.cards.filter((card) => card.action === "place");
    expect(places).toHaveLength(4);
    expect(places.map((card) => card.args.day)).not.toContain(5);
    expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
      [],
    );
    expect(outcome.finalAnswer).not.toMatch(/no pending task matches|没有匹配的待安排任务/);
  });

  test('"(only mornings)": the placements keep to the morning slots, no task phrase is made of the constraint', async () => {
    const outcome = await withEditedStep(
      "Place each pending review task into a free slot that fits it (only mornings)",
    );
    const places = outcome.cards.filter((card) => card.action === "place");
    expect(places.length).toBeGreaterThan(0);
    expect(places.every((card) => Number(card.args.slot_start) <= 4)).toBe(true);
    expect(outcome.finalAnswer).not.toContain("no pending task matches");
  });

  test("a step whose tasks match nothing asks which tasks instead of claiming the step done", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const config = threadConfig(`no-match-${Math.random().toString(36).slice(2)}`, "student");
    const planned = await tempo.graph.invoke(
      { messages: [new HumanMessage("arrange my reviews into free slots")] },
      config,
    );
    const plan = interruptsOf(planned)[0]!.value as Card;
    const steps = String(plan.action_requests[0]!.args.steps).replace(/^1\. [^—]+ —/, `1. ${NO_MATCH} —`);
    const asked = await tempo.graph.invoke(
      resume({ type: "edit", args: { action: "confirm_plan", args: { steps } } }),
      config,
    );
    const question = (interruptsOf(asked)[0]!.value as Card).action_requests[0]!;
    expect(question.name).toBe("ask_user");
    expect(question.description).toMatch(
      /^I found no pending task matching "quantum physics review", so nothing is placed yet\. Which tasks do you mean\?/,
    );
    expect(asked.finalAnswer ?? "").not.toMatch(/every placement/);
  });

  test('answering "all" to that question places every pending task', async () => {
    const outcome = await withEditedStep(NO_MATCH, halfPlacedWeek(), undefined, [respond("all")]);
    expect(outcome.cards.filter((card) => card.action === "place")).toHaveLength(4);
    expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
      [],
    );
  });

  test("an answer that names no task either: the step says nothing was placed, and the answer never claims it", async () => {
    const outcome = await withEditedStep(NO_MATCH, halfPlacedWeek(), undefined, [respond("the zebra thing")]);
    expect(outcome.cards.filter((card) => card.action === "place")).toEqual([]);
    expect(outcome.said).toContain(
      'I found no pending task matching "quantum physics review" or "the zebra thing", so nothing was placed.',
    );
    // Nothing placed and nothing moved: the refinement leaves the reviews placed before the request alone (issue 46).
    expect(outcome.cards.filter((card) => card.action !== "confirm_plan" && card.action !== "ask_user")).toEqual([]);
    expect(outcome.finalAnswer).toMatch(/^Nothing was changed; the steps below say why\./);
    expect(outcome.finalAnswer).toMatch(
      /^- \[not carried out\] [^\n]* — no pending task matches "quantum physics review" or "the zebra thing"/m,
    );
  });
});

describe("the policy's speech names tasks, not ids", () => {
  test("the batch card's speech, a re-plan and a skip, in English and Chinese", async () => {
    const english = await rejectDerivative("Friday is my day off");
    const speech = english.said.join("\n");
    expect(speech).toContain('Understood: finding "Derivative practice set" another place (Friday is my day off).');
    expect(speech).toMatch(/Placing "Derivative practice set" on \w{3} \d+ Mar, \d\d:\d\d–\d\d:\d\d/);
    expect(speech).not.toMatch(/Placing [^\n]*derivative-drills|finding task/);

    const chinese = await rejectDerivative("周五我休息");
    expect(chinese.said).toContain("明白：为“导数练习”另找位置（周五我休息）。");
    for (const text of chinese.said.filter((said) => /^(?:为|安排|明白|跳过)/.test(said))) expect(text).not.toMatch(ID);

    const skipped = await converse(await offlineTempo(halfPlacedWeek()), "arrange my reviews into free slots", [
      accept,
      respond("skip this one"),
    ]);
    expect(
      skipped.said.some((text) => text.includes('Skipping "Binary tree review": you rejected its placement.')),
    ).toBe(true);
  });
});
