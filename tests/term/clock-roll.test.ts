/**
 * The window moves on by the clock (issue 47 item 3): the first request after the window's last day shows the week of
 * now, and its answer says what moved to history and what became missed — through the whole graph, offline.
 */
import { describe, expect, it } from "vitest";
import {
  ClockGapError,
  clockBehindText,
  daysBehindClock,
  MAX_CLOCK_GAP_DAYS,
  rollDueByClock,
} from "../../tools/schedule/clock-roll.js";
import {
  canonicalScheduleState,
  createScheduleDomain,
  datedWindow,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { rollWindowTool } from "../../tools/schedule/tools/roll-window.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { HumanMessage } from "@langchain/core/messages";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";
import { interruptsOf, json, planDone, scriptedGraph, stepsOf, threadConfig } from "../support/scripted.js";

/** The sample week (Mon 11 – Sun 17 Mar 2024, Shanghai) with the matrix review done on Tuesday, the rest as placed. */
function weekWithOneDone(): ScheduleState {
  const week = halfPlacedWeek();
  week.tasks = week.tasks.map((task) =>
    task.id === "matrix-review" ? { ...task, status: "done", markedAt: "2024-03-12T12:00:00.000Z" } : task,
  );
  return week;
}

const item = (state: ScheduleState, id: string) => state.tasks.find((task) => task.id === id) as TaskItem;

describe("how far the window is behind the clock", () => {
  const window = sampleWeek().window;
  it("is in time until its last day has passed, in the window's time zone", () => {
    expect(daysBehindClock(window, new Date("2024-03-17T23:59:00+08:00"))).toBe(0);
    // 16:30 UTC on Sunday is 00:30 on Monday in Shanghai.
    expect(daysBehindClock(window, new Date("2024-03-17T16:30:00Z"))).toBe(7);
    expect(rollDueByClock({ window }, new Date("2024-03-13T10:00:00+08:00"))).toBeUndefined();
  });

  it("moves by whole weeks so today is in its first week, a gap longer than the window in one roll", () => {
    expect(daysBehindClock(window, new Date("2024-03-20T10:00:00+08:00"))).toBe(7);
    expect(daysBehindClock(window, new Date("2024-04-03T10:00:00+08:00"))).toBe(21);
    expect(rollDueByClock({ window }, new Date("2024-04-03T10:00:00+08:00"))).toEqual({
      name: "roll_window",
      arguments: { days: 21 },
    });
    const term = datedWindow({ firstDate: "2024-03-11", days: 28, timeZone: "Asia/Shanghai" });
    expect(rollDueByClock({ window: term }, new Date("2024-04-09T10:00:00+08:00"))).toEqual({
      name: "roll_window",
      arguments: { days: 28 },
    });
  });

  it("a window without dates has no clock; a clock too far past the window is a clear error", () => {
    const undated = { ...window, days: window.days.map(({ date: _date, ...day }) => day) };
    expect(daysBehindClock(undated, new Date("2030-01-01T00:00:00Z"))).toBe(0);
    expect(() => daysBehindClock(window, new Date("9999-01-01T00:00:00Z"))).toThrow(ClockGapError);
    expect(() => daysBehindClock(window, new Date("9999-01-01T00:00:00Z"))).toThrow(
      new RegExp(`more than the ${MAX_CLOCK_GAP_DAYS} days`),
    );
  });
});

describe("the first request in a new week", () => {
  it("shows the new week, and the answer says what moved to history and what became missed", async () => {
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-03-19T09:00:00+08:00"));
    // The missed reviews are proposed again first (their places are ignored here: they stay missed), then the rest
    // arranged.
    const missed = ["review-limits", "vocabulary-list", "essay-draft"];
    const outcome = await converse(tempo, "arrange my week", (card) =>
      card.action === "place" && missed.includes(String(card.args.task_id))
        ? { type: "ignore", args: null }
        : { type: "accept", args: null },
    );
    expect(outcome.planSteps[0]).toBe("Reschedule the missed review to its best free place");
    expect(outcome.schedule.window.days.map((day) => day.date)).toEqual([
      "2024-03-18",
      "2024-03-19",
      "2024-03-20",
      "2024-03-21",
      "2024-03-22",
      "2024-03-23",
      "2024-03-24",
    ]);
    expect(item(outcome.schedule, "matrix-review")).toMatchObject({ status: "done", was: { date: "2024-03-12" } });
    for (const id of missed) expect(item(outcome.schedule, id).status).toBe("missed");
    // Left missed, they have no place: the answer never says the week is arranged or every review placed.
    expect(outcome.finalAnswer).toMatch(/\b3 missed review task\(s\) have no place: "[^"]+", "[^"]+", "[^"]+"/);
    for (const id of missed) expect(outcome.finalAnswer).toContain(`"${item(outcome.schedule, id).name}"`);
    expect(outcome.finalAnswer).not.toMatch(
      /review week is arranged|Every review task (?:has a place|is already placed)/,
    );
    const answer = outcome.said.at(-1) ?? "";
    expect(answer).toMatch(/^A new week: the window moved on by 7 day\(s\) and now runs Mon 18 Mar – Sun 24 Mar\./);
    expect(answer).toContain("Moved to history as done: Matrix operations review (Tue 12 Mar).");
    expect(answer).toMatch(/now missed: .*Review limits and continuity \(Mon 11 Mar\)/);
    // The sample's timetable is one-off events: they leave with the old days, and the answer names them, each once.
    expect(outcome.schedule.tasks.filter((task) => task.source === "event")).toEqual([]);
    expect(answer).toMatch(
      /Left with the old days \(one-off events, not repeated in the new week\): Calculus lecture; College English; .*Calculus midterm exam/,
    );
    expect(answer.match(/Calculus lecture/g)).toHaveLength(1);
  });

  it('"which tasks are pending?" after the roll names the missed reviews too, apart from the pending ones', async () => {
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-03-19T09:00:00+08:00"));
    await converse(tempo, "how healthy is my week?", [], "pending");
    const week = await tempo.repository.load("student");
    const missed = week.tasks.filter((task) => task.source === "task_item" && task.status === "missed");
    expect(missed.length).toBeGreaterThan(0);
    const count = missed.length;
    for (const [said, heading] of [
      ["which tasks are pending?", `Missed and without a place (${count}): `],
      ["还有哪些任务没安排", `错过且没有安排的（${count} 个）：`],
    ] as const) {
      const answer = (await converse(tempo, said, [], `pending-${said.length}`)).finalAnswer!;
      expect(answer).toContain(heading);
      for (const task of missed) expect(answer).toContain(task.name);
    }
  });

  it('"which reviews did I miss?", "what have I done?" and their Chinese: the reviews of that status, named', async () => {
    // Before, each was "Offline, I can't tell what to do" and "我错过了哪些复习" was read as marking a task "哪些复习".
    const asked: Array<[string, "missed" | "done" | "skipped"]> = [
      ["which reviews did I miss?", "missed"],
      ["我错过了哪些复习", "missed"],
      ["what have I done this week?", "done"],
      ["列出已完成的复习", "done"],
      ["which reviews did I skip?", "skipped"],
      ["跳过了哪些复习", "skipped"],
    ];
    for (const [said, status] of asked) expect(parseScheduleRequest(said), said).toEqual({ kind: "list", status });
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-03-19T09:00:00+08:00"));
    await converse(tempo, "how healthy is my week?", [], "statuses");
    const week = await tempo.repository.load("student");
    const named = (status: string) =>
      week.tasks.filter((task) => task.source === "task_item" && task.status === status).map((task) => task.name);
    expect(named("missed").length).toBeGreaterThan(0);
    expect(named("done")).toEqual(["Matrix operations review"]);
    for (const [said, status] of asked.slice(0, 4)) {
      const outcome = await converse(tempo, said, [], `statuses-${said.length}`);
      const answer = outcome.finalAnswer!;
      const others = week.tasks.filter(
        (task) => task.source === "task_item" && task.status !== status && !named(status).includes(task.name),
      );
      expect(answer, said).toMatch(
        status === "missed" ? /^\d+ (missed review task\(s\)|个已错过的复习任务)：?:?/ : /done|已完成/,
      );
      for (const name of named(status)) expect(answer, said).toContain(name);
      for (const task of others) expect(answer, said).not.toContain(task.name);
    }
    const skipped = (await converse(tempo, "which reviews did I skip?", [], "statuses-skip")).finalAnswer;
    expect(skipped).toBe("You have no skipped review task(s).");
  });

  it('"reschedule my missed reviews" alone proposes the missed ones again, and names each it finds no place for', async () => {
    expect(parseScheduleRequest("reschedule my missed reviews")).toEqual({ kind: "reschedule" });
    expect(parseScheduleRequest("补排错过的复习")).toEqual({ kind: "reschedule" });
    // With "my" said, as people say it.
    for (const said of [
      "补排我错过的复习",
      "帮我补排我的错过的复习",
      "重新安排我没做的复习",
      "reschedule the missed reviews",
      // Said as people say it in English (each was read as moving a task named "what i missed" or placing one named
      // "back the reviews i missed").
      "reschedule what I missed",
      "put back the reviews I missed",
      "catch up on whatever I missed",
      "reschedule all of my missed reviews",
      "reschedule the ones I missed",
    ])
      expect(parseScheduleRequest(said), said).toEqual({ kind: "reschedule" });
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-03-19T09:00:00+08:00"));
    await converse(tempo, "how healthy is my week?", [], "make-up");
    const outcome = await converse(tempo, "reschedule my missed reviews", [], "make-up");
    expect(outcome.planSteps).toEqual(["Reschedule the missed review to its best free place"]);
    const wereMissed = ["review-limits", "vocabulary-list", "essay-draft"];
    // Each review that was missed is placed again now, or named as still missed with why: none is left unsaid.
    for (const id of wereMissed) {
      const now = item(outcome.schedule, id);
      if (now.status === "placed") continue;
      expect(now.status).toBe("missed");
      // Review limits was due before the midterm, which left with the old days: its deadline has passed.
      expect(outcome.finalAnswer).toContain(
        `still missed: "${now.name}" (${id === "review-limits" ? "its deadline has passed" : "no free place"}`,
      );
    }
    expect(outcome.finalAnswer).toMatch(/^Done: rescheduled: /);
  });

  it("a second request in the same week rolls nothing more and says nothing of it", async () => {
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-03-19T09:00:00+08:00"));
    await converse(tempo, "how healthy is my week?");
    const second = await converse(tempo, "how healthy is my week?");
    expect(second.schedule.window.days[0]?.date).toBe("2024-03-18");
    expect(second.said.join("\n")).not.toMatch(/A new week/);
  });

  it("after three weeks away the window catches up in one request, in Chinese too", async () => {
    const tempo = await offlineTempo(weekWithOneDone(), () => new Date("2024-04-03T09:00:00+08:00"));
    const outcome = await converse(tempo, "安排复习");
    expect(outcome.schedule.window.days[0]?.date).toBe("2024-04-01");
    expect(outcome.said.at(-1)).toMatch(/^新的一周：日程窗口向后移动了 21 天，现在是 4月1日周一 – 4月7日周日。/);
    expect(outcome.said.at(-1)).toContain(
      "已完成并记入历史：Matrix operations review（3月12日周二）".replace("（", " (").replace("）", ")"),
    );
    expect(outcome.said.at(-1)).toMatch(/随旧的日子移出的单次日程（不重复，新的一周里没有）：Calculus lecture、/);
  });

  it("in Chinese, the arranged week's answer tells each step's summary, as the English answer does", async () => {
    // The English-named sample week with every review placed and none marked done: all eight become missed, are
    // proposed again and approved; the closing check then answers from the stored week (the code composes it).
    const answers = {} as Record<"en" | "zh", string>;
    for (const [language, request] of [
      ["en", "arrange my reviews"],
      ["zh", "安排我的复习"],
    ] as const) {
      const tempo = await offlineTempo(crowdedMondayWeek(), () => new Date("2024-03-19T09:00:00+08:00"));
      answers[language] = (await converse(tempo, request)).finalAnswer ?? "";
    }
    const steps = (answer: string) => answer.split("\n").filter((line) => line.startsWith("- ["));
    expect(steps(answers.en).length).toBeGreaterThan(1);
    expect(steps(answers.zh)).toHaveLength(steps(answers.en).length);
    for (const line of steps(answers.en)) expect(line).toMatch(/\] .+ — \S/);
    // Each step's summary is there, in Chinese: the closing check's count, the arranging step's and the refinement's.
    for (const line of steps(answers.zh)) expect(line).toMatch(/\] .+ — \S/);
    expect(answers.zh).toMatch(/- \[完成\] 核对日程 — 日程显示还有 \d+ 个复习任务待安排/);
    expect(answers.zh).toContain("已为计划中放得下的每个任务提出了安排");
  });

  it("a clock that is not a date is refused before anything moves", async () => {
    const week = weekWithOneDone();
    const tempo = await offlineTempo(week, () => new Date("2024-03-19T09:00:00+08:00"));
    await expect(
      converse(tempo, "arrange my week", [], "thread-bad", "student", { now: "next tuesday" }),
    ).rejects.toThrow(/configurable.now must be an ISO date-time/);
    expect((await tempo.repository.load("student")).window.days[0]?.date).toBe("2024-03-11");
  });

  it("a clock too far in the future is a clear error, and the stored schedule is unchanged", async () => {
    const week = weekWithOneDone();
    const tempo = await offlineTempo(week, () => new Date("2024-03-19T09:00:00+08:00"));
    await expect(
      converse(tempo, "arrange my week", [], "thread-far", "student", { now: "2199-12-31T10:00:00Z" }),
    ).rejects.toThrow(/more than the 366 days the window follows the clock/);
    expect(JSON.stringify(canonicalScheduleState(await tempo.repository.load("student")))).toBe(
      JSON.stringify(canonicalScheduleState(week)),
    );
  });
});

describe("a roll made for a window that has moved", () => {
  it("is refused, so two requests at the turn of the week roll once", () => {
    const week = weekWithOneDone();
    const first = rollWindowTool.run(week, { days: 7, from_date: "2024-03-11" });
    expect(first.ok).toBe(true);
    const second = rollWindowTool.run(first.state!, { days: 7, from_date: "2024-03-11" });
    expect(second).toMatchObject({ ok: false });
    expect(second.content).toMatch(/the window starts on 2024-03-18, not 2024-03-11: it has moved already/);
    expect(second.state).toBeUndefined();
  });
});

describe("a roll that puts a deadline at risk", () => {
  /**
   * The sample week's timetable with a weekly Monday 10:00 quiz (a series) and its prep (two slots) placed on Monday
   * 08:00 and never marked: the roll to the next week makes the prep missed, and on Monday at 08:30 only the 08:55 slot
   * is left before the quiz — too little, and nothing placed to move.
   */
  function weekBeforeQuiz(): ScheduleState {
    const week = sampleWeek();
    const quiz = {
      id: "weekly-quiz",
      name: "Weekly quiz",
      source: "event" as const,
      slots: [{ day: 1, start: 3, end: 3 }],
      canEmbed: false,
      locked: false,
      embeds: [],
      series: {
        rule: { freq: "weekly" as const, interval: 1, byDay: [1] },
        firstDate: "2024-03-11",
        start: "10:00",
        end: "10:45",
        timeZone: week.window.timeZone!,
        cancelled: [],
        moved: [],
      },
    };
    const prep: TaskItem = {
      id: "quiz-prep",
      name: "Quiz prep",
      source: "task_item",
      duration: 2,
      categoryId: week.categories[0]!.id,
      status: "placed",
      slots: [{ day: 1, start: 1, end: 2 }],
      dueBefore: { eventId: "weekly-quiz" },
    };
    const events = week.tasks.filter((task) => task.source === "event" && !task.slots.some((range) => range.day === 1));
    return { ...week, tasks: [...events, quiz, prep] };
  }

  it("is told at risk in the answer of the request that rolled, once", async () => {
    const tempo = await offlineTempo(weekBeforeQuiz(), () => new Date("2024-03-18T08:30:00+08:00"));
    const thread = "roll-risk";
    const first = await converse(tempo, "how healthy is my week?", [], thread);
    expect(first.schedule.window.days[0]?.date).toBe("2024-03-18");
    expect(item(first.schedule, "quiz-prep").status).toBe("missed");
    const answer = first.said.at(-1) ?? "";
    expect(answer).toMatch(/^A new week/);
    expect(answer).toContain(
      "At risk (proved, with the reviews already placed where they are): no free time before its deadline holds Quiz prep (due before Weekly quiz (Mon 18 Mar)).",
    );
    // The same week again: nothing rolls, nothing is checked or told twice.
    const second = await converse(tempo, "how healthy is my week?", [], thread);
    expect(second.said.at(-1)).not.toMatch(/At risk|A new week/);
  });
});

describe('"arrange my reviews for next week" says which week it arranges', () => {
  /** The plan's first words, with the plan card left unanswered. */
  const planSaid = async (now: Date, request = "Arrange my reviews for next week") => {
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const outcome = await converse(tempo, request, [{ type: "ignore", args: null }]);
    return outcome.said[0] ?? "";
  };

  it("on the Sunday evening before the window, the window is next week: nothing to add", async () => {
    expect(await planSaid(new Date("2024-03-10T20:00:00+08:00"))).toMatch(/^Here is the plan: /);
  });

  it("on the window's Monday, next week is not on the schedule: the plan says it arranges this week", async () => {
    expect(await planSaid(new Date("2024-03-11T09:00:00+08:00"))).toMatch(
      /^Your schedule holds this week, Mon 11 Mar – Sun 17 Mar: the week after it opens on Mon 18 Mar, once this one is over\. This plan arranges this week, from today \(Mon 11 Mar\)\. Here is the plan: /,
    );
  });

  it("on the window's Sunday evening, next week opens tomorrow: the plan says so, and that it arranges only today", async () => {
    expect(await planSaid(new Date("2024-03-17T20:00:00+08:00"))).toMatch(
      /^Next week \(from Mon 18 Mar\) is not on your schedule yet: .* moves on by itself tomorrow — ask me then, or let the morning check-in arrange it\. This plan arranges only what is left of today\. /,
    );
    expect(await planSaid(new Date("2024-03-17T20:00:00+08:00"), "帮我安排下周的复习")).toMatch(
      /^下周（从3月18日周一起）还不在日程里：.*这个计划只安排今天剩下的时间。/,
    );
  });

  it('"arrange my reviews" with no week named says nothing of weeks', async () => {
    expect(await planSaid(new Date("2024-03-11T09:00:00+08:00"), "Arrange my reviews")).toMatch(/^Here is the plan: /);
  });
});

describe("a clock that went back (a machine's clock set wrong)", () => {
  it("is said before the answer, and nothing moves back; a week never rolled has nothing to say", async () => {
    let now = new Date("2024-03-19T09:00:00+08:00");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const rolled = await converse(tempo, "which reviews did I miss?");
    expect(rolled.finalAnswer).toMatch(/^A new week: /);
    const week = rolled.schedule.window.days[0]!.date;
    // Friday of the week before: the roll made missed a review placed on Saturday, still ahead by this clock; the
    // latest moment recorded is the roll's own (Tuesday 09:00), the clock the rules keep to, and that is the one named.
    now = new Date("2024-03-15T09:00:00+08:00");
    const back = await converse(tempo, "which reviews did I miss?");
    expect(back.finalAnswer).toMatch(
      /^Your clock says Fri 15 Mar, 09:00, earlier than what your schedule has already recorded \(Tue 19 Mar, 09:00\): .*please set it right\.\n/,
    );
    // On the Saturday after the missed review's place, the clock is still behind the roll: said, with the roll's clock.
    expect(clockBehindText(back.schedule, new Date("2024-03-16T12:00:00+08:00"), "en")).toMatch(
      /\(Tue 19 Mar, 09:00\)/,
    );
    expect(back.schedule.window.days[0]!.date).toBe(week);
    now = new Date("2024-03-19T10:00:00+08:00");
    expect((await converse(tempo, "which reviews did I miss?")).finalAnswer).not.toMatch(/Your clock says/);
    // A week seeded ahead of the clock (the Sunday before it) records nothing later than now.
    expect(clockBehindText(halfPlacedWeek(), new Date("2024-03-10T20:00:00+08:00"), "en")).toBeUndefined();
  });
});

describe("a clock set back after a roll that recorded nothing else", () => {
  it("is said, and the days the roll settled as past are not written into", async () => {
    // Nothing placed: the roll settles no review, so only the window knows when it moved on.
    let now = new Date("2024-03-20T10:00:00+08:00");
    const tempo = await offlineTempo(sampleWeek(), () => now);
    const rolled = await converse(tempo, "which reviews did I miss?");
    expect(rolled.finalAnswer).toMatch(/^A new week: /);
    expect(rolled.schedule.window.days[0]!.date).toBe("2024-03-18");
    // The Friday before the new week: Monday 18 March and Tuesday had passed when the roll was made.
    now = new Date("2024-03-15T09:00:00+08:00");
    const back = await converse(tempo, "schedule the matrix review on Monday afternoon");
    expect(back.finalAnswer).toMatch(
      /^Your clock says Fri 15 Mar, 09:00, earlier than what your schedule has already recorded \(Wed 20 Mar, 10:00\)/,
    );
    expect(item(back.schedule, "matrix-review").status).toBe("pending");
    expect(back.cards.map((card) => card.action)).not.toContain("place");
    expect(back.schedule.window.days[0]!.date).toBe("2024-03-18");
    // The roll's clock is stored with the window, so a repository loads it back.
    expect(back.schedule.window.rolledAt).toBe(new Date("2024-03-20T10:00:00+08:00").toISOString());
  });
});

describe("what the clock did is said on the request's first card, before anything is decided on it", () => {
  it("a clock set back before the roll: the plan card opens with it, and the answer still says it", async () => {
    let now = new Date("2024-03-20T10:00:00+08:00");
    const tempo = await offlineTempo(sampleWeek(), () => now);
    await converse(tempo, "which reviews did I miss?");
    now = new Date("2024-03-15T09:00:00+08:00");
    const back = await converse(tempo, "vocabulary three times a week, 30 min, mornings");
    expect(back.cards.map((card) => card.action)).toEqual(["confirm_plan", "add_habit"]);
    const behind = /^Your clock says Fri 15 Mar, 09:00, earlier than what your schedule has already recorded/;
    expect(back.descriptions[0]).toMatch(behind);
    expect(back.descriptions[0]).toMatch(/\n\nPlan for: vocabulary three times a week/);
    // Said once before the decisions: the write card under the confirmed plan does not repeat it.
    expect(back.descriptions[1]).not.toMatch(behind);
    expect(back.finalAnswer).toMatch(behind);
  });

  it("a window moved on by the clock: the plan card opens with the new week", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => new Date("2024-03-19T09:00:00+08:00"));
    const rolled = await converse(tempo, "vocabulary three times a week, 30 min, mornings");
    expect(rolled.cards[0]?.action).toBe("confirm_plan");
    expect(rolled.descriptions[0]).toMatch(/^A new week: the window moved on by 7 day\(s\) and now runs Mon 18 Mar/);
    // The next request, the clock where it was: nothing moved, nothing said on its card.
    const next = await converse(tempo, "vocabulary three times a week, 30 min, evenings");
    expect(next.descriptions[0]).toMatch(/^Plan for: /);
  });

  it("a question's plan raises no plan card: its first write card opens with it", async () => {
    const markDone = json({
      action: "continue",
      reason: "done",
      tool_call: { name: "mark_done", arguments: { task_id: "matrix-review" } },
    });
    // The window rolled on at Sat 16 Mar 10:00 (Shanghai); the clock now says Fri 15 Mar 09:00.
    const week = halfPlacedWeek();
    week.window = { ...week.window, rolledAt: new Date("2024-03-16T10:00:00+08:00").toISOString() };
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", week);
    const { graph } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      now: () => new Date("2024-03-15T09:00:00+08:00"),
      plan: [
        planDone(stepsOf("Look up the matrix review"), { read_only: true }),
        json({ speak: "", action: "continue", reason: "the step is done" }),
      ],
      execute: [markDone, json({ speak: "", action: "done", reason: "marked", goal_check: "the review is marked" })],
    });
    const config = threadConfig("behind-read-only", "student");
    const first = await graph.invoke({ messages: [new HumanMessage("did I do the matrix review?")] }, config);
    const card = interruptsOf(first)[0]?.value as { action_requests: Array<{ name: string; description: string }> };
    expect(card.action_requests[0]?.name).toBe("mark_done");
    expect(card.action_requests[0]?.description).toMatch(
      /^Your clock says Fri 15 Mar, 09:00, earlier than what your schedule has already recorded/,
    );
  });
});

describe("a plan card answered after the window's week has passed", () => {
  it("moves the window on and plans again on the week of now, on a card that says so; nothing runs on the old week", async () => {
    // Raised on the window's last evening (Sun 17 Mar 20:00, Shanghai), approved the next morning.
    let now = new Date("2024-03-17T20:00:00+08:00");
    const tempo = await offlineTempo(sampleWeek(), () => now);
    const answered = await converse(tempo, "arrange my reviews", (card) => {
      now = new Date("2024-03-18T09:00:00+08:00");
      return card.action === "confirm_plan" || card.action === "place"
        ? { type: "accept", args: null }
        : { type: "ignore", args: null };
    });
    expect(answered.cards.slice(0, 2).map((card) => card.action)).toEqual(["confirm_plan", "confirm_plan"]);
    expect(answered.descriptions[0]).toMatch(/^Plan for: arrange my reviews/);
    expect(answered.descriptions[1]).toMatch(
      /^A new week: the window moved on by 7 day\(s\) and now runs Mon 18 Mar – Sun 24 Mar\.[^]*\n\nPlan for: arrange my reviews/,
    );
    expect(answered.schedule.window.days[0]!.date).toBe("2024-03-18");
    // The reviews went into the week of now, each place told by its date there.
    const places = answered.descriptions.filter((text) => /^Change \d+ of \d+: Place /.test(text));
    expect(places.length).toBeGreaterThan(0);
    for (const text of places) expect(text).toMatch(/^Change \d+ of \d+: Place "[^"]+" on \w{3} (1[89]|2[0-4]) Mar,/);
    expect(
      answered.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length,
    ).toBe(places.length);
  });
});

describe("the night the clocks go back (America/New_York, Sun 1 Nov 2026: 02:00 EDT is 01:00 EST)", () => {
  /** A week of Mon 26 Oct – Sun 1 Nov in New York with one review placed on Saturday, 21:45. */
  function newYorkWeek(): ScheduleState {
    const review: TaskItem = {
      id: "limits-review",
      name: "Limits review",
      source: "task_item",
      duration: 1,
      categoryId: "calculus",
      status: "placed",
      slots: [{ day: 6, start: 12, end: 12 }],
    };
    return {
      window: datedWindow({ firstDate: "2026-10-26", days: 7, timeZone: "America/New_York" }),
      categories: [{ id: "calculus", name: "Calculus" }],
      tasks: [review],
    };
  }

  it("a review marked at 01:30 before the change is not later than 01:10 after it: the clock did not go back", async () => {
    const marked = new Date("2026-11-01T01:30:00-04:00");
    const after = new Date("2026-11-01T01:10:00-05:00");
    let now = marked;
    const tempo = await offlineTempo(newYorkWeek(), () => now);
    const done = await converse(tempo, "I did the Limits review");
    expect(item(done.schedule, "limits-review")).toMatchObject({ status: "done", markedAt: marked.toISOString() });
    // Forty minutes later, the wall clock reads 01:10 again.
    now = after;
    const next = await converse(tempo, "what's next?");
    expect(next.finalAnswer).not.toMatch(/Your clock says/);
    expect(clockBehindText(next.schedule, after, "en")).toBeUndefined();
    // Ten minutes before the mark (01:20 EDT), the clock is behind it, and that is said with the local times.
    expect(clockBehindText(next.schedule, new Date("2026-11-01T01:20:00-04:00"), "en")).toMatch(
      /^Your clock says Sun 1 Nov, 01:20, earlier than what your schedule has already recorded \(Sun 1 Nov, 01:30\)/,
    );
  });
});

describe("a habit across three weeks away", () => {
  it("carries on to the week of now: the weeks away get no sessions, and the habit is not taken for ended", async () => {
    let now = new Date("2026-11-30T07:00:00-05:00");
    const week: ScheduleState = {
      window: datedWindow({ firstDate: "2026-11-30", days: 7, timeZone: "America/New_York" }),
      categories: [],
      tasks: [],
    };
    const tempo = await offlineTempo(week, () => now);
    const added = await converse(tempo, "vocabulary three times a week, 30 min, mornings");
    expect(added.cards.map((card) => card.action)).toEqual(["confirm_plan", "add_habit"]);
    // The winter break: no use for three weeks, then a message on Monday 21 December.
    now = new Date("2026-12-21T09:00:00-05:00");
    const back = await converse(tempo, "what's next?");
    expect(back.finalAnswer).toMatch(
      /^A new week: the window moved on by 21 day\(s\) and now runs Mon 21 Dec – Sun 27 Dec\./,
    );
    const sessions = back.schedule.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.group?.id === "vocabulary",
    );
    const weekOf = (task: TaskItem) => task.group!.week!;
    // The first week's three, missed and told; none for the two weeks away; three pending for the week of now.
    expect(sessions.filter((task) => weekOf(task) === 1).map((task) => task.status)).toEqual([
      "missed",
      "missed",
      "missed",
    ]);
    expect(sessions.filter((task) => weekOf(task) === 2 || weekOf(task) === 3)).toEqual([]);
    expect(sessions.filter((task) => weekOf(task) === 4).map((task) => task.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    // And the week after, by the clock as usual, brings its three too.
    now = new Date("2026-12-28T09:00:00-05:00");
    const next = await converse(tempo, "what's next?");
    expect(next.schedule.tasks.filter((task) => task.source === "task_item" && task.group?.week === 5)).toHaveLength(3);
  });
});
