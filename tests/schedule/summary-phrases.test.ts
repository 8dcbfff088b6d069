/**
 * The schedule steps' summary phrases (tools/schedule/summary-phrases.ts): one table a language, as the report's
 * words are (tests/contracts/report-words.test.ts). Every phrase has its Chinese with the same places; every English
 * phrase is read back as it is written (the reader is built from the phrase); a summary read back says what the table
 * says; and a summary the table does not know (a model's own words) is shown as it is.
 */
import { describe, expect, test } from "vitest";
import { placesOf } from "../../contracts/report-words.js";
import { readSummary, saySummary, SUMMARY_WORDS, type SummaryKey } from "../../tools/schedule/summary-phrases.js";
import { leftOutIn, summaryInChinese } from "../../tools/schedule/summary-words.js";
import { missedClause, SCHEDULE_REFINEMENT, SCHEDULE_VERIFICATION } from "../../tools/schedule/domain.js";
import { refinementSummary } from "../../nodes/execute/refinement.js";
import { sayRefinement } from "../../contracts/refinement-words.js";
import type { Optimization } from "../../kernel/state.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import type { ScheduleState, TaskStatus } from "../../tools/schedule/state.js";
import { listedTask } from "../../tools/schedule/tools/list-tasks.js";
import {
  cannotMoveSpread,
  noFreeTimeShifted,
  noPlaceToMoveFrom,
  noFreeTimeWhereAsked,
  slotStartingAt,
} from "../../offline/schedule/move-places.js";
import { lockedFromSwap } from "../../offline/schedule/swap-step.js";
import { unmarkable } from "../../offline/schedule/mark-step.js";
import { noTaskFound, writeEnding } from "../../offline/schedule/step-endings.js";
import { arrangeStep } from "../../offline/schedule/arrange-step.js";
import { arrangeSummary } from "../../offline/schedule/arrange-ending.js";
import { eventNamed } from "../../offline/schedule/arrange-scope.js";
import { calendarExecute } from "../../offline/schedule/calendar-import.js";
import { weekFactsOf } from "../../offline/schedule/week-facts.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { PromptView, RoundView } from "../../offline/prompt-reading.js";
import { addLongTaskStep, addTaskStep, classRulesStep, noSessionsStep } from "../../offline/schedule/class-steps.js";
import { recoverStep, undoStep } from "../../offline/schedule/life-steps.js";
import { NO_RECOVERY, NOTHING_TO_UNDO } from "../../tools/schedule/tools/index.js";
import { sayReport } from "../../contracts/report-words.js";
import { addedTaskIn, notCarriedOut } from "../../offline/schedule/tool-data.js";
import { runTool } from "./support.js";
import { datedWindow } from "../../tools/schedule/calendar.js";
import { readablePlaces } from "../../tools/schedule/readable.js";
import { pastRefusalText, placementRuleProblem, ruleBookOf } from "../../tools/schedule/rules.js";
import { consecutiveDays, type StandingRule, type TaskItem } from "../../tools/schedule/state.js";

const KEYS = Object.keys(SUMMARY_WORDS.en) as SummaryKey[];

/** Runs of 3+ ASCII letters: English left in a Chinese phrase (its places and the commands `/prefs`, `/forget` aside). */
function english(text: string): string[] {
  return (
    text
      .replace(/\{\w+\}/g, " ")
      .replace(/\/\w+/g, " ")
      .match(/[A-Za-z]{3,}/g) ?? []
  );
}

/** A value of each place, as a tool would write it (read back by the place's pattern). */
const SAMPLE: Readonly<Record<string, string>> = {
  id: "matrix-review",
  other: "essay-2",
  host: "study-hall",
  group: "vocab",
  what: "habit",
  mark: "missed",
  status: "placed",
  state: "skipped this week",
  event: '"Evening self-study hall"',
  said: '"Matrix review"',
  rules: '"no studying after 9pm", "only in the evening"',
  dayList: "1-3,5",
  heading: "recovered",
  names: '"Matrix review", "Essay draft"',
  limits: "outside Friday, in slots 9-12",
  className: '"Calculus"',
  neighbour: 'event fri-english-quiz "English quiz"',
  one: 'task review-limits "Review limits and continuity"',
  two: 'task vocab-unit-5 "Vocabulary list unit 5"',
  deadline: 'event sat-calculus-midterm "Calculus midterm exam"',
  at: "14:30",
  breakStart: "11:40",
  breakEnd: "14:00",
  first: "08:00",
  last: "22:30",
  near: "14:00 and 14:55",
  matching: '"matrix" or "矩阵"',
  reason: "no slot starts at 14:30 (the slots near it start at 14:00 and 14:55)",
  shift: "2 days later",
  unplaceWhy: "it is pending already, not on the schedule",
  span: "day 5 slots 7-8 (Fri 15 Mar 2024, 16:00–17:40)",
  occupantSpan: "day 5 slots 5-8",
  occupant: 'locked event fri-english-quiz "English vocabulary quiz"',
};

function sample(key: SummaryKey): Record<string, string> {
  return Object.fromEntries(
    placesOf(SUMMARY_WORDS.en[key]).map((place, index) => [place, SAMPLE[place] ?? `${index + 3}`]),
  );
}

describe("the summary phrases table", () => {
  test("every phrase has its Chinese, with the same places, and no Chinese phrase lacks its English", () => {
    expect(Object.keys(SUMMARY_WORDS.zh).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) {
      expect(SUMMARY_WORDS.zh[key].trim(), key).not.toBe("");
      expect(english(SUMMARY_WORDS.zh[key]), key).toEqual([]);
      expect(placesOf(SUMMARY_WORDS.zh[key]).sort(), key).toEqual(placesOf(SUMMARY_WORDS.en[key]).sort());
    }
  });

  test("every English phrase is read back as it is written (the reader is built from the phrase)", () => {
    for (const key of KEYS) {
      const params = sample(key);
      expect(readSummary(key, saySummary("en", key, params)), key).toEqual(params);
    }
  });

  test("a summary read back is said with the same phrase's Chinese, its places as the Chinese says them", () => {
    const cases: Array<[SummaryKey, Record<string, string>, Record<string, string>]> = [
      ["placed", { id: "t1", where: "day 2 slots 3-4" }, { id: "t1", where: "第2天第3-4节" }],
      [
        "moved",
        { id: "t1", was: "day 1 slots 1-2", where: "day 5 slots 9-10" },
        { id: "t1", was: "第1天第1-2节", where: "第5天第9-10节" },
      ],
      [
        "unplacedFromHost",
        { id: "t1", was: "day 1 slots 1-2", host: "hall" },
        { id: "t1", was: "第1天第1-2节", host: "hall" },
      ],
      ["markedFreed", { id: "t1", mark: "done", status: "placed" }, { id: "t1", mark: "已完成", status: "已安排" }],
      [
        "markedNamed",
        { said: '"积分"', mark: "skipped", status: "pending" },
        { said: "“积分”", mark: "跳过", status: "待安排" },
      ],
      ["reopened", { id: "t1", status: "missed" }, { id: "t1", status: "已错过" }],
      ["classCreated", { id: "calc", said: '"微积分"' }, { id: "calc", said: "“微积分”" }],
      ["verified", { pending: "2" }, { pending: "2" }],
      [
        "alreadyOn",
        { subject: '"矩阵运算复习"', where: "day 2 slots 3-4" },
        { subject: '"矩阵运算复习"', where: "第2天第3-4节" },
      ],
      ["nothingMissed", {}, {}],
      ["nothingToLetGo", {}, {}],
    ];
    for (const [key, english_, chinese] of cases)
      expect(summaryInChinese(saySummary("en", key, english_)), key).toBe(saySummary("zh", key, chinese));
  });

  test("a summary the table does not know (a model's own words) is shown as it is", () => {
    for (const free of [
      "I looked at the week and everything is fine.",
      "Checked the overview; nothing to change.",
      "我看了一下，这周都安排好了。",
    ])
      expect(summaryInChinese(free)).toBe(free);
  });
});

describe("the closing check, said from its facts", () => {
  /** The sample week with the first `missed` of its reviews marked missed. */
  function week(missed: number): ScheduleState {
    const state = sampleWeek();
    let count = 0;
    return {
      ...state,
      tasks: state.tasks.map((task) =>
        task.source === "task_item" && count++ < missed ? { ...task, status: "missed" as const } : task,
      ),
    };
  }

  test.each([0, 2, 8])(
    "%i missed: its Chinese said from the week equals its English read back, with none of the phrases' English",
    (missed) => {
      const state = week(missed);
      const english = SCHEDULE_VERIFICATION.check(state, "en");
      const chinese = SCHEDULE_VERIFICATION.check(state, "zh");
      expect(english.told).toBe(english.summary);
      expect(chinese.summary).toBe(english.summary);
      expect(chinese.told).toBe(summaryInChinese(english.summary));
      expect(chinese.told).not.toMatch(/review task|missed|more|pending|fit somewhere/);
    },
  );

  test("more missed reviews than it names: the Chinese said from the names equals the English read back", () => {
    const names = Array.from({ length: 11 }, (_, index) => `复习 ${index + 1}`);
    expect(missedClause(11, names, "zh")).toBe(summaryInChinese(missedClause(11, names)));
    expect(missedClause(11, names, "zh")).toContain("等（另有 3 项）");
  });
});

describe("a mark the task's state does not take (the offline policy's mark step)", () => {
  const review = sampleWeek().tasks.find((task) => task.source === "task_item")!;
  const states: TaskStatus[] = ["pending", "placed", "done", "missed", "skipped"];
  test.each(states.flatMap((state) => (["done", "missed", "skipped"] as const).map((to) => [state, to] as const)))(
    "%s, marked %s: the English read back says the table's Chinese",
    (state, to) => {
      const task = { ...listedTask(review), kind: state };
      const english = unmarkable(task, to, "en");
      expect(english).toBe(
        saySummary("en", state === to ? "alreadyMarked" : "notMarkable", {
          subject: JSON.stringify(review.name),
          state: state === "skipped" ? "skipped this week" : state,
          mark: to,
        }),
      );
      expect(summaryInChinese(english)).toBe(unmarkable(task, to, "zh"));
      expect(unmarkable(task, to, "zh").replace(JSON.stringify(review.name), "")).not.toMatch(/[A-Za-z]{3,}/);
    },
  );
});

describe("the arrange step's summary (what propose_arrangement's cards left)", () => {
  const zh = (key: SummaryKey, places: Record<string, string> = {}) => saySummary("zh", key, places);

  test("proposed, skipped, left pending with why, already placed: the English read back says the table's Chinese", () => {
    const english = arrangeSummary(
      { skip: ["essay-2", "vocab-1"] },
      [`matrix-review (${saySummary("en", "noFreeSlot")})`, `"calc"${saySummary("en", "noPendingMatch")}`],
      saySummary("en", "alreadyOnSchedule", { ids: "review-limits" }),
    );
    expect(english).toBe(
      'every placement the plan had room for was proposed; skipped: essay-2, vocab-1; left pending: matrix-review (no free slot fits); "calc" (no pending task matches); review-limits already on the schedule',
    );
    expect(summaryInChinese(english)).toBe(
      `${zh("everyProposed")}${zh("proposedSkipped")}essay-2, vocab-1${zh("proposedLeftPending")}matrix-review（${zh("noFreeSlot")}）; "calc"${zh("noPendingMatch")}${zh("alreadyOnSchedule", { ids: "review-limits" })}`,
    );
  });

  test("nothing skipped or left: the heading alone", () => {
    expect(summaryInChinese(arrangeSummary({ skip: [] }, []))).toBe(zh("everyProposed"));
  });
});

describe("the report's lists of writes, within a summary", () => {
  test.each(["applied", "approvedNotApplied"] as const)(
    "%s, past the writes it names: read back against the report's table",
    (key) => {
      const writes = [
        saySummary("en", "placed", { id: "a", where: "day 1 slots 1-2" }),
        saySummary("en", "placed", { id: "b", where: "day 2 slots 1-2" }),
      ];
      const line = (language: "en" | "zh", named: string[]) =>
        sayReport(language, key, {
          count: 6,
          names: sayReport(language, "andMore", { names: named.join("; "), more: 4 }),
        });
      const chinese = writes.map((write) => summaryInChinese(write));
      expect(summaryInChinese(`the week\n${line("en", writes)}\nNext`)).toBe(`the week\n${line("zh", chinese)}\nNext`);
      // The report's own line, not a step's summary, stays as it is when it opens the text.
      expect(summaryInChinese(line("en", ["x"]))).toBe(line("en", ["x"]));
    },
  );
});

describe("a task added to a class (the offline policy's add step)", () => {
  test.each(["Integrals review", "积分复习", 'The "hard" set'])(
    "%s: the English read back says the step's Chinese",
    (name) => {
      const english = addedTaskIn("en", name, "calculus");
      expect(english).toBe(`added task "${name}" to class calculus`);
      expect(summaryInChinese(english)).toBe(addedTaskIn("zh", name, "calculus"));
      expect(addedTaskIn("zh", name, "calculus")).toBe(saySummary("zh", "addedToClass", { name, class: "calculus" }));
    },
  );

  test("by id, as older threads stored it: read back too", () => {
    const places = { id: "integrals-1", name: "Integrals review", class: "calculus" };
    expect(summaryInChinese(saySummary("en", "addedIdToClass", places))).toBe(
      saySummary("zh", "addedIdToClass", places),
    );
    expect(saySummary("zh", "addedIdToClass", places)).toBe(
      "已在课程 calculus 中添加任务 integrals-1“Integrals review”",
    );
  });
});

describe("the refinement's summary (its own table, contracts/refinement-words.ts)", () => {
  const loop = (more: Partial<Optimization>): Optimization => ({
    stepId: "step-1",
    rounds: 3,
    startScore: 70,
    bestScore: 74.5,
    stagnantRounds: 2,
    verdict: "stagnant",
    ...more,
  });
  const loops: Array<[string, Optimization]> = [
    ["refined, stagnant", loop({})],
    ["refined, budget spent", loop({ verdict: "budget" })],
    ["one more placed, forced", loop({ startOpen: 2, open: 1, score: 66, verdict: "forced" })],
    ["not refined, 4 changes passed over", loop({ bestScore: 70, verdict: "passed", offered: 4 })],
    ["not refined, the changes passed over", loop({ bestScore: 70, verdict: "passed" })],
    ["nothing to refine", loop({ bestScore: 70, verdict: "forced" })],
  ];

  test.each(loops)("%s: the English read back says the refinement's Chinese", (_, optimization) => {
    const english = refinementSummary(optimization, SCHEDULE_REFINEMENT);
    expect(summaryInChinese(english)).toBe(refinementSummary(optimization, SCHEDULE_REFINEMENT, "zh"));
    const { minGain, maxRounds, stagnantRounds } = SCHEDULE_REFINEMENT;
    const why = { gain: minGain, rounds: optimization.verdict === "budget" ? maxRounds : stagnantRounds };
    expect(summaryInChinese(english)).toContain(
      `停止原因：${sayRefinement("zh", optimization.verdict as "stagnant", { ...why, turns: stagnantRounds })}`,
    );
    expect(summaryInChinese(english)).not.toMatch(/[A-Za-z]{3,}/);
  });

  test.each(loops)("%s, with reviews forced: each said by id, why in the schedule's words", (_, optimization) => {
    const forced = `review-limits${saySummary("en", "forcedApart")}, essay-2${saySummary("en", "forcedPassed")}`;
    const english = refinementSummary({ ...optimization, forced }, SCHEDULE_REFINEMENT);
    const general = refinementSummary({ ...optimization, forced }, SCHEDULE_REFINEMENT, "zh");
    const head = general.slice(0, -sayRefinement("zh", "forcedInGeneral").length);
    expect(summaryInChinese(english)).toBe(
      `${head}${sayRefinement("zh", "forcedNamed")}review-limits${saySummary("zh", "forcedApart")}, essay-2${saySummary("zh", "forcedPassed")}`,
    );
  });
});

describe("remove_event's and import_calendar's refusals, driven through the tools", () => {
  /** The tool's refusal, without the "error: " the result opens with. */
  function refusal(name: string, state: ScheduleState, args: Record<string, unknown>): string {
    const outcome = runTool(name, state, args);
    expect(outcome.ok).toBe(false);
    return outcome.content.replace(/^error: /, "");
  }

  test("an event a review sits inside, an event a deadline names: each read back as the table says it", () => {
    const placed = runTool("place", sampleWeek(), { task_id: "derivative-drills", day: 1, slot_start: 9 });
    const week = placed.state as ScheduleState;
    const host = week.tasks.find((task) => task.source === "event" && task.embeds.includes("derivative-drills"))!;
    const holds = refusal("remove_event", week, { event_id: host.id });
    expect(holds).toBe(saySummary("en", "eventHolds", { event: JSON.stringify(host.name), ids: "derivative-drills" }));
    expect(summaryInChinese(holds)).toBe(
      saySummary("zh", "eventHolds", { event: JSON.stringify(host.name), ids: "derivative-drills" }),
    );
    const exam = week.tasks.find(
      (task) =>
        task.source === "event" &&
        week.tasks.some(
          (each) =>
            each.source === "task_item" &&
            each.dueBefore !== undefined &&
            "eventId" in each.dueBefore &&
            each.dueBefore.eventId === task.id,
        ),
    )!;
    const deadline = refusal("remove_event", week, { event_id: exam.id });
    const ids = /^the deadline of (.+) is "/.exec(deadline)![1]!;
    expect(summaryInChinese(deadline)).toBe(
      saySummary("zh", "eventIsDeadline", { ids, event: JSON.stringify(exam.name) }),
    );
  });

  test("a file with nothing to add, or nothing new: the refusal's head read back as the table says it", () => {
    const week: ScheduleState = {
      window: datedWindow({ firstDate: "2024-03-25", days: 7, timeZone: "Asia/Shanghai" }),
      now: "2024-03-25T00:00:00.000Z",
      categories: [{ id: "calculus", name: "Calculus" }],
      tasks: [],
    };
    const file = (date: string) =>
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//university//EN",
        "BEGIN:VEVENT",
        "UID:physics@university",
        "SUMMARY:Physics lecture",
        `DTSTART;TZID=Asia/Shanghai:${date}T100000`,
        `DTEND;TZID=Asia/Shanghai:${date}T114000`,
        "END:VEVENT",
        "END:VCALENDAR",
      ].join("\n");
    // A file with no event at all. (A one-off after the window was refused so too, dropped without a word: it is kept
    // for its week now, `calendar-one-offs.test.ts`.)
    const empty = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//university//EN\nEND:VCALENDAR";
    const outside = refusal("import_calendar", week, { ics: empty });
    expect(outside).toBe(saySummary("en", "importNoneInWindow"));
    expect(summaryInChinese(outside)).toBe(saySummary("zh", "importNoneInWindow"));
    expect(runTool("import_calendar", week, { ics: file("20240415") }).ok).toBe(true);
    // A one-off before the window: none falls in it, and the refusal names it.
    const earlier = refusal("import_calendar", week, { ics: file("20240315") });
    const named = "Physics lecture on 2024-03-15: before this window; not added";
    expect(earlier).toBe(saySummary("en", "importNoneEarlier", { skipped: named }));
    expect(summaryInChinese(earlier)).toBe(saySummary("zh", "importNoneEarlier", { skipped: named }));
    const imported = runTool("import_calendar", week, { ics: file("20240327") });
    const again = refusal("import_calendar", imported.state as ScheduleState, { ics: file("20240327") });
    const skipped = again.slice(saySummary("en", "importNothingNew", { skipped: "" }).length);
    expect(again).toBe(saySummary("en", "importNothingNew", { skipped }));
    expect(summaryInChinese(again).startsWith(saySummary("zh", "importNothingNew", { skipped: "" }))).toBe(true);
  });
});

describe("a left-out reason's limits in Chinese", () => {
  // The limits' reader ended them with "：" and the phrase puts one after them: "只在周三：：没有能容纳它的空闲时段".
  test("one colon after the limits", () => {
    expect(summaryInChinese('left pending: "Binary tree review" (no free slot fits only on Wednesday)')).toContain(
      "（只在周三：没有能容纳它的空闲时段）",
    );
    expect(summaryInChinese('left pending: "Essay" (no free slot fits outside Friday, in slots 9-12)')).toContain(
      "（周五以外，第9-12节：没有能容纳它的空闲时段）",
    );
  });
});

describe("a left-out review's limits, written from the table and read back by it", () => {
  /** Why propose_arrangement left `id` pending, run with `args`. */
  function whyLeft(state: ScheduleState, id: string, args: Record<string, unknown>): string {
    const run = runTool("propose_arrangement", state, { task_ids: [id], ...args });
    const left = (run.data as { left?: Array<{ id: string; why: string }> }).left ?? [];
    expect(left.map((entry) => entry.id)).toEqual([id]);
    return left[0]!.why;
  }
  /** A fortnight (a window longer than a week names its days by number), one review of two slots. */
  const fortnight: ScheduleState = {
    window: { totalDays: 14, slotsPerDay: 8, days: consecutiveDays(14) },
    categories: [{ id: "math", name: "Math" }],
    tasks: [{ id: "a", name: "Task a", source: "task_item", duration: 2, categoryId: "math", status: "pending" }],
  };
  const everySlot = (day: number) => Array.from({ length: 12 }, (_, index) => ({ day, slot_start: index + 1 }));
  const en = (key: SummaryKey, params?: Record<string, string | number>) => saySummary("en", key, params);
  const cases: Array<[string, string, string, string]> = [
    [
      whyLeft(sampleWeek(), "matrix-review", { limits: [{ task_id: "matrix-review", days: [5], from: 12 }] }),
      "no free slot fits only on Friday, in slots 12-12",
      `no free slot fits ${en("limitOnlyOn", { days: "Friday" })}${en("limitsAnd")}${en("limitSlots", { start: 12, end: 12 })}`,
      "只在周五，第12-12节：没有能容纳它的空闲时段",
    ],
    [
      whyLeft(sampleWeek(), "derivative-drills", {
        days: [4, 5],
        limits: [{ task_id: "derivative-drills", not_days: [4, 5] }],
      }),
      "no free slot fits outside Thursday and Friday",
      `no free slot fits ${en("limitOutside", { days: `Thursday${en("limitDaysAnd")}Friday` })}`,
      "周四、周五以外：没有能容纳它的空闲时段",
    ],
    [
      whyLeft(sampleWeek(), "vocabulary-list", {
        limits: [{ task_id: "vocabulary-list", days: [5], not_at: everySlot(5) }],
      }),
      "no free slot fits only on Friday, away from the places you rejected",
      `no free slot fits ${en("limitOnlyOn", { days: "Friday" })}${en("limitsAnd")}${en("limitRejected")}`,
      "只在周五，避开你拒绝的位置：没有能容纳它的空闲时段",
    ],
    [
      whyLeft(fortnight, "a", { limits: [{ task_id: "a", days: [3, 9], from: 8 }] }),
      "no free slot fits only on day 3 and day 9, in slots 8-8",
      `no free slot fits ${en("limitOnlyOn", { days: `${en("limitDay", { day: 3 })}${en("limitDaysAnd")}${en("limitDay", { day: 9 })}` })}${en("limitsAnd")}${en("limitSlots", { start: 8, end: 8 })}`,
      "只在第3天、第9天，第8-8节：没有能容纳它的空闲时段",
    ],
  ];

  test.each(cases)(
    "%s: its English as the table writes it, its Chinese as the table says it",
    (why, english, written, chinese) => {
      expect(why).toBe(english);
      expect(why).toBe(written);
      expect(leftOutIn(why, "zh")).toBe(chinese);
      // As the arrange step's summary states it, in brackets after the review's id.
      expect(summaryInChinese(arrangeSummary({ skip: [] }, [`review-limits (${why})`]))).toBe(
        `已为计划中放得下的每个任务提出了安排；仍待安排：review-limits（${chinese}）`,
      );
    },
  );
});

describe("the rules' and the standing preferences' refusals, driven through the tools", () => {
  /**
   * The sample week with rules drawn on it: Calculus keeps one free slot around a session, never on Sunday nor on
   * day 4; derivative-drills not before day 3; matrix-review due before day 5 (review-limits is due before the exam).
   */
  function ruledWeek(): ScheduleState {
    const week = sampleWeek();
    return {
      ...week,
      categories: week.categories.map((category) =>
        category.id === "calculus"
          ? { ...category, bufferSlots: 1, excludedDaysOfWeek: [7], blockedDays: [4] }
          : category,
      ),
      tasks: week.tasks.map((task) =>
        task.id === "derivative-drills" && task.source === "task_item"
          ? { ...task, earliestDay: 3 }
          : task.id === "matrix-review" && task.source === "task_item"
            ? { ...task, dueBefore: { day: 5 } }
            : task,
      ),
    };
  }

  /** The tool's refusal, without the "error: " the result opens with. */
  function refusal(name: string, state: ScheduleState, args: Record<string, unknown>): string {
    const outcome = runTool(name, state, args);
    expect(outcome.ok).toBe(false);
    return outcome.content.replace(/^error: /, "");
  }

  /** `week` after each of `writes` (a tool and its arguments) succeeded. */
  function after(week: ScheduleState, ...writes: Array<[string, Record<string, unknown>]>): ScheduleState {
    return writes.reduce((state, [name, args]) => {
      const outcome = runTool(name, state, args);
      expect(outcome.ok, outcome.content).toBe(true);
      return outcome.state as ScheduleState;
    }, week);
  }

  test("a move or place refused over another task: its head said as the table says it; over the task itself: gone", () => {
    // review-limits on Friday evening keeps slot 12 free; determinant-exercises asked there.
    const week = after(
      ruledWeek(),
      ["place", { task_id: "review-limits", day: 5, slot_start: 10 }],
      ["place", { task_id: "determinant-exercises", day: 3, slot_start: 7 }],
    );
    const head = (language: "en" | "zh", key: "cannotMove" | "cannotPlace", id: string, duration?: number) =>
      saySummary(language, key, { id, ...(duration === undefined ? {} : { duration }) });
    const moved = refusal("move", week, { task_id: "determinant-exercises", day: 5, slot_start: 12 });
    expect(moved.startsWith(head("en", "cannotMove", "determinant-exercises"))).toBe(true);
    const movedWhy = moved.slice(head("en", "cannotMove", "determinant-exercises").length);
    expect(movedWhy.startsWith("task review-limits ")).toBe(true);
    expect(summaryInChinese(moved)).toBe(
      `${head("zh", "cannotMove", "determinant-exercises")}${summaryInChinese(movedWhy)}`,
    );
    const placed = refusal("place", week, { task_id: "vocabulary-list", day: 5, slot_start: 12 });
    const placeHead = head("en", "cannotPlace", "vocabulary-list", 1);
    expect(placed.startsWith(placeHead)).toBe(true);
    expect(summaryInChinese(placed)).toBe(
      `${head("zh", "cannotPlace", "vocabulary-list", 1)}${summaryInChinese(placed.slice(placeHead.length))}`,
    );
    // About the task itself (derivative-drills before its earliest day): the refusal names it once.
    const early = refusal("place", week, { task_id: "derivative-drills", day: 2, slot_start: 3 });
    const earlyHead = head("en", "cannotPlace", "derivative-drills", 1);
    expect(early.startsWith(`${earlyHead}task derivative-drills "`)).toBe(true);
    expect(summaryInChinese(early)).toBe(summaryInChinese(early.slice(earlyHead.length)));
    expect(summaryInChinese(early)).not.toContain("cannot place");
  });

  /** `english` read back, `key`'s English in it said as the table's Chinese from `chinese` (the rest read as ever). */
  function readAround(english: string, key: SummaryKey, places: Record<string, string | number>, chinese = places) {
    const phrase = saySummary("en", key, places);
    expect(english).toContain(phrase);
    const [before, after] = [
      english.slice(0, english.indexOf(phrase)),
      english.slice(english.indexOf(phrase) + phrase.length),
    ];
    expect(summaryInChinese(english)).toBe(
      `${summaryInChinese(before)}${saySummary("zh", key, chinese)}${readablePlaces(after, "zh")}`,
    );
  }

  test("the buffer a class keeps, broken by a task or by an event: read back as the table says it", () => {
    const week = after(ruledWeek(), ["place", { task_id: "review-limits", day: 5, slot_start: 10 }]);
    const name = (id: string) => JSON.stringify(week.tasks.find((task) => task.id === id)!.name);
    const byTask = refusal("place", week, { task_id: "vocabulary-list", day: 5, slot_start: 12 });
    const task = { buffer: 1, className: '"Calculus"', neighbour: `task vocabulary-list ${name("vocabulary-list")}` };
    readAround(byTask, "bufferHeld", task, { ...task, neighbour: `任务 vocabulary-list ${name("vocabulary-list")}` });
    const byEvent = refusal("place", week, { task_id: "derivative-drills", day: 5, slot_start: 4 });
    const event = {
      buffer: 1,
      className: '"Calculus"',
      neighbour: `event fri-english-quiz ${name("fri-english-quiz")}`,
    };
    readAround(byEvent, "bufferHeld", event, {
      ...event,
      neighbour: `活动 fri-english-quiz ${name("fri-english-quiz")}`,
    });
  });

  test("a deadline (a day, an event), an earliest day, a class's day: each read back as the table says it", () => {
    const week = ruledWeek();
    const zh = (places: Record<string, string>) =>
      Object.fromEntries(Object.entries(places).map(([place, value]) => [place, readablePlaces(value, "zh")]));
    const cases: Array<[SummaryKey, string, number, number, Record<string, string>, Record<string, string>?]> = [
      [
        "dueBeforeEvent",
        "derivative-drills",
        6,
        9,
        {
          deadline: 'event sat-calculus-midterm "Calculus midterm exam"',
          deadlineAt: "day 6 slot 3 (Sat 16 Mar 2024, 10:00)",
          where: "day 6 slots 9-9 (Sat 16 Mar 2024, 19:00–19:45)",
        },
      ],
      ["dueBeforeDay", "matrix-review", 6, 9, { due: "day 5 (Fri 15 Mar 2024)", where: "day 6 (Sat 16 Mar 2024)" }],
      [
        "notBeforeEarliest",
        "derivative-drills",
        2,
        3,
        { earliest: "day 3 (Wed 13 Mar 2024)", where: "day 2 (Tue 12 Mar 2024)" },
      ],
      [
        "classExcludesDay",
        "derivative-drills",
        7,
        6,
        { where: "day 7 (Sun 17 Mar 2024)", className: '"Calculus"', weekday: "Sun" },
        { where: "3月17日周日", className: '"Calculus"', weekday: "周日" },
      ],
      ["classBlocksDay", "derivative-drills", 4, 1, { where: "day 4 (Thu 14 Mar 2024)", className: '"Calculus"' }],
    ];
    for (const [key, id, day, slot, places, chinese] of cases) {
      const english = refusal("place", week, { task_id: id, day, slot_start: slot });
      expect(english.startsWith(`cannot place task ${id} `), key).toBe(true);
      readAround(english, key, places, chinese ?? zh(places));
    }
  });

  test("a session across a break, a second session of a habit or long task on a day: the table's, read back", () => {
    // (Driven through the rule itself: the English as rules.ts always wrote it, byte for byte.)
    const week = sampleWeek();
    const item = (id: string) => week.tasks.find((each): each is TaskItem => each.id === id)!;
    const across = placementRuleProblem(item("matrix-review"), { day: 2, start: 4, end: 5 }, ruleBookOf(week))!;
    expect(across).toBe(
      'task matrix-review "Matrix operations review" cannot take day 2 slots 4-5 (Tue 12 Mar 2024, 10:55–14:45): its slots would span the break between 11:40 and 14:00 (a session runs without a break)',
    );
    const where = "day 2 slots 4-5 (Tue 12 Mar 2024, 10:55–14:45)";
    const times = { breakStart: "11:40", breakEnd: "14:00" };
    readAround(across, "acrossBreak", { where, ...times }, { where: readablePlaces(where, "zh"), ...times });

    for (const [kind, what, zh] of [
      ["habit", "habit", "习惯"],
      ["sessions", "task", "任务"],
    ] as const) {
      const group = { id: "algebra-drill", kind };
      const grouped: ScheduleState = {
        ...week,
        tasks: week.tasks.map((task) =>
          task.id === "matrix-review" && task.source === "task_item"
            ? { ...task, group, status: "placed", slots: [{ day: 3, start: 1, end: 2 }] }
            : task.id === "determinant-exercises" && task.source === "task_item"
              ? { ...task, group }
              : task,
        ),
      };
      const second = grouped.tasks.find((each): each is TaskItem => each.id === "determinant-exercises")!;
      const english = placementRuleProblem(second, { day: 3, start: 7, end: 7 }, ruleBookOf(grouped))!;
      expect(english, kind).toBe(
        `task determinant-exercises "Determinant exercises" cannot go on day 3 (Wed 13 Mar 2024): matrix-review, another session of ${what} algebra-drill, is on that day already (no two sessions of one ${what} on one day)`,
      );
      const places = { where: "day 3 (Wed 13 Mar 2024)", other: "matrix-review", what, group: "algebra-drill" };
      readAround(english, "sameDaySession", places, { ...places, where: readablePlaces(places.where, "zh"), what: zh });
    }
  });

  describe("the standing preferences'", () => {
    const MONDAY: StandingRule = { kind: "avoid_day", value: 1, text: "never on Monday", id: "p-1" };
    const AFTERNOONS: StandingRule = {
      kind: "only_part_of_day",
      value: "afternoon",
      text: "afternoons only",
      id: "p-3",
    };
    const MORNINGS: StandingRule = { kind: "only_part_of_day", value: "morning", text: "mornings only", id: "p-5" };
    const LATE: StandingRule = { kind: "not_before_hour", value: 14, text: "never before 14", id: "p-4" };
    const under = (...standing: StandingRule[]): ScheduleState => ({ ...sampleWeek(), standing });
    const lift = (rule: StandingRule) =>
      rule.kind === "avoid_day"
        ? (["liftStandingDay", { rule: rule.id, weekday: "Monday" }, { rule: rule.id, weekday: "周一" }] as const)
        : (["liftStanding", { rule: rule.id }, { rule: rule.id }] as const);

    test.each([
      [
        "a day ruled out",
        [MONDAY],
        "review-limits",
        1,
        5,
        "standingDayOut",
        { where: "day 1 (Mon 11 Mar 2024)", weekday: "Mon" },
      ],
      ["a start too early", [AFTERNOONS], "vocabulary-list", 2, 3, "standingStartRange", { slot: 3, from: 5, to: 8 }],
      ["an end too late", [AFTERNOONS], "vocabulary-list", 2, 12, "standingEndBy", { slot: 12, to: 8 }],
      ["no slot of the day left", [MORNINGS, LATE], "vocabulary-list", 2, 3, "standingStartNone", { slot: 3 }],
    ] as const)(
      "%s: the refusal and how to lift it read back as the table says them",
      (_, rules, id, day, slot, key, places) => {
        const english = refusal("place", under(...rules), { task_id: id, day, slot_start: slot });
        const rule = key === "standingStartNone" ? LATE : key === "standingDayOut" ? MONDAY : AFTERNOONS;
        const said = JSON.stringify(rule.text);
        const [liftKey, liftEnglish, liftChinese] = lift(rule);
        expect(english.endsWith(saySummary("en", liftKey, liftEnglish))).toBe(true);
        const zh = summaryInChinese(english);
        expect(zh.endsWith(saySummary("zh", liftKey, liftChinese))).toBe(true);
        readAround(
          english.slice(0, -saySummary("en", liftKey, liftEnglish).length),
          key,
          { ...places, said },
          {
            ...places,
            said: `“${rule.text}”`,
            ...("where" in places ? { where: readablePlaces(places.where, "zh"), weekday: "周一" } : {}),
          },
        );
        expect(zh).not.toMatch(/standing preference|to change it|fine now|cannot/);
      },
    );

    test("no end to the slots allowed: the start's refusal says from which slot", () => {
      const week = under(AFTERNOONS);
      const book = ruleBookOf(week);
      const open = { ...book, standing: { ...book.standing, to: undefined } };
      const task = week.tasks.find((each): each is TaskItem => each.id === "vocabulary-list")!;
      const english = placementRuleProblem(task, { day: 2, start: 3, end: 3 }, open)!;
      const places = { slot: 3, said: JSON.stringify(AFTERNOONS.text), from: 5 };
      expect(english).toContain(saySummary("en", "standingStartFrom", places));
      expect(summaryInChinese(english)).toContain(
        saySummary("zh", "standingStartFrom", { ...places, said: `“${AFTERNOONS.text}”` }),
      );
    });

    test("find_free: the days they leave out, and a window they rule out whole", () => {
      const free = runTool("find_free", under(MONDAY), { min_length: 1 });
      expect(free.content).toContain(saySummary("en", "standingDaysLeftOut", { days: "1" }));
      expect(summaryInChinese(free.content)).toContain(saySummary("zh", "standingDaysLeftOut", { days: "1" }));
      const wednesdays: StandingRule = { kind: "only_days", value: [3], text: "only Wednesdays", id: "p-6" };
      const none = refusal("find_free", under(wednesdays, { ...MONDAY, value: 3, text: "never on Wednesday" }), {});
      expect(none).toBe(saySummary("en", "standingEveryDay"));
      expect(summaryInChinese(none)).toBe(saySummary("zh", "standingEveryDay"));
    });
  });
});

describe("the offline policy's own refusals and matching words, said from the table", () => {
  const zh = (key: SummaryKey, places: Record<string, string> = {}) => saySummary("zh", key, places);
  const slotTimes = sampleWeek().window.slotTimes!;

  test.each([
    ["between two starts", "08:30", "noSlotStartsAt", { at: "08:30", near: "08:00 and 08:55" }],
    ["after the last start", slotTimes.at(-1)!.start.replace(/:(\d)/, ":5"), "noSlotStartsAt", undefined],
    ["before the day's first slot", "06:00", "outsideDaySlots", undefined],
    ["after the day's last slot", "23:00", "outsideDaySlots", undefined],
  ] as const)("a clock time %s: the move step's English read back says the table's Chinese", (_, at, key, places) => {
    const timed = slotStartingAt(at, { slotTimes });
    expect("why" in timed).toBe(true);
    const why = (timed as { why: string }).why;
    const read = readSummary(key, why)!;
    expect(read).toBeDefined();
    if (places) expect(read).toEqual(places);
    for (const [tool, after] of [
      ["nothingMoved", "nothingMoved"],
      ["nothingPlaced", "nothingPlaced"],
    ] as const) {
      const summary = `${why}${saySummary("en", tool)}`;
      const near = read.near?.replace(" and ", " 和 ");
      expect(summaryInChinese(summary)).toBe(`${zh(key, { ...read, ...(near ? { near } : {}) })}${zh(after)}`);
    }
  });

  test("a window without clock times, and a time with no day: the English read back says the table's Chinese", () => {
    const untimed = slotStartingAt("14:00", { slotTimes: [] }) as { why: string };
    expect(untimed.why).toBe(saySummary("en", "noClockTimes", { at: "14:00" }));
    expect(summaryInChinese(untimed.why)).toBe(zh("noClockTimes", { at: "14:00" }));
    const noDay = saySummary("en", "nameADay", { at: "14:00" });
    expect(noDay).toBe('name a day with the time (such as "on Friday at 14:00")');
    expect(summaryInChinese(`${noDay}; nothing was placed`)).toBe(
      `${zh("nameADay", { at: "14:00" })}${zh("nothingPlaced")}`,
    );
  });

  test.each([false, true])(
    "no free time where asked (the time passed left out: %s): read back as the table says it",
    (passed) => {
      const review = listedTask(sampleWeek().tasks.find((task) => task.source === "task_item")!);
      const english = noFreeTimeWhereAsked(review, passed);
      const key = passed ? "noFreeTimeAskedPassed" : "noFreeTimeAsked";
      const places = { length: String(review.duration), subject: JSON.stringify(review.name) };
      expect(english).toBe(saySummary("en", key, places));
      expect(summaryInChinese(english)).toBe(zh(key, places));
    },
  );

  test.each([
    ["unplace", undefined, "rejectedIt"],
    ["swap", SUMMARY_WORDS.en.rejectedSwap, "rejectedSwap"],
    ["move", SUMMARY_WORDS.en.rejectedMove, "rejectedMove"],
    ["import_calendar", SUMMARY_WORDS.en.rejectedImport, "rejectedImport"],
  ] as const)(
    "%s rejected on its card: the step's ending read back says the table's Chinese",
    (tool, rejected, key) => {
      const round = {
        name: tool,
        arguments: {},
        speak: "",
        result: "Not applied: the user rejected this change without comment. Choose a different action.",
        summarised: false,
        outcome: "declined" as const,
      };
      const ended = writeEnding([round], [tool], "done", undefined, "en", rejected)!;
      const reason = String(ended.goal_check).replace(/^not carried out: /, "");
      expect(reason).toBe(saySummary("en", key));
      expect(summaryInChinese(reason)).toBe(zh(key));
      // The move's ending may add the user's unclear words in brackets: they stay as written.
      expect(summaryInChinese(`${reason} ("maybe later")`)).toBe(`${zh(key)} ("maybe later")`);
    },
  );

  test("a locked event a swap never moves: the swap step's English, and older threads' shapes, read back", () => {
    const event = sampleWeek().tasks.find((task) => task.source === "event")!;
    const english = lockedFromSwap({ ...listedTask(event), locked: true });
    const said = JSON.stringify(event.name);
    expect(english).toBe(
      `the event ${said} is locked, and a swap never moves it; if its time really changed, ask me to move it`,
    );
    expect(summaryInChinese(english)).toBe(zh("lockedEvent", { event: said }));
    expect(summaryInChinese(english.replace("the event ", ""))).toBe(zh("lockedBare", { event: said }));
    expect(summaryInChinese(english.replace("the event ", `event ${event.id} `))).toBe(
      zh("lockedEventId", { id: event.id, event: said }),
    );
  });

  test('what a step\'s words name matches nothing, or too much: each shape read back, its " or " said with 或', () => {
    const asked = '"the matrix thing" or "矩阵"';
    const said = '"the matrix thing" 或 "矩阵"';
    expect(noTaskFound(asked)).toBe(`I found no task matching ${asked}`);
    expect(summaryInChinese(noTaskFound(asked))).toBe(zh("noTaskFound", { matching: said }));
    // The task step's ending as the explain step writes it, with a full stop.
    expect(summaryInChinese(`${noTaskFound(asked)}.`)).toBe(`${zh("noTaskFound", { matching: said })}.`);
    const cases: Array<[SummaryKey, Record<string, string>]> = [
      ["noTaskListed", { matching: '"calc"' }],
      ["noPlacedTaskFound", { matching: '"calc"' }],
      ["noPlacedTaskListed", { matching: '"calc"' }],
      ["noEventFound", { matching: asked }],
      ["noEventListed", { matching: asked }],
      ["matchesEvents", { matching: asked, count: "2", ids: "lecture-tue, lecture-thu" }],
      ["stillMatchesEvents", { matching: asked, count: "2", ids: "lecture-tue, lecture-thu" }],
      ["noPendingTaskMatches", { matching: '"calc", "essay" or "微积分"' }],
    ];
    for (const [key, places] of cases) {
      const chinese = { ...places, matching: places.matching!.replace(/" or "/g, '" 或 "') };
      expect(summaryInChinese(saySummary("en", key, places)), key).toBe(zh(key, chinese));
    }
  });

  test("a step not carried out: its reason read as a summary of its own, even where read from its start", () => {
    const reasons = [
      slotStartingAt("08:30", { slotTimes }) as { why: string },
      {
        why: lockedFromSwap({
          ...listedTask(sampleWeek().tasks.find((task) => task.source === "event")!),
          locked: true,
        }),
      },
    ].map(({ why }) => why);
    for (const reason of reasons) {
      const english = notCarriedOut(reason).summary;
      expect(english).toBe(`not carried out: ${reason}`);
      expect(summaryInChinese(english)).toBe(zh("notCarriedOut", { reason: summaryInChinese(reason) }));
      expect(summaryInChinese(english).replace(/"[^"]*"/g, "")).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  test.each([
    ["declinedUndo", "the undo"],
    ["declinedRecovery", "the recovery"],
    ["declinedChange", "the change"],
    ["declinedSkipDay", "skipping the day's reviews"],
    ["declinedClearDay", "clearing the day"],
  ] as const)("a card declined (%s): the stored English, and its reason alone, read back", (key, what) => {
    const english = notCarriedOut(saySummary("en", key)).summary;
    expect(english).toBe(`not carried out: you declined ${what}`);
    expect(summaryInChinese(english)).toBe(zh("notCarriedOut", { reason: zh(key) }));
    // The single step's answer says the reason alone (`finalAnswer`): in Chinese too.
    expect(summaryInChinese(saySummary("en", key))).toBe(zh(key));
  });

  test("the refinement declined: the stored English read back", () => {
    const english = notCarriedOut(saySummary("en", "declinedRefinement")).summary;
    expect(english).toBe("not carried out: you declined the refinement; the week stays as arranged");
    expect(summaryInChinese(english)).toBe(zh("notCarriedOut", { reason: zh("declinedRefinement") }));
  });
});

describe("a step not carried out: the reasons the offline steps write, said from the table", () => {
  const zh = (key: SummaryKey, places: Record<string, string> = {}) => saySummary("zh", key, places);
  /** A view with the rounds `rounds` and the live overview of `state` (as the preflight's get_overview gives it). */
  const viewOf = (state: ScheduleState, rounds: RoundView[] = []): PromptView => ({
    stage: "execute",
    system: "",
    context: "",
    workspace: [],
    rounds,
    contextData: { live_state: runTool("get_overview", state).data },
  });
  /** A tool's round as the prompt shows it, with its data. */
  const roundOf = (name: string, state: ScheduleState, args: Record<string, unknown>): RoundView => {
    const run = runTool(name, state, args);
    return { name, arguments: args, speak: "", result: run.content, summarised: false, data: run.data };
  };
  /** The reason of a finish after "not carried out: ", and its whole summary and the reason alone, in Chinese. */
  const reasonOf = (decision: { goal_check?: string }) => {
    const summary = String(decision.goal_check);
    expect(summary.startsWith("not carried out: ")).toBe(true);
    return summary.slice("not carried out: ".length);
  };
  const readsBack = (reason: string, chinese: string) => {
    expect(summaryInChinese(reason)).toBe(chinese);
    expect(summaryInChinese(notCarriedOut(reason).summary)).toBe(zh("notCarriedOut", { reason: chinese }));
  };

  test('an event the step names that the schedule does not have: "no event matches" read back', () => {
    const week = sampleWeek();
    const listed = roundOf("list_tasks", week, { source: "event", limit: 100 });
    const named = eventNamed(viewOf(week, [listed]), "Chemistry", "done", "en", "placed");
    expect("decision" in named).toBe(true);
    const reason = reasonOf((named as { decision: { goal_check?: string } }).decision);
    expect(reason).toBe('no event matches "Chemistry"');
    expect(reason).toBe(saySummary("en", "noEventMatches", { phrase: "Chemistry" }));
    readsBack(reason, zh("noEventMatches", { phrase: "Chemistry" }));
  });

  test('a class the add and rules steps name that the schedule does not have: "no class matches" read back', () => {
    const view = viewOf(sampleWeek());
    const steps = [
      addTaskStep(view, { kind: "add_task", name: "Lab report", classPhrase: "Chemistry", duration: 2 }, "done", "en"),
      classRulesStep(
        view,
        { kind: "class_rules", classPhrase: "Chemistry", parts: ["morning"], excludedWeekdays: [] },
        "done",
        "en",
      ),
    ];
    for (const step of steps) {
      const reason = reasonOf(step);
      expect(reason).toBe('no class matches "Chemistry"');
      expect(reason).toBe(saySummary("en", "noClassMatches", { phrase: "Chemistry" }));
      readsBack(reason, zh("noClassMatches", { phrase: "Chemistry" }));
    }
  });

  test('a long task that was not added: "has no sessions to place" read back, its names in Chinese quotes', () => {
    const step = noSessionsStep(viewOf(sampleWeek()), ["Lab report", "Essay outline"], "done", "en");
    expect(step).toBeDefined();
    const reason = reasonOf(step!);
    expect(reason).toBe('"Lab report", "Essay outline" has no sessions to place');
    expect(reason).toBe(saySummary("en", "noSessionsToPlace", { names: '"Lab report", "Essay outline"' }));
    readsBack(reason, zh("noSessionsToPlace", { names: "“Lab report”、“Essay outline”" }));
  });

  test("the move step: an event on several ranges, a task with no place to shift from, read back", () => {
    const week = sampleWeek();
    const event = listedTask(week.tasks.find((task) => task.source === "event")!);
    const spread = cannotMoveSpread({ ...event, slots: [...event.slots, ...event.slots] });
    expect(spread).toBe(`the event ${JSON.stringify(event.name)} cannot move (it is not on a single slot range)`);
    const subject = zh("theEvent", { event: JSON.stringify(event.name) });
    expect(subject).toBe(`活动${JSON.stringify(event.name)}`);
    readsBack(spread, zh("cannotMoveSpread", { subject }));
    const pending = listedTask(week.tasks.find((task) => task.source === "task_item" && task.status === "pending")!);
    const unplaced = noPlaceToMoveFrom(pending);
    expect(unplaced).toBe(`${JSON.stringify(pending.name)} has no place to move from`);
    readsBack(unplaced, zh("noPlaceToMoveFrom", { subject: JSON.stringify(pending.name) }));
  });

  test.each([
    [{ days: 1 }, "a day later", "shiftDayLater", {}],
    [{ days: -1 }, "a day earlier", "shiftDayEarlier", {}],
    [{ days: 2 }, "2 days later", "shiftDaysLater", { count: "2" }],
    [{ days: -3 }, "3 days earlier", "shiftDaysEarlier", { count: "3" }],
    [{ minutes: 60 }, "60 minutes later", "shiftMinutesLater", { count: "60" }],
    [{ minutes: -1 }, "1 minutes earlier", "shiftMinutesEarlier", { count: "1" }],
    [{ sameDay: "later" }, "later the same day", "shiftLaterSameDay", {}],
    [{ sameDay: "earlier" }, "earlier the same day", "shiftEarlierSameDay", {}],
  ] as const)(
    "no free time fits a shift (%o): read back, the shift and an event said in Chinese",
    (shift, said, key, places) => {
      const week = sampleWeek();
      const tasks = [
        listedTask(week.tasks.find((task) => task.source === "task_item")!),
        listedTask(week.tasks.find((task) => task.source === "event")!),
      ];
      for (const task of tasks) {
        const name = JSON.stringify(task.name);
        const english = noFreeTimeShifted(task, shift);
        const subject = task.kind === "event" ? `the event ${name}` : name;
        expect(english).toBe(`no free time fits ${subject} ${said}`);
        const chinese = zh("noFreeTimeShifted", {
          subject: task.kind === "event" ? zh("theEvent", { event: name }) : name,
          shift: zh(key, places),
        });
        readsBack(english, chinese);
        expect(summaryInChinese(english).replace(/"[^"]*"/g, "")).not.toMatch(/[A-Za-z]{3,}/);
      }
    },
  );

  /** A view of the execute stage at step `content` (the only step), asked in Chinese as `goal`. */
  const stepView = (content: string, state: ScheduleState, rounds: RoundView[], goal: string): PromptView => ({
    ...viewOf(state, rounds),
    context: `Goal: ${goal}\nCurrent step (1 of 1): ${content}`,
  });
  /** `readsBack`, and no English left in the Chinese (names in quotes, ids and commands such as /import aside). */
  const readsBackInChinese = (reason: string, chinese: string) => {
    readsBack(reason, chinese);
    expect(english(chinese.replace(/"[^"]*"/g, "").replace(/[\w-]+-[\w-]+/g, ""))).toEqual([]);
  };

  test("an arrangement the step cannot read (a listing without its data): read back", () => {
    const week = sampleWeek();
    const listing: RoundView = {
      name: "propose_arrangement",
      arguments: {},
      speak: "",
      result: "arrangement listed",
      summarised: false,
      outcome: "done",
    };
    const request = parseScheduleRequest("place the essay draft");
    expect(request.kind).toBe("arrange");
    const view = stepView("Place the essay draft", week, [listing], "安排英语作文草稿");
    const step = arrangeStep(view, request as Extract<typeof request, { kind: "arrange" }>, weekFactsOf(view), "done");
    const reason = reasonOf(step);
    expect(reason).toBe("the arrangement could not be read");
    readsBackInChinese(reason, zh("arrangementUnread"));
  });

  test("an import step run again without its calendar file: read back, the stored summary in English", () => {
    const view = stepView("从日历文件导入课表 week.ics", sampleWeek(), [], "导入课表");
    const reason = reasonOf(calendarExecute(view)!);
    expect(reason).toBe("the calendar file is no longer attached to this request; send it again (/import <file.ics>)");
    readsBackInChinese(reason, zh("calendarGone"));
  });

  test("the tasks named are done or skipped; an unplace of what is not placed; a shift past the window: read back", () => {
    const settled = saySummary("en", "settledNotPending", {
      settled: ["essay-draft is done", "matrix-review is skipped"].join(", "),
    });
    expect(settled).toBe("essay-draft is done, matrix-review is skipped, not pending");
    readsBackInChinese(
      settled,
      zh("settledNotPending", {
        settled: `${zh("settledAs", { id: "essay-draft", status: "已完成" })}，${zh("settledAs", { id: "matrix-review", status: "已跳过" })}`,
      }),
    );
    for (const [subject, chineseSubject, why] of [
      ['"Derivative practice set"', '"Derivative practice set"', "pendingAlready"],
      ['the event "Physics lab"', zh("theEvent", { event: '"Physics lab"' }), "onlyReviewsUnplaced"],
    ] as const)
      readsBackInChinese(
        saySummary("en", "cannotUnplace", { subject, unplaceWhy: saySummary("en", why) }),
        zh("cannotUnplace", { subject: chineseSubject, unplaceWhy: zh(why) }),
      );
    const shifted = saySummary("en", "outsideSchedule", { shift: saySummary("en", "shiftDayLater") });
    expect(shifted).toBe("a day later is outside the schedule");
    readsBackInChinese(shifted, zh("outsideSchedule", { shift: zh("shiftDayLater") }));
    const before = saySummary("en", "noDayBefore", { phrase: "calculus lecture" });
    expect(before).toBe("no day comes before the calculus lecture");
    expect(summaryInChinese(before)).toBe(zh("noDayBefore", { phrase: "calculus lecture" }));
    const step = saySummary("en", "notUnderstood", { step: '给"妈妈"打电话' });
    expect(step).toBe('the offline policy does not understand the step "给"妈妈"打电话"');
    readsBackInChinese(step, zh("notUnderstood", { step: '给"妈妈"打电话' }));
  });
});

describe("reasons stored in English, said in the user's language from the table (the undo, recovery and long-task steps)", () => {
  const zh = (key: SummaryKey, places: Record<string, string> = {}) => saySummary("zh", key, places);
  /** A listing round of `tool` with `data`, as the prompt shows it. */
  const listed = (name: string, data: unknown): RoundView => ({
    name,
    arguments: {},
    speak: "",
    result: "listed",
    summarised: false,
    outcome: "done",
    data,
  });
  /** The summary a step stored: English, the same in a Chinese conversation as in an English one. */
  const stored = (decide: (language: "en" | "zh") => { goal_check?: string }) => {
    const [english, chinese] = (["en", "zh"] as const).map((language) => String(decide(language).goal_check));
    expect(chinese).toBe(english);
    return english!;
  };

  test.each([
    {
      what: "nothing applied yet",
      listing: { empty: NOTHING_TO_UNDO.none },
      english: "there is nothing I can undo — no change was applied in this conversation yet",
      chinese: "没有可以撤销的修改——这次对话里还没有应用过任何修改",
    },
    {
      what: "the last change another domain's",
      listing: { empty: NOTHING_TO_UNDO.elsewhere, elsewhere: ["add_todo", "complete_todo"] },
      english:
        "there is nothing I can undo — the last change (add_todo, complete_todo) was not to your schedule, and I can take back schedule changes only",
      chinese: "没有可以撤销的修改——上一次的修改（add_todo, complete_todo）不是对日程的修改，这里只能撤销日程的修改",
    },
    {
      what: "none of its writes can be undone, a reason holding a semicolon, a task by its name",
      listing: {
        empty: NOTHING_TO_UNDO.gone,
        kept: [
          {
            write: "mark_missed t1",
            why: "a task is missed only from its place, which has passed; reopen it to reschedule it",
          },
          { write: "place t2", why: "it has been removed since" },
        ],
        // (t2's name not known: it is said by its write, as a listing read back from its text says it.)
        names: { t1: "Limits review" },
      },
      english:
        'there is nothing I can undo — nothing of the last change can be undone now; "Limits review": a task is missed only from its place, which has passed; reopen it to reschedule it; place t2: it has been removed since',
      chinese:
        "没有可以撤销的修改——上一次修改中已没有可以撤销的部分；“Limits review”：任务只会在它的时间过去后被记为错过；要重新安排，请先重新打开它；place t2：它之后已被删除",
    },
  ])(
    "the undo, $what: stored in English, said in Chinese as the step said it before",
    ({ listing, english, chinese }) => {
      const round = listed("propose_undo", { candidates: [], undone: [], kept: [], ...listing });
      const summary = stored((language) => undoStep([round], "done", undefined, language));
      expect(summary).toBe(notCarriedOut(english).summary);
      expect(summaryInChinese(summary)).toBe(zh("notCarriedOut", { reason: chinese }));
      // A thread saved while the step stored its reason in Chinese reads back as it did.
      expect(summaryInChinese(notCarriedOut(chinese).summary)).toBe(zh("notCarriedOut", { reason: chinese }));
    },
  );

  test("the recovery with nothing to recover: stored in English, said in Chinese as the step said it before", () => {
    const round = listed("propose_recovery", { candidates: [], recovers: [], displaces: [], empty: NO_RECOVERY.safe });
    const summary = stored((language) => recoverStep([round], "done", undefined, language));
    expect(summary).toBe(notCarriedOut("there is no change to recover — no review with a deadline is at risk").summary);
    const chinese = "没有可以补救的修改——没有有截止日期的复习处于风险中";
    expect(summaryInChinese(summary)).toBe(zh("notCarriedOut", { reason: chinese }));
    expect(summaryInChinese(notCarriedOut(chinese).summary)).toBe(zh("notCarriedOut", { reason: chinese }));
  });

  test.each([
    {
      what: "no class it belongs to",
      name: "写报告",
      dueWeekday: 5,
      english:
        'I could not tell which class "写报告" belongs to; say it with the class, as "写报告, 4 hours, before Friday, for English"',
      chinese: "我无法判断“写报告”属于哪门课程；请带上课程说，例如“给英语添加任务：写报告，4小时，周五前”",
    },
    {
      what: "a weekday the week does not show",
      name: "English essay",
      dueWeekday: 8,
      english: "that weekday is not in the week shown",
      chinese: "所显示的这一周里没有那一天",
    },
  ])("a long task with $what: stored in English, said in Chinese as the step said it before", (each) => {
    const view: PromptView = {
      stage: "execute",
      system: "",
      context: "",
      workspace: [],
      rounds: [],
      contextData: { live_state: runTool("get_overview", sampleWeek()).data },
    };
    const request = { kind: "add_long_task" as const, name: each.name, minutes: 240, dueWeekday: each.dueWeekday };
    const steps = (["en", "zh"] as const).map((language) => addLongTaskStep(view, request, "done", language));
    const summary = stored((language) => steps[language === "en" ? 0 : 1]!);
    expect(summary).toBe(notCarriedOut(each.english).summary);
    expect(summaryInChinese(summary)).toBe(zh("notCarriedOut", { reason: each.chinese }));
    expect(summaryInChinese(notCarriedOut(each.chinese).summary)).toBe(zh("notCarriedOut", { reason: each.chinese }));
    // What the step says: each language its own, from the same phrase.
    expect(steps.map((step) => step.speak)).toEqual([
      `Nothing was added: ${each.english}.`,
      `没有添加：${each.chinese}。`,
    ]);
  });
});

describe("where a write does not fit (issue 45), driven through the tools: said from the table", () => {
  /** The tool's refusal, without the "error: " the result opens with. */
  function refusal(name: string, state: ScheduleState, args: Record<string, unknown>): string {
    const outcome = runTool(name, state, args);
    expect(outcome.ok).toBe(false);
    return outcome.content.replace(/^error: /, "");
  }
  const zh = (key: SummaryKey, places: Record<string, string | number>) => saySummary("zh", key, places);
  const moveHead = (id: string) => zh("cannotMove", { id });
  /** The sample week, the matrix review placed on Tuesday 10:00–11:40 (day 2 slots 3-4), so it can be moved. */
  function placedWeek(): ScheduleState {
    const placed = runTool("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 3 });
    expect(placed.ok, placed.content).toBe(true);
    return placed.state as ScheduleState;
  }
  /** The English words of the reasons, none of which may be left in the Chinese. */
  const REASON_WORDS = /overlaps|outside|past the end|partly|embeddable|embedded|only task items|entirely/;

  test("a day outside the window, a slot outside the day, slots past its end: read back as the table says it", () => {
    const week = placedWeek();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { task_id: "matrix-review", day: 9, slot_start: 3 },
        "cannot move task matrix-review: day 9 is outside the window (days 1-7)",
        zh("outsideWindow", { day: 9, lastDay: 7 }),
      ],
      [
        { task_id: "matrix-review", day: 5, slot_start: 13 },
        "cannot move task matrix-review: slot 13 is outside the day (slots 1-12)",
        zh("outsideDay", { slot: 13, lastSlot: 12 }),
      ],
      [
        { task_id: "matrix-review", day: 5, slot_start: 12 },
        "cannot move task matrix-review: slots 12-13 run past the end of the day (slots 1-12)",
        zh("pastDayEnd", { start: 12, end: 13, lastSlot: 12 }),
      ],
    ];
    for (const [args, english, chinese] of cases) {
      const said = refusal("move", week, args);
      expect(said).toBe(english);
      expect(summaryInChinese(said)).toBe(`${moveHead("matrix-review")}${chinese}`);
      expect(summaryInChinese(said)).not.toMatch(REASON_WORDS);
    }
  });

  test("over an event, a locked one, a task: the English as it was, the Chinese the table's", () => {
    const week = placedWeek();
    const lab = refusal("move", week, { task_id: "matrix-review", day: 5, slot_start: 7 });
    expect(lab).toBe(
      'cannot move task matrix-review: day 5 slots 7-8 (Fri 15 Mar 2024, 16:00–17:40) overlaps event fri-physics-lab "Physics lab" on day 5 slots 5-8 (Fri 15 Mar 2024, 14:00–17:40)',
    );
    expect(summaryInChinese(lab)).toBe(
      `${moveHead("matrix-review")}${zh("overlapsOccupant", {
        span: "3月15日周五 16:00–17:40",
        occupant: '活动 fri-physics-lab "Physics lab"',
        occupantSpan: "3月15日周五 14:00–17:40",
      })}`,
    );
    const quiz = refusal("move", week, { task_id: "matrix-review", day: 5, slot_start: 3 });
    expect(quiz).toContain('overlaps locked event fri-english-quiz "English vocabulary quiz" on day 5 slots 3-3');
    expect(summaryInChinese(quiz)).toContain(
      ' 与 已锁定的活动 fri-english-quiz "English vocabulary quiz"（3月15日周五',
    );
    const placed = runTool("place", week, { task_id: "determinant-exercises", day: 3, slot_start: 7 });
    expect(placed.ok, placed.content).toBe(true);
    const task = refusal("move", placed.state as ScheduleState, { task_id: "matrix-review", day: 3, slot_start: 7 });
    expect(task).toContain('overlaps task determinant-exercises "Determinant exercises" on day 3 slots 7-7');
    expect(summaryInChinese(task)).toContain(' 与 任务 determinant-exercises "Determinant exercises"（3月13日周三');
    for (const said of [lab, quiz, task]) expect(summaryInChinese(said)).not.toMatch(REASON_WORDS);
  });

  test("an embeddable event: an event moved over it, a review partly inside, one over a review inside — its name said", () => {
    const week = placedWeek();
    const library = { id: "sun-library", event: '"Library study block"' };
    const event = refusal("move", week, { task_id: "fri-physics-lab", day: 7, slot_start: 1 });
    expect(event).toBe(
      'cannot move task fri-physics-lab: day 7 slots 1-4 (Sun 17 Mar 2024, 08:00–11:40) overlaps embeddable event sun-library "Library study block"; only task items can sit inside it',
    );
    expect(summaryInChinese(event)).toBe(
      `${moveHead("fri-physics-lab")}${zh("overlapsEmbeddable", { span: "3月17日周日 08:00–11:40", ...library })}`,
    );
    // (The event's name beside its id: before, "embeddable event sun-library (…)" named the id alone.)
    const partly = refusal("move", week, { task_id: "matrix-review", day: 7, slot_start: 4 });
    expect(partly).toBe(
      'cannot move task matrix-review: day 7 slots 4-5 (Sun 17 Mar 2024, 10:55–14:45) is only partly inside embeddable event sun-library "Library study block" (day 7 slots 1-4 (Sun 17 Mar 2024, 08:00–11:40)); place it entirely inside or entirely outside',
    );
    expect(summaryInChinese(partly)).toBe(
      `${moveHead("matrix-review")}${zh("partlyInside", {
        span: "3月17日周日 10:55–14:45",
        ...library,
        occupantSpan: "3月17日周日 08:00–11:40",
      })}`,
    );
    const inside = runTool("place", week, { task_id: "determinant-exercises", day: 7, slot_start: 2 });
    expect(inside.ok, inside.content).toBe(true);
    const over = refusal("move", inside.state as ScheduleState, { task_id: "matrix-review", day: 7, slot_start: 1 });
    expect(over).toBe(
      'cannot move task matrix-review: day 7 slots 1-2 (Sun 17 Mar 2024, 08:00–09:40) overlaps task determinant-exercises "Determinant exercises" already embedded in event sun-library "Library study block" on day 7 slots 2-2 (Sun 17 Mar 2024, 08:55–09:40)',
    );
    expect(summaryInChinese(over)).toBe(
      `${moveHead("matrix-review")}${zh("overlapsEmbedded", {
        span: "3月17日周日 08:00–09:40",
        occupant: '任务 determinant-exercises "Determinant exercises"',
        ...library,
        occupantSpan: "3月17日周日 08:55–09:40",
      })}`,
    );
    for (const said of [event, partly, over]) expect(summaryInChinese(said)).not.toMatch(REASON_WORDS);
  });
});

describe("a refusal of the clock, stored in English, said in Chinese from the table", () => {
  const dated = sampleWeek().window;
  const weekly = { days: consecutiveDays(7) };
  const bare = { days: [] };
  test.each([
    ...(["move", "unplace", "remove"] as const).flatMap((write) => [
      { write, window: dated, range: { day: 1, start: 5, end: 6 } },
      { write, window: dated, range: { day: 3, start: 9, end: 9 } },
      { write, window: weekly, range: { day: 2, start: 3, end: 4 } },
      { write, window: bare, range: { day: 4, start: 7, end: 7 } },
    ]),
  ])("$write, on $range.day slots $range.start-$range.end", ({ write, window, range }) => {
    const refusal = { refused: "past" as const, write, task: { id: "t1", name: "Matrix, review (x)" }, range };
    const english = pastRefusalText(refusal, window, "en");
    const chinese = pastRefusalText(refusal, window, "zh");
    expect(summaryInChinese(notCarriedOut(english).summary)).toBe(
      saySummary("zh", "notCarriedOut", { reason: chinese }),
    );
    // A thread saved while the step stored the Chinese reads back as it did.
    expect(summaryInChinese(notCarriedOut(chinese).summary)).toBe(
      saySummary("zh", "notCarriedOut", { reason: chinese }),
    );
  });
});

describe("why a review of a shift of every review stays, read back into Chinese", () => {
  const dated = "day 5 (Fri 15 Mar 2024)";
  test.each([
    [saySummary("en", "noRoomOnDay", { days: dated }), "3月15日周五没有能容纳它的空闲时间"],
    [
      saySummary("en", "noRuledRoomOnDay", { days: dated }),
      "3月15日周五没有符合它的规则（课程类别、截止日期、你的偏好）的空闲时间",
    ],
    [
      saySummary("en", "noRuledTimeShifted", { shift: "60 minutes later" }),
      "没有符合它的规则（课程类别、截止日期、你的偏好）的空闲时间（往后推60分钟）",
    ],
    [saySummary("en", "weekRefusedMove"), "日程规则不允许这样移动"],
  ])("%s", (english, chinese) => {
    expect(summaryInChinese(english)).toBe(chinese);
    // As the step's summary says it: after its heading and the review's name.
    const stays = saySummary("en", "staysBecause", { subject: '"Essay"', why: english });
    expect(summaryInChinese(`${SUMMARY_WORDS.en.shiftedReviews}: ${stays}`)).toBe(
      `${SUMMARY_WORDS.zh.shiftedReviews}：${saySummary("zh", "staysBecause", { subject: '"Essay"', why: chinese })}`,
    );
    // With no heading: every review stayed, so the step was not carried out and its reason is the list of them.
    const other = saySummary("en", "staysBecause", {
      subject: '"Matrix review"',
      why: SUMMARY_WORDS.en.weekRefusedMove,
    });
    const both = `${saySummary("zh", "staysBecause", { subject: '"Essay"', why: chinese })}；${saySummary("zh", "staysBecause", { subject: '"Matrix review"', why: SUMMARY_WORDS.zh.weekRefusedMove })}`;
    expect(summaryInChinese(`${stays}; ${other}`)).toBe(both);
    expect(summaryInChinese(saySummary("en", "notCarriedOut", { reason: `${stays}; ${other}` }))).toBe(
      saySummary("zh", "notCarriedOut", { reason: both }),
    );
  });
});
