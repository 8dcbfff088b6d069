/**
 * The offline policy's plan stage. A draft plans exactly what the request
 * asks: a read request is one read-only step (it runs without a plan card),
 * a move / swap / unplace / event removal is one step proposing that write, an arrange
 * request is place → verify with the request's scope in the place step (the
 * week's overview is the prompts' live state: no step reads it). The step texts are written so that the request parser reads them
 * back (`Move "limits" to Thursday (day 4)`), so the execute stage carries
 * out what the card shows, also after the user edited it.
 *
 * A revision after a rejected write keeps the plan (the execute stage
 * handles the write's feedback); feedback on the plan card that changes the
 * scope ("not Monday", "only in the evening", "move X instead") is applied;
 * anything else keeps the plan and says so. A replan after a step continues.
 */
import { callResultOf } from "./tool-data.js";
import { currentPlanSteps, planCardFeedback, type StepDraft } from "../stage-state.js";
import { languageOf, say, sayList, weekdayName, type Language } from "../../contracts/language.js";
import { addDays, dayOfWeekOfDate, mondayOf } from "../../contracts/clock.js";
import { SCHEDULE_REFINEMENT } from "../../tools/schedule/domain.js";
import { capabilities, listedReviews } from "./replies.js";
import { goalOf, section, userLanguage, userLines, type PromptView } from "../prompt-reading.js";
import {
  anchorWords,
  dayLabel,
  dayLabelIn,
  isAnywhere,
  isEmptySelection,
  onlyExcludes,
  normalizeText,
  movesOf,
  parseScheduleRequest,
  shiftAllBy,
  shiftAllDays,
  readNumber,
  readWhere,
  splitNamingDay,
  taskPhrase,
  timedPlacement,
  OPTIMIZE_REQUEST,
  READ_REQUEST_KINDS,
  type DateSpec,
  type MoveShift,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import {
  dayOfWords,
  firstDayOf,
  resolveDays,
  slotRangeOf,
  unresolvedDates,
  weekdayOf,
  weekFactsOf,
  windowDates,
  type WeekFacts,
} from "./week-facts.js";
import { namingWeekday } from "./day-named.js";
import { formatDate } from "../../tools/schedule/state.js";
import type { GetOverviewData } from "../../tools/schedule/tools/get-overview.js";
import {
  groundRequest,
  markedAhead,
  meansAll,
  oneByOne,
  placedAlready,
  putBackUndoes,
  withCurrentReview,
  withoutClosingMark,
  type Grounding,
} from "./grounding.js";
import { liveOverviewOf } from "./tool-data.js";
import { followUpOf } from "./follow-up.js";
import { emptyWindowQuestion, emptyWindowWhy, limitsSlots } from "./empty-window.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";

/** The steps of an arrange plan: the place step without a scope, and the verify step. */
export const OFFLINE_PLAN_STEPS: readonly StepDraft[] = [
  {
    content: "Place each pending review task into a free slot that fits it",
    done_when: "no review task is left pending, or no free slot fits the rest",
  },
  { content: "Verify the schedule", done_when: "the overview shows how many review tasks are still pending" },
];

/** The plan stage's decision. */
export function decidePlan(view: PromptView): Record<string, unknown> {
  const state = section(view.context, "stage_state");
  const mode = /^Mode: (\w+)/m.exec(state)?.[1] ?? "draft";
  const current =
    currentPlanSteps(state).length > 0
      ? currentPlanSteps(state)
      : currentPlanSteps(section(view.context, "plan").replace(/^(\d+)\. /gm, "$1. [pending] "));
  if (mode === "replan")
    return { speak: "", action: "continue", reason: "the remaining steps still hold", complexity: "moderate" };
  if (mode === "revise" && current.length > 0) return revise(view, current);

  const facts = weekFactsOf(view);
  const goal = goalOf(view);
  const language = userLanguage(view);
  if (OPTIMIZE_REQUEST.test(goal)) return optimizePlan(language);
  // An answer to the planner's own question completes the request it asked about (or is a new request of its own).
  const answer = /They replied: "([\s\S]*)"/.exec(section(view.context, "resume_context"))?.[1];
  // "What about next week?" after "what's on today?": the question before it, asked of the days it names.
  const asked = followUpOf(goal, view) ?? parseScheduleRequest(goal);
  const overview = liveOverviewOf(view);
  const context = { facts, goal, language, overview, conversation: section(view.context, "conversation") };
  // An answer that is a request of its own takes the place of the request asked about.
  const own = answer !== undefined && answersWhole(answer) ? parseScheduleRequest(answer) : undefined;
  const said = own ?? asked;
  // "Move the matrix review to Thursday and the essay to Friday", "unplace the matrix review and the essay": each
  // planned as if asked alone.
  const several = said.kind === "move" && said.also ? movesOf(said) : oneByOne(said, overview);
  if (several.length > 1)
    return decided(planSeveral(several, own ? undefined : answer, questionOf(view), context), context);
  return decided(planRequest(asked, answer, context), context);
}

/** The planner's question the user answered ("You asked the user: "…""), when the run resumed from one. */
function questionOf(view: PromptView): string | undefined {
  return /^You asked the user: "([\s\S]*?)"\nThey replied:/m.exec(section(view.context, "resume_context"))?.[1];
}

/**
 * Several moves or unplaces said together ("move the matrix review to Thursday and the essay to Friday"), each planned
 * as if asked alone, a step each. Before any answer, the first the planner must ask about is asked; the answer is
 * that one's (the one whose question it answers), and one that would still ask another question is left out and
 * said, so two questions never take turns.
 */
function planSeveral(
  moves: readonly ScheduleRequest[],
  answer: string | undefined,
  question: string | undefined,
  context: PlanContext,
): Planned {
  const alone = moves.map((move) => planRequest(move, undefined, context));
  const asks = (planned: Planned) => ("decision" in planned ? planned.decision : undefined);
  if (answer === undefined) {
    const first = alone.find((planned) => asks(planned));
    if (first) return first;
  }
  const asking = answer === undefined ? -1 : alone.findIndex((planned) => asks(planned)?.speak === question);
  const answered = asking === -1 ? alone.findIndex((planned) => asks(planned)) : asking;
  const planned = moves.map((move, index) => (index === answered ? planRequest(move, answer, context) : alone[index]!));
  const again = planned[answered];
  if (again && "decision" in again) return again;
  const left = moves.filter((_, index) => "decision" in planned[index]!);
  const kept = planned.flatMap((part) => ("request" in part ? [part] : []));
  const leftOut = left
    .map((move) => {
      const task = "task" in move ? move.task : "";
      return move.kind === "unplace"
        ? say(
            context.language,
            `I left out taking ${JSON.stringify(task)} off: I could not tell what it means here; ask for it on its own. `,
            `我略过了取消安排“${task}”：没能确定它指的是什么，请单独再说一次。`,
          )
        : say(
            context.language,
            `I left out moving ${JSON.stringify(task)}: I could not tell what it means here; ask for it on its own. `,
            `我略过了移动“${task}”：没能确定它指的是什么，请单独再说一次。`,
          );
    })
    .join("");
  return {
    request: kept[0]!.request,
    preface: `${kept.map((part) => part.preface).join("")}${leftOut}`,
    steps: kept.flatMap((part) => stepsIn(context.language, part.request, context.facts)),
  };
}

/** What the planner knows of the week and the conversation while it plans a request. */
type PlanContext = {
  facts: WeekFacts;
  goal: string;
  language: Language;
  overview: GetOverviewData | undefined;
  conversation: string;
};

/**
 * A request planned: the decision said at once (a question, a read), or the request to plan with what to say first
 * (and its steps, when several requests make them).
 */
type Planned =
  { decision: Record<string, unknown> } | { request: ScheduleRequest; preface: string; steps?: StepDraft[] };

/** The plan stage's decision of a planned request. */
function decided(planned: Planned, { facts, language }: PlanContext): Record<string, unknown> {
  return "decision" in planned
    ? planned.decision
    : planFor(planned.request, facts, planned.preface, language, planned.steps);
}

/** One request, with the user's answer to the planner's question about it, grounded in the week. */
function planRequest(asked: ScheduleRequest, answer: string | undefined, context: PlanContext): Planned {
  const { facts, goal, language, overview } = context;
  const request = withShiftDays(
    withNamingWeekday(
      withCurrentReview(
        withNamesAnswered(withAnswer(asked, answer), groundRequest(asked, overview, language), answer),
        language,
      ),
      facts,
    ),
    facts,
  );
  if (!isPlannable(request)) {
    const which = language === "zh" ? "你想做哪一项？" : "Which of these do you want?";
    return {
      decision: {
        speak: `${capabilities(language)}\n${which}`,
        action: "ask_user",
        reason: "the request is not one the offline policy understands",
        complexity: "simple",
      },
    };
  }
  // "Clear everything" with no day: which day is asked (it may mean today or the whole week); the answer's day completes it.
  if (request.kind === "clear_day" && isEmptySelection(request.where.only))
    return {
      decision: {
        speak: say(
          language,
          `${answer === undefined ? "" : `I could not read a day in your answer "${answer}". `}Which day should I clear? Answer with "today", "tomorrow", a weekday ("Friday") or a day number ("day 5"); each review placed that day goes back to pending, on one card.`,
          `${answer === undefined ? "" : `我没能从你的回答“${answer}”中读出是哪一天。`}要清空哪一天？可以回答“今天”“明天”、星期几（如“周五”）或第几天（如“第5天”）；那天安排的每个复习都会重新待安排，在一张卡片上逐项确认。`,
        ),
        action: "ask_user",
        reason: "clearing everything names no day",
        complexity: "simple",
      },
    };
  const missing = missingDays(request, facts, answer, language);
  if (missing)
    return {
      decision: {
        speak: missing,
        action: "ask_user",
        reason: "the request names a day outside the schedule",
        complexity: "simple",
      },
    };
  // A time that holds no slot of the day ("before 8:30" when the first slot ends at 08:45, "after 22:30", "in the
  // morning after 12"), or none left today ("today before 10" at 09:00): said, and another time asked for — never a
  // plan with an empty window ("slots 1-0").
  const noSlot = "where" in request ? emptyWindowQuestion(request.where, facts, language) : undefined;
  if (noSlot)
    return {
      decision: {
        speak: noSlot,
        action: "ask_user",
        reason: "the time asked for holds no slot of the day",
        complexity: "simple",
      },
    };
  // Only names of real tasks and classes are planned: a name that matches nothing is said, and asked about.
  const grounding = groundRequest(request, overview, language);
  if (grounding.kind === "ask")
    return {
      decision: {
        speak: grounding.question,
        action: "ask_user",
        reason: "the request names tasks the schedule does not have",
        complexity: "simple",
      },
    };
  const dropped =
    grounding.unknown.length > 0
      ? say(
          language,
          `I found no task matching ${grounding.unknown.map((name) => JSON.stringify(name)).join(", ")}; I left it out. `,
          `我没有找到与 ${grounding.unknown.map((name) => JSON.stringify(name)).join("、")} 匹配的任务，已略过。`,
        )
      : "";
  // "Put the matrix review back" just after it was moved or taken off: where it was, so that change undone.
  if (putBackUndoes(grounding.request, overview, context.conversation))
    return { request: { kind: "undo" }, preface: "" };
  // "Put back the matrix review" when it is on the week already: nothing to change — said, with where it is (a read).
  const placed = placedAlready(grounding.request, overview);
  if (placed) {
    const names = placed.map((task) => JSON.stringify(task.name)).join(say(language, " and ", "和"));
    return {
      decision: {
        speak: say(
          language,
          `${names} ${placed.length === 1 ? "is" : "are"} on your schedule already, so there is nothing to put back.`,
          `${names}已经在日程上了，不用放回。`,
        ),
        action: "plan_done",
        reason: "the tasks to put back are placed already: a read shows where",
        complexity: "simple",
        need_thinking: false,
        read_only: true,
        plan_steps: placed.flatMap((task) => stepsIn(language, { kind: "explain", task: task.name }, facts)),
      },
    };
  }
  // "I didn't do the essay" while its place is still ahead: nothing is missed yet, so there is no plan to approve. The
  // mark's step alone runs without a card and says where the review is (a write would still be confirmed).
  if (markedAhead(grounding.request, overview, facts))
    return {
      decision: {
        speak: "",
        action: "plan_done",
        reason: "the review is still ahead of the clock: nothing is missed yet, and the step says where it is",
        complexity: "simple",
        need_thinking: false,
        read_only: true,
        plan_steps: language === "zh" ? chineseSteps(grounding.request, facts) : englishSteps(grounding.request, facts),
      },
    };
  const week = nextWeekNote(goal, grounding.request, facts, language);
  return { request: withMissedMadeUp(grounding.request, overview), preface: `${week}${dropped}` };
}

/** "next week", "next week's", "下周", "下星期", "下个星期". */
const NEXT_WEEK = /\bnext week\b|下周|下星期|下个星期/i;

/**
 * What "arrange … next week" arranges, said before the plan is approved, when today lies in the schedule's window: the
 * window is this week (the clock moves it on only once its last day is over), so the week the student means — the one
 * after it, whether asked on a Monday or on Sunday evening — is not on the schedule yet. On the window's last day the
 * next week opens tomorrow (ask then; the morning check-in arranges it too), otherwise after this one ends; the plan
 * arranges this week's days still ahead, and says so. "" when the request is not such an arrange, or the window lies
 * ahead of today (then it is the coming week, and "next week" means it).
 */
function nextWeekNote(goal: string, request: ScheduleRequest, facts: WeekFacts, language: Language): string {
  if (request.kind !== "arrange" || !NEXT_WEEK.test(goal)) return "";
  const dates = windowDates(facts);
  const today = facts.now?.date;
  if (dates === undefined || today === undefined || today < dates.first || today > dates.last) return "";
  const after = addDays(dates.last, 1);
  if (today === dates.last)
    return say(
      language,
      `Next week (from ${formatDate(after)}) is not on your schedule yet: it shows this week until today, ${formatDate(today)}, is over, and moves on by itself tomorrow — ask me then, or let the morning check-in arrange it. This plan arranges only what is left of today. `,
      `下周（从${formatDate(after, "zh")}起）还不在日程里：日程显示本周，到今天（${formatDate(today, "zh")}）结束，明天会自动换到下周——请明天再让我安排，或交给早上的每日检查。这个计划只安排今天剩下的时间。`,
    );
  return say(
    language,
    `Your schedule holds this week, ${formatDate(dates.first)} – ${formatDate(dates.last)}: the week after it opens on ${formatDate(after)}, once this one is over. This plan arranges this week, from today (${formatDate(today)}). `,
    `日程显示的是本周（${formatDate(dates.first, "zh")}至${formatDate(dates.last, "zh")}）：下一周要到${formatDate(after, "zh")}本周结束后才会出现。这个计划安排本周，从今天（${formatDate(today, "zh")}）起。`,
  );
}

/**
 * An arrangement of the whole week ("arrange my reviews") when the week has missed reviews without a place (a week
 * rolled on over unmarked reviews): they are proposed again first, as the daily check-in does — arranging only the
 * pending ones left them out while the answer said every review had a place.
 */
function withMissedMadeUp(request: ScheduleRequest, overview: GetOverviewData | undefined): ScheduleRequest {
  if (request.kind !== "arrange" || request.tasks.length > 0 || request.makeUp) return request;
  return (overview?.missed ?? 0) > 0 ? { ...request, makeUp: true } : request;
}

/**
 * The request once the user answered the planner's question about names it could not find: "all" arranges every
 * pending task; an answer naming tasks takes the place of the names that matched nothing (an answer that is a whole
 * request of its own was taken by `withAnswer`).
 */
function withNamesAnswered(request: ScheduleRequest, asked: Grounding, answer: string | undefined): ScheduleRequest {
  if (answer === undefined || asked.kind !== "ask") return request;
  // An answer that is a request of its own has replaced the request (`withAnswer`).
  if (isPlannable(parseScheduleRequest(answer))) return request;
  if (request.kind === "arrange") {
    if (meansAll(answer)) return { ...request, tasks: [] };
    const named = parseScheduleRequest(`place ${answer}`);
    return named.kind === "arrange" && named.tasks.length > 0 ? { ...request, tasks: named.tasks } : request;
  }
  const phrase = taskPhrase(normalizeText(answer));
  if (phrase === "") return request;
  if (request.kind === "move" || request.kind === "unplace")
    return asked.unknown.includes(request.task) ? { ...request, task: phrase } : request;
  if (request.kind === "swap")
    return asked.unknown.includes(request.first)
      ? { ...request, first: phrase }
      : asked.unknown.includes(request.second)
        ? { ...request, second: phrase }
        : request;
  return request;
}

/**
 * The request once the user's answer to the planner's question is taken: an answer that is a whole request of its
 * own replaces it; an answer that only names days or times ("Friday", "day 5", "周五", "5", "the evening")
 * completes it — its days take the place of the days the request named.
 */
export function withAnswer(original: ScheduleRequest, answer: string | undefined): ScheduleRequest {
  if (answer === undefined || answer.trim() === "") return original;
  if (answersWhole(answer)) return parseScheduleRequest(answer);
  const own = parseScheduleRequest(answer);
  if (!isPlannable(original)) return isPlannable(own) ? own : original;
  if (!("where" in original)) return original;
  const where = readWhere(normalizeText(answer));
  // A bare number answers "which day": "5", "第5天", "五".
  const bare = /^第?(\d+|[一二两三四五六七八九十]+)\s*(?:天|号)?$/.exec(withoutClosingMark(answer, /[.。!！]/))?.[1];
  if (bare !== undefined && isEmptySelection(where.only) && Number.isInteger(readNumber(bare)))
    where.only = { weekdays: [], days: [readNumber(bare)] };
  return isAnywhere(where) ? original : ({ ...original, where: mergeWhere(original.where, where) } as ScheduleRequest);
}

/** True when the user's answer is a request of its own, which takes the place of the one asked about. */
function answersWhole(answer: string): boolean {
  const own = parseScheduleRequest(answer);
  return isPlannable(own) && !namesOnlyAPronoun(own);
}

/** True for a request whose task is only "it" / "that" ("move it to Friday"): the task is the one asked about. */
function namesOnlyAPronoun(request: ScheduleRequest): boolean {
  const pronoun = (phrase: string) => /^(?:it|that|this|them|that one|this one|它|这个|那个)$/.test(phrase.trim());
  if (request.kind === "move" || request.kind === "unplace" || request.kind === "explain") return pronoun(request.task);
  if (request.kind === "swap") return pronoun(request.first) || pronoun(request.second);
  return false;
}

const WEEKDAY_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const WEEKDAY_ZH = ["一", "二", "三", "四", "五", "六", "日"];

/** True for requests a plan can carry out (a habit is not built: it is declined, never planned as something else). */
function isPlannable(request: ScheduleRequest): boolean {
  return !["help", "greeting", "unknown", "habit"].includes(request.kind);
}

/** The plan_done decision for a request. */
function planFor(
  request: ScheduleRequest,
  facts: WeekFacts,
  preface: string,
  language: Language,
  steps: StepDraft[] = stepsIn(language, request, facts),
): Record<string, unknown> {
  const readOnly = READ_REQUEST_KINDS.has(request.kind);
  const plan =
    language === "zh"
      ? request.kind !== "arrange"
        ? `计划：${steps.map((step) => step.content).join("；然后")}。`
        : "计划如下：把待安排的复习任务放进合适的空闲时段，然后核对日程。"
      : request.kind !== "arrange"
        ? `Plan: ${steps.map((step) => step.content).join("; then ")}.`
        : "Here is the plan: place the pending review tasks into free slots that fit them, then verify.";
  // A whole-week arrange refines after (first_full: the planner adds the domain's refinement step); a scoped one, a
  // move, a swap or an unplace changes exactly what was asked.
  const runMode =
    request.kind === "arrange"
      ? request.tasks.length === 0 && !request.except?.length && isAnywhere(request.where)
        ? "first_full"
        : undefined
      : readOnly
        ? undefined
        : "local_adjust";
  const refines =
    runMode === "first_full"
      ? say(
          language,
          " After placing, I'll refine the week with the backend's best changes.",
          "放好之后，我会用后端给出的最佳调整再优化一下这一周。",
        )
      : "";
  const speak = readOnly ? "" : `${preface}${plan}${refines}`;
  return {
    speak,
    action: "plan_done",
    reason: readOnly ? "a read-only request: one step answers it" : `the request asks for ${request.kind}`,
    complexity: steps.length === 1 ? "simple" : "moderate",
    need_thinking: false,
    read_only: readOnly,
    ...(runMode ? { run_mode: runMode } : {}),
    plan_steps: steps,
  };
}

/** The plan for an optimise request: the refinement step alone (global_reopt). */
function optimizePlan(language: Language): Record<string, unknown> {
  const step = SCHEDULE_REFINEMENT.localized?.[language] ?? SCHEDULE_REFINEMENT.step;
  return {
    speak: say(language, `Plan: ${step.content}.`, `计划：${step.content}。`),
    action: "plan_done",
    reason: "the request asks to improve what is already placed",
    complexity: "simple",
    need_thinking: false,
    run_mode: "global_reopt",
    plan_steps: [{ content: step.content, done_when: step.doneWhen }],
  };
}

/** The steps that carry out a request; their texts parse back to it. */
export function stepsFor(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  return stepsIn("en", request, facts);
}

/**
 * The steps that carry out a request, written in Chinese for a Chinese-speaking user; like the English ones, their
 * texts parse back to the request (task names in ASCII quotes, a day as "周五（第5天）", slots as "（第9-12节）").
 */
export function chineseStepsFor(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  return stepsIn("zh", request, facts);
}

/**
 * The steps of `request` in `language`: the steps whose words are fixed (an undo, a health check, a missed review
 * proposed again) once for both languages, the rest in each language's own words.
 */
function stepsIn(language: Language, request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  if (request.kind === "undo") return [UNDO_STEP[language]];
  if (request.kind === "reschedule") return [RESCHEDULE_STEP[language]];
  if (request.kind === "recover") return [RECOVER_STEP[language]];
  if (request.kind === "health") return [{ ...HEALTH_STEP[language], packs: [...HEALTH_PACKS] }];
  // "Move Thursday's and Saturday's reviews to Sunday": each day's reviews by their own days, a step for each.
  if (request.kind === "shift_all" && request.to && request.more?.length) {
    const { weekday, fromToday, more, ...rest } = request;
    const first = weekday !== undefined ? { weekday } : { fromToday: fromToday ?? 0 };
    return [first, ...more].flatMap((day) => stepsIn(language, withShiftDays({ ...rest, ...day }, facts), facts));
  }
  const steps = language === "zh" ? chineseSteps(request, facts) : englishSteps(request, facts);
  // A missed review is proposed again at the candidates' best place, unless the user said not to: then it is let go
  // (skipped), so that the daily check-in does not propose it again the next morning.
  if (request.kind !== "mark" || request.to !== "missed") return steps;
  return [...steps, request.reschedule === false ? LET_GO_STEP[language] : RESCHEDULE_STEP[language]];
}

/**
 * The weekday a mark names: its own ("Tuesday's review"), else the day it names from today ("yesterday's review") on
 * the clock of the prompt's now line — none without a now to count from.
 */
function markWeekday(request: Extract<ScheduleRequest, { kind: "mark" }>, facts: WeekFacts): number | undefined {
  if (request.weekday !== undefined) return request.weekday;
  if (request.daysAgo === undefined || !facts.now) return undefined;
  return dayOfWeekOfDate(addDays(facts.now.date, -request.daysAgo));
}

/**
 * A move of a review named by its day from today ("tomorrow's review", "明天的复习") names it by the weekday the clock
 * makes of it ("Thursday's review", "周四的复习"): the step reads the same whenever it runs.
 */
function withNamingWeekday(request: ScheduleRequest, facts: WeekFacts): ScheduleRequest {
  if (request.kind === "swap")
    return { ...request, first: byNamingWeekday(request.first, facts), second: byNamingWeekday(request.second, facts) };
  if (request.kind !== "move") return request;
  return { ...request, task: byNamingWeekday(request.task, facts) };
}

/** A task named by a day from today ("tomorrow's review") named by its weekday ("thursday's review"); else as it is. */
function byNamingWeekday(phrase: string, facts: WeekFacts): string {
  const named = splitNamingDay(phrase);
  const weekday = namingWeekday(phrase, facts);
  if (named?.fromToday === undefined || weekday === undefined) return phrase;
  const chinese = /[\u4e00-\u9fff]/.test(phrase);
  const rest = named.rest || (chinese ? "复习" : "review");
  return chinese ? `${weekdayName(weekday, "zh")}的${rest}` : `${weekdayName(weekday, "en").toLowerCase()}'s ${rest}`;
}

/**
 * A move of every review of a day said from today ("today's reviews") names that day by its weekday, and one to
 * another day ("… to tomorrow") by the days between them, on the clock of the prompt's now line: the step reads the
 * same whenever it runs. Without a clock to tell them, the request is left as it is (its step says why).
 */
function withShiftDays(request: ScheduleRequest, facts: WeekFacts): ScheduleRequest {
  if (request.kind !== "shift_all") return request;
  const today = facts.now?.date;
  const weekday =
    request.weekday ??
    (request.fromToday !== undefined && today !== undefined
      ? dayOfWeekOfDate(addDays(today, request.fromToday))
      : undefined);
  let days = request.days;
  if (days === undefined && request.to && weekday !== undefined) {
    const target = resolveDays(request.to.only, facts);
    // The day the reviews are on: the one said from today, else the weekday's first day in the window.
    const from =
      request.fromToday !== undefined && today !== undefined
        ? resolveDays({ weekdays: [], days: [], dates: [{ kind: "offset", days: request.fromToday, text: "" }] }, facts)
        : resolveDays({ weekdays: [weekday], days: [], dates: [] }, facts);
    if (target.length === 1 && from.length >= 1 && target[0] !== from[0]) days = target[0]! - from[0]!;
  }
  if (request.fromToday !== undefined && weekday === undefined) return request;
  // More days ("… Thursday's and Friday's reviews", "I'm busy today and tomorrow"): each by its weekday too.
  const more = request.more?.map((day) =>
    "weekday" in day ? day.weekday : today === undefined ? undefined : dayOfWeekOfDate(addDays(today, day.fromToday)),
  );
  if (more?.includes(undefined) || (more && request.to)) return request;
  const also = [...new Set(more as number[])].filter((each) => each !== weekday).map((each) => ({ weekday: each }));
  const of = {
    ...(weekday !== undefined ? { weekday } : {}),
    ...(request.part ? { part: request.part } : {}),
    ...(also.length > 0 ? { more: also } : {}),
  };
  // Off the day: the day named by its weekday ("I'm busy tomorrow, move my reviews").
  if (request.away)
    return weekday === undefined
      ? request
      : { kind: "shift_all", ...of, away: request.away, ...(request.dayward ? { dayward: request.dayward } : {}) };
  const by = request.minutes !== undefined ? { minutes: request.minutes } : days !== undefined ? { days } : undefined;
  return by === undefined ? request : { kind: "shift_all", ...by, ...of };
}

/** A mark's task in the user's words when no weekday could be told: the day said from today stays in them. */
function markTaskWords(request: Extract<ScheduleRequest, { kind: "mark" }>, language: Language = "en"): string {
  if (request.daysAgo === undefined) return request.task;
  if (language === "zh") return `${request.daysAgo === 1 ? "昨天" : "今天"}的${request.task}`;
  return `${request.daysAgo === 1 ? "yesterday" : "today"}'s ${request.task}`;
}

/** The steps of a request in English words (`stepsIn` adds the fixed ones). */
function englishSteps(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  switch (request.kind) {
    case "arrange": {
      const timed = timedPlacement(request);
      if (timed !== undefined) {
        const where = whereText(request.where, facts, "move");
        return [
          {
            content: `Place ${JSON.stringify(timed)} ${/^\d/.test(where) ? "at " : /^right /.test(where) ? "" : "on "}${where}`,
            done_when: "place reports the task's slots, or why it cannot be placed there",
          },
        ];
      }
      const scope =
        request.tasks.length > 0
          ? `Place the pending review tasks ${request.tasks.map((task) => JSON.stringify(task)).join(", ")} into free slots that fit them`
          : OFFLINE_PLAN_STEPS[0]!.content;
      const where = [
        whereText(request.where, facts),
        ...(request.except?.length
          ? [`except ${request.except.map((task) => JSON.stringify(task)).join(" and ")}`]
          : []),
      ]
        .filter(Boolean)
        .join(", ");
      return [
        // The daily check-in's missed reviews are proposed again before the rest is arranged.
        ...(request.makeUp ? [RESCHEDULE_STEP.en] : []),
        { content: where ? `${scope}, ${where}` : scope, done_when: OFFLINE_PLAN_STEPS[0]!.done_when },
        OFFLINE_PLAN_STEPS[1]!,
      ];
    }
    case "move": {
      if (request.shift)
        return [
          {
            content: `Move ${JSON.stringify(request.task)} ${sameDayToday(request, "en") ?? shiftWords(request.shift, "en")}`,
            done_when:
              "days" in request.shift
                ? `move puts the task ${shiftWords(request.shift, "en")} at its own time, else the nearest free time that day, or says why it cannot move`
                : "move reports the task's new slots, or why it cannot move",
          },
        ];
      const where = whereText(request.where, facts, "move");
      // "…, but not on Thursday": only where it must not go — a new place, said so.
      const away = onlyExcludes(request.where) && where !== "";
      // "…off Thursday": the day it leaves, said so (read back as a move that leaves it).
      const off = request.leaves && away ? /^not on ([A-Za-z]+)$/.exec(where)?.[1] : undefined;
      return [
        {
          content: request.otherDay
            ? `Move ${JSON.stringify(request.task)} to ${request.dayward ? `${request.dayward === "earlier" ? "an earlier" : "a later"} day` : "another day"}${where ? `, ${where}` : ""}`
            : off
              ? `Move ${JSON.stringify(request.task)} off ${off}`
              : `Move ${JSON.stringify(request.task)} to ${away ? `another free slot, ${where}` : where || "another free slot"}`,
          done_when: "move reports the task's new slots, or why it cannot move",
        },
      ];
    }
    case "swap":
      return [
        {
          content: `Swap ${JSON.stringify(request.first)} with ${JSON.stringify(request.second)}`,
          done_when: "swap reports both tasks' new slots, or why they cannot swap",
        },
      ];
    case "mark": {
      if (request.tasks)
        return request.tasks.flatMap((task) => englishSteps({ ...request, task, tasks: undefined }, facts));
      const weekday = markWeekday(request, facts);
      const task = weekday === undefined ? markTaskWords(request) : request.task;
      const on = weekday === undefined ? "" : ` on ${weekdayName(weekday, "en")}`;
      return [
        {
          content: `Mark ${JSON.stringify(task)}${on} ${request.to}`,
          done_when: `the task is marked ${request.to}, or it is told why it cannot be`,
        },
      ];
    }
    case "shift_all": {
      // One step, one card: every review moved together (batch_move), each by the same days.
      // "all of Monday evening's reviews": a part of the day only with the day it is of.
      // Several days: "all of Thursday's and Friday's reviews".
      const days = shiftAllDays(request).map((weekday) => weekdayName(weekday, "en"));
      const whose =
        days.length === 0
          ? "all reviews"
          : `all of ${sayList(
              days.map((day) => `${day}${request.part ? ` ${request.part}` : ""}'s`),
              "en",
            )} reviews`;
      // Off the day (or that part of it), to no place named: said as the parser reads it back.
      if (request.away && request.weekday !== undefined)
        return [
          {
            content:
              request.away === "part"
                ? `Move ${whose} out of ${sayList(days, "en")} ${request.part}`
                : `Move ${whose} to ${request.dayward === "earlier" ? "an earlier day" : request.dayward === "later" ? "a later day" : "another day"}`,
            done_when: "each review still ahead there has moved off it, or it is told why it stays",
          },
        ];
      const by = shiftAllBy(request);
      return [
        {
          content: `Push ${whose} ${by === undefined ? "to the day asked" : shiftWords(by, "en")}`,
          done_when: `each review still ahead has moved by ${by && "minutes" in by ? "that time" : "those days"}, or it is told why it stays`,
        },
      ];
    }
    case "clear_day":
      // One step, one batch card: a write for each review placed there (the execute stage lists them).
      return [
        {
          content: `${request.how === "skip" ? "Skip" : "Unplace"} every review placed ${whereText(request.where, facts)}`,
          done_when: `each review placed there is ${request.how === "skip" ? "skipped" : "pending again"}, or it is told why not`,
        },
      ];
    case "left_before": {
      // Before a day: named by its weekday, however it was said ("tomorrow"), so the step reads the same whenever.
      const day = firstDayOf(request.when, facts);
      return [
        day === undefined
          ? {
              content: `Show what is left before the ${request.event}`,
              done_when: "list_tasks has shown the tasks due before it and how each stands",
            }
          : {
              content: `Show what is left before ${weekdayName(weekdayOf(facts, day), "en")}`,
              done_when: "list_tasks has shown the reviews still to do before that day",
            },
      ];
    }
    case "unplace":
      return [
        {
          content: `Unplace ${JSON.stringify(request.task)}`,
          done_when: "unplace reports the task pending again, or why it cannot",
        },
      ];
    case "remove_event":
      return [
        {
          content: `Remove the event ${JSON.stringify(request.event)}`,
          done_when: "remove_event reports the event removed, or why it cannot be",
          packs: [...CALENDAR_PACKS],
        },
      ];
    case "free": {
      const length = request.minLength > 1 ? ` at least ${request.minLength} slots long` : "";
      const where = whereText(request.where, facts);
      return [
        {
          content: `Find free time${length}${where ? ` ${where}` : " in the week"}`,
          done_when: "find_free has listed the free runs",
        },
      ];
    }
    case "day":
      return [
        {
          content: `Show what is ${whereText(request.where, facts)}`,
          done_when: "query_range has shown the day slot by slot",
        },
      ];
    case "next":
      return [{ content: "Show what comes next", done_when: "query_range has shown the days ahead from now" }];
    case "list": {
      const which = `${request.status === "all" ? "all" : "the"} ${listedReviews(request.status, "en", "review tasks")}`;
      return [{ content: `List ${which}`, done_when: "list_tasks has listed them" }];
    }
    case "explain":
      return [{ content: `Explain ${JSON.stringify(request.task)}`, done_when: "get_task_info has shown the task" }];
    case "add_habit":
      return [
        {
          content: `Add the habit ${JSON.stringify(request.name)}, ${request.perWeek} times a week${request.minutes ? `, ${request.minutes} min each` : ""}${request.part ? `, in the ${request.part}` : ""}`,
          done_when: "add_habit reports the habit's sessions, or why it cannot be added",
          packs: [...CLASS_PACKS],
        },
      ];
    case "add_long_task":
      // Split into sessions on one card, then the sessions placed together on one batch card (issue 47 item 5).
      return [
        {
          content: `Add the long task ${JSON.stringify(request.name)} in sessions, ${request.minutes} min, before ${WEEKDAY_EN[request.dueWeekday - 1]}`,
          done_when: "add_task reports the task's sessions, or why it cannot be added",
          packs: [...CLASS_PACKS],
        },
        {
          content: `Place the sessions of ${JSON.stringify(request.name)} into free slots that fit them`,
          done_when: OFFLINE_PLAN_STEPS[0]!.done_when,
        },
      ];
    case "add_task":
      return [
        {
          content: `Add the task ${JSON.stringify(request.name)} to the class ${JSON.stringify(request.classPhrase)}, ${request.duration} slots${request.dueEvent ? `, due before the ${request.dueEvent}` : ""}`,
          done_when: "add_task reports the new task, or why it cannot be added",
          packs: [...CLASS_PACKS],
        },
      ];
    case "class_rules": {
      const rules = [
        ...request.parts.map((part) => `${part}s only`),
        ...(request.excludedWeekdays.length > 0
          ? [`never on ${request.excludedWeekdays.map((day) => weekdayName(day, "en")).join(" and ")}`]
          : []),
      ];
      return [
        {
          content: `Set the class ${JSON.stringify(request.classPhrase)} to ${rules.join(", ")}`,
          done_when: "upsert_task_class reports the class changed, or why it cannot",
          packs: [...CLASS_PACKS],
        },
      ];
    }
    default:
      return [];
  }
}

/** The step that proposes missed reviews again (its text reads back as a reschedule step: `isRescheduleStep`). */
export const RESCHEDULE_STEP = {
  en: {
    content: "Reschedule the missed review to its best free place",
    done_when: "the missed review has a new place, or the user kept it missed, or no place fits",
  },
  zh: {
    content: "把错过的复习补排到最合适的空闲时段",
    done_when: "错过的复习有了新时段，或用户不补排，或没有合适的时段",
  },
} as const;

/**
 * The step that lets a missed review go when the user said not to make it up ("I missed it, don't reschedule it"): its
 * `skip` card, so it is kept from the daily check-in's proposals (its text reads back: `isLetGoStep`).
 */
export const LET_GO_STEP = {
  en: {
    content: "Let the missed review go: skip it, so it is not proposed again",
    done_when: "the missed review is skipped, or the user kept it missed",
  },
  zh: {
    content: "放下错过的复习：跳过它，之后不再提议补排",
    done_when: "错过的复习已跳过，或用户保持错过",
  },
} as const;

/** True for the text of the step that lets a missed review go, in either language. */
export function isLetGoStep(content: string): boolean {
  return content === LET_GO_STEP.en.content || content === LET_GO_STEP.zh.content;
}

/** The step that undoes the last change (its text reads back as an undo request). */
const UNDO_STEP = {
  en: { content: "Undo the last change", done_when: "the last change is undone, or it is told why it cannot be" },
  zh: { content: "撤销上一次的修改", done_when: "上一次的修改已撤销，或说明无法撤销的原因" },
} as const;

/** The step that proposes the at-risk notice's change (its text reads back as a recover request). */
const RECOVER_STEP = {
  en: {
    content: "Recover the reviews at risk",
    done_when: "the change that recovers the most is applied, or it is told why there is none",
  },
  zh: { content: "执行补救方案", done_when: "补救最多的修改已应用，或说明没有补救方案的原因" },
} as const;

/** The step that judges the week (its text reads back as a health question). */
const HEALTH_STEP = {
  en: { content: "Judge the week's health", done_when: "analyze_health has judged the week" },
  zh: { content: "检查这一周的健康分", done_when: "已评估这一周的健康分" },
} as const;

/** The health judge is in the optimize pack, which a question's steps start without. */
const HEALTH_PACKS = ["schedule.read", "schedule.optimize"] as const;

/** True for the text of the step that proposes missed reviews again, in either language. */
export function isRescheduleStep(content: string): boolean {
  return content === RESCHEDULE_STEP.en.content || content === RESCHEDULE_STEP.zh.content;
}

/** The packs a step about tasks and classes needs (the tasks pack is not active by default). */
const CLASS_PACKS = ["schedule.read", "schedule.tasks"] as const;

/** The packs a step removing a timetable event needs: reading to find it, the calendar's remove_event (not a default). */
const CALENDAR_PACKS = ["schedule.read", "schedule.calendar"] as const;

/** The arrange plan's steps in Chinese: the place step without a scope, and the verify step. */
export const OFFLINE_PLAN_STEPS_ZH: readonly StepDraft[] = [
  {
    content: "把所有待安排的复习任务放进能容纳它们的时段",
    done_when: "没有待安排的复习任务，或剩下的任务没有能容纳它们的时段",
  },
  { content: "核对日程", done_when: "日程概览显示还有多少复习任务待安排" },
];

/** The steps of a request in Chinese words (`stepsIn` adds the fixed ones). */
function chineseSteps(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  const quoted = (task: string) => JSON.stringify(task);
  switch (request.kind) {
    case "arrange": {
      const timed = timedPlacement(request);
      if (timed !== undefined)
        return [
          {
            content: `把 ${quoted(timed)} 安排在 ${chineseWhere(request.where, facts, "move")}`,
            done_when: "任务有了时段，或已说明无法安排在那里的原因",
          },
        ];
      const scope =
        request.tasks.length > 0
          ? `把复习任务 ${request.tasks.map(quoted).join("、")} 放进能容纳它们的时段`
          : OFFLINE_PLAN_STEPS_ZH[0]!.content;
      const where = [
        chineseWhere(request.where, facts),
        ...(request.except?.length ? [`除了 ${request.except.map(quoted).join("、")}`] : []),
      ]
        .filter(Boolean)
        .join("，");
      return [
        ...(request.makeUp ? [RESCHEDULE_STEP.zh] : []),
        { content: where ? `${scope}，${where}` : scope, done_when: OFFLINE_PLAN_STEPS_ZH[0]!.done_when },
        OFFLINE_PLAN_STEPS_ZH[1]!,
      ];
    }
    case "move": {
      if (request.shift)
        return [
          {
            content: `把 ${quoted(request.task)} ${sameDayToday(request, "zh") ?? shiftWords(request.shift, "zh")}`,
            done_when:
              "days" in request.shift
                ? `任务${shiftWords(request.shift, "zh")}，仍在原来的时间，那个时间被占用时放到当天最近的空闲时间；或说明无法移动的原因`
                : "move 报告任务的新时段，或无法移动的原因",
          },
        ];
      const where = chineseWhere(request.where, facts, "move");
      const away = onlyExcludes(request.where) && where !== "";
      const off = request.leaves && away ? /^不要((?:周|星期)[一二三四五六日天])$/.exec(where)?.[1] : undefined;
      return [
        {
          content: request.otherDay
            ? `把 ${quoted(request.task)} 移到${request.dayward ? `更${request.dayward === "earlier" ? "早" : "晚"}的一天` : "另一天"}${where ? `，${where}` : ""}`
            : off
              ? `把 ${quoted(request.task)} 移出${off}`
              : `把 ${quoted(request.task)} 移到 ${away ? `另一个空闲时段，${where}` : where || "另一个空闲时段"}`,
          done_when: "任务有了新时段，或已说明无法移动的原因",
        },
      ];
    }
    case "swap":
      return [
        {
          content: `交换 ${quoted(request.first)} 和 ${quoted(request.second)}`,
          done_when: "两个任务都有了新时段，或已说明无法交换的原因",
        },
      ];
    case "mark": {
      if (request.tasks)
        return request.tasks.flatMap((task) => chineseSteps({ ...request, task, tasks: undefined }, facts));
      const weekday = markWeekday(request, facts);
      const task = weekday === undefined ? markTaskWords(request, "zh") : request.task;
      const on = weekday === undefined ? "" : `${weekdayName(weekday, "zh")}的`;
      const as = { done: "已完成", missed: "错过", skipped: "跳过" }[request.to];
      return [{ content: `把 ${quoted(`${on}${task}`)} 记为${as}`, done_when: `任务已记为${as}，或说明原因` }];
    }
    case "shift_all": {
      const days = sayList(
        shiftAllDays(request).map((weekday) => weekdayName(weekday, "zh")),
        "zh",
      );
      const whose = days === "" ? "所有复习" : `${days}${request.part ? PART_ZH[request.part] : ""}的所有复习`;
      if (request.away && request.weekday !== undefined)
        return [
          {
            content:
              request.away === "part"
                ? `把${whose}挪出${days}${PART_ZH[request.part!]}`
                : `把${whose}挪到${request.dayward ? (request.dayward === "earlier" ? "更早的一天" : "更晚的一天") : "别的天"}`,
            done_when: "那里每个还没开始的复习都已挪走，或说明了为什么保留不动",
          },
        ];
      const by = shiftAllBy(request);
      return [
        {
          content: `把${whose}${by === undefined ? "挪到要求的那天" : shiftWords(by, "zh")}`,
          done_when: `每个还没开始的复习都已按${by && "minutes" in by ? "时间" : "天数"}移动，或说明了为什么保留不动`,
        },
      ];
    }
    case "clear_day":
      return [
        {
          content: `${request.how === "skip" ? "跳过" : "取消安排"}${chineseWhere(request.where, facts)}的所有复习`,
          done_when: `那里安排的每个复习都已${request.how === "skip" ? "跳过" : "重新待安排"}，或说明原因`,
        },
      ];
    case "left_before": {
      const day = firstDayOf(request.when, facts);
      return [
        day === undefined
          ? { content: `${request.event}之前还剩什么`, done_when: "已列出它之前要完成的任务及其状态" }
          : {
              content: `${weekdayName(weekdayOf(facts, day), "zh")}之前还剩什么`,
              done_when: "已列出那天之前还要做的复习",
            },
      ];
    }
    case "unplace":
      return [{ content: `取消安排 ${quoted(request.task)}`, done_when: "任务已重新待安排，或已说明无法撤下的原因" }];
    case "remove_event":
      return [
        {
          content: `删除课表活动 ${quoted(request.event)}`,
          done_when: "活动已删除，或已说明无法删除的原因",
          packs: [...CALENDAR_PACKS],
        },
      ];
    case "free": {
      const length = request.minLength > 1 ? `，至少 ${request.minLength} 节` : "";
      const where = chineseWhere(request.where, facts);
      return [{ content: `查找空闲时间${where ? `：${where}` : "（整周）"}${length}`, done_when: "已列出空闲时段" }];
    }
    case "day":
      return [{ content: `查看 ${chineseWhere(request.where, facts)} 有什么安排`, done_when: "已逐节显示这一天" }];
    case "next":
      return [{ content: "查看接下来的安排", done_when: "已显示从现在起的几天" }];
    case "list": {
      const which = `${request.status === "all" ? "所有" : ""}${listedReviews(request.status, "zh", "")}`;
      return [{ content: `列出${which}`, done_when: "已列出它们" }];
    }
    case "explain":
      return [{ content: `解释 ${quoted(request.task)}`, done_when: "已显示这个任务" }];
    case "add_habit":
      return [
        {
          content: `添加习惯 ${quoted(request.name)}，每周 ${request.perWeek} 次${request.minutes ? `，每次 ${request.minutes} 分钟` : ""}${request.part ? `，${PART_ZH[request.part]}` : ""}`,
          done_when: "习惯的各次已安排，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    case "add_long_task":
      return [
        {
          content: `添加长任务 ${quoted(request.name)}（分次），${request.minutes}分钟，周${WEEKDAY_ZH[request.dueWeekday - 1]}前`,
          done_when: "任务的各次已安排，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
        {
          content: `把 ${quoted(request.name)} 的各次放进能容纳它们的时段`,
          done_when: OFFLINE_PLAN_STEPS_ZH[0]!.done_when,
        },
      ];
    case "add_task":
      return [
        {
          content: `给 ${quoted(request.classPhrase)} 添加任务 ${quoted(request.name)}，${request.duration}节${request.dueEvent ? `，在${request.dueEvent}之前完成` : ""}`,
          done_when: "新任务已添加，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    case "class_rules": {
      const rules = [
        ...request.parts.map((part) => `只在${PART_ZH[part]}`),
        ...(request.excludedWeekdays.length > 0
          ? [`不要${request.excludedWeekdays.map((day) => weekdayName(day, "zh")).join("、")}`]
          : []),
      ];
      return [
        {
          content: `设置课程 ${quoted(request.classPhrase)}：${rules.join("，")}`,
          done_when: "课程已修改，或已说明无法修改的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    }
    default:
      return [];
  }
}

const PART_ZH = { morning: "上午", afternoon: "下午", evening: "晚上" } as const;

/** "later today", "挪到今晚晚些时候" (read back as said), for a same-day shift whose words named today or tonight. */
function sameDayToday(request: Extract<ScheduleRequest, { kind: "move" }>, language: Language): string | undefined {
  const today = request.where.only.dates?.find((spec) => spec.kind === "offset" && spec.days === 0);
  if (!request.shift || !("sameDay" in request.shift) || !today) return undefined;
  const tonight = today.text === "tonight" || today.text === "今晚";
  const later = request.shift.sameDay === "later";
  return language === "zh"
    ? `挪到${tonight ? "今晚" : "今天"}${later ? "晚些时候" : "早些时候"}`
    : `${request.shift.sameDay} ${tonight ? "tonight" : "today"}`;
}

/** A move's shift in a step's words, read back by the request parser: "1 day later", "往后推1天", "later the same day". */
function shiftWords(shift: MoveShift, language: Language): string {
  if ("sameDay" in shift)
    return shift.sameDay === "later"
      ? say(language, "later the same day", "挪到当天晚些时候")
      : say(language, "earlier the same day", "挪到当天早些时候");
  const [amount, unit, unitZh] = "days" in shift ? [shift.days, "day", "天"] : [shift.minutes, "minute", "分钟"];
  const size = Math.abs(amount);
  return language === "zh"
    ? `${amount > 0 ? "往后推" : "提前"}${size}${unitZh}`
    : `${size} ${unit}${size === 1 ? "" : "s"} ${amount > 0 ? "later" : "earlier"}`;
}

/** "周一（第1天），晚上（第9-12节），不要周二" — `whereText` in Chinese, in a form the request parser reads back. */
function chineseWhere(where: Where, facts: WeekFacts, purpose: "use" | "move" = "use"): string {
  const parts: string[] = [];
  const only = resolveDays(where.only, facts);
  const days = purpose === "move" && only.length >= (facts.totalDays ?? 7) ? only.slice(0, 1) : only;
  if (days.length > 0) parts.push(days.map((day) => stepDay(day, facts, "zh")).join(purpose === "move" ? "或" : "和"));
  // The day of another task or event ("\"物理实验\"的前一天"): said first, what limits the slots after it.
  if (purpose === "move" && where.dayOf)
    parts.unshift(`${JSON.stringify(where.dayOf.anchor)}的${dayOfWords(where.dayOf.offset, "zh")}`);
  // A part of the day ruled out is said as it was ("不要上午"), after the rest: no range of slots would read back as one.
  const { notPart, ...slots } = where.slots;
  // A clock time named ("周日14点"): the time itself, read back as it is ("3月17日周日，14:00").
  // Next to another task or event ("矩阵复习之后"): on the days named, when any are (`3月14日周四，"矩阵复习"之后`).
  if (purpose === "move" && where.next) {
    const anchor = anchorWords(where.next.anchor, "zh");
    return `${parts.length > 0 ? `${parts.join("，")}，` : ""}${anchor}${where.next.side === "after" ? "之后" : "之前"}`;
  }
  if (purpose === "move" && slots.at !== undefined) {
    parts.push(slots.at);
  } else if (purpose === "move" && slots.sameTime) {
    parts.push("同一时间");
  } else if (purpose === "move" && slots.from !== undefined && !slots.part) {
    parts.push(slots.to === undefined ? `（第${slots.from}节）` : `（第${slots.from}-${slots.to}节）`);
  } else if (limitsSlots(slots)) {
    const range = slotRangeOf(slots, facts);
    parts.push(`${slots.part ? PART_ZH[slots.part] : ""}（第${range.from}-${range.to}节）`);
  }
  if (purpose === "move" && slots.soonest) parts.push("最早的空闲时间");
  if (notPart) parts.push(`不要${PART_ZH[notPart]}`);
  // Excluded days by weekday only: "（第N天）" after them would read as a day to use.
  const not = resolveDays(where.not, facts);
  if (not.length > 0)
    parts.push(`不要${[...new Set(not.map((day) => weekdayName(weekdayOf(facts, day), "zh")))].join("、")}`);
  if (where.before) parts.push(`在${where.before}之前`);
  return parts.join("，");
}

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A day a plan step names, as the student reads it: by weekday and date in a dated window — "Thursday, Mar 14",
 * "3月14日周四", which the request reader takes back as that one date (`readDays`) — else by weekday and the day's
 * number ("Thursday (day 4)", "周四（第4天）"), which it takes back as that day.
 */
function stepDay(day: number, facts: WeekFacts, language: Language): string {
  const date = facts.dates.get(day);
  if (date === undefined) return dayLabelIn(day, (candidate) => weekdayOf(facts, candidate), language);
  if (language === "zh") return formatDate(date, "zh");
  const [, month = 1, dayOfMonth = 1] = date.split("-").map(Number);
  return `${weekdayName(dayOfWeekOfDate(date), "en")}, ${MONTHS_EN[month - 1]} ${dayOfMonth}`;
}

/** "on Monday, Mar 11, in the evening (slots 9-12), not on Tuesday", or "" for anywhere. */
export function whereText(where: Where, facts: WeekFacts, purpose: "use" | "move" = "use"): string {
  const parts: string[] = [];
  const label = (day: number) => dayLabel(day, (candidate) => weekdayOf(facts, candidate));
  const only = resolveDays(where.only, facts);
  // A move goes to one of the days ("to Friday, Mar 15 or Saturday, Mar 16"): the step finds the place among them; to a
  // whole week ("to next week", on its eve), to its first day.
  const days = purpose === "move" && only.length >= (facts.totalDays ?? 7) ? only.slice(0, 1) : only;
  if (days.length > 0)
    parts.push(
      `${purpose === "move" ? "" : "on "}${days.map((day) => stepDay(day, facts, "en")).join(purpose === "move" ? " or " : " and ")}`,
    );
  // The day of another task or event (`the day before "Physics lab"`): said first, what limits the slots after it.
  if (purpose === "move" && where.dayOf)
    parts.unshift(`${dayOfWords(where.dayOf.offset, "en")} ${JSON.stringify(where.dayOf.anchor)}`);
  // A part of the day ruled out is said as it was ("not in the morning"), after the rest: a range of slots would read
  // back as an exact start.
  const { notPart, ...slots } = where.slots;
  // A clock time named ("to Sunday 14:00", "at 2pm"): the time itself ("Sunday, Mar 17, at 14:00").
  if (purpose === "move" && where.next) {
    // Next to another task or event: `right after "matrix review"` (on the days named, when any are).
    // (A day's first or last class: "right after your last class".)
    parts.push(`right ${where.next.side} ${anchorWords(where.next.anchor, "en")}`);
  } else if (purpose === "move" && slots.at !== undefined) {
    parts.push(`at ${slots.at}`);
  } else if (purpose === "move" && slots.sameTime) {
    // "to the same time on Friday": the time the task has when the step runs ("Friday, Mar 15, at the same time").
    parts.push("at the same time");
  } else if (purpose === "move" && slots.from !== undefined && !slots.part) {
    parts.push(slots.to === undefined ? `slot ${slots.from}` : `slots ${slots.from}-${slots.to}`);
  } else if (limitsSlots(slots)) {
    const range = slotRangeOf(slots, facts);
    parts.push(
      slots.part ? `in the ${slots.part} (slots ${range.from}-${range.to})` : `in slots ${range.from}-${range.to}`,
    );
  }
  // "as soon as possible": the first free start from the clock on, of what the rest allows.
  if (purpose === "move" && slots.soonest) parts.push("the earliest free slot");
  if (notPart) parts.push(`not in the ${notPart}`);
  // Days to keep free by weekday, as the Chinese step says them, in a window of one week (where a weekday is one
  // day); in a longer one by weekday and number, so that the step is read back as the days meant.
  const not = resolveDays(where.not, facts);
  const oneWeek = (facts.totalDays ?? 7) <= 7;
  if (not.length > 0)
    parts.push(
      `not on ${[...new Set(not.map((day) => (oneWeek ? weekdayName(weekdayOf(facts, day), "en") : label(day))))].join(" and ")}`,
    );
  if (where.before) parts.push(`before the ${where.before}`);
  // "Move X to the evening": no day, so no "in".
  if (purpose === "move" && days.length === 0 && parts[0]?.startsWith("in the "))
    parts[0] = parts[0].slice("in ".length);
  // "Move X to 14:00": no day, no "at".
  if (purpose === "move" && days.length === 0 && slots.at !== undefined && parts[0] === `at ${slots.at}`)
    parts[0] = slots.at;
  return parts.join(", ");
}

/**
 * A question when the request names days the window does not have (after the user's answer, if any), else undefined:
 * a calendar day outside the window ("the 20th", "next Monday") is named with the window's first and last dates.
 */
function missingDays(
  request: ScheduleRequest,
  facts: WeekFacts,
  answer: string | undefined,
  language: Language,
): string | undefined {
  const where = "where" in request ? request.where : undefined;
  const outside = where ? [...unresolvedDates(where.only, facts), ...unresolvedDates(where.not, facts)] : [];
  const week = where?.only.dates?.find((spec) => spec.kind === "week" && outside.includes(spec.text));
  if (week?.kind === "week") return weekOutsideWindow(week, facts, language);
  const after = where?.only.dates?.find((spec) => spec.kind === "offset" && outside.includes(spec.text));
  if (after?.kind === "offset" && outside.length === 1) {
    const said = daysAfterWindow(after, facts, language);
    if (said) return said;
  }
  if (where && outside.length > 0) return outsideWindow(outside, facts, language);
  const passed = passedWeekdaysAhead(request, facts, language);
  if (passed) return passed;
  if (!where || isEmptySelection(where.only) || resolveDays(where.only, facts).length > 0) return undefined;
  const total = facts.totalDays ?? 7;
  if (language === "zh") {
    const unread = answer === undefined ? "" : `我没能从你的回答“${answer}”中读出日程里的某一天。`;
    return `${unread}你的日程里没有这一天（共 ${total} 天：第1天到第${total}天）。你指的是哪一天？可以回答星期几（如“周五”）或第几天（如“第5天”）。`;
  }
  const unread = answer === undefined ? "" : `I could not read a day of your schedule in your answer "${answer}". `;
  return `${unread}Your schedule has no such day (it covers ${total} days: day 1 to day ${total}). Which day do you mean? Answer with a weekday ("Friday") or a day number ("day 5").`;
}

/**
 * A change to a weekday said alone whose days in the window are all behind today ("move the essay to Monday" on a
 * Saturday, "把作文挪到周一"): the coming one is meant — no one moves a task into the past — and the window does not
 * reach it yet: its date, and that the schedule moves on by itself; which day of the window is meant. Undefined for
 * other requests, a weekday still ahead or today ("Friday 10:00" on a Friday: that day, its time passed or not), or a
 * weekday said with a week ("this Monday": this week's, which has passed).
 */
function passedWeekdaysAhead(request: ScheduleRequest, facts: WeekFacts, language: Language): string | undefined {
  if (request.kind !== "move" && request.kind !== "arrange") return undefined;
  const { only } = request.where;
  const dates = windowDates(facts);
  const today = facts.now?.date;
  if (!dates || today === undefined || today > dates.last || only.weekdays.length === 0) return undefined;
  if (only.days.length > 0 || (only.dates?.length ?? 0) > 0) return undefined;
  const total = facts.totalDays ?? 7;
  const behind = (weekday: number) => {
    const days = Array.from({ length: total }, (_, index) => index + 1).filter(
      (day) => weekdayOf(facts, day) === weekday,
    );
    return days.length > 0 && days.every((day) => addDays(dates.first, day - 1) < today);
  };
  if (!only.weekdays.every(behind)) return undefined;
  const next = (weekday: number) => addDays(today, (weekday - dayOfWeekOfDate(today) + 7) % 7 || 7);
  const coming = (lang: Language) =>
    sayList(
      only.weekdays.map((weekday) =>
        lang === "zh"
          ? `${weekdayName(weekday, lang)}（${formatDate(next(weekday), lang)}）`
          : `${weekdayName(weekday, lang)} (${formatDate(next(weekday), lang)})`,
      ),
      lang,
    );
  const passed = (lang: Language) =>
    sayList(
      only.weekdays.map((weekday) => weekdayName(weekday, lang)),
      lang,
    );
  const plural = only.weekdays.length > 1;
  const named = {
    en: `this week's ${passed("en")} ${plural ? "have" : "has"} passed, and the coming ${coming("en")}`,
    zh: `本周的${passed("zh")}已经过去，下一个${coming("zh")}`,
    plural,
  };
  return notOnItYet(dates, named, 7, language);
}

/**
 * A week asked about that the window does not reach ("what's on next week?" while the window is this week): its dates,
 * and that the schedule moves on to it only once the window's last day is over; which day of the window is meant.
 */
function weekOutsideWindow(week: Extract<DateSpec, { kind: "week" }>, facts: WeekFacts, language: Language): string {
  const dates = windowDates(facts);
  if (!dates || !facts.now) return outsideWindow([week.text], facts, language);
  const monday = addDays(mondayOf(facts.now.date), week.weeks * 7);
  const ahead = monday > dates.last;
  return say(
    language,
    `Your schedule covers ${formatDate(dates.first)} to ${formatDate(dates.last)}; "${week.text}" (${formatDate(monday)} to ${formatDate(addDays(monday, 6))}) is not on it${ahead ? " yet: the schedule moves on to the next week once its last day is over" : ""}, so I have planned nothing. Which day of your schedule do you mean? Answer with a weekday ("Friday"), "today" or "tomorrow".`,
    `你的日程覆盖 ${formatDate(dates.first, "zh")} 到 ${formatDate(dates.last, "zh")}；“${week.text}”（${formatDate(monday, "zh")} 到 ${formatDate(addDays(monday, 6), "zh")}）${ahead ? "还不在日程里：日程要等最后一天过完才会换到下一周" : "不在日程里"}，所以我没有做任何计划。你指的是日程里的哪一天？可以回答星期几（如“周五”）、“今天”或“明天”。`,
  );
}

/**
 * A day said from today ("tomorrow", "in 2 days") past the window's last day while today is in the window (a Sunday
 * evening's "what do I have tomorrow?"): its date, and that the schedule moves on to it by itself once the window's
 * last day is over; which day of the window is meant. Undefined when the day is not such a one.
 */
function daysAfterWindow(
  spec: Extract<DateSpec, { kind: "offset" }>,
  facts: WeekFacts,
  language: Language,
): string | undefined {
  const dates = windowDates(facts);
  const today = facts.now?.date;
  if (!dates || today === undefined || today < dates.first || today > dates.last) return undefined;
  const day = addDays(today, spec.days);
  if (day <= dates.last) return undefined;
  const named = { en: `"${spec.text}" (${formatDate(day)})`, zh: `“${spec.text}”（${formatDate(day, "zh")}）` };
  return notOnItYet(dates, named, 5, language);
}

/**
 * "Your schedule covers A to B; {named} is not on it yet: the schedule moves on … ask me again then. Or which day …?
 * Answer with a weekday ("Friday")…": days past the window's last, while today is in it. `example`: the weekday the
 * answer's example names (one still ahead).
 */
function notOnItYet(
  dates: { first: string; last: string },
  named: { en: string; zh: string; plural?: boolean },
  example: number,
  language: Language,
): string {
  const [first, last] = [dates.first, dates.last];
  return say(
    language,
    `Your schedule covers ${formatDate(first)} to ${formatDate(last)}; ${named.en} ${named.plural ? "are" : "is"} not on it yet: the schedule moves on to the next week by itself once ${formatDate(last)} is over, so I have planned nothing — ask me again then. Or which day of your schedule do you mean? Answer with a weekday ("${weekdayName(example, "en")}") or "today".`,
    `你的日程覆盖 ${formatDate(first, "zh")} 到 ${formatDate(last, "zh")}；${named.zh}还不在日程里：${formatDate(last, "zh")}过完后，日程会自动换到下一周，所以我没有做任何计划——到时候再问我吧。或者你指的是日程里的哪一天？可以回答星期几（如“${weekdayName(example, "zh")}”）或“今天”。`,
  );
}

/** "Your schedule covers Mon 11 Mar to Sun 17 Mar (day 1 to day 7); "the 20th" is not in it. …" (or, undated, that days have no dates). */
function outsideWindow(named: string[], facts: WeekFacts, language: Language): string {
  const dates = windowDates(facts);
  const total = facts.totalDays ?? 7;
  // "next weekend" names two days with one text: said once.
  const quoted = [...new Set(named)].map((text) => `"${text}"`).join(language === "zh" ? "、" : ", ");
  if (!dates) {
    return say(
      language,
      `Your schedule's days have no dates, so I can't tell which day ${quoted} is (it covers ${total} days: day 1 to day ${total}). Which day do you mean? Answer with a weekday ("Friday") or a day number ("day 5").`,
      `你的日程没有日期，我无法确定 ${quoted} 是哪一天（共 ${total} 天：第1天到第${total}天）。你指的是哪一天？可以回答星期几（如“周五”）或第几天（如“第5天”）。`,
    );
  }
  return say(
    language,
    `Your schedule covers ${formatDate(dates.first)} to ${formatDate(dates.last)} (${dates.first} to ${dates.last}, day 1 to day ${total}); ${quoted} is not in it, so I have planned nothing. Which day of it do you mean? Answer with a date ("${formatDate(dates.first)}"), a weekday ("Friday") or a day number ("day 5").`,
    `你的日程覆盖 ${formatDate(dates.first, "zh")} 到 ${formatDate(dates.last, "zh")}（${dates.first} 至 ${dates.last}，第1天到第${total}天）；${quoted} 不在其中，所以我没有做任何计划。你指的是其中哪一天？可以回答日期（如“${formatDate(dates.first, "zh")}”）、星期几（如“周五”）或第几天（如“第5天”）。`,
  );
}

/** A revision: after a rejected write, or feedback on the plan card. */
function revise(view: PromptView, current: StepDraft[]): Record<string, unknown> {
  const keep = (speak: string, reason: string) => ({
    speak,
    action: "plan_done",
    reason,
    complexity: current.length === 1 ? "simple" : "moderate",
    need_thinking: false,
    plan_steps: current,
  });
  // Feedback on a write: the plan stands; the execute stage acts on the feedback in the step.
  if (view.rounds.length > 0 && callResultOf(view.rounds.at(-1)!) === "rejected")
    return keep("", "the feedback concerns one write; the step handles it");
  const feedback = planCardFeedback(view);
  // No feedback (the tools changed, or a plain rejection): the plan stands.
  if (feedback === "" || feedback === goalOf(view).trim()) return keep("", "nothing to change");

  const facts = weekFactsOf(view);
  const asRequest = parseScheduleRequest(feedback);
  const language = languageOf([goalOf(view), ...userLines(view), feedback]);
  if (isPlannable(asRequest) && asRequest.kind !== "arrange")
    return planFor(
      asRequest,
      facts,
      language === "zh" ? "已按你的新请求修改计划。" : "I've changed the plan to your new request. ",
      language,
    );
  const planned = parseScheduleRequest(
    current.find((step) => /^(place|move|find|show)\b/i.test(step.content))?.content ?? current[0]!.content,
  );
  const extra =
    asRequest.kind === "arrange"
      ? asRequest.where
      : parseScheduleRequest(`arrange ${feedback}`).kind === "arrange"
        ? (parseScheduleRequest(`arrange ${feedback}`) as { where: Where }).where
        : undefined;
  if (
    (planned.kind === "arrange" || planned.kind === "move" || planned.kind === "free") &&
    extra &&
    !isAnywhere(extra)
  ) {
    const where = mergeWhere(planned.where, extra);
    const merged = { ...planned, where } as ScheduleRequest;
    // A time that holds no slot of the day: said, and the plan kept (a step never names an empty window).
    const noSlot = emptyWindowWhy(where.slots, facts, language);
    if (noSlot !== undefined) {
      const kept = saySummary(language, "noSlotPlanKept", { why: noSlot });
      return keep(`${kept.charAt(0).toUpperCase()}${kept.slice(1)}`, "the time asked for holds no slot of the day");
    }
    return planFor(
      merged,
      facts,
      language === "zh" ? "已按你的要求修改计划。" : "I've changed the plan as you asked. ",
      language,
    );
  }
  const said =
    language === "zh"
      ? `离线模式下我无法理解这条反馈：“${feedback}”（配置模型密钥后可处理自由表述的请求）。计划保持不变：可以接受、编辑步骤，或忽略以放弃。`
      : `Offline, I can't act on the feedback "${feedback}" (a model key unlocks free-form requests). The plan is unchanged: accept it, edit its steps, or ignore it to drop it.`;
  return keep(said, "the feedback was not understood offline");
}

/** Adds the feedback's days and slots to the plan's. */
function mergeWhere(base: Where, extra: Where): Where {
  return {
    only: isEmptySelection(extra.only) ? base.only : extra.only,
    not: {
      weekdays: [...base.not.weekdays, ...extra.not.weekdays],
      days: [...base.not.days, ...extra.not.days],
      ...(base.not.dates || extra.not.dates ? { dates: [...(base.not.dates ?? []), ...(extra.not.dates ?? [])] } : {}),
    },
    // A time said again ("before 10:00" after "before 8:30") takes the place of the time the request named.
    slots: limitsSlots(extra.slots) || extra.slots.at !== undefined ? extra.slots : base.slots,
    ...((extra.before ?? base.before) ? { before: (extra.before ?? base.before)! } : {}),
  };
}
