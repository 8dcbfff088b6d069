/**
 * The schedule tool domain: the thirteen tools over `ScheduleState`, loaded from
 * and persisted (as a diff) to a `ScheduleRepository`.
 */
import { isInvalidArguments } from "../argument-issues.js";
import { argumentProblemIn } from "./argument-words.js";
import type { AppliedWrite, PersistOptions, Refinement, ToolDomain, ToolPack, Verification } from "../domain.js";
import { pendingFitting } from "./arrangement.js";
import { MIN_GAIN } from "./candidate-listing.js";
import { diffScheduleState } from "./diff.js";
import { describeScheduleCall } from "./describe-call.js";
import { isPastRefusal, pastRefusalText } from "./rules.js";
import { readableScheduleText, whereThingsAre } from "./readable.js";
import { summaryInChinese } from "./summary-words.js";
import { SAMPLE_ALIASES } from "./sample-data.js";
import type { Language } from "../../contracts/language.js";
import type { ApplyResult, ScheduleRepository } from "./repository.js";
import type { ScheduleState } from "./state.js";
import { scheduleTools } from "./tools/index.js";
import { atRiskNotice } from "./at-risk.js";
import { placedAgainstText } from "./placed-against.js";
import { clockBehindText, clockNotBefore, movedOnText, rollDueByClock } from "./clock-roll.js";
import { cardFrameOf, movedCardWeek, seenInCardFrame, staleCardReason, weekOf } from "./card-frame.js";
import type { RollWindowData } from "./tools/roll-window.js";
import { readSchedulePreferences } from "./preferences.js";
import { isWholeRequest } from "./request-parsing.js";
import { SCHEDULE_TASK_DECISIONS, withCandidateLimits } from "./task-limits.js";
import { unkeptReasonOf, type Preference } from "../../contracts/preferences.js";
import { saySummary, summaryPattern, type SummaryKey, type SummaryParams } from "./summary-phrases.js";

/**
 * Version of the tools: their names, kinds and arguments, what a saved plan names. Bump it whenever they change
 * (`tests/domains/domain-version.test.ts` fails until you do); a result's new wording is no bump (CONTRIBUTING.md).
 */
export const SCHEDULE_DOMAIN_VERSION = "schedule-9";

/** What the domain is about, for the system prompt. */
export const SCHEDULE_DOMAIN_DESCRIPTION =
  "A student's study schedule: days split into numbered class sections (slots) holding timetable events " +
  "(lectures, labs, exams; some locked, some embeddable like a self-study hall) and review tasks of task classes " +
  "(courses) that are pending until placed into free slots or inside an embeddable event.";

/**
 * The schedule's tool packs, each a step's default only where it serves (issue 49: every bound schema is paid on every
 * call): an arranging step starts with the health judge and the backend's candidates alone (the live state is the
 * overview; the short path is the only one offered, and hand placing comes in when a step asks); a move, a swap or a
 * mark starts with reading and placing by hand; a question with reading. A task's life (marks), a day's contents and
 * one task's details (`schedule.inspect`), moving many tasks at once (`schedule.bulk`) come in when a step asks — a
 * plan step names them, or a call to one of their tools brings its pack in.
 */
export const SCHEDULE_PACKS: readonly ToolPack[] = [
  {
    name: "schedule.read",
    description: "the week at a glance: the overview, pending tasks, free slots",
    tools: ["get_overview", "list_tasks", "find_free"],
    default: ["question", "adjusting"],
  },
  {
    name: "schedule.optimize",
    description: "the week's health, and changes the backend proposes and scores: choose one by id (choose_candidate)",
    tools: ["analyze_health", "propose_arrangement", "propose_candidates"],
    default: ["arranging"],
  },
  {
    name: "schedule.place",
    description: "place, move, swap or unplace one task by hand (each through a card)",
    tools: ["place", "move", "swap", "unplace"],
    default: ["adjusting"],
  },
  {
    name: "schedule.inspect",
    description: "details: what a range of days holds, one task's information",
    tools: ["query_range", "get_task_info"],
  },
  { name: "schedule.bulk", description: "move many placed tasks in one write (one card)", tools: ["batch_move"] },
  {
    name: "schedule.tasks",
    description:
      "what there is to arrange: add, change or remove tasks (a long one in sessions), add a habit; create, change or remove a course and its study profile (each through a card)",
    tools: ["upsert_task_class", "remove_task_class", "add_task", "add_habit", "update_task", "remove_task"],
  },
  {
    name: "schedule.calendar",
    description:
      "the calendar: import a timetable from iCalendar (.ics, through a card), remove a timetable event or series (propose_undo puts a removed one back), export the week as .ics, move the window on a week",
    tools: ["import_calendar", "remove_event", "restore_event", "export_calendar", "roll_window"],
  },
  {
    name: "schedule.life",
    description:
      "a task's life: mark a task done, missed or skipped this week, or reopen it to reschedule (each through a card); a missed one's best place again (propose_reschedule); undo the last change, a removed task or event put back included (propose_undo); the change that recovers reviews at risk of missing their deadline (propose_recovery)",
    tools: [
      "mark_done",
      "mark_missed",
      "skip",
      "reopen",
      "propose_reschedule",
      "propose_undo",
      "restore_task",
      "propose_recovery",
    ],
  },
];

/**
 * How the schedule refines after a rough arrangement (seed 003): the refinement step lists the backend's candidates
 * and chooses, keeping to reading and the candidates (no placing by hand), until no change raises the health score,
 * two listings in a row gain less than `MIN_GAIN`, or six listings were made.
 */
export const SCHEDULE_REFINEMENT: Refinement = {
  step: {
    content: "Refine the week: choose the backend's best changes until none helps",
    doneWhen: "no candidate raises the health score, or the refinement stops",
  },
  localized: {
    zh: {
      content: "优化这一周：选择后端评分最高的调整，直到没有调整能再改善",
      doneWhen: "没有候选能提高健康分，或优化停止",
    },
  },
  packs: ["schedule.read", "schedule.optimize"],
  // The code lists (moves and swaps of what is placed, the top three); the model chooses.
  // …and every listing keeps to what the user decided in the task (edits, rejections, days off, what was placed before).
  list: {
    tool: "propose_candidates",
    arguments: { k: 3, place_pending: false },
    limits: (task, args) => withCandidateLimits(args, task),
  },
  maxRounds: 6,
  stagnantRounds: 2,
  minGain: MIN_GAIN,
};

/**
 * The schedule's closing check (the verify step every arranging plan ends with): how many review tasks are still
 * pending, read from the stored week after the writes applied. The summary is the offline policy's words for the same
 * check, so a report reads it alike.
 */
export const SCHEDULE_VERIFICATION: Verification<ScheduleState> = {
  step: { content: "Verify the schedule", doneWhen: "the overview shows how many review tasks are still pending" },
  localized: { zh: { content: "核对日程", doneWhen: "日程概览显示还有多少复习任务待安排" } },
  // A reschedule's card places missed reviews too, but its step says what it rescheduled (the answer's heading reads it).
  placing: { tools: ["place"], stillFit: pendingFitting, notByHand: ["propose_reschedule"] },
  check(state, language) {
    const pending = state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    // Missed reviews have no place either: a week of them is never told as arranged.
    const missedNames = state.tasks.flatMap((task) =>
      task.source === "task_item" && task.status === "missed" ? [task.name] : [],
    );
    const missed = missedNames.length;
    // Those that fit somewhere free as the week stands are told: the step's words never read "none fits" over them.
    const fitting = pending > 0 ? pendingFitting(state).length : 0;
    const facts = { pending, fitting, missedNames };
    return {
      summary: closingCheckSummary(facts, "en"),
      heading: arrangedHeading(String(pending), language, missed),
      told: closingCheckSummary(facts, language),
    };
  },
};

/** What the closing check found: the reviews still pending, how many of them fit, the missed ones without a place. */
export interface ClosingCheckFacts {
  pending: number;
  fitting: number;
  missedNames: readonly string[];
}

/**
 * The closing check's summary in `language`, from its facts (the English is the step's summary the model and the
 * offline policy read; `summaryInChinese` reads it back to the same Chinese).
 */
export function closingCheckSummary(facts: ClosingCheckFacts, language: Language): string {
  const say = (key: SummaryKey, params?: SummaryParams) => saySummary(language, key, params);
  return `${say("verified", { pending: facts.pending })}${facts.fitting > 0 ? say("verifiedFitting", { fitting: facts.fitting }) : ""}${missedClause(facts.missedNames.length, facts.missedNames, language)}`;
}

/**
 * The closing check's words for `missed` reviews without a place, named (`names`, the first few) — "" for none; read
 * back by `missedIn`.
 */
export function missedClause(missed: number, names: readonly string[] = [], language: Language = "en"): string {
  if (missed === 0) return "";
  const say = (key: SummaryKey, params?: SummaryParams) => saySummary(language, key, params);
  const quote = (name: string) => (language === "zh" ? `“${name}”` : JSON.stringify(name));
  const shown = names
    .slice(0, 8)
    .map(quote)
    .join(language === "zh" ? "、" : ", ");
  const listed = names.length > 8 ? say("namesAndMore", { names: shown, more: names.length - 8 }) : shown;
  return names.length > 0 ? say("missedNoPlaceNamed", { missed, names: listed }) : say("missedNoPlace", { missed });
}

/** The missed reviews a closing check's summary names (`missedClause`), 0 when it names none. */
export function missedIn(summary: string): number {
  return Number(new RegExp(summaryPattern("missedNoPlace", "anywhere").source).exec(summary)?.[1] ?? 0);
}

/**
 * The first line of an arranging task's answer, by how many reviews are still pending and how many missed ones have
 * no place (the offline policy's too).
 */
export function arrangedHeading(pending: string, language: Language, missed = 0): string {
  const zh = language === "zh";
  const unplaced =
    missed > 0
      ? zh
        ? `还有 ${missed} 个错过的复习任务没有安排。`
        : ` ${missed} missed review task(s) have no place.`
      : "";
  if (pending === "0")
    return missed > 0
      ? zh
        ? `没有待安排的复习任务，但${unplaced}`
        : `No review task is left pending, but${unplaced}`
      : zh
        ? "你的复习周已安排好。"
        : "Your review week is arranged.";
  return zh
    ? `复习周已部分安排：还有 ${pending} 个复习任务待安排。${unplaced}`
    : `Your review week is partly arranged: ${pending} review task(s) are still pending.${unplaced}`;
}

/** Options of `createScheduleDomain`. */
export interface ScheduleDomainOptions {
  /** Where schedules are loaded from and persisted to. */
  repository: ScheduleRepository;
  /** Domain version; default `SCHEDULE_DOMAIN_VERSION`. */
  version?: string;
  /** Refine after arranging (`SCHEDULE_REFINEMENT`); default true. */
  refine?: boolean;
}

/** Builds the "schedule" tool domain on a repository. */
export function createScheduleDomain(options: ScheduleDomainOptions): ToolDomain<ScheduleState> {
  const { repository } = options;
  return {
    name: "schedule",
    version: options.version ?? SCHEDULE_DOMAIN_VERSION,
    description: SCHEDULE_DOMAIN_DESCRIPTION,
    tools: scheduleTools,
    packs: SCHEDULE_PACKS,
    ...(options.refine === false ? {} : { refinement: SCHEDULE_REFINEMENT }),
    verification: SCHEDULE_VERIFICATION,
    // What the user decided on the task's cards holds for the model's own writes and searches too.
    decisions: SCHEDULE_TASK_DECISIONS,
    // Planning starts from the live schedule, never from remembered contents.
    preflight: { tool: "get_overview", arguments: {} },
    // Confirmation cards name the task, the weekday and the slots, not the raw arguments.
    describeCall: describeScheduleCall,
    // Answers name tasks and places as the cards do: "Matrix operations review", Thu 14 Mar, 16:00–17:40.
    readable: (state: ScheduleState, text: string, language: Language) => readableScheduleText(text, language, state),
    // A refusal of the clock (the past is fixed) is told from its data: the review by name, its place by date and time;
    // arguments the tool's check refused, by the field as a person knows it (never the schema's message).
    refusal: (state: ScheduleState, data: unknown, language: Language) =>
      isPastRefusal(data)
        ? pastRefusalText(data, state.window, language)
        : isInvalidArguments(data)
          ? argumentProblemIn(data, language)
          : undefined,
    // A step's summary in the user's language, for an answer the code composes (the closing check's).
    stepSummary: (summary: string, language: Language) => (language === "zh" ? summaryInChinese(summary) : summary),
    // An arranging task's answer lists where each review went.
    changesLine: whereThingsAre,
    // "Now" in the prompts is told in the window's time zone, whatever zone the thread's configuration names.
    timeZone: (userId: string) => repository.timeZone(userId),
    // Review tasks still pending: what an arranging task may leave open.
    openItems: (state: ScheduleState) =>
      state.tasks
        .filter((task) => task.source === "task_item" && task.status === "pending")
        .map((task) => {
          const aliases = SAMPLE_ALIASES[task.id];
          return aliases ? { id: task.id, name: task.name, aliases } : { id: task.id, name: task.name };
        }),
    // Standing preferences become rules of the loaded state (never persisted: the diff leaves `standing` out).
    withPreferences: (state: ScheduleState, preferences: readonly Preference[]) =>
      withStandingPreferences(state, preferences),
    // A review placed before a preference said now was: told, with how to move it (it stays until moved).
    placedAgainstPreferences: (state: ScheduleState, language: Language) => placedAgainstText(state, language),
    // The run's clock rides on the loaded state (never persisted): nothing goes into a slot that has started.
    // A clock set back before the window's last roll keeps to the roll's (and that is said: `clockBehindText`).
    withClock: (state: ScheduleState, now: Date) => ({
      ...state,
      now: clockNotBefore(state.window, now).toISOString(),
    }),
    // The first request after the window's last day shows the week of now: the window rolls on (a write, no card).
    clock: {
      due: (state: ScheduleState, now: Date) => {
        const roll = rollDueByClock(state, now);
        const first = state.window.days[0]?.date;
        return roll && first ? { name: roll.name, arguments: { ...roll.arguments, from_date: first } } : undefined;
      },
      told: (after: ScheduleState, results: readonly unknown[], language: Language) =>
        movedOnText(after, results as RollWindowData[], language),
      behind: (state: ScheduleState, now: Date, language: Language) => clockBehindText(state, now, language),
    },
    // A card is read against the week it was made on: approved after the window rolled on or a review it names
    // changed (a check-in, another thread), it applies nothing.
    cardFrame: {
      of: cardFrameOf,
      stale: staleCardReason,
      seenIn: (state: ScheduleState, _tool: string, frame: string) => seenInCardFrame(state, frame),
      moved: (state: ScheduleState, _tool: string, frame: string) => movedCardWeek(state, frame),
      week: weekOf,
    },
    // A deadline or an exam the free time left is proved not to hold, with the change that recovers the most.
    atRisk: (state: ScheduleState, language: Language) => atRiskNotice(state, language),
    // The thread's last applied card rides on the loaded state (never persisted): propose_undo offers its inverse.
    withLastChange: (state: ScheduleState, writes: readonly AppliedWrite[], elsewhere?: readonly AppliedWrite[]) => ({
      ...state,
      lastChange: [...writes],
      ...(elsewhere && elsewhere.length > 0 ? { lastChangeElsewhere: elsewhere.map((write) => write.name) } : {}),
    }),
    // Offline, standing preferences are read from messages and card feedback by the request reader's rules.
    readPreferences: (text: string) => readSchedulePreferences(text),
    // A request of its own sent while a question of the execute stage waits is no answer to it (nodes/chat.ts).
    readsAsRequest: (text: string) => isWholeRequest(text),
    load: (userId: string) => repository.load(userId),
    persist(
      userId: string,
      before: ScheduleState,
      after: ScheduleState,
      persistOptions: PersistOptions,
    ): Promise<ApplyResult> {
      return repository.applyChanges(userId, diffScheduleState(before, after), persistOptions);
    },
  };
}

/** `state` with the preferences that bind the schedule as its standing rules (notes are for the prompts only). */
export function withStandingPreferences(state: ScheduleState, preferences: readonly Preference[]): ScheduleState {
  // An entry stored before its rule was never kept ("nothing after 01:00", `unkeptReasonOf`) is read as no limit:
  // it would keep every review off the week.
  const standing = preferences
    .filter((entry) => entry.kind !== "note" && !unkeptReasonOf(entry))
    .map(({ source: _source, createdAt: _createdAt, ...rule }) => rule);
  return standing.length === 0 ? state : { ...state, standing };
}
