/**
 * Removing a timetable event in words, offline: "remove the Friday tutorial", "删除周五的辅导课" name an event, not a
 * placed review, so the planner plans `remove_event` (with the calendar pack) instead of an unplace the tool refuses;
 * the card names the event (a weekly series goes whole, and says so), and once approved the week no longer has it and
 * the answer says what went, in the user's language. Words that name a placed review still unplace it; words that
 * match two events ask which; an event a deadline names is refused with the tool's reason, the week unchanged.
 */
import { describe, expect, test } from "vitest";
import { canonicalScheduleState, type ScheduleState } from "../../tools/schedule/index.js";
import { runTool } from "../schedule/support.js";
import { oneEventCalendar } from "../support/calendars.js";
import { HumanMessage } from "@langchain/core/messages";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const canonical = (state: ScheduleState) => JSON.stringify(canonicalScheduleState(state));
const hasTask = (state: ScheduleState, id: string) => state.tasks.some((task) => task.id === id);

/** The half-placed sample week whose Friday calculus tutorial is a weekly series (Fridays 08:00–09:40 in Shanghai). */
function weekWithWeeklyTutorial(): { week: ScheduleState; id: string } {
  const week = halfPlacedWeek();
  week.tasks = week.tasks.filter((task) => task.id !== "fri-calculus-tutorial");
  const calendar = oneEventCalendar("tutorial-1", "Calculus tutorial", "20240315T000000Z", "20240315T014000Z", [
    "RRULE:FREQ=WEEKLY;COUNT=10",
  ]);
  const imported = runTool("import_calendar", week, { ics: calendar });
  const state = imported.state as ScheduleState;
  const tutorial = state.tasks.find((task) => task.name === "Calculus tutorial");
  if (tutorial?.source !== "event" || !tutorial.series) throw new Error("the tutorial was not imported as a series");
  return { week: state, id: tutorial.id };
}

describe("removing a timetable event offline", () => {
  test.each(["remove the Friday tutorial", "cancel the Friday tutorial"])(
    '"%s" removes the one-off Friday tutorial through its card',
    async (request) => {
      const tempo = await offlineTempo(halfPlacedWeek());
      const outcome = await converse(tempo, request, [], "remove-1");
      expect(outcome.planSteps).toEqual(['Remove the event "friday tutorial"']);
      // The step starts with the calendar pack, so remove_event is offered, not brought in by the call.
      const state = await tempo.graph.getState(threadConfig("remove-1", "student"));
      expect(state.values.planSteps[0].packs).toEqual(["schedule.read", "schedule.calendar"]);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "remove_event"]);
      expect(outcome.cards[1]!.args).toEqual({ event_id: "fri-calculus-tutorial" });
      expect(outcome.descriptions[1]).toContain('Remove the event "Calculus tutorial" (Fri 15 Mar, 08:00–09:40)');
      expect(outcome.phase).toBe("done");
      expect(hasTask(outcome.schedule, "fri-calculus-tutorial")).toBe(false);
      expect(outcome.finalAnswer).toBe('Done: removed "Calculus tutorial".');
    },
  );

  test("a weekly series goes whole: the card and the answer say every occurrence goes", async () => {
    const { week, id } = weekWithWeeklyTutorial();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "remove the Friday tutorial");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "remove_event"]);
    expect(outcome.cards[1]!.args).toEqual({ event_id: id });
    expect(outcome.descriptions[1]).toContain(
      'Remove the event "Calculus tutorial" (Fri 15 Mar, 08:00–09:40), with every occurrence of its series',
    );
    expect(outcome.schedule.tasks.some((task) => task.name === "Calculus tutorial")).toBe(false);
    expect(outcome.finalAnswer).toBe('Done: removed "Calculus tutorial" and every occurrence of its series.');
  });

  test("on Saturday the series goes from then on: last Friday's tutorial, which took place, stays", async () => {
    const { week, id } = weekWithWeeklyTutorial();
    const saturday = new Date("2024-03-16T10:00:00+08:00");
    const tempo = await offlineTempo(week, () => saturday);
    const outcome = await converse(tempo, "remove the Friday tutorial");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "remove_event"]);
    expect(outcome.descriptions[1]).toContain(
      'Remove the event "Calculus tutorial", with every later occurrence of its series; the 1 time that has started stays',
    );
    const kept = outcome.schedule.tasks.find((task) => task.id === id);
    expect(kept?.source === "event" && kept.series).toBeUndefined();
    expect(kept?.slots).toEqual([{ day: 5, start: 1, end: 2 }]);
    expect(outcome.finalAnswer).toBe(
      'Done: removed "Calculus tutorial" where time has not passed, with every later occurrence of its series; the 1 time that has started stays: the past is fixed.',
    );
  });

  test("an edit of the card to another series on Saturday is said with what it keeps, as the card's own write is", async () => {
    const { week, id } = weekWithWeeklyTutorial();
    const ics = oneEventCalendar("reading-1", "Reading group", "20240311T134500Z", "20240311T143000Z", [
      "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR,SU;COUNT=20",
    ]);
    const both = runTool("import_calendar", week, { ics }).state as ScheduleState;
    const group = both.tasks.find((task) => task.name === "Reading group")!.id;
    const tempo = await offlineTempo(both, () => new Date("2024-03-16T10:00:00+08:00"));
    const outcome = await converse(tempo, "remove the Friday tutorial", (card) =>
      card.action === "remove_event"
        ? { type: "edit", args: { action: "remove_event", args: { event_id: group } } }
        : { type: "accept", args: null },
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "remove_event"]);
    // The tutorial stays; the reading group's Sunday goes, its four times that have started stay.
    expect(outcome.schedule.tasks.find((task) => task.id === id)?.slots).toHaveLength(1);
    expect(outcome.schedule.tasks.find((task) => task.id === group)?.slots).toHaveLength(4);
    expect(outcome.said.join("\n")).toContain(
      'Remove the event "Reading group" (Sun 17 Mar, 21:45–22:30), with every later occurrence of its series; its 4 times that have started stay',
    );
  });

  test.each([
    ["删除周五的辅导课", '删除课表活动 "周五的辅导课"'],
    ["删掉周五的习题课", '删除课表活动 "周五的习题课"'],
  ])("%s removes it in Chinese, and says so in Chinese", async (request, step) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const outcome = await converse(tempo, request);
    expect(outcome.planSteps).toEqual([step]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "remove_event"]);
    expect(outcome.cards[1]!.args).toEqual({ event_id: "fri-calculus-tutorial" });
    expect(outcome.descriptions[1]).toContain('删除日程 "Calculus tutorial"（3月15日周五 08:00–09:40）');
    expect(hasTask(outcome.schedule, "fri-calculus-tutorial")).toBe(false);
    expect(outcome.finalAnswer).toBe("完成：已从课表删除“Calculus tutorial”。");
  });

  test.each([
    ["remove the vocabulary list", "vocabulary-list", false],
    ["delete the essay draft", "essay-draft", false],
    ["删除单词表", "vocabulary-list", true],
  ])("%s names a placed review: it is unplaced, as before", async (request, id, chinese) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "unplace"]);
    expect(outcome.cards[1]!.args).toEqual({ task_id: id });
    expect(placeOf(outcome.schedule, id)).toBe("pending");
  });

  test("two lectures match: it asks which, and removes the one the answer picks", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "delete the linear algebra lecture", [
      { type: "accept", args: null },
      { type: "response", args: "the Thursday one" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "remove_event"]);
    expect(outcome.descriptions[1]).toContain('"linear algebra lecture" matches 2 events');
    // Told apart by day, as a person does; never by id.
    expect(outcome.descriptions[1]).toContain('"Linear Algebra lecture" (Tue 12 Mar, 08:00–09:40)');
    expect(outcome.descriptions[1]).toContain('"Linear Algebra lecture" (Thu 14 Mar, 10:00–11:40)');
    expect(outcome.descriptions[1]).not.toMatch(/tue-linear-algebra|thu-linear-algebra/);
    expect(outcome.cards[2]!.args).toEqual({ event_id: "thu-linear-algebra" });
    expect(hasTask(outcome.schedule, "tue-linear-algebra")).toBe(true);
    expect(hasTask(outcome.schedule, "thu-linear-algebra")).toBe(false);
  });

  test("an answer that still names no single event ends the step, said, and is never asked again", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "delete the linear algebra lecture", [
      { type: "accept", args: null },
      { type: "response", args: "the Monday one" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user"]);
    expect(outcome.finalAnswer).toBe(
      'Your schedule is unchanged: I found no event matching "linear algebra lecture" or "the Monday one".',
    );
    expect(canonical(outcome.schedule)).toBe(canonical(week));
  });

  test('"remove the event physics lab" names an event outright', async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "remove the event physics lab");
    expect(outcome.cards).toEqual([
      expect.objectContaining({ action: "confirm_plan" }),
      { action: "remove_event", args: { event_id: "fri-physics-lab" } },
    ]);
    expect(hasTask(outcome.schedule, "fri-physics-lab")).toBe(false);
    expect(outcome.finalAnswer).toBe('Done: removed "Physics lab".');
  });

  test("an event a review sits inside is refused with the tool's reason: move the review out first", async () => {
    const placed = runTool("place", halfPlacedWeek(), { task_id: "derivative-drills", day: 1, slot_start: 9 });
    const week = placed.state as ScheduleState;
    expect(week.tasks.find((task) => task.id === "mon-study-hall")).toMatchObject({ embeds: ["derivative-drills"] });
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "remove the Monday study hall");
    expect(outcome.planSteps).toEqual(['Remove the event "monday study hall"']);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toBe(
      'Your schedule is unchanged: "Evening self-study hall" holds derivative-drills; move them out first; nothing was removed.',
    );
    expect(canonical(outcome.schedule)).toBe(canonical(week));
  });

  test.each([
    [
      "remove the calculus midterm",
      'Remove the event "calculus midterm"',
      'Your schedule is unchanged: the deadline of review-limits, derivative-drills is "Calculus midterm exam"; change it first; nothing was removed.',
    ],
    [
      "删除期中考试",
      '删除课表活动 "期中考试"',
      '日程没有改动：review-limits, derivative-drills 的截止时间是 "Calculus midterm exam"；请先修改截止时间；没有删除任何内容。',
    ],
  ])(
    "%s: an event a review's deadline names is refused with the tool's reason; the week is unchanged",
    async (request, step, answer) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const tempo = await offlineTempo(week);
      const outcome = await converse(tempo, request);
      expect(outcome.planSteps).toEqual([step]);
      // Tried before any card: the tool refuses, so no remove_event card is shown; the refusal in the user's language.
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(outcome.finalAnswer).toBe(answer);
      expect(canonical(outcome.schedule)).toBe(canonical(week));
    },
  );

  test('"undo that" puts it back through restore_event\'s card, which takes approve or reject, never an edit', async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const config = threadConfig("remove-undo", "student");
    await converse(tempo, "remove the Friday tutorial", [], "remove-undo");
    let result = await tempo.graph.invoke({ messages: [new HumanMessage("undo that")] }, config);
    for (let turn = 0; turn < 5 && cardName(result) !== "restore_event"; turn++)
      result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(cardName(result)).toBe("restore_event");
    const card = interruptsOf(result)[0]!.value as { review_configs: Array<{ allowed_decisions: string[] }> };
    expect(card.review_configs[0]!.allowed_decisions).toEqual(["approve", "reject"]);
    // An edit (a made-up record) is refused and the card stays; nothing is restored.
    const forged = { type: "edit", edited_action: { name: "restore_event", args: { event: { id: "forged" } } } };
    await expect(tempo.graph.invoke(resume({ decisions: [forged] }), config)).rejects.toThrow(/edit/);
    expect(hasTask(await tempo.repository.load("student"), "fri-calculus-tutorial")).toBe(false);
    const done = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    const back = await tempo.repository.load("student");
    const byId = (state: ScheduleState) => [...state.tasks].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(back)).toEqual(byId(week));
  });
});

function cardName(result: object): string | undefined {
  return (interruptsOf(result)[0]?.value as { action_requests?: Array<{ name: string }> } | undefined)
    ?.action_requests?.[0]?.name;
}
