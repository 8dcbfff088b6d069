/**
 * How people really phrase schedule requests (issue 31), as a table: each phrasing, in English or Chinese, driven
 * through the whole graph with the offline policy (chat → plan → confirm → execute → deliver, every write card
 * accepted), and what it must give — the tasks placed and where they may go, the write on the first card, the
 * answer to a question, or an honest answer with nothing planned. Only words that match a real task, class or event
 * become names: politeness, fillers, questions and trailing clauses never do.
 */
import { HumanMessage, type AIMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import {
  converse,
  halfPlacedWeek,
  offlineTempo,
  reviewsExcept,
  SAMPLE_REVIEWS,
} from "./support/offline-conversation.js";
import { sampleWeek, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";

const ALL_TASKS = [...SAMPLE_REVIEWS];
const except = reviewsExcept;

/** What a phrasing must give. */
type Expected =
  /** An arrangement: exactly these task items placed (`atLeast`: at least this many of them), each within the limits. */
  | { places: string[]; atLeast?: number; notOnDays?: number[]; onDays?: number[]; slots?: [number, number] }
  /** A write: the first write card is this action with these arguments (a subset); the week changes accordingly. */
  | { write: string; args: Record<string, unknown> }
  /** A question answered from the read tools: no card, the answer matches. */
  | { answers: RegExp }
  /** Nothing planned or changed: the reply (an answer or a question back) matches, and no write card is shown. */
  | { nothing: RegExp };

interface Phrasing {
  say: string;
  /** Start from the sample week with four reviews placed (moves, swaps, unplacing), else with all eight pending. */
  halfPlaced?: boolean;
  expect: Expected;
}

const PHRASINGS: Phrasing[] = [
  // ── Arranging, in English: politeness, fillers and trailing clauses are not task names ──
  { say: "Please arrange my pending review tasks into free slots next week, thanks!", expect: { places: ALL_TASKS } },
  {
    say: "Can you schedule my reviews for next week? I prefer mornings.",
    expect: { places: ALL_TASKS, atLeast: 6, slots: [1, 4] },
  },
  { say: "arrange everything except the binary tree review", expect: { places: except("binary-tree-review") } },
  { say: "Could you please find time for all my pending reviews this week?", expect: { places: ALL_TASKS } },
  {
    say: "fill my free time with the review tasks, but keep Saturday free",
    expect: { places: ALL_TASKS, notOnDays: [6] },
  },
  { say: "Only schedule the calculus reviews", expect: { places: ["review-limits", "derivative-drills"] } },
  { say: "arrange my calculus reviews", expect: { places: ["review-limits", "derivative-drills"] } },
  { say: "arrange my reviews, I never study on Mondays", expect: { places: ALL_TASKS, notOnDays: [1] } },
  { say: "never on Monday please, arrange my reviews", expect: { places: ALL_TASKS, notOnDays: [1] } },
  { say: "arrange my reviews but not on the weekend", expect: { places: ALL_TASKS, notOnDays: [6, 7] } },
  { say: "schedule the matrix review and the essay", expect: { places: ["matrix-review", "essay-draft"] } },
  {
    say: "place the linked list exercises on Friday evening",
    expect: { places: ["linked-list-exercises"], onDays: [5], slots: [9, 12] },
  },
  {
    say: "arrange the data structures reviews in the evenings",
    expect: { places: ["linked-list-exercises", "binary-tree-review"], slots: [9, 12] },
  },
  { say: "put the vocabulary list somewhere on Wednesday", expect: { places: ["vocabulary-list"], onDays: [3] } },
  {
    say: "arrange the calculus reviews before the midterm",
    expect: { places: ["review-limits", "derivative-drills"], notOnDays: [6, 7] },
  },
  { say: "plan my linear algebra work", expect: { places: ["matrix-review", "determinant-exercises"] } },
  { say: "arrange my reviews thanks", expect: { places: ALL_TASKS } },
  { say: "hey, could you arrange my week please?", expect: { places: ALL_TASKS } },
  { say: "organise my study sessions for the week", expect: { places: ALL_TASKS } },
  {
    say: "schedule everything but the essay and the vocabulary list",
    expect: { places: except("essay-draft", "vocabulary-list") },
  },
  { say: "arrange my reviews except on Tuesday", expect: { places: ALL_TASKS, notOnDays: [2] } },
  { say: "Arrange my reviews. Mornings only.", expect: { places: ALL_TASKS, atLeast: 6, slots: [1, 4] } },
  {
    say: "schedule the binary tree review in the afternoon",
    expect: { places: ["binary-tree-review"], slots: [5, 8] },
  },
  {
    say: "I'd like you to plan the English tasks, thank you so much",
    expect: { places: ["vocabulary-list", "essay-draft"] },
  },
  {
    say: "Find a slot for the determinant exercises on Thursday, cheers",
    expect: { places: ["determinant-exercises"], onDays: [4] },
  },
  {
    say: "Please place all the review tasks except the ones for calculus",
    expect: { places: except("review-limits", "derivative-drills") },
  },
  {
    say: "Could you get my reviews into the calendar? Not on Friday though.",
    expect: { places: ALL_TASKS, notOnDays: [5] },
  },
  { say: "arrange my reviews, not before 10", expect: { places: ALL_TASKS, atLeast: 6, slots: [3, 12] } },
  { say: "安排复习，10点以前不要", expect: { places: ALL_TASKS, atLeast: 6, slots: [3, 12] } },
  // ── A time that leaves no slot of the day is said, and another asked for: no plan with "slots 1-0" ──
  {
    say: "schedule the matrix review on Friday before 8:30",
    expect: {
      nothing: /^No slot of the day ends by 08:30: the first one runs 08:00–08:45\. Which time do you mean instead\?$/,
    },
  },
  {
    say: "schedule the matrix review on Friday after 22:30",
    expect: { nothing: /^No slot of the day starts at 22:30 or later: the last one runs 21:45–22:30\. Which time/ },
  },
  {
    say: "schedule the matrix review on Friday between 9pm and 8am",
    expect: { nothing: /^No slot of the day is starting at 21:00 or later and ending by 08:00\. Which time/ },
  },
  {
    say: "schedule the matrix review in the morning after 12",
    expect: { nothing: /^No slot of the day is in the morning \(slots 1-4\) and starting at 12:00 or later\./ },
  },
  { say: "arrange my reviews, not before 23", expect: { nothing: /^No slot of the day starts at 23:00 or later/ } },
  { say: "周五8点前安排矩阵复习", expect: { nothing: /^一天中没有在 08:00 之前结束的时段：第一节是 08:00–08:45。/ } },
  {
    say: "move the matrix review to Friday before 8am",
    halfPlaced: true,
    expect: { nothing: /^No slot of the day ends by 08:00: the first one runs 08:00–08:45\./ },
  },
  { say: "when am I free on Friday before 8?", expect: { nothing: /^No slot of the day ends by 08:00/ } },
  // ── What does not exist is said, never planned ──
  {
    say: "arrange the quantum physics review",
    expect: { nothing: /no (?:pending )?task (?:matching|named) "quantum physics review"/i },
  },
  {
    say: "please schedule my guitar practice, thanks",
    expect: { nothing: /no (?:pending )?task (?:matching|named) "guitar practice"/i },
  },
  // ── Arranging, in Chinese ──
  { say: "帮我把复习安排到下周的空闲时间，谢谢", expect: { places: ALL_TASKS } },
  { say: "安排复习，周一不行", expect: { places: ALL_TASKS, notOnDays: [1] } },
  { say: "把微积分复习安排好", expect: { places: ["review-limits", "derivative-drills"] } },
  { say: "安排线性代数的复习", expect: { places: ["matrix-review", "determinant-exercises"] } },
  { say: "把链表习题安排到周五晚上", expect: { places: ["linked-list-exercises"], onDays: [5], slots: [9, 12] } },
  { say: "除了二叉树复习，其他都安排一下", expect: { places: except("binary-tree-review") } },
  { say: "帮我安排复习，周末不要", expect: { places: ALL_TASKS, notOnDays: [6, 7] } },
  { say: "我从不在周一学习，帮我安排复习", expect: { places: ALL_TASKS, notOnDays: [1] } },
  { say: "我周一从不学习，帮我安排复习", expect: { places: ALL_TASKS, notOnDays: [1] } },
  { say: "安排复习，周五从来不复习", expect: { places: ALL_TASKS, notOnDays: [5] } },
  { say: "请把所有待安排的任务安排在上午", expect: { places: ALL_TASKS, atLeast: 6, slots: [1, 4] } },
  { say: "把单词表和作文安排一下", expect: { places: ["vocabulary-list", "essay-draft"] } },
  { say: "帮我安排一下这周的复习吧，谢谢！", expect: { places: ALL_TASKS } },
  { say: "安排量子物理复习", expect: { nothing: /没有.*“?量子物理复习/ } },
  // ── Moves, swaps, unplacing (a week with four reviews placed) ──
  {
    say: "Move my matrix review to Thursday",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 4 } },
  },
  {
    say: "I'm done with the matrix review",
    halfPlaced: true,
    expect: { write: "mark_done", args: { task_id: "matrix-review" } },
  },
  {
    say: "reschedule the matrix review for Friday",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 5 } },
  },
  {
    say: "could you move the limits review to Friday evening please?",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "review-limits", day: 5, slot_start: 9 } },
  },
  // ── Lunch, the midday break: after it is from 13:00 (slots 5-12), before it ends by 12:00 (slots 1-4) ──
  {
    say: "schedule the matrix review on friday after lunch",
    expect: { places: ["matrix-review"], onDays: [5], slots: [5, 12] },
  },
  { say: "周五午饭后安排矩阵复习", expect: { places: ["matrix-review"], onDays: [5], slots: [5, 12] } },
  {
    say: "schedule the matrix review on saturday before lunch",
    expect: { places: ["matrix-review"], onDays: [6], slots: [1, 4] },
  },
  { say: "周六午饭前安排矩阵复习", expect: { places: ["matrix-review"], onDays: [6], slots: [1, 4] } },
  {
    say: "swap the matrix review and the essay",
    halfPlaced: true,
    expect: { write: "swap", args: { first_task_id: "matrix-review", second_task_id: "essay-draft" } },
  },
  {
    say: "unschedule the vocabulary list, thanks",
    halfPlaced: true,
    expect: { write: "unplace", args: { task_id: "vocabulary-list" } },
  },
  {
    say: "take the essay off my schedule",
    halfPlaced: true,
    expect: { write: "unplace", args: { task_id: "essay-draft" } },
  },
  {
    say: "move the essay draft to Sunday morning",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "essay-draft", day: 7 } },
  },
  {
    say: "交换极限复习和矩阵复习",
    halfPlaced: true,
    expect: { write: "swap", args: { first_task_id: "review-limits", second_task_id: "matrix-review" } },
  },
  {
    say: "把矩阵复习移到周四",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 4 } },
  },
  { say: "取消安排单词表", halfPlaced: true, expect: { write: "unplace", args: { task_id: "vocabulary-list" } } },
  // A timetable event named in words is removed (a placed review named so is unplaced, above).
  {
    say: "please remove the Friday tutorial",
    halfPlaced: true,
    expect: { write: "remove_event", args: { event_id: "fri-calculus-tutorial" } },
  },
  {
    say: "删除周五的辅导课",
    halfPlaced: true,
    expect: { write: "remove_event", args: { event_id: "fri-calculus-tutorial" } },
  },
  { say: "把作文挪到周日", halfPlaced: true, expect: { write: "move", args: { task_id: "essay-draft", day: 7 } } },
  // A postponement names its day, or none (a day later); "put off" is no placing of a task named "off …".
  {
    say: "postpone the matrix review to Friday",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 5 } },
  },
  {
    say: "put off the matrix review",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 3 } },
  },
  {
    say: "pls put the matrix review off till Thursday",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 4 } },
  },
  {
    say: "把矩阵复习延后到周五",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 5 } },
  },
  // The task's own words only: a day with no "to", "能不能" were read as part of its name (no task matched).
  {
    say: "reschedule essay tmr",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "essay-draft", day: 1 } },
  },
  {
    say: "能不能把矩阵复习挪到明天",
    halfPlaced: true,
    expect: { write: "move", args: { task_id: "matrix-review", day: 1 } },
  },
  {
    say: "move the quantum physics review to Friday",
    halfPlaced: true,
    expect: { nothing: /no (?:placed )?task (?:matching|named) "quantum physics review"/i },
  },
  // ── What there is to arrange: tasks added to a class, a class's standing rules (each through a card) ──
  {
    say: 'add a 2-slot task "integrals review" to calculus',
    expect: { write: "add_task", args: { name: "integrals review", class_id: "calculus", duration: 2 } },
  },
  {
    say: "add a task called flashcards to English, 1 slot",
    expect: { write: "add_task", args: { name: "flashcards", class_id: "english", duration: 1 } },
  },
  {
    say: "给微积分添加任务“积分复习”，2节",
    expect: { write: "add_task", args: { name: "积分复习", class_id: "calculus", duration: 2 } },
  },
  {
    say: "make calculus mornings only",
    expect: { write: "upsert_task_class", args: { class_id: "calculus", preferred_parts: ["morning"] } },
  },
  {
    say: "never schedule linear algebra on Monday",
    expect: { write: "upsert_task_class", args: { class_id: "linear-algebra", excluded_days_of_week: [1] } },
  },
  {
    say: "微积分只在上午",
    expect: { write: "upsert_task_class", args: { class_id: "calculus", preferred_parts: ["morning"] } },
  },
  { say: "add a task called pottery to the ceramics class", expect: { nothing: /no class matching "ceramics"/ } },
  // A class the week does not have, for its rules too, and in Chinese: nothing planned, and the classes it has named.
  {
    say: "make ceramics mornings only",
    expect: { nothing: /^I found no class matching "ceramics", so I have planned nothing\. Your classes: Calculus/ },
  },
  {
    say: "给陶艺添加任务“拉坯”，2节",
    expect: { nothing: /^我没有找到与“陶艺”匹配的课程，所以没有做任何计划。你的课程：/ },
  },
  { say: "陶艺只在上午", expect: { nothing: /^我没有找到与“陶艺”匹配的课程，所以没有做任何计划。你的课程：/ } },
  // ── Questions: answered, never planned as writes ──
  { say: "what do I still need to schedule?", expect: { answers: /^8 pending review task\(s\):/ } },
  { say: "which tasks are pending?", expect: { answers: /^8 pending review task\(s\):/ } },
  { say: "还有哪些任务没安排？", expect: { answers: /8 个待安排的复习任务|8 pending review task/ } },
  // Whether a task was done is asked of it, never a mark: "我周二的复习没做吗？" planned marking it missed.
  {
    say: "did I finish the matrix review?",
    halfPlaced: true,
    expect: { answers: /^"Matrix operations review" is a study task .* placed on Tue 12 Mar, 10:00–11:40\.$/ },
  },
  {
    say: "矩阵复习我做了吗？",
    halfPlaced: true,
    expect: { answers: /^"Matrix operations review"是.*的学习任务，2 节，已安排在3月12日周二/ },
  },
  { say: "我周二的复习没做吗？", halfPlaced: true, expect: { nothing: /^离线模式下我理解不了“我周二的复习没做吗？”/ } },
  // What is still to do, wherever it is: the placed reviews not done yet and the pending ones ("not understood" before).
  {
    say: "我这周还有几个复习没做？",
    halfPlaced: true,
    expect: {
      answers:
        /^8 个还没做的复习任务：\n- Review limits and continuity，2 节，在3月11日周一 14:00–15:40\n- Derivative practice set，1 节，待安排/,
    },
  },
  {
    say: "how many reviews are left?",
    halfPlaced: true,
    expect: {
      answers:
        /^8 review task\(s\) not done yet:\n- Review limits and continuity, 2 slot\(s\), on Mon 11 Mar, 14:00–15:40\n- Derivative practice set, 1 slot\(s\), pending/,
    },
  },
  {
    say: "which reviews haven't I done yet?",
    halfPlaced: true,
    expect: { answers: /^8 review task\(s\) not done yet:/ },
  },
  {
    say: "which reviews did I finish?",
    halfPlaced: true,
    expect: { answers: /^You have no done review task\(s\)\.$/ },
  },
  {
    say: "what have I already scheduled?",
    halfPlaced: true,
    expect: { answers: /- Matrix operations review, 2 slot\(s\), on / },
  },
  // Days by date, free time by the clock (the sample week is dated).
  { say: "when am I free on Monday?", expect: { answers: /Mon 11 Mar: 14:00–15:40/ } },
  { say: "do I have any free time on the weekend?", expect: { answers: /Sat 16 Mar: [\s\S]*Sun 17 Mar: / } },
  { say: "周五什么时候有空？", expect: { answers: /周五|Friday/ } },
  { say: "what's on Tuesday?", halfPlaced: true, expect: { answers: /Matrix operations review/ } },
  { say: "我周三有什么安排？", expect: { answers: /Calculus lecture/ } },
  { say: "Is there anything on Saturday?", expect: { answers: /Calculus midterm exam/ } },
  { say: "show my calendar for Thursday", expect: { answers: /Robotics club meeting/ } },
  // A look at the whole week names no day: this week's days, never a plan ("show me the schedule" was an arrangement).
  {
    say: "show me the schedule",
    halfPlaced: true,
    expect: { answers: /Mon 11 Mar[\s\S]*Matrix operations review[\s\S]*Sun 17 Mar/ },
  },
  {
    say: "what does my week look like?",
    expect: { answers: /Mon 11 Mar[\s\S]*Calculus midterm exam[\s\S]*Sun 17 Mar/ },
  },
  { say: "show my week", expect: { answers: /Mon 11 Mar[\s\S]*Robotics club meeting[\s\S]*Sun 17 Mar/ } },
  { say: "看看我的日程", expect: { answers: /3月11日周一[\s\S]*3月17日周日/ } },
  // A day's schedule asked as a noun is shown: "schedule for friday?" placed every pending review on Friday.
  { say: "schedule for friday?", expect: { answers: /^Fri 15 Mar, 08:00–22:30:/ } },
  { say: "明天的安排", expect: { answers: /^3月11日周一，08:00–22:30：/ } },
  { say: "can i see my schedule", expect: { answers: /Mon 11 Mar[\s\S]*Calculus midterm exam[\s\S]*Sun 17 Mar/ } },
  { say: "show the plan", expect: { nothing: /can't tell what to do with "show the plan"/ } },
  // A question of where a task is, or where one could fit, is answered — it raised a plan card placing the task.
  {
    say: "where did you put the matrix review",
    halfPlaced: true,
    expect: { answers: /^"Matrix operations review" is a study task .* placed on Tue 12 Mar, 10:00–11:40/ },
  },
  { say: "矩阵复习在哪天", halfPlaced: true, expect: { answers: /已安排在3月12日周二 10:00–11:40/ } },
  { say: "where can i fit 2 hours on wed", expect: { answers: /^You are free:[\s\S]*Wed 13 Mar/ } },
  {
    say: "explain the matrix review",
    expect: { answers: /^"Matrix operations review" is a study task in the class "Linear Algebra"/ },
  },
  {
    say: "tell me about the binary tree review",
    expect: { answers: /^"Binary tree review" is a study task in the class "Data Structures"/ },
  },
  // ── Talk ──
  { say: "what can you do?", expect: { nothing: /arrange/ } },
  { say: "你能做什么？", expect: { nothing: /安排/ } },
  { say: "hello", expect: { nothing: /\S/ } },
];

/** What a conversation gave: the write cards seen, the last thing said, and the week afterwards. */
interface Outcome {
  writes: Array<{ name: string; args: Record<string, unknown> }>;
  planCards: number;
  lastSaid: string;
  finalAnswer: string | null;
  schedule: ScheduleState;
}

/** Sends the phrasing, accepts every card, and stops at a question back (which it records). */
async function run(phrasing: Phrasing): Promise<Outcome> {
  const tempo = await offlineTempo(phrasing.halfPlaced ? halfPlacedWeek() : sampleWeek());
  const config = threadConfig(`phrasing-${Math.random().toString(36).slice(2)}`, "student");
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(phrasing.say)] }, config);
  const writes: Outcome["writes"] = [];
  let planCards = 0;
  for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1) {
    const requests = (
      interruptsOf(result)[0]!.value as { action_requests: Array<{ name: string; args: Record<string, unknown> }> }
    ).action_requests;
    if (requests[0]!.name === "ask_user") break;
    if (requests[0]!.name === "confirm_plan") planCards += 1;
    else writes.push(...requests.map((request) => ({ name: request.name, args: request.args })));
    result = await tempo.graph.invoke(
      resume(
        requests.length === 1 ? { type: "accept", args: null } : requests.map(() => ({ type: "accept", args: null })),
      ),
      config,
    );
  }
  const said = result.messages
    .filter((message) => message.getType() === "ai")
    .map((message) => String((message as AIMessage).content))
    .filter(Boolean);
  return {
    writes,
    planCards,
    lastSaid: said.at(-1) ?? "",
    finalAnswer: result.finalAnswer,
    schedule: await tempo.repository.load("student"),
  };
}

function placedItems(schedule: ScheduleState): TaskItem[] {
  return schedule.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");
}

describe("tasks and class rules asked for in words are stored once approved, and told in the user's language", () => {
  test("a task added to a class by a Chinese request is in the week, pending, and the answer is Chinese", async () => {
    const outcome = await run({ say: "给微积分添加任务“积分复习”，2节", expect: { places: [] } });
    const added = outcome.schedule.tasks.find((task) => task.name === "积分复习");
    expect(added).toMatchObject({ source: "task_item", categoryId: "calculus", duration: 2, status: "pending" });
    expect(outcome.finalAnswer).toBe("完成：已在课程 calculus 中添加任务“积分复习”。");
  });

  test("lunch bounds the plan: after it from 13:00 (slots 5-12), before it by 12:00 (slots 1-4), in both languages", async () => {
    // Before, "after lunch" and "午饭后" bounded nothing: the plan placed anywhere in the day.
    const tempo = await offlineTempo(sampleWeek());
    for (const [message, bound] of [
      ["schedule the matrix review on friday after lunch", "in slots 5-12"],
      ["schedule the matrix review on saturday before lunch", "in slots 1-4"],
      ["周五午饭后安排矩阵复习", "（第5-12节）"],
      ["周六午饭前安排矩阵复习", "（第1-4节）"],
    ]) {
      const outcome = await converse(tempo, message!, [{ type: "ignore", args: null }]);
      expect(outcome.cards[0]?.action).toBe("confirm_plan");
      expect(String(outcome.cards[0]?.args.steps)).toContain(bound);
    }
  });

  test("a second class rule adds to the first: Monday ruled out, then Tuesday, and both stay excluded", async () => {
    const tempo = await offlineTempo(sampleWeek());
    await converse(tempo, "never schedule linear algebra on Monday", [], "class-rule-1");
    const second = await converse(tempo, "never schedule linear algebra on Tuesday", [], "class-rule-2");
    expect(second.cards.find((card) => card.action === "upsert_task_class")?.args).toMatchObject({
      class_id: "linear-algebra",
      excluded_days_of_week: [1, 2],
    });
    expect(
      (await tempo.repository.load("student")).categories.find((category) => category.id === "linear-algebra"),
    ).toMatchObject({ excludedDaysOfWeek: [1, 2] });
  });

  test("'make calculus mornings only' sets the class's preferred part, once approved", async () => {
    const outcome = await run({ say: "make calculus mornings only", expect: { places: [] } });
    expect(outcome.schedule.categories.find((category) => category.id === "calculus")).toMatchObject({
      preferredParts: ["morning"],
    });
    expect(outcome.finalAnswer).toBe('Done: updated task class calculus "Calculus".');
  });
});

describe("the phrasings people use (offline, through the graph)", () => {
  test("the table holds at least 60 phrasings, both languages", () => {
    expect(PHRASINGS.length).toBeGreaterThanOrEqual(60);
    expect(PHRASINGS.filter((row) => /[\u3400-\u9fff]/.test(row.say)).length).toBeGreaterThanOrEqual(15);
  });

  test.each(PHRASINGS.map((row) => [row.say, row] as const))("%s", async (_, phrasing) => {
    const outcome = await run(phrasing);
    const expected = phrasing.expect;
    const before = phrasing.halfPlaced ? halfPlacedWeek() : sampleWeek();
    if ("places" in expected) {
      const placed = placedItems(outcome.schedule);
      const ids = placed.map((task) => task.id).sort();
      if (expected.atLeast === undefined) expect(ids).toEqual([...expected.places].sort());
      else {
        expect(ids.length).toBeGreaterThanOrEqual(expected.atLeast);
        for (const id of ids) expect(expected.places).toContain(id);
      }
      for (const task of placed) {
        const range = task.slots![0]!;
        if (expected.notOnDays) expect(expected.notOnDays).not.toContain(range.day);
        if (expected.onDays) expect(expected.onDays).toContain(range.day);
        if (expected.slots) {
          expect(range.start).toBeGreaterThanOrEqual(expected.slots[0]);
          expect(range.end).toBeLessThanOrEqual(expected.slots[1]);
        }
      }
    } else if ("write" in expected) {
      expect(outcome.writes[0]).toEqual({ name: expected.write, args: expect.objectContaining(expected.args) });
    } else if ("answers" in expected) {
      expect(outcome.writes).toEqual([]);
      expect(outcome.planCards).toBe(0);
      expect(outcome.finalAnswer ?? outcome.lastSaid).toMatch(expected.answers);
      expect(outcome.schedule).toEqual(before);
    } else {
      expect(outcome.writes).toEqual([]);
      expect(outcome.planCards).toBe(0);
      expect(outcome.lastSaid).toMatch(expected.nothing);
      expect(outcome.schedule).toEqual(before);
    }
  });
});
