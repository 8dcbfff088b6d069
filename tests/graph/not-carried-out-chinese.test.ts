/**
 * Issue 45, through the graph: why a step was not carried out, in a Chinese conversation, is said from the summary
 * phrases' table (`tools/schedule/summary-phrases.ts`) — no English reason is left after "没有改动：" or "未执行：" —
 * and the English conversation's answer is as it was.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { asCard } from "../../contracts/cards.js";
import { createTempoDependencies } from "../../server/create-tempo.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { saySummary, type SummaryKey } from "../../tools/schedule/summary-phrases.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import type { ScheduleState } from "../../tools/schedule/state.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import type { PlanStep } from "../../kernel/plan-step.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const zh = (key: SummaryKey, places: Record<string, string> = {}) => saySummary("zh", key, places);

/** English left in a Chinese answer: runs of 3+ ASCII letters outside quoted names and ids (`essay-draft`). */
function englishIn(answer: string): string[] {
  return answer.replace(/"[^"]*"/g, "").match(/(?<![\w-])[A-Za-z]{3,}(?![\w-])/g) ?? [];
}

/** The half-placed week with "Draft the English essay" (placed on Saturday) done. */
function essayDone(chinese: boolean): ScheduleState {
  const week = halfPlacedWeek({ chinese });
  week.tasks = week.tasks.map((task) => (task.id === "essay-draft" ? { ...task, status: "done" } : task));
  return week;
}

/** The half-placed week; in Chinese, with Monday's first lecture named in Chinese ("微积分讲座"). */
function mondayLecture(chinese: boolean): ScheduleState {
  const week = halfPlacedWeek({ chinese });
  if (chinese)
    week.tasks = week.tasks.map((task) => (task.id === "mon-calculus" ? { ...task, name: "微积分讲座" } : task));
  return week;
}

/** A plan card answered by editing its steps into `steps`. */
const editedTo = (steps: string) => [{ type: "edit", args: { action: "confirm_plan", args: { steps } } }];

/** The line of `answer` that holds `words` ("" when none does). */
function lineSaying(answer: string, words: string): string {
  return answer.split("\n").find((line) => line.includes(words.trimEnd())) ?? "";
}

describe("a step not carried out, in a Chinese conversation: its reason said from the table", () => {
  test.each([
    {
      what: "a shift of days past the window's end",
      week: (chinese: boolean) => halfPlacedWeek({ chinese }),
      zhAsk: "把英语作文草稿推迟两天",
      enAsk: "move the essay draft two days later",
      said: zh("outsideSchedule", { shift: zh("shiftDaysLater", { count: "2" }) }),
      english: "Your schedule is unchanged: 2 days later is outside the schedule.",
      whole: true,
    },
    {
      what: "a pending task asked to be unplaced",
      week: (chinese: boolean) => halfPlacedWeek({ chinese }),
      zhAsk: "撤下导数练习",
      enAsk: "unplace the derivative practice set",
      said: zh("cannotUnplace", { subject: '"导数练习"', unplaceWhy: zh("pendingAlready") }),
      english: 'Your schedule is unchanged: "Derivative practice set" — it is pending already, not on the schedule.',
      whole: true,
    },
    {
      what: "a timetable event asked to be unplaced (the plan edited so)",
      week: (chinese: boolean) => halfPlacedWeek({ chinese }),
      zhAsk: "撤下导数练习",
      zhEdit: '取消安排 "物理实验"',
      enAsk: "unplace the derivative practice set",
      enEdit: 'Unplace "physics lab"',
      said: zh("cannotUnplace", {
        subject: zh("theEvent", { event: '"Physics lab"' }),
        unplaceWhy: zh("onlyReviewsUnplaced"),
      }),
      english:
        // The step's line: its status says it was not carried out (the step's outcome), its reason after it.
        '1. [not carried out] Unplace "physics lab" — the event "Physics lab" — it is a timetable event; only review tasks can be unplaced\n',
    },
    {
      what: "a task named to place that is done",
      week: essayDone,
      zhAsk: "安排英语作文草稿",
      enAsk: "place the essay draft",
      said: `— ${zh("settledNotPending", { settled: zh("settledAs", { id: "essay-draft", status: "已完成" }) })}`,
      english: '"essay draft" into free slots that fit them — essay-draft is done, not pending',
    },
    {
      what: "no day of the window before the event named",
      week: mondayLecture,
      zhAsk: "在微积分讲座之前安排行列式习题",
      enAsk: "place the determinant exercises before the calculus lecture",
      said: `— ${zh("noDayBefore", { phrase: "微积分讲座" })}`,
      english: "— no day comes before the calculus lecture",
    },
    {
      what: "a step edited into one the offline policy does not understand",
      week: (chinese: boolean) => halfPlacedWeek({ chinese }),
      zhAsk: "把英语作文草稿推迟两天",
      zhEdit: "给妈妈打电话",
      enAsk: "move the essay draft two days later",
      enEdit: "call mum",
      said: zh("notUnderstood", { step: "给妈妈打电话" }),
      english: 'Your schedule is unchanged: the offline policy does not understand the step "call mum".',
      whole: true,
    },
  ])("$what: the Chinese answer says the table's Chinese; the English answer is as it was", async (each) => {
    const chinese = await converse(
      await offlineTempo(each.week(true)),
      each.zhAsk,
      each.zhEdit ? editedTo(each.zhEdit) : [],
    );
    // Nothing was written: the step ended at its reason.
    expect(chinese.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(chinese.finalAnswer).toContain(each.said);
    // The step's line is shown as not carried out (its reason after it), never as done.
    if (!each.whole) expect(lineSaying(chinese.finalAnswer!, each.said)).toMatch(/^(?:- |\d+\. )\[未执行\] /);
    // Said once: the status says it, the reason follows (the report said "未执行" twice).
    expect(lineSaying(chinese.finalAnswer!, each.said)).not.toContain("未执行：");
    expect(englishIn(chinese.finalAnswer!)).toEqual([]);
    const english = await converse(
      await offlineTempo(each.week(false)),
      each.enAsk,
      each.enEdit ? editedTo(each.enEdit) : [],
    );
    if (each.whole) expect(english.finalAnswer).toBe(each.english);
    else expect(lineSaying(english.finalAnswer!, each.english)).toMatch(/^(?:- |\d+\. )\[not carried out\] /);
  });
});

describe("the to-do list's step the offline policy does not understand", () => {
  /** The answer to `text` on Tempo serving `domains`, its plan card edited into `steps`, every later card approved. */
  async function editedInto(domains: string, text: string, steps: string): Promise<string | null> {
    const settings = readSettings({ TEMPO_DOMAINS: domains });
    const dependencies = await createTempoDependencies(settings);
    const graph = buildTempoGraph({
      models: dependencies.models,
      domain: dependencies.domain,
      checkpointer: new MemorySaver(),
      settings: settings.workflow,
    });
    const config = threadConfig(`todo-edit-${Math.random().toString(36).slice(2)}`, "student");
    let result: object = await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    for (let turn = 0; turn < 6 && interruptsOf(result).length > 0; turn += 1) {
      const card = asCard(interruptsOf(result)[0]!.value)!;
      // The plan card's steps edited (as Agent Chat UI sends an edit), each later card approved.
      const decision =
        turn === 0 ? { type: "edit", edited_action: { name: "confirm_plan", args: { steps } } } : { type: "approve" };
      result = await graph.invoke(resume({ decisions: card.action_requests.map(() => decision) }), config);
    }
    return ((await graph.getState(config)).values as { finalAnswer: string | null }).finalAnswer;
  }

  test.each(["todo", "schedule,todo"])(
    "served as %s: said in Chinese from the table, in English as before",
    async (domains) => {
      const chinese = await editedInto(domains, "把“交房租”加到待办清单", "给妈妈打电话");
      expect(chinese).toBe(`待办清单没有改动：${zh("notUnderstood", { step: "给妈妈打电话" })}。`);
      const english = await editedInto(domains, 'Add "Pay rent" to my to-do list', "call mum");
      expect(english).toBe('Your to-do list is unchanged: the offline policy does not understand the step "call mum".');
    },
  );
});

/**
 * Issue 45, item 3: "schedule the matrix review tonight" late at night, when tonight's slots have all started: the step
 * places nothing, and it is reported as not carried out — the step's outcome, and its line in the answer — never as
 * a step done whose summary only says what was "proposed".
 */
describe("a step that placed nothing because its time has passed is not carried out", () => {
  // Monday 11 March 2024, 23:30 in Shanghai: the evening's slots (from 19:00) have all started.
  const lateMonday = () => new Date("2024-03-11T23:30:00+08:00");

  test.each([
    {
      ask: "schedule the matrix review tonight",
      line: '— nothing was placed; left pending: "Matrix operations review" (no free slot fits only on Monday, in slots 9-12: the time there that would fit it has passed)',
    },
    {
      ask: "今晚安排矩阵复习",
      line: `— ${zh("placedNone")}${zh("proposedLeftPending")}`,
    },
  ])("$ask", async ({ ask, line }) => {
    const tempo = await offlineTempo(sampleWeek(), lateMonday);
    const thread = `tonight-${Math.random().toString(36).slice(2)}`;
    const outcome = await converse(tempo, ask, [], thread);
    // Nothing was proposed: only the plan's card.
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("pending");
    const state = await tempo.graph.getState(threadConfig(thread, "student"));
    const steps = state.values.planSteps as PlanStep[];
    expect(steps[0]!.outcome?.kind).toBe("not_carried_out");
    expect(outcome.finalAnswer).toContain(line);
    // Its line is shown as not carried out, never as done.
    expect(lineSaying(outcome.finalAnswer!, line)).toMatch(/^- \[(?:not carried out|未执行)\] /);
  });
});

/**
 * Issue 45, item 1: a write the clock refused (the past is fixed) is stored in English in a Chinese conversation too —
 * the step's summary is the tools' English — and said in Chinese from the summary phrases, as it was said before; a
 * thread saved while the Chinese was stored reads back as it did.
 */
describe("a refusal of the clock: stored in English, said in the user's language from the table", () => {
  // Tuesday 12 March 2024, 10:00 in Shanghai: the limits review (Monday 14:00–15:40) has started.
  const tuesday = () => new Date("2024-03-12T10:00:00+08:00");

  test.each([
    {
      ask: "把极限与连续复习移到周四下午",
      english: "the past is fixed, so it does not move",
      chinese: "过去的安排不能改，所以不能移动",
    },
    {
      ask: "取消安排极限与连续复习",
      english: "the past is fixed, so it is not taken off; tell me you did it or missed it instead",
      chinese: "过去的安排不能改，所以不能撤下；你可以告诉我它已经做完或者错过了",
    },
  ])("$ask", async ({ ask, english, chinese }) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), tuesday);
    const thread = `past-${Math.random().toString(36).slice(2)}`;
    const outcome = await converse(tempo, ask, [], thread);
    const steps = (await tempo.graph.getState(threadConfig(thread, "student"))).values.planSteps as PlanStep[];
    expect(steps[0]!.summary).toBe(
      `not carried out: "极限与连续复习" (Mon 11 Mar, 14:00–15:40) has already started: ${english}`,
    );
    const said = `“极限与连续复习”（3月11日周一 14:00–15:40）已经开始了：${chinese}`;
    expect(outcome.finalAnswer).toBe(`日程没有改动：${said}。`);
    // A thread saved while the step stored the Chinese reads back as it did.
    expect(summaryInChinese(`not carried out: ${said}`)).toBe(zh("notCarriedOut", { reason: said }));
    expect(summaryInChinese(steps[0]!.summary!)).toBe(zh("notCarriedOut", { reason: said }));
  });
});

/**
 * Issue 45, item 2: swap's refusal of two tasks of different lengths is a phrase of the table: a Chinese answer says
 * it in Chinese, and the tool's English (what the model reads, the English answer) is as it was.
 */
describe("a swap of two tasks of different lengths, refused in the user's language", () => {
  test.each([
    {
      ask: "交换极限复习和单词表",
      answer: '日程没有改动："极限与连续复习" 占 2 节，"第五单元单词表" 占 1 节；只有时长相同的任务才能交换。',
      chinese: true,
    },
    {
      ask: "swap the limits review and the vocabulary list",
      answer:
        'Your schedule is unchanged: "Review limits and continuity" takes 2 slots but "Vocabulary list unit 5" takes 1; only tasks of equal length can swap.',
      chinese: false,
    },
  ])("$ask", async ({ ask, answer, chinese }) => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek({ chinese })), ask);
    expect(placeOf(outcome.schedule, "review-limits")).toBe("day 1 slots 5-6");
    expect(outcome.finalAnswer).toBe(answer);
    if (chinese) expect(englishIn(outcome.finalAnswer!)).toEqual([]);
  });
});
