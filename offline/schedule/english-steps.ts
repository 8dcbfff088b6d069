/** The plan steps of one request in English, each written so that the request reader reads it back as that request. */
import type { StepDraft } from "../stage-state.js";
import { PART_OF_DAY_ZH, sayList, weekdayName, type Language } from "../../contracts/language.js";
import { addDays, dayOfWeekOfDate } from "../../contracts/clock.js";
import { listedReviews } from "./replies.js";
import {
  onlyExcludes,
  readPartOfDay,
  shiftAllBy,
  shiftAllDays,
  splitNamingDay,
  splitPartOfDay,
  timedPlacement,
  type ScheduleRequest,
} from "../../tools/schedule/request-parsing.js";
import { firstDayOf, resolveDays, weekdayOf, type WeekFacts } from "./week-facts.js";
import { namingWeekday } from "./day-named.js";
import { CALENDAR_PACKS, CLASS_PACKS, OFFLINE_PLAN_STEPS, RESCHEDULE_STEP, WEEKDAY_EN } from "./fixed-steps.js";
import { sameDayToday, shiftWords, whereText } from "./step-where.js";

/**
 * The weekday a mark names: its own ("Tuesday's review"), else the day it names from today ("yesterday's review") on
 * the clock of the prompt's now line — none without a now to count from.
 */
export function markWeekday(request: Extract<ScheduleRequest, { kind: "mark" }>, facts: WeekFacts): number | undefined {
  if (request.weekday !== undefined) return request.weekday;
  if (request.daysAgo === undefined || !facts.now) return undefined;
  return dayOfWeekOfDate(addDays(facts.now.date, -request.daysAgo));
}

/**
 * A move (or unplace) of a review named by its day from today ("tomorrow's review", "明天的复习") names it by the weekday the clock
 * makes of it ("Thursday's review", "周四的复习"): the step reads the same whenever it runs.
 */
export function withNamingWeekday(request: ScheduleRequest, facts: WeekFacts): ScheduleRequest {
  if (request.kind === "swap")
    return { ...request, first: byNamingWeekday(request.first, facts), second: byNamingWeekday(request.second, facts) };
  if (request.kind !== "move" && request.kind !== "unplace") return request;
  return { ...request, task: byNamingWeekday(request.task, facts) };
}

/** A task named by a day from today ("tomorrow's review") named by its weekday ("thursday's review"); else as it is. */
function byNamingWeekday(phrase: string, facts: WeekFacts): string {
  const named = splitNamingDay(phrase);
  const weekday = namingWeekday(phrase, facts);
  if (named?.fromToday === undefined || weekday === undefined) return phrase;
  const chinese = /[\u4e00-\u9fff]/.test(phrase);
  const rest = named.rest || (chinese ? "复习" : "review");
  // ("tomorrow morning's reviews", "明天上午的复习": the part of the day goes with its weekday, "thursday morning's".)
  const part = splitPartOfDay(rest).part !== undefined;
  const weekdayWords = chinese ? weekdayName(weekday, "zh") : weekdayName(weekday, "en").toLowerCase();
  if (part) return chinese ? `${weekdayWords}${rest}` : `${weekdayWords} ${rest}`;
  // ("this afternoon's reviews", "tonight's reviews", "今晚的复习": the part said in the day's own words goes with it —
  // before, it was lost, and "this afternoon's reviews" named the whole day's.)
  const dayPart = readPartOfDay(phrase.slice(0, phrase.length - (named.rest ?? "").length));
  if (dayPart)
    return chinese ? `${weekdayWords}${PART_OF_DAY_ZH[dayPart]}的${rest}` : `${weekdayWords} ${dayPart}'s ${rest}`;
  return chinese ? `${weekdayWords}的${rest}` : `${weekdayWords}'s ${rest}`;
}

/**
 * A move of every review of a day said from today ("today's reviews") names that day by its weekday, and one to
 * another day ("… to tomorrow") by the days between them, on the clock of the prompt's now line: the step reads the
 * same whenever it runs. Without a clock to tell them, the request is left as it is (its step says why).
 */
export function withShiftDays(request: ScheduleRequest, facts: WeekFacts): ScheduleRequest {
  if (request.kind !== "shift_all") return request;
  const today = facts.now?.date;
  const weekday =
    request.weekday ??
    (request.fromToday !== undefined && today !== undefined
      ? dayOfWeekOfDate(addDays(today, request.fromToday))
      : undefined);
  // ("… to Tuesday evening": the part of the day they go into, with the days to it.)
  const into =
    request.into ?? (request.to && Object.keys(request.to.slots).join() === "part" ? request.to.slots.part : undefined);
  let days = request.days ?? daysBetweenSaidFromToday(request);
  if (days === undefined && request.to && weekday !== undefined) {
    const target = resolveDays(request.to.only, facts);
    // The day the reviews are on: the one said from today, else the weekday's first day in the window.
    const from =
      request.fromToday !== undefined && today !== undefined
        ? resolveDays({ weekdays: [], days: [], dates: [{ kind: "offset", days: request.fromToday, text: "" }] }, facts)
        : resolveDays({ weekdays: [weekday], days: [], dates: [] }, facts);
    if (target.length === 1 && from.length >= 1 && (target[0] !== from[0] || into)) days = target[0]! - from[0]!;
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
    ...(request.startsFrom ? { startsFrom: request.startsFrom } : {}),
    ...(request.endsBy ? { endsBy: request.endsBy } : {}),
    ...(also.length > 0 ? { more: also } : {}),
  };
  const intoPart = into && days !== undefined && request.minutes === undefined ? { into } : {};
  // Off the day: the day named by its weekday ("I'm busy tomorrow, move my reviews").
  if (request.away)
    return weekday === undefined
      ? request
      : { kind: "shift_all", ...of, away: request.away, ...(request.dayward ? { dayward: request.dayward } : {}) };
  const by = request.minutes !== undefined ? { minutes: request.minutes } : days !== undefined ? { days } : undefined;
  return by === undefined ? request : { kind: "shift_all", ...by, ...of, ...intoPart };
}

/**
 * The days from a day said from today to another said so ("today's reviews to tomorrow": 1), whether or not the week
 * shown holds it: on Sunday, tomorrow is outside it, and the step is still "1 day later" (each review then stays,
 * named: a day later is outside the schedule) — before, "to the day asked", which no step reads, for every review.
 */
function daysBetweenSaidFromToday(request: Extract<ScheduleRequest, { kind: "shift_all" }>): number | undefined {
  const only = request.to?.only;
  const [date, ...more] = only?.dates ?? [];
  if (request.fromToday === undefined || !only || only.weekdays.length + only.days.length > 0 || more.length > 0)
    return undefined;
  // (The same day said from today, "today's reviews to tonight", the reader made `days: 0` and `into` already.)
  return date?.kind === "offset" && date.days !== request.fromToday ? date.days - request.fromToday : undefined;
}

/** A mark's task in the user's words when no weekday could be told: the day said from today stays in them. */
export function markTaskWords(request: Extract<ScheduleRequest, { kind: "mark" }>, language: Language = "en"): string {
  if (request.daysAgo === undefined) return request.task;
  if (language === "zh") return `${request.daysAgo === 1 ? "昨天" : "今天"}的${request.task}`;
  return `${request.daysAgo === 1 ? "yesterday" : "today"}'s ${request.task}`;
}

/** The steps of a request in English words (`stepsIn` adds the fixed ones). */
export function englishSteps(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  switch (request.kind) {
    case "arrange":
      return arrangeSteps(request, facts);
    case "move":
      return moveSteps(request, facts);
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
    case "shift_all":
      return shiftAllSteps(request);
    case "clear_day":
      // One step, one batch card: a write for each review placed there (the execute stage lists them).
      if (request.how === "done" || request.how === "missed")
        return [
          {
            content: `Mark every review placed ${whereText(request.where, facts)} ${request.how}`,
            done_when: `each review placed there is ${request.how}, or it is told why not`,
          },
        ];
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
          content: `Add the long task ${JSON.stringify(request.name)} in sessions, ${request.minutes} min, before ${WEEKDAY_EN[request.dueWeekday - 1]}${request.classPhrase ? `, for the class ${JSON.stringify(request.classPhrase)}` : ""}`,
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
        // (A preference: `class-steps.ts` says so.)
        ...request.parts.map((part) => `prefer the ${part}`),
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

/** An arrangement's steps: a task at a time named, or the pending reviews where the request says, then the week's check. */
function arrangeSteps(request: Extract<ScheduleRequest, { kind: "arrange" }>, facts: WeekFacts): StepDraft[] {
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
      : request.count === 1
        ? "Place one pending review task into a free slot that fits it"
        : request.count !== undefined
          ? `Place ${request.count} pending review tasks into free slots that fit them`
          : OFFLINE_PLAN_STEPS[0]!.content;
  const where = [
    whereText(request.where, facts, "arrange"),
    ...(request.except?.length ? [`except ${request.except.map((task) => JSON.stringify(task)).join(" and ")}`] : []),
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

/** A move's step: by a shift from its own place, or to (or off) where the request says. */
function moveSteps(request: Extract<ScheduleRequest, { kind: "move" }>, facts: WeekFacts): StepDraft[] {
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

/** Every review of some days moved together: one step, one card (batch_move), off the day or by the same shift. */
function shiftAllSteps(request: Extract<ScheduleRequest, { kind: "shift_all" }>): StepDraft[] {
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
        )} reviews${request.startsFrom && !request.endsBy ? ` from ${request.startsFrom} on` : ""}`;
  // ("14:00-16:00": a window of the clock kept free, read back as said.)
  const left = request.endsBy ? `${request.startsFrom}-${request.endsBy}` : request.part;
  // Off the day (or that part of it), to no place named: said as the parser reads it back.
  if (request.away && request.weekday !== undefined)
    return [
      {
        content:
          request.away === "part"
            ? `Move ${whose} out of ${sayList(days, "en")} ${left}`
            : `Move ${whose} to ${request.dayward === "earlier" ? "an earlier day" : request.dayward === "later" ? "a later day" : "another day"}`,
        done_when: "each review still ahead there has moved off it, or it is told why it stays",
      },
    ];
  const by = shiftAllBy(request);
  // Into a part of the day: of their own day ("to Monday evening", read back as the same day), or of the day that many
  // days on ("1 day later, into the evening").
  if (request.into && by && "days" in by)
    return [
      {
        content:
          by.days === 0
            ? `Move ${whose} to ${days.length === 1 ? days[0]! : "the"} ${request.into}`
            : `Push ${whose} ${shiftWords(by, "en")}, into the ${request.into}`,
        done_when: `each review still ahead is in the ${request.into}${by.days === 0 ? " of its day" : " of its new day"}, or it is told why it stays`,
      },
    ];
  return [
    {
      content: `Push ${whose} ${by === undefined ? "to the day asked" : shiftWords(by, "en")}`,
      done_when: `each review still ahead has moved by ${by && "minutes" in by ? "that time" : "those days"}, or it is told why it stays`,
    },
  ];
}
