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
 *
 * The steps' words are written by `english-steps.ts` and `chinese-steps.ts` (where and when: `step-where.ts`; the steps
 * written the same way every time: `fixed-steps.ts`); the days a plan cannot use are found by `window-days.ts`.
 */
import { callResultOf } from "./tool-data.js";
import { currentPlanSteps, planCardFeedback, type StepDraft } from "../stage-state.js";
import { languageOf, say, weekdayName, type Language } from "../../contracts/language.js";
import { addDays } from "../../contracts/clock.js";
import { SCHEDULE_REFINEMENT } from "../../tools/schedule/domain.js";
import { capabilities } from "./replies.js";
import { goalOf, section, userLanguage, userLines, type PromptView } from "../prompt-reading.js";
import {
  isAnywhere,
  isEmptySelection,
  isPlannable,
  isWholeRequest,
  normalizeText,
  movesOf,
  parseScheduleRequest,
  readNumber,
  readWhere,
  taskPhrase,
  OPTIMIZE_REQUEST,
  READ_REQUEST_KINDS,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import { weekFactsOf, windowDates, type WeekFacts } from "./week-facts.js";
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
import { HEALTH_PACKS, HEALTH_STEP, LET_GO_STEP, RECOVER_STEP, RESCHEDULE_STEP, UNDO_STEP } from "./fixed-steps.js";
import { englishSteps, markTaskWords, markWeekday, withNamingWeekday, withShiftDays } from "./english-steps.js";
import { chineseSteps } from "./chinese-steps.js";
import { missingDays } from "./window-days.js";
import { withNextReview } from "./next-review.js";
import { withHalfOfDay, withThisTime } from "./step-where.js";
import { noReviewOnItsDays } from "./empty-days.js";

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
  const said = withCurrentReview(
    withNamesAnswered(withAnswer(asked, answer), groundRequest(asked, overview, language), answer),
    language,
    context.conversation,
    overview,
  );
  // "Move my next review to tomorrow", "… my 10am review", "… tonight's review": the review those words name by the
  // clock (or which one asked) — before a day said from today is named by its weekday ("tonight's" is no Tuesday's).
  const next = withNextReview(said, overview, facts, language);
  const request = withHalfOfDay(
    withThisTime(
      withShiftDays(withNamingWeekday(next && "request" in next ? next.request : said, facts), facts),
      facts,
    ),
    facts,
    overview,
  );
  if (next && "question" in next)
    return {
      decision: {
        speak: next.question,
        action: "ask_user",
        reason: "the review the words name (next, at a time, of a part of today) cannot be told",
        complexity: "simple",
      },
    };
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
    return stepAtOnce(
      "the review is still ahead of the clock: nothing is missed yet, and the step says where it is",
      language === "zh" ? chineseSteps(grounding.request, facts) : englishSteps(grounding.request, facts),
    );
  // "Move tomorrow's review to the afternoon" with no review tomorrow: nothing to approve; the step says so at once.
  if (noReviewOnItsDays(grounding.request, overview, facts))
    return stepAtOnce(
      "no review is placed on the days the request names: the step says so, with nothing to approve",
      stepsIn(language, grounding.request, facts),
    );
  const week = nextWeekNote(goal, grounding.request, facts, language);
  return {
    request: withMissedMadeUp(grounding.request, overview),
    preface: `${next && "said" in next ? next.said : ""}${week}${dropped}`,
  };
}

/** A plan with nothing to approve: its steps run at once, read-only, with no card (a write would still be confirmed). */
function stepAtOnce(reason: string, steps: StepDraft[]): Planned {
  return {
    decision: {
      speak: "",
      action: "plan_done",
      reason,
      complexity: "simple",
      need_thinking: false,
      read_only: true,
      plan_steps: steps,
    },
  };
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
export const answersWhole = isWholeRequest;

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
  // ("I missed all of today's reviews": each proposed again after, as a missed review is, unless the user said not to.)
  if (request.kind === "clear_day" && request.how === "missed")
    return [...steps, request.reschedule === false ? LET_GO_STEP[language] : RESCHEDULE_STEP[language]];
  // A missed review is proposed again at the candidates' best place, unless the user said not to: then it is let go
  // (skipped), so that the daily check-in does not propose it again the next morning.
  if (request.kind !== "mark" || request.to !== "missed") return steps;
  // "I missed the matrix review, put it on Friday": placed where the user said, by a move after the mark (a move of a
  // missed review places it), not at the candidates' best place.
  if (request.then) {
    // The missed review by its day when the mark named one ("Tuesday's review"): the move finds it by that day.
    const weekday = markWeekday(request, facts);
    const on = (task: string) =>
      weekday === undefined
        ? task
        : language === "zh"
          ? `${weekdayName(weekday, "zh")}的${task}`
          : `${weekdayName(weekday, "en")}'s ${task}`;
    const tasks = (request.tasks ?? [weekday === undefined ? markTaskWords(request, language) : request.task]).map(on);
    return [
      ...steps,
      ...tasks.flatMap((task) => stepsIn(language, { kind: "move", task, where: request.then! }, facts)),
    ];
  }
  return [...steps, request.reschedule === false ? LET_GO_STEP[language] : RESCHEDULE_STEP[language]];
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
  // A card whose calls were closed unrun (answered after its time, its places passed): the plan stands, and the step
  // proposes again from now — a "yes" typed to that card is no feedback on the plan.
  if (view.rounds.length > 0 && view.rounds.at(-1)!.outcome === "held")
    return keep("", "the card's time had passed; the step proposes again from now");
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
