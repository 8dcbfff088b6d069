/**
 * The offline policy's execute stage: one decision per visit for the current
 * step, from the step's text (parsed as a request) and the tool rounds of the
 * step in the prompt. Read steps call their read tool and finish with the
 * answer; write steps find the task(s) they name with list_tasks, propose
 * exactly that write, and finish with its result — or say plainly why not.
 * The arrange step is `arrange-step.ts`.
 */
import { formatCount, formatRange, formatRanges } from "../../tools/schedule/format.js";
import { readablePlaces } from "../../tools/schedule/readable.js";
import { TASK_STATUS_ZH, type SlotRange, type TaskStatus } from "../../tools/schedule/state.js";
import {
  movedText,
  placedText,
  swappedText,
  unplacedText,
  type FreeRunEntry,
  type GetTaskInfoData,
  type ListedTask,
  type RangeOccupant,
  type RangeSegment,
} from "../../tools/schedule/tools/index.js";
import { arrangeStep } from "./arrange-step.js";
import {
  addHabitStep,
  addLongTaskStep,
  isSessionsStep,
  noSessionsStep,
  addTaskStep,
  classRulesStep,
} from "./class-steps.js";
import { isRefineStep, refineStep } from "./refine-step.js";
import { clearDayStep } from "./clear-day-step.js";
import { shiftAllStep } from "./shift-all-step.js";
import { healthStep, leftBeforeStep, letGoStep, recoverStep, rescheduleStep, undoStep } from "./life-steps.js";
import { arrangedHeading, missedClause } from "../../tools/schedule/domain.js";
import { isLetGoStep, isRescheduleStep } from "./plan-stage.js";
import { finish, propose, read, readAll, type Decision, type Finish, type Then } from "../decisions.js";
import { feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import {
  appliedWriteSummary,
  appliedWriteText,
  refusalOf,
  callResultOf,
  failureOf,
  liveOverviewOf,
  toolDataOf,
  notCarriedOut,
} from "./tool-data.js";
import { addDays, dayOfWeekOfDate, daysBetween } from "../../contracts/clock.js";
import { say, weekdayName, type Language } from "../../contracts/language.js";
import {
  currentStepOf,
  goalOf,
  questionAnswer,
  section,
  userLanguage,
  type PromptView,
  type RoundView,
} from "../prompt-reading.js";
import { cannotActOn, finalAnswer, listedReviews } from "./replies.js";
import type { StepOutcome } from "../stage-state.js";
import {
  anchorWords,
  classAnchorOf,
  isAnywhere,
  isEmptySelection,
  onlyExcludes,
  normalizeText,
  parseScheduleRequest,
  resolveSlotWindow,
  splitWeekday,
  taskPhrase,
  timedPlacement,
  type MoveShift,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import { matchTask, matchTasks, matchTokens, namesKindOnly, type TaskMatch } from "./task-matching.js";
import { isCurrentReview, isLatestReview, namesAnEvent } from "./grounding.js";
import { reviewsNamedByDay, reviewsNamedByKind, whichReviewOfDay } from "./day-named.js";
import {
  aheadOfClock,
  datingOf,
  shiftSaid,
  startMinute,
  datedDay,
  dayName,
  dayOfWords,
  hasStarted,
  placeWords,
  resolveDays,
  slotRangeOf,
  slotWords,
  todayOf,
  weekdayOf,
  weekFactsOf,
  type WeekFacts,
} from "./week-facts.js";
import type { Dating } from "../../tools/schedule/format.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { emptyWindowEnding, emptyWindowWhy } from "./empty-window.js";
import { markInChinese } from "../../tools/schedule/summary-words.js";

/**
 * The execute stage's decision. A decision that ends the task (done, or a proposal with then=done) carries the
 * final answer the deliver stage would write for the task as it then stands, so a completed task needs no deliver
 * call.
 */
export function decideExecute(view: PromptView, writesPerCard = Number.POSITIVE_INFINITY): Decision {
  const decision = decideStep(view, writesPerCard);
  const endsTask = decision.action === "done" || decision.then === "done";
  if (!endsTask || decision.answer) return decision;
  return { ...decision, answer: answerOf(view, String(decision.goal_check ?? "")) };
}

/**
 * The plan's lines with their status markers: the pinned plan ("Plan overview:" without statuses) marked from the
 * step context's "Progress:" line; else the step context's own marked overview (as the plan stage pins it).
 */
function markedOverview(pinnedPlan: string, context: string): string {
  const progress = /^Progress: (.*)$/m.exec(context)?.[1];
  const plain = /Plan overview:\n([\s\S]*?)(?:\n\n|$)/.exec(pinnedPlan)?.[1];
  if (progress === undefined || plain === undefined)
    return /Plan overview:\n([\s\S]*?)\n\nCurrent step/.exec(context)?.[1] ?? "";
  const statuses = new Map(
    progress.split(" · ").map((entry) => {
      const [number, ...marker] = entry.split(" ");
      return [number, marker.join(" ")] as const;
    }),
  );
  return plain
    .split("\n")
    .map((line) => {
      const marker = statuses.get(/^(\d+)\. /.exec(line)?.[1] ?? "");
      return marker && marker !== "pending" ? `${line} ${marker}` : line;
    })
    .join("\n");
}

/** The final answer of the task once the current step ends with `goalCheck` as its summary (every step before it as it ended). */
export function answerOf(view: PromptView, goalCheck: string): string {
  const context = section(view.context, "execution_context") || view.context;
  const overview = markedOverview(section(view.context, "plan"), context);
  const summaries = section(view.context, "done_step_summaries");
  const markers: Array<[string, string]> = [
    [" >> current", "current"],
    [" ✓ done", "done"],
    [" FAILED", "failed"],
    [" (skipped)", "skipped"],
  ];
  const lines = overview.split("\n").flatMap((line) => {
    const match = /^\d+\. (.*)$/.exec(line);
    if (!match) return [];
    let content = match[1] ?? "";
    let status = "pending";
    for (const [marker, name] of markers) {
      if (!content.endsWith(marker)) continue;
      content = content.slice(0, -marker.length);
      status = name;
      break;
    }
    return [{ content, status }];
  });
  // Each done step's summary: from its "- content: " line to the next step's.
  const starts = lines
    .map((line) => summaries.indexOf(`- ${line.content}: `))
    .filter((index) => index !== -1)
    .sort((a, b) => a - b);
  const summaryOf = (content: string) => {
    const start = summaries.indexOf(`- ${content}: `);
    if (start === -1) return "";
    const next = starts.find((index) => index > start) ?? summaries.length;
    return summaries.slice(start + content.length + 4, next).trim();
  };
  const steps: StepOutcome[] = lines.map((line) => {
    if (line.status === "current") return { status: "done", content: line.content, summary: goalCheck.trim() };
    // Steps never started are skipped when the task ends.
    return {
      status: line.status === "pending" ? "skipped" : line.status,
      content: line.content,
      summary: line.status === "done" ? summaryOf(line.content) : "",
    };
  });
  // The answer stands in for the deliver stage's only when the task completes: no item it was about left open.
  return finalAnswer({ goal: goalOf(view), steps, outcome: "completed", language: userLanguage(view) });
}

/** The decision for the current step. */
function decideStep(view: PromptView, writesPerCard: number): Decision {
  const step = currentStepOf(view);
  const end: Finish = step.index >= step.total ? "done" : "next_plan";
  const lower = step.content.toLowerCase();
  const language = userLanguage(view);
  if (/^(verify|check)\b|^核对/.test(lower)) return overviewStep(view, "done", language);
  if (/^review the week\b|\boverview\b/.test(lower)) return overviewStep(view, "next_plan", language);
  if (isRefineStep(step.content)) return refineStep(view, end, language);
  const facts = weekFactsOf(view);
  if (isRescheduleStep(step.content))
    return rescheduleStep(view.rounds, missedByEarlierStep(view), end, datingOf(facts), language);
  if (isLetGoStep(step.content))
    return letGoStep(view.rounds, missedByEarlierStep(view), end, datingOf(facts), language);
  const request = parseScheduleRequest(step.content);
  const asked: Asked = { answer: questionAnswer(view), language };
  switch (request.kind) {
    case "arrange":
      // One task at a clock time ("Place "binary tree review" on Sunday, Mar 17, at 14:00"): the slot that starts
      // then, or why not, as a move to that time (`moveStep` places a pending task).
      {
        const timed = timedPlacement(request);
        if (timed !== undefined)
          return moveStep(view.rounds, { kind: "move", task: timed, where: request.where }, facts, end, asked, true);
        // "Schedule the matrix review tomorrow" once it was missed: given a new place there, as its move would.
        const missed = missedPlacement(request, listingOf(view.rounds));
        if (missed !== undefined)
          return moveStep(view.rounds, { kind: "move", task: missed, where: request.where }, facts, end, asked, true);
      }
      // A long task's sessions step after its add did not apply: nothing to place, said, never asked about.
      return (
        (isSessionsStep(step.content) ? noSessionsStep(view, request.tasks, end, language) : undefined) ??
        arrangeStep(view, request, facts, end, writesPerCard)
      );
    case "move":
      return moveStep(view.rounds, request, facts, end, asked);
    case "swap":
      return swapStep(view.rounds, request, end, asked, facts);
    case "unplace":
      return unplaceStep(view.rounds, request, end, asked, datingOf(facts));
    case "remove_event":
      return removeEventStep(view.rounds, request, facts, end, asked);
    case "free":
      return freeStep(view.rounds, request, facts, end, language);
    case "day":
      return dayStep(view.rounds, request, facts, end, language);
    case "next":
      return nextStep(view.rounds, facts, end, language);
    case "list":
      return listStep(view.rounds, request, facts, end, language);
    case "explain":
      return explainStep(view.rounds, request, end, asked, datingOf(facts));
    case "add_task":
      return addTaskStep(view, request, end, language);
    case "add_habit":
      return addHabitStep(view, request, end, language);
    case "add_long_task":
      return addLongTaskStep(view, request, end, language);
    case "class_rules":
      return classRulesStep(view, request, end, language);
    case "mark":
      return markStep(view.rounds, request, facts, end, asked);
    case "undo":
      return undoStep(view.rounds, end, datingOf(facts), language);
    case "recover":
      return recoverStep(view.rounds, end, datingOf(facts), language);
    case "health":
      return healthStep(view.rounds, facts, end, language);
    case "left_before":
      return leftBeforeStep(view.rounds, request.event, facts, end, language, request.when);
    case "clear_day":
      return clearDayStep(view.rounds, request, facts, end, language);
    case "shift_all":
      return shiftAllStep(view.rounds, request, facts, end, language);
    default:
      // A step the policy does not understand (edited by hand, say) is reported, never pretended done.
      return finish(
        end,
        say(
          language,
          `Offline, I can't carry out the step "${step.content}"; a model key unlocks free-form steps.`,
          `离线模式下我无法执行步骤“${step.content}”（配置模型密钥后可执行自由表述的步骤）。`,
        ),
        notCarriedOut(saySummary("en", "notUnderstood", { step: step.content })),
        "the step is not one the offline policy understands",
      );
  }
}

/**
 * The missed reviews a reschedule step is about: those an earlier step of the plan marked missed ("marked task <id>
 * missed"), none when the earlier steps marked none (the mark was declined, say); a reschedule step that opens its
 * plan is about every missed review (empty: the tool's default).
 */
function missedByEarlierStep(view: PromptView): string[] | undefined {
  if (currentStepOf(view).index <= 1) return [];
  const summaries = section(view.context, "done_step_summaries");
  const ids = [...summaries.matchAll(/marked task (\S+) missed\b/g)].map((match) => match[1]!);
  return ids.length > 0 ? ids : undefined;
}

/**
 * Overview and verify: the overview the prompt's live state holds (read fresh for this prompt), else read it once;
 * then finish the step citing the pending count.
 */
function overviewStep(view: PromptView, action: Finish, language: Language): Decision {
  // The live state's overview (read fresh for this prompt), else the step's own get_overview round: both as data.
  const overview =
    liveOverviewOf(view) ??
    toolDataOf(
      view.rounds.findLast((round) => round.name === "get_overview" && !round.summarised),
      "get_overview",
    );
  if (overview === undefined)
    return read(
      say(language, "Reading the week's overview.", "正在读取本周概览。"),
      "get_overview",
      {},
      "need free time and pending tasks",
    );
  const pending = formatCount(overview.pending);
  // An overview of a text without the line (an older server) has no count: none.
  const missed = overview.missed ?? 0;
  const speak =
    action === "done"
      ? missed > 0
        ? arrangedHeading(pending, language, missed)
        : pending === "0"
          ? say(language, "Every review task has a place.", "每个复习任务都安排好了。")
          : say(language, `${pending} review task(s) are still pending.`, `还有 ${pending} 个复习任务待安排。`)
      : "";
  // What the final answer says of the check: what the schedule shows, not the tool that read it.
  const named = (overview.missedTasks ?? []).map((task) => task.name);
  return finish(action, speak, `${saySummary("en", "verified", { pending })}${missedClause(missed, named)}`);
}

/** The user's answer to the step's own question, when the workspace ends with one, and the user's language. */
interface Asked {
  answer: string | undefined;
  language: Language;
}

/**
 * The task a step names: the step's phrase, else the user's answer to "which task?" (a name or an id); when the
 * phrase names nothing and no answer came yet, the question to ask.
 */
function namedTask(
  phrase: string,
  candidates: ListedTask[],
  all: ListedTask[],
  asked: Asked,
  reason: string,
): { match: TaskMatch; phrase: string } | { question: Decision } | { none: string } {
  const direct = matchTask(phrase, candidates) ?? matchTask(phrase, all);
  if (direct) return { match: direct, phrase };
  if (asked.answer !== undefined) {
    const answer = taskPhrase(asked.answer);
    const answered = matchTask(answer, candidates) ?? matchTask(answer, all);
    return answered ? { match: answered, phrase: answer } : { none: `"${phrase}" or "${answer}"` };
  }
  // Review tasks first: they are what a person moves most.
  const examples = [
    ...candidates.filter((task) => task.kind !== "event"),
    ...candidates.filter((task) => task.kind === "event"),
  ]
    .slice(0, 6)
    .map((task) => `${task.name} (${task.id})`)
    .join(asked.language === "zh" ? "、" : ", ");
  const speak =
    asked.language === "zh"
      ? `我没有找到与“${phrase}”匹配的任务。你指的是哪个任务？请回答任务名称或 id${examples ? `，例如：${examples}` : ""}。`
      : `I found no task matching "${phrase}". Which task do you mean? Answer with its name or id${examples ? `, for example: ${examples}` : ""}.`;
  return { question: { speak, action: "ask_user", reason } };
}

/**
 * The tasks of the newest whole list_tasks round (none when it failed), or undefined when none is in view (or it
 * carries no data: read the tasks again).
 */
/**
 * The one task an arrangement to a place names ("do the matrix review tomorrow"), when every task its words match is
 * missed: it is placed there as a move of it places a missed review. Undefined for any other arrangement (put back,
 * made up, anywhere, before an event: the arrange step says a missed review's state), or with no listing yet.
 */
function missedPlacement(
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  tasks: readonly ListedTask[] | undefined,
): string | undefined {
  const [phrase, ...more] = request.tasks;
  if (!tasks || phrase === undefined || more.length > 0 || request.putBack || request.makeUp) return undefined;
  if (isAnywhere(request.where) || request.where.before !== undefined) return undefined;
  const matched = matchTasks(phrase, tasks);
  return matched.length > 0 && matched.every((task) => task.kind === "missed") ? phrase : undefined;
}

export function listingOf(rounds: RoundView[]): ListedTask[] | undefined {
  const listing = rounds.findLast((round) => round.name === "list_tasks" && !round.summarised);
  if (listing && callResultOf(listing) === "failed") return [];
  return toolDataOf(listing, "list_tasks")?.tasks;
}

const LIST_ALL = { limit: 100 };

/** The read that finds a task's id: every task listed. */
function lookUpTask(phrase: string, language: Language): Decision {
  return read(
    say(language, `Looking up ${JSON.stringify(phrase)}.`, `正在查找 ${JSON.stringify(phrase)}。`),
    "list_tasks",
    LIST_ALL,
    "need the task's id",
  );
}

/**
 * True for a task a move request can move: a placed task item, or an event on one range — a locked one too, as a
 * person records a time someone else changed (the `move` card says it is locked; `LockedEvents` in
 * tools/schedule/tools/task-checks.ts).
 */
function movable(task: ListedTask): boolean {
  return task.kind === "placed" || (task.kind === "event" && task.slots.length === 1);
}

/** True for a task a swap may take: as `movable`, but never a locked event (a swap is making room). */
function swappable(task: ListedTask): boolean {
  return movable(task) && !(task.kind === "event" && task.locked);
}

/** `"Name"`, or `the event "Name"` (活动"Name"), as messages a person reads name a task or an event. */
function label(task: ListedTask, language: Language): string {
  // A person reads names: an event is called one ("the event "Calculus tutorial""); ids stay in the card's arguments.
  const name = JSON.stringify(task.name);
  return task.kind === "event" ? saySummary(language, "theEvent", { event: name }) : name;
}

/** A task as a person reads it: its name ("Matrix operations review"); its id is in the card's arguments. */
function nameOf(task: ListedTask): string {
  return JSON.stringify(task.name);
}

/** " (it also matches …)" when a phrase named several tasks. */
function ambiguity(match: TaskMatch, language: Language): string {
  if (match.alsoMatching.length === 0) return "";
  const names = match.alsoMatching.map((task) => JSON.stringify(task.name));
  return say(
    language,
    ` (${names.join(", ")} ${match.alsoMatching.length === 1 ? "matches" : "match"} too; to choose another, name it by its day or in full)`,
    `（${names.join("、")} 也匹配；要选别的，请说明是哪一天的，或说全名）`,
  );
}

/** The last round, when it is one of the step's writes: applied, rejected or failed. */
function lastWriteOutcome(
  rounds: RoundView[],
  names: readonly string[],
): { round: RoundView; outcome: "applied" | "rejected" | "failed" } | undefined {
  const last = rounds.at(-1);
  if (!last || !names.includes(last.name)) return undefined;
  return { round: last, outcome: callResultOf(last) };
}

/** The room a move needs, read beside the task's listing before the task is known: every free run where the step says. */
function moveSearchArguments(
  request: Extract<ScheduleRequest, { kind: "move" }>,
  facts: WeekFacts,
): Record<string, unknown> {
  const args: Record<string, unknown> = { min_length: 1, limit: 100 };
  const days = allowedDays(request.where, facts);
  if (days) args.days = days;
  return args;
}

/** The clock times of a placed review today by the run's clock (undefined for any other task, or with no clock). */
function todaysTimesOf(facts: WeekFacts): (task: ListedTask) => { start: string; end: string } | undefined {
  const today = todayOf(facts);
  return (task) => {
    const range = task.kind === "placed" ? task.slots[0] : undefined;
    const start = range ? facts.slotTimes?.[range.start - 1]?.start : undefined;
    const end = range ? facts.slotTimes?.[range.end - 1]?.end : undefined;
    return range?.day === today && start !== undefined && end !== undefined ? { start, end } : undefined;
  };
}

/**
 * The review "it" stands for in a shift with no task named before it ("push it back a day"): the one review in
 * progress now or still to come today by the run's clock. More than one, or none (or no clock), asks which, naming
 * today's candidates; an answer to that question is the task (`namedTask` reads it).
 */
function currentReview(
  tasks: ListedTask[],
  request: Extract<ScheduleRequest, { kind: "move" }>,
  facts: WeekFacts,
  asked: Asked,
): { name: string } | { question: Decision } | undefined {
  if (asked.answer !== undefined) return undefined;
  const now = facts.now;
  const timesOf = todaysTimesOf(facts);
  const todays = now ? tasks.filter((task) => timesOf(task)) : [];
  const inProgress = todays.filter((task) => timesOf(task)!.start <= now!.time && timesOf(task)!.end > now!.time);
  const coming = todays
    .filter((task) => timesOf(task)!.start > now!.time)
    .sort((a, b) => timesOf(a)!.start.localeCompare(timesOf(b)!.start));
  const next = coming.filter((task) => timesOf(task)!.start === timesOf(coming[0]!)?.start);
  const ahead = [...inProgress, ...next];
  if (ahead.length === 1) return { name: ahead[0]!.name };
  const { language } = asked;
  const move = shiftSaid(request.shift!, language);
  const listed = (among: ListedTask[]) =>
    among
      .map((task) => `${JSON.stringify(task.name)} (${placeWords(task.slots[0]!, facts, language)})`)
      .join(say(language, " and ", "和"));
  const which = [
    ...(inProgress.length > 0
      ? [say(language, `in progress now: ${listed(inProgress)}`, `正在进行：${listed(inProgress)}`)]
      : []),
    ...(next.length > 0 ? [say(language, `next today: ${listed(next)}`, `今天接下来：${listed(next)}`)] : []),
  ].join(say(language, "; ", "；"));
  const speak =
    ahead.length > 1
      ? say(
          language,
          `Which review do you mean by "it"? ${which.charAt(0).toUpperCase()}${which.slice(1)}. Answer with its name, and I will move it ${move}.`,
          `你说的“它”是哪个复习？${which}。请回答任务名称，我会把它${move}。`,
        )
      : say(
          language,
          `Which review do you mean by "it"? No review is in progress or still to come today. Answer with its name or id (${tasks
            .filter((task) => task.kind === "placed")
            .slice(0, 6)
            .map((task) => task.name)
            .join(", ")}), and I will move it ${move}.`,
          `你说的“它”是哪个复习？今天没有正在进行或还没开始的复习。请回答任务名称或 id（${tasks
            .filter((task) => task.kind === "placed")
            .slice(0, 6)
            .map((task) => task.name)
            .join("、")}），我会把它${move}。`,
        );
  return { question: { speak, action: "ask_user", reason: 'no task was named before "it"' } };
}

/** Move: find the task and room where the step says (one round of reads), propose move (place for a pending task). */
function moveStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "move" }>,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
  placing = false,
): Decision {
  const { language } = asked;
  const outcome = lastWriteOutcome(rounds, ["move", "place"]);
  if (outcome?.outcome === "applied") return finish(end, "", appliedWriteText(outcome.round, datingOf(facts)));
  if (outcome?.outcome === "failed")
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(outcome.round, "en", datingOf(facts))));
  const rejected = rounds.filter(
    (round) => (round.name === "move" || round.name === "place") && callResultOf(round) === "rejected",
  );
  if (outcome?.outcome === "rejected") {
    const feedback = parseFeedback(feedbackOfResult(outcome.round.result));
    if (feedback.kind !== "constrain" || rejected.length >= 3)
      return finish(
        end,
        unchangedBecause(feedback, language),
        notCarriedOut(`${SUMMARY_WORDS.en.rejectedMove}${feedback.kind === "unclear" ? ` ("${feedback.text}")` : ""}`),
      );
  }
  const tasks = listingOf(rounds);
  if (!tasks) {
    // The task and the free room in one round: the room is read for every length and narrowed once the task is known.
    return readAll(
      say(
        language,
        `Looking up ${JSON.stringify(request.task)} and the free time.`,
        `正在查找 ${JSON.stringify(request.task)} 和空闲时间。`,
      ),
      [
        { name: "list_tasks", arguments: LIST_ALL },
        { name: "find_free", arguments: moveSearchArguments(request, facts) },
      ],
      "need the task's id, length and place, and room that fits it",
    );
  }
  const meant = isCurrentReview(request.task) ? currentReview(tasks, request, facts, asked) : undefined;
  if (meant && "question" in meant) return meant.question;
  const phrase = meant?.name ?? request.task;
  // A review's name that shares a word with an event's ("vocabulary list", "English listening") names the review: an
  // event is looked at first only when the words read as one ("the vocabulary quiz"), and a request to place a review
  // (`placing`: one at a clock time) never takes an event.
  const eventsFirst = !placing && namesAnEvent(phrase);
  const reviews = tasks.filter((task) => task.kind !== "event");
  // "Move Thursday's review to Friday", "明天的复习推迟一天": the review placed that day, or the question which of them.
  // "Move the review to Friday", "把复习移到周五": which of the placed reviews (not the first whose name says "review").
  const byKind = placing ? undefined : reviewsNamedByKind(phrase, tasks, facts);
  const byDay = byKind
    ? { weekday: undefined, reviews: byKind }
    : matchTask(phrase, tasks)
      ? undefined
      : reviewsNamedByDay(phrase, tasks, facts);
  if (byDay?.reviews.length === 0 && byDay.weekday !== undefined) {
    const weekday = weekdayName(byDay.weekday, language);
    return finish(
      end,
      say(
        language,
        `No review is placed on ${weekday}, so nothing was moved.`,
        `${weekday}没有安排复习，所以没有移动任何任务。`,
      ),
      notCarriedOut(saySummary("en", "noReviewOnDay", { weekday: weekdayName(byDay.weekday, "en") })),
    );
  }
  if (byDay && byDay.reviews.length > 1 && asked.answer === undefined)
    return whichReviewOfDay(byDay.weekday, byDay.reviews, language);
  // The answer to which of them names one (the request's own words name none of them apart).
  const answered =
    byDay && byDay.reviews.length > 1 && asked.answer !== undefined
      ? (matchTask(taskPhrase(asked.answer), byDay.reviews) ?? matchTask(taskPhrase(asked.answer), tasks))
      : undefined;
  const named = namedTask(
    byDay?.reviews.length === 1 ? byDay.reviews[0]!.id : (answered?.task.id ?? phrase),
    byDay ? byDay.reviews : tasks.filter((task) => movable(task) && (eventsFirst || task.kind !== "event")),
    placing || (!eventsFirst && matchTask(phrase, reviews)) ? reviews : tasks,
    asked,
    "the step names no task the schedule has",
  );
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
  const { match } = named;
  const { task } = match;
  if (task.kind === "event" && !movable(task)) {
    return finish(
      end,
      say(
        language,
        `${label(task, language)} cannot move: it is not on a single slot range.`,
        `${label(task, language)} 不能移动：它不在单一的连续时段上。`,
      ),
      notCarriedOut(cannotMoveSpread(task)),
    );
  }
  // A review without a place — pending, or missed (its time passed) — is placed where the move says.
  const tool = task.kind === "pending" || task.kind === "missed" ? "place" : "move";
  // "To another day": any day but the one it is on now.
  const current = task.slots[0];
  // "Move the essay off Tuesday", "I can't do the essay today" when it is not on that day (or has no place): nothing
  // to move off — said, and no card (before, it moved from wherever it was).
  const leaving = request.leaves && rejected.length === 0 ? resolveDays(request.where.not, facts) : [];
  if (leaving.length > 0 && !task.slots.some((range) => leaving.includes(range.day))) {
    // Written as the tools write days and places (the answer reads it in the user's language), and said once there.
    const subject = label(task, "en");
    const days = leaving.map((day) => datedDay(day, facts)).join(" or ");
    const refusal = current
      ? saySummary("en", "notOnDays", { subject, days, where: formatRange(current, datingOf(facts)) })
      : saySummary("en", "noPlaceNotOnDays", { subject, days });
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal));
  }
  // "To an earlier / a later day": every day on the other side of its own is ruled out too.
  const total = facts.totalDays ?? 7;
  const awayDays = !current
    ? []
    : request.dayward === "earlier"
      ? Array.from({ length: total - current.day + 1 }, (_, index) => current.day + index)
      : request.dayward === "later"
        ? Array.from({ length: current.day }, (_, index) => index + 1)
        : [current.day];
  // "The day before the physics lab", "期中考试的前一天": that day of the anchor's first in the week shown whose day
  // has not passed (the day before Thursday's lecture on a Tuesday, not before Monday's).
  const dayOf = request.where.dayOf;
  const occurrence = dayOf ? comingOccurrence(dayOf, task, tasks, todayOf(facts)) : undefined;
  const dayOfDay = dayOf && occurrence ? occurrence.day + dayOf.offset : undefined;
  const onDayOf =
    rejected.length > 0 &&
    dayOfDay !== undefined &&
    dayOfDay >= 1 &&
    dayOfDay <= total &&
    isEmptySelection(request.where.only);
  const target =
    request.otherDay && current
      ? { ...request.where, not: { ...request.where.not, days: [...request.where.not.days, ...awayDays] } }
      : // (Feedback on its card, "in the evening", is of that day, unless it names another.)
        onDayOf
        ? { ...request.where, only: { weekdays: [], days: [dayOfDay] } }
        : request.where;
  const constraints = constraintsFrom(rejected, target);
  let days = allowedDays(constraints.where, facts);
  // "To an earlier day" from the schedule's first day (a later one from its last): no day that way — said, no card
  // (a review already started says that first, as for any move).
  if (rejected.length === 0 && current && awayDays.length === total && request.dayward) {
    const why =
      startedWhy(task, current, facts) ??
      saySummary("en", request.dayward === "earlier" ? "noEarlierDay" : "noLaterDay", {
        subject: label(task, "en"),
        where: formatRange(current, datingOf(facts)),
      });
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(why));
  }
  // "to the evening" with no day keeps the task's day ("to another day in the evening" does not).
  if (
    isEmptySelection(constraints.where.only) &&
    current &&
    !request.otherDay &&
    (constraints.where.slots.part ||
      constraints.where.slots.from !== undefined ||
      constraints.where.slots.at !== undefined)
  )
    days = [current.day].filter((day) => !constraints.notDays.has(day));
  if (dayOf && rejected.length === 0) {
    const anchor = JSON.stringify(dayOf.anchor);
    if (!occurrence)
      return finish(
        end,
        noAnchorSaid(anchor, task, language),
        notCarriedOut(saySummary("en", "noAnchorMatch", { anchor })),
      );
    const day = occurrence.day + dayOf.offset;
    if (day < 1 || day > total) {
      const way = dayOfWords(dayOf.offset, "en");
      const wayZh = dayOfWords(dayOf.offset, "zh");
      return finish(
        end,
        say(
          language,
          `${anchor} is on ${dayName(occurrence.day, facts, "en")}; ${way} it is outside your schedule (day 1 to day ${total}), so ${nameOf(task)} stays where it is.`,
          `${anchor}在${dayName(occurrence.day, facts, "zh")}，它的${wayZh}超出了日程范围（第1天到第${total}天），${nameOf(task)}保持不动。`,
        ),
        notCarriedOut(saySummary("en", "outsideSchedule", { shift: `${way} ${anchor}` })),
      );
    }
    days = [day].filter((each) => !constraints.notDays.has(each));
  }
  // A shift ("back a day", "an hour later", "往后推一天") starts from the task's own place, on the day it lands on; after
  // a rejection the feedback's limits take over (`constraints`), as for any move.
  // "Later today" of a review on another day (or with no place): a move to today, from the clock — not later on its
  // own day. ("Earlier today" is behind the clock: the shift on its own day, as before.)
  const toToday =
    request.shift !== undefined &&
    "sameDay" in request.shift &&
    request.shift.sameDay === "later" &&
    days !== undefined &&
    days.length === 1 &&
    days[0] !== current?.day;
  const shift = rejected.length === 0 && !toToday ? request.shift : undefined;
  if (shift && !current)
    return finish(
      end,
      say(
        language,
        `${label(task, language)} has no place yet, so there is nothing to move ${shiftSaid(shift, "en")}; say where to put it ("schedule ${task.name} on Friday").`,
        `${label(task, language)} 还没有安排时间，没法${shiftSaid(shift, "zh")}；请说要放在哪里（如“把${task.name}安排到周五”）。`,
      ),
      notCarriedOut(noPlaceToMoveFrom(task)),
    );
  const shiftedDay = shift && current ? current.day + ("days" in shift ? shift.days : 0) : undefined;
  if (shiftedDay !== undefined) {
    if (shiftedDay < 1 || shiftedDay > total)
      return finish(
        end,
        say(
          language,
          `${label(task, language)} is on ${placeWords(current!, facts, language)}; ${shiftSaid(shift!, "en")} is outside your schedule (day 1 to day ${total}), so it stays where it is.`,
          `从${placeWords(current!, facts, language)}${shiftSaid(shift!, "zh")}就超出了日程范围（第1天到第${total}天），${label(task, language)}保持不动。`,
        ),
        notCarriedOut(saySummary("en", "outsideSchedule", { shift: shiftSaid(shift!, "en") })),
      );
    days = [shiftedDay];
  }
  const lastWrite = rounds.findLastIndex((round) => round.name === "move" || round.name === "place");
  const search = rounds.slice(lastWrite + 1).findLast((round) => round.name === "find_free" && !round.summarised);
  // Where the task may go is read for it (`task_id`): every rule its write checks kept, its own slots free — a free
  // run alone may break its class's buffer, its deadline or a standing preference, and counts its own slots as taken.
  const forTask = search?.arguments.task_id === task.id ? search : undefined;
  // A review whose place has started goes nowhere: the search says so, as the move would.
  if (forTask && callResultOf(forTask) === "failed")
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(forTask, "en", datingOf(facts))));
  // The places of the step's days, when a search for the task since the last proposal shows them all.
  const found = toolDataOf(forTask, "find_free");
  const runs = found && found.omitted === 0 ? found.runs.filter((run) => !days || days.includes(run.day)) : undefined;
  // The plainly free runs (the first search's): where no place of the day takes the task, the first free one is still
  // proposed, so that the write's refusal names the rule that keeps it out ("your standing preference … rules Mon
  // out") rather than a bare "no free time".
  const general = toolDataOf(
    rounds
      .slice(lastWrite + 1)
      .findLast((round) => round.name === "find_free" && round.arguments.task_id === undefined),
    "find_free",
  );
  const freeRuns =
    general && general.omitted === 0 ? general.runs.filter((run) => !days || days.includes(run.day)) : [];
  // What the write reports once it applies as proposed: the step's summary, so the step ends with no further turn.
  const then = (day: number, start: number, hostId: string | undefined): Then => {
    const to = { day, start, end: start + task.duration - 1 };
    const host = hostId ? { hostId } : {};
    return {
      action: end,
      goalCheck:
        tool === "move" && current
          ? movedText({ id: task.id, from: current, to, ...host }, datingOf(facts))
          : placedText({ id: task.id, ...to, ...host }, datingOf(facts)),
    };
  };
  // A clock time named ("to Sunday 14:00", "下午两点"): the slot that starts then, or why none does — never a search
  // elsewhere in the day, which would put the review at another hour than asked.
  // A step whose words name a window with no slot of the day ("Friday, slots 1-0"): said, and nothing proposed.
  const noSlot = rejected.length === 0 && !shift ? emptyWindowWhy(request.where.slots, facts, "en") : undefined;
  if (noSlot !== undefined)
    return finish(
      end,
      emptyWindowEnding(request.where.slots, facts, language, tool === "place" ? "nothingPlaced" : "nothingMoved"),
      notCarriedOut(noSlot),
      "the time asked for holds no slot of the day",
    );
  const at = rejected.length === 0 && !shift ? request.where.slots.at : undefined;
  const timed = at === undefined ? undefined : slotStartingAt(at, facts);
  if (at !== undefined && (timed === undefined || "why" in timed || !days || days.length === 0)) {
    // A review whose place has started goes nowhere at any time: said first, as the move's own check would say it
    // ("the slots near 12:00 start at 10:55 and 14:00" would only send the student to a time refused in turn).
    const why =
      (tool === "move" && current ? startedWhy(task, current, facts) : undefined) ??
      (timed !== undefined && "why" in timed ? timed.why : saySummary("en", "nameADay", { at }));
    return finish(
      end,
      "",
      notCarriedOut(`${why}${saySummary("en", tool === "place" ? "nothingPlaced" : "nothingMoved")}`),
    );
  }
  // "right after the matrix review": the nearest free start on that side of it (of its first occurrence with room).
  const nextTo = rejected.length === 0 && !shift ? request.where.next : undefined;
  const besideAnchor = nextTo ? spotNextTo(nextTo, task, tasks, runs ?? freeRuns, days) : undefined;
  if (nextTo && (besideAnchor === undefined || "why" in besideAnchor)) {
    const why = besideAnchor?.why ?? "none";
    const anchor = anchorWords(nextTo.anchor, "en");
    const side = nextTo.side;
    if (why === "noClass") {
      // ("After class" on a day with none: said, nothing moves.)
      const shown = days ?? [];
      const onDays = shown.map((day) => datedDay(day, facts)).join(" or ") || "any day shown";
      const onDaysZh = shown.map((day) => dayName(day, facts, "zh")).join("或") || "日程里的每一天都";
      return finish(
        end,
        say(
          language,
          `You have no class on ${onDays}, so ${nameOf(task)} stays where it is.`,
          `${onDaysZh}没有课，${nameOf(task)}保持不动。`,
        ),
        notCarriedOut(saySummary("en", "noClassOn", { days: onDays })),
      );
    }
    return finish(
      end,
      why === "unknown"
        ? noAnchorSaid(anchor, task, language)
        : say(
            language,
            `No free time fits ${nameOf(task)} right ${side} ${anchor}, so it stays where it is.`,
            `${anchorWords(nextTo.anchor, "zh")}${side === "after" ? "之后" : "之前"}紧挨着的时间里放不下${nameOf(task)}，保持不动。`,
          ),
      notCarriedOut(
        why === "unknown"
          ? saySummary("en", "noAnchorMatch", { anchor })
          : saySummary("en", side === "after" ? "noRoomRightAfter" : "noRoomRightBefore", {
              subject: nameOf(task),
              anchor,
            }),
      ),
    );
  }
  const anchored = besideAnchor && "day" in besideAnchor ? besideAnchor : undefined;
  if (anchored) days = [anchored.day];
  // "to the same time on Friday": the slot it starts at now (a missed review: the slot it was at), on the day it goes to.
  const sameTime =
    anchored?.start ??
    (rejected.length === 0 && !shift && request.where.slots.sameTime
      ? (current?.start ?? (task.kind === "missed" ? task.was?.start : undefined))
      : undefined);
  // "slot 3" (or "slots 3-4" for a review of two) names where it starts; a wider range ("slots 5-12", the step's words
  // for "after 14:00") is a window to search, not a start.
  const { from: slotFrom, to: slotTo, part } = request.where.slots;
  const exactStart =
    timed !== undefined && "slot" in timed
      ? timed.slot
      : slotFrom !== undefined &&
          !part &&
          rejected.length === 0 &&
          (slotTo === undefined || slotTo - slotFrom + 1 <= task.duration)
        ? slotFrom
        : sameTime;
  if (exactStart !== undefined && days && days.length > 0) {
    const day = days[0]!;
    // The write's own check decides an exact start; a search shown (for the task or not) only foretells its ending.
    const shown = runs ?? toolDataOf(search, "find_free")?.runs;
    const room = shown?.find(
      (run) => run.day === day && run.start <= exactStart && exactStart + task.duration - 1 <= run.end,
    );
    return propose(
      say(
        language,
        `${tool === "place" ? "Placing" : "Moving"} ${nameOf(task)} to ${placeWords({ day, start: exactStart, end: exactStart + task.duration - 1 }, facts, language)}.`,
        `${tool === "place" ? "安排" : "移动"}${nameOf(task)}到${placeWords({ day, start: exactStart, end: exactStart + task.duration - 1 }, facts, language)}。`,
      ),
      tool,
      { task_id: task.id, day, slot_start: exactStart },
      say(language, "the slot the request names", "请求指定的时段"),
      room ? then(day, exactStart, room.hostId) : undefined,
    );
  }
  const window = resolveSlotWindow(constraints.where.slots, facts.slotsPerDay);
  const within = { ...window, from: Math.max(window.from, constraints.from), to: Math.min(window.to, constraints.to) };
  // A review already where the request puts it ("move it to tomorrow afternoon" when it is there, "move it to Tuesday"
  // when it is on Tuesday): said, never "no free slot" (its own place is no free time) nor a move elsewhere in that
  // part of the day or that day — another part of the day it is on ("to Tuesday evening") still moves it.
  // ("Move it, but not on Thursday" names only where it must not go: a new place is asked for, wherever it is now.)
  // ("As soon as possible" on a day it is on still looks for an earlier start that day.)
  const soonest = rejected.length === 0 && !shift && request.where.slots.soonest === true;
  const alreadyThere =
    tool === "move" &&
    current !== undefined &&
    !shift &&
    !soonest &&
    !onlyExcludes(constraints.where) &&
    rejected.length === 0 &&
    days !== undefined &&
    days.includes(current.day) &&
    current.start >= within.from &&
    current.end <= within.to;
  // Already where the request puts it: said in words of why (`because`), the step's summary the same either way.
  const alreadyOn = (place: SlotRange, because: { en: string; zh: string }) =>
    finish(
      end,
      say(
        language,
        `${label(task, language)} is already on ${placeWords(place, facts, language)}, ${because.en}; nothing to move.`,
        `${label(task, language)}已经在${placeWords(place, facts, language)}，${because.zh}；不用移动。`,
      ),
      notCarriedOut(
        saySummary("en", "alreadyOn", { subject: label(task, "en"), where: formatRange(place, datingOf(facts)) }),
      ),
    );
  if (alreadyThere) return alreadyOn(current, { en: "where you asked", zh: "就是你要的时间" });
  if (!runs) {
    const args: Record<string, unknown> = { min_length: task.duration, task_id: task.id, limit: 100 };
    if (days) args.days = days;
    return read(
      say(
        language,
        `Looking for ${task.duration} free slot(s) for ${label(task, language)}.`,
        `正在为${label(task, language)}查找 ${task.duration} 节空闲时段。`,
      ),
      "find_free",
      args,
      "need room that fits the task",
    );
  }
  if (shift && current && shiftedDay !== undefined) {
    const landed =
      shiftedSpot(runs, shift, current, task.duration, shiftedDay, facts) ??
      shiftedSpot(freeRuns, shift, current, task.duration, shiftedDay, facts);
    if (!landed) {
      const passed = found?.pastLeftOut === true;
      return finish(
        end,
        say(
          language,
          `No free time fits ${label(task, language)} ${shiftSaid(shift, "en")} (on ${dayName(shiftedDay, facts, language)})${passed ? "; the time that has passed is no longer free" : ""}, so it stays where it is.`,
          `${dayName(shiftedDay, facts, language)}没有能容纳${label(task, language)}的空闲时间（${shiftSaid(shift, "zh")}）${passed ? "；已经过去的时间不能再安排" : ""}，保持不动。`,
        ),
        notCarriedOut(noFreeTimeShifted(task, shift)),
      );
    }
    const to = placeWords(
      { day: landed.day, start: landed.start, end: landed.start + task.duration - 1 },
      facts,
      language,
    );
    const nearest =
      "days" in shift && landed.start !== current.start
        ? say(
            language,
            " (its time that day is taken: the nearest free time)",
            "（那天原来的时间被占了：最近的空闲时间）",
          )
        : "";
    return propose(
      say(
        language,
        `Moving ${nameOf(task)} ${shiftSaid(shift, "en")}, to ${to}${nearest}${ambiguity(match, language)}.`,
        `把${nameOf(task)}${shiftSaid(shift, "zh")}，移到${to}${nearest}${ambiguity(match, language)}。`,
      ),
      tool,
      { task_id: task.id, day: landed.day, slot_start: landed.start },
      say(language, `${shiftSaid(shift, "en")} from where it is`, `从原来的时间${shiftSaid(shift, "zh")}`) + nearest,
      then(landed.day, landed.start, landed.hostId),
    );
  }
  const spot =
    firstFit(runs, task.duration, within, constraints.notDays, current) ??
    firstFit(freeRuns, task.duration, within, constraints.notDays, current);
  // As soon as possible: the first free start (the search lists them by day and start, the past left out); a review
  // with nothing free before its own place is as soon as it can be — said, never moved later.
  if (
    soonest &&
    current &&
    (!spot || spot.day > current.day || (spot.day === current.day && spot.start > current.start))
  )
    return alreadyOn(current, { en: "and nothing free comes before it", zh: "在它之前没有空闲时间" });
  // "Earlier" on a card at the first slot of the day: said plainly, never a search of slots 1-0.
  if (!spot && within.to < 1) {
    const reason = (language: Language) => saySummary(language, "alreadyFirstSlot", { subject: label(task, language) });
    return finish(end, `${reason(language)}.`, notCarriedOut(reason("en")));
  }
  if (!spot) {
    // Time that has started is not free (find_free leaves it out): said, so "Monday" at 19:00 is not a mystery.
    const passed = found?.pastLeftOut === true;
    return finish(
      end,
      say(
        language,
        `No free slot fits ${label(task, language)} there${passed ? "; the time that has passed there is no longer free" : ""}.`,
        `那里没有能容纳${label(task, language)}的空闲时段${passed ? "；那里已经过去的时间不能再安排" : ""}。`,
      ),
      notCarriedOut(noFreeTimeWhereAsked(task, passed)),
    );
  }
  const where = placeWords({ day: spot.day, start: spot.start, end: spot.start + task.duration - 1 }, facts, language);
  return propose(
    say(
      language,
      `${tool === "place" ? "Placing" : "Moving"} ${nameOf(task)} to ${where}${ambiguity(match, language)}.`,
      `${tool === "place" ? "安排" : "移动"}${nameOf(task)}到${where}${ambiguity(match, language)}。`,
    ),
    tool,
    { task_id: task.id, day: spot.day, slot_start: spot.start },
    say(language, `a free run fits its ${task.duration} slot(s)`, `有能容纳它 ${task.duration} 节的空闲时段`),
    then(spot.day, spot.start, spot.hostId),
  );
}

/**
 * Why a review placed at `range` does not move when the clock has reached it ("… has already started: the past is
 * fixed"), as the move's own check says it; undefined while it is ahead.
 */
function startedWhy(task: ListedTask, range: SlotRange, facts: WeekFacts): string | undefined {
  if (!hasStarted(range, facts)) return undefined;
  return saySummary("en", "pastStarted", { said: nameOf(task), place: formatRange(range, datingOf(facts)) });
}

/** Why the move step proposes nothing: no free time where asked fits `task` (the time that has passed left out). */
export function noFreeTimeWhereAsked(task: ListedTask, passed: boolean): string {
  return saySummary("en", passed ? "noFreeTimeAskedPassed" : "noFreeTimeAsked", {
    length: task.duration,
    subject: label(task, "en"),
  });
}

/**
 * The slot a clock time names: the one that starts then (a review starts with a slot); else why none does — the time
 * outside the day's slots, between two starts (the nearest starts named), or a window without clock times.
 */
export function slotStartingAt(at: string, facts: Pick<WeekFacts, "slotTimes">): { slot: number } | { why: string } {
  const times = facts.slotTimes;
  if (times === undefined || times.length === 0) return { why: saySummary("en", "noClockTimes", { at }) };
  const index = times.findIndex((time) => time.start === at);
  if (index !== -1) return { slot: index + 1 };
  const first = times[0]!.start;
  const last = times.at(-1)!.end;
  if (at < first || at >= last) return { why: saySummary("en", "outsideDaySlots", { at, first, last }) };
  const before = times.findLast((time) => time.start < at)?.start;
  const after = times.find((time) => time.start > at)?.start;
  const near = [before, after].filter((time) => time !== undefined).join(" and ");
  return { why: saySummary("en", "noSlotStartsAt", { at, near }) };
}

/** Why the move step does not move event `task`: it is on several ranges. */
export function cannotMoveSpread(task: ListedTask): string {
  return saySummary("en", "cannotMoveSpread", { subject: label(task, "en") });
}

/** Why the move step does not shift `task`: it has no place to shift from. */
export function noPlaceToMoveFrom(task: ListedTask): string {
  return saySummary("en", "noPlaceToMoveFrom", { subject: label(task, "en") });
}

/** Why the move step proposes nothing for a shift: no free time fits `task` where `shift` lands it. */
export function noFreeTimeShifted(task: ListedTask, shift: MoveShift): string {
  return saySummary("en", "noFreeTimeShifted", { subject: label(task, "en"), shift: shiftSaid(shift, "en") });
}

/**
 * Where a shift lands, among the free runs of its day: by days, the task's own start, else the nearest free start that
 * day; by minutes, the free start nearest the time it names, past the task's own start that way; later / earlier the
 * same day, the nearest free start that way. Undefined when none fits.
 */
function shiftedSpot(
  runs: FreeRunEntry[],
  shift: MoveShift,
  current: { day: number; start: number },
  duration: number,
  day: number,
  facts: WeekFacts,
): { day: number; start: number; hostId?: string } | undefined {
  const starts = runs
    .filter((run) => run.day === day)
    .flatMap((run) =>
      Array.from({ length: Math.max(0, run.end - run.start - duration + 2) }, (_, offset) => ({
        day,
        start: run.start + offset,
        ...(run.hostId ? { hostId: run.hostId } : {}),
      })),
    )
    .filter((spot) => !(spot.day === current.day && spot.start === current.start));
  const later = "days" in shift ? shift.days > 0 : "minutes" in shift ? shift.minutes > 0 : shift.sameDay === "later";
  const own = startMinute(current.start, facts);
  const target = "minutes" in shift ? own + shift.minutes : own;
  const candidates =
    "days" in shift
      ? starts
      : starts.filter((spot) => (later ? spot.start > current.start : spot.start < current.start));
  // Nearest the target time; a tie goes the shift's way.
  const distance = (spot: { start: number }) =>
    "sameDay" in shift ? Math.abs(spot.start - current.start) : Math.abs(startMinute(spot.start, facts) - target);
  return candidates.reduce<(typeof candidates)[number] | undefined>((best, spot) => {
    if (!best) return spot;
    const [a, b] = [distance(spot), distance(best)];
    if (a !== b) return a < b ? spot : best;
    return later === spot.start > best.start ? spot : best;
  }, undefined);
}

/** What a user's rejections of earlier proposals add to where a task may go. */
export interface Constraints {
  where: Where;
  notDays: Set<number>;
  /** First slot allowed. */
  from: number;
  /** Last slot allowed. */
  to: number;
}

/** Folds the feedback of rejected proposals into the step's `where`. */
export function constraintsFrom(rejected: RoundView[], base: Where): Constraints {
  const constraints: Constraints = {
    where: {
      ...base,
      only: { ...base.only },
      not: {
        weekdays: [...base.not.weekdays],
        days: [...base.not.days],
        ...(base.not.dates ? { dates: [...base.not.dates] } : {}),
      },
      slots: { ...base.slots },
    },
    notDays: new Set(),
    from: 1,
    to: Number.POSITIVE_INFINITY,
  };
  for (const round of rejected) {
    const feedback = parseFeedback(feedbackOfResult(round.result));
    const day = Number(round.arguments.day);
    const start = Number(round.arguments.slot_start);
    if (feedback.kind !== "constrain") {
      if (Number.isFinite(day) && Number.isFinite(start)) constraints.notDays.add(day);
      continue;
    }
    constraints.where.not.weekdays.push(...feedback.not.weekdays);
    constraints.where.not.days.push(...feedback.not.days);
    if (feedback.not.dates)
      constraints.where.not.dates = [...(constraints.where.not.dates ?? []), ...feedback.not.dates];
    if (!isEmptySelection(feedback.only)) constraints.where.only = feedback.only;
    if (feedback.part) constraints.where.slots = { part: feedback.part };
    // "Later" and "earlier" mean later or earlier on the same day.
    if ((feedback.later || feedback.earlier) && isEmptySelection(feedback.only) && Number.isFinite(day))
      constraints.where.only = { weekdays: [], days: [day] };
    if (feedback.later && Number.isFinite(start)) constraints.from = Math.max(constraints.from, start + 1);
    if (feedback.earlier && Number.isFinite(start)) constraints.to = Math.min(constraints.to, start - 1);
  }
  return constraints;
}

/** The days a `where` allows (undefined for every day), without its excluded days. */
export function allowedDays(where: Where, facts: WeekFacts): number[] | undefined {
  const not = new Set(resolveDays(where.not, facts));
  const only = resolveDays(where.only, facts);
  if (only.length > 0) return only.filter((day) => !not.has(day));
  if (not.size === 0) return undefined;
  const total = facts.totalDays ?? Math.max(7, ...facts.weekdays.keys());
  return Array.from({ length: total }, (_, index) => index + 1).filter((day) => !not.has(day));
}

/** The first place in the runs where `duration` slots fit inside the window, avoiding the task's current place. */
function firstFit(
  runs: FreeRunEntry[],
  duration: number,
  window: { from: number; to: number },
  notDays: ReadonlySet<number>,
  current: { day: number; start: number } | undefined,
): { day: number; start: number; hostId?: string } | undefined {
  for (const run of runs) {
    if (notDays.has(run.day)) continue;
    const start = Math.max(run.start, window.from);
    if (start + duration - 1 > Math.min(run.end, window.to)) continue;
    if (current && current.day === run.day && current.start === start) continue;
    return { day: run.day, start, ...(run.hostId ? { hostId: run.hostId } : {}) };
  }
  return undefined;
}

/** What the policy says when a rejected write is left as it was. */
function unchangedBecause(feedback: ReturnType<typeof parseFeedback>, language: Language): string {
  if (feedback.kind === "unclear")
    return cannotActOn(feedback.text, { en: "so I left it as it was", zh: "所以保持原样" });
  return say(language, "Understood: I left it as it was.", "明白：保持原样。");
}

/**
 * What the policy says when the tool refused a write: nothing of its own — the refusal is the step's summary, and the
 * final answer tells it (`finalAnswer`): a person hears why once, not in a note and again in the answer.
 */
const REFUSAL_TOLD_IN_ANSWER = "";

/** "I found no task or event matching "quantum lecture", so … stays where it is." */
function noAnchorSaid(anchor: string, task: ListedTask, language: Language): string {
  return say(
    language,
    `I found no task or event matching ${anchor}, so ${nameOf(task)} stays where it is.`,
    `我没有找到与${anchor}匹配的任务或活动，${nameOf(task)}保持不动。`,
  );
}

function noTaskMatching(names: string, language: Language): string {
  return say(language, `${noTaskFound(names)}.`, `我没有找到与 ${names} 匹配的任务。`);
}

/** A step's ending when the phrases it was given (`matching`: quoted, joined by ", " and " or ") name no task. */
export function noTaskFound(matching: string): string {
  return saySummary("en", "noTaskFound", { matching });
}

/** Why a swap leaves `event` alone: it is locked (only its own move records a time that really changed). */
export function lockedFromSwap(event: ListedTask): string {
  return saySummary("en", "lockedEvent", { event: nameOf(event) });
}

/**
 * The place in the week shown of the task or event `anchor` names (other than `task`) that a day `offset` from it
 * counts from: its first whose day that way is today or later (any first, with no clock), else its first — whose day
 * has passed, which the search then says. Undefined when the words name nothing.
 */
function comingOccurrence(
  { anchor, offset }: { anchor: string; offset: number },
  task: ListedTask,
  tasks: readonly ListedTask[],
  today: number | undefined,
): SlotRange | undefined {
  const places = matchTasks(
    anchor,
    tasks.filter((each) => each.id !== task.id),
  )
    .flatMap((each) => each.slots)
    .sort((a, b) => a.day - b.day || a.start - b.start);
  return places.find((place) => today === undefined || place.day + offset >= today) ?? places[0];
}

/**
 * Each day's last (or first) class: the event of the timetable that ends last (starts first) that day, a block that
 * hosts reviews (a study hall, a library block) not counted.
 */
function classesOf(which: "last" | "first", tasks: readonly ListedTask[]): SlotRange[] {
  const byDay = new Map<number, SlotRange>();
  for (const range of tasks.filter((each) => each.kind === "event" && !each.canEmbed).flatMap((each) => each.slots)) {
    const kept = byDay.get(range.day);
    if (!kept || (which === "last" ? range.end > kept.end : range.start < kept.start)) byDay.set(range.day, range);
  }
  return [...byDay.values()];
}

/**
 * The place right next to another task or event (`anchor`), on `side` of it: for each of its occurrences in time order
 * on the days allowed (every task the words name, the moved task left out), the free start nearest it that fits
 * `task` — after: the first at or after the slot past its end; before: the last that ends by the slot before its
 * start — in the free runs shown (the time that has passed is not among them). `why` when the words name nothing
 * ("unknown") or no occurrence has room ("none").
 */
function spotNextTo(
  next: { side: "after" | "before"; anchor: string },
  task: ListedTask,
  tasks: readonly ListedTask[],
  runs: readonly FreeRunEntry[],
  days: readonly number[] | undefined,
): { day: number; start: number } | { why: "unknown" | "none" | "noClass" } {
  const which = classAnchorOf(next.anchor);
  const anchors = which
    ? classesOf(which, tasks)
    : matchTasks(
        next.anchor,
        tasks.filter((each) => each.id !== task.id),
      ).flatMap((anchor) => anchor.slots);
  const occurrences = anchors
    .filter((range) => !days || days.includes(range.day))
    .sort((a, b) => a.day - b.day || a.start - b.start);
  if (which && occurrences.length === 0) return { why: "noClass" };
  if (anchors.length === 0) return { why: "unknown" };
  const length = task.duration;
  for (const range of occurrences) {
    // In each free run of its day, the start nearest it on that side, kept when the task fits there.
    const starts = runs.flatMap((run) => {
      if (run.day !== range.day) return [];
      const start =
        next.side === "after" ? Math.max(run.start, range.end + 1) : Math.min(run.end, range.start - 1) - length + 1;
      return start >= run.start && start + length - 1 <= run.end ? [start] : [];
    });
    if (starts.length > 0)
      return { day: range.day, start: next.side === "after" ? Math.min(...starts) : Math.max(...starts) };
  }
  return { why: "none" };
}

/** Swap: find both tasks, propose the swap. */
function swapStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "swap" }>,
  end: Finish,
  asked: Asked,
  facts: WeekFacts,
): Decision {
  const { language } = asked;
  const dating = datingOf(facts);
  const answered = writeEnding(rounds, ["swap"], end, dating, language, SUMMARY_WORDS.en.rejectedSwap);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks)
    return read(
      say(language, "Looking up both tasks.", "正在查找这两个任务。"),
      "list_tasks",
      LIST_ALL,
      "need the tasks' ids",
    );
  const candidates = tasks.filter(movable);
  // "Swap Thursday's review with Saturday's": the one review placed that day, or the question which of them (asked
  // once: the answer names the first day's that holds several; a second such day is said, as is a day with none).
  const chosen = new Map<string, string>();
  for (const phrase of [request.first, request.second]) {
    const byDay = matchTask(phrase, candidates) ? undefined : reviewsNamedByDay(phrase, candidates, facts);
    if (!byDay || byDay.reviews.length === 1) continue;
    if (byDay.reviews.length > 1 && asked.answer === undefined)
      return whichReviewOfDay(
        byDay.weekday,
        byDay.reviews,
        language,
        "the swap names a weekday that holds several reviews",
      );
    const answered =
      byDay.reviews.length > 1 && chosen.size === 0 && asked.answer !== undefined
        ? matchTask(taskPhrase(asked.answer), byDay.reviews)
        : undefined;
    if (answered) {
      chosen.set(phrase, answered.task.id);
      continue;
    }
    const day = weekdayName(byDay.weekday, language);
    return finish(
      end,
      byDay.reviews.length === 0
        ? say(language, `No review is placed on ${day}, so nothing was swapped.`, `${day}没有安排复习，所以没有交换。`)
        : say(
            language,
            `${day} holds ${byDay.reviews.length} reviews: ${byDay.reviews.map((task) => `${task.name} (${task.id})`).join(", ")}. Ask for the swap again with the one you mean, by name or id.`,
            `${day}有 ${byDay.reviews.length} 个复习：${byDay.reviews.map((task) => `${task.name} (${task.id})`).join("、")}。请用名称或 id 说出要交换的那一个，再说一次。`,
          ),
      notCarriedOut(
        byDay.reviews.length === 0
          ? saySummary("en", "noReviewOnDay", { weekday: weekdayName(byDay.weekday, "en") })
          : `${weekdayName(byDay.weekday, "en")} holds ${byDay.reviews.length} reviews; the swap needs one named`,
      ),
    );
  }
  const dayReview = (phrase: string) =>
    chosen.get(phrase) ?? reviewsNamedByDay(phrase, candidates, facts)?.reviews[0]?.id ?? phrase;
  const [firstSaid, secondSaid] = [request.first, request.second].map((phrase) =>
    matchTask(phrase, candidates) ? phrase : dayReview(phrase),
  ) as [string, string];
  const first = matchTask(firstSaid, candidates);
  const second = matchTask(
    secondSaid,
    candidates.filter((task) => task.id !== first?.task.id),
  );
  const missing = !first ? request.first : !second ? request.second : undefined;
  if (missing !== undefined || !first || !second)
    return finish(
      end,
      say(language, `I found no placed task matching "${missing}".`, `我没有找到与“${missing}”匹配的已安排任务。`),
      notCarriedOut(`${saySummary("en", "noPlacedTaskFound", { matching: `"${missing}"` })}`),
    );
  // A locked event is never swapped (a swap makes room); its own move records a time that really changed.
  const locked = [first.task, second.task].find((task) => !swappable(task));
  if (locked !== undefined)
    return finish(
      end,
      say(
        language,
        `${label(locked, language)} is locked: a swap never moves it. If its time really changed, ask me to move it.`,
        `${label(locked, language)} 已锁定：交换不会移动它。如果它的时间确实改了，请让我移动它。`,
      ),
      notCarriedOut(lockedFromSwap(locked)),
    );
  // What swap reports once it applies as proposed (each task on the other's range, inside the other's host).
  const [a, b] = [first.task, second.task];
  const landing = (task: ListedTask, other: ListedTask) => ({
    id: task.id,
    ...other.slots[0]!,
    ...(task.kind === "placed" && other.hostId ? { hostId: other.hostId } : {}),
  });
  const predictable = a.slots.length === 1 && b.slots.length === 1 && a.duration === b.duration;
  const then: Then | undefined = predictable
    ? {
        action: end,
        goalCheck: swappedText({ swapped: [a.id, b.id], moved: [landing(a, b), landing(b, a)] }, dating).replace(
          /\n- /g,
          "; ",
        ),
      }
    : undefined;
  const speak = say(
    language,
    `Swapping ${label(a, language)} and ${label(b, language)}${ambiguity(first, language)}${ambiguity(second, language)}.`,
    `交换${label(a, language)}和${label(b, language)}${ambiguity(first, language)}${ambiguity(second, language)}。`,
  );
  return propose(
    speak,
    "swap",
    { first_task_id: a.id, second_task_id: b.id },
    say(language, "the tasks the request names", "请求指定的任务"),
    then,
  );
}

/** The write tool of each life mark, and the statuses a task may be marked from (`tools/schedule/tools/task-life.ts`). */
const MARK_WRITES = {
  done: { tool: "mark_done", from: ["placed", "pending", "missed", "skipped"] },
  missed: { tool: "mark_missed", from: ["placed"] },
  skipped: { tool: "skip", from: ["placed", "pending", "missed"] },
} as const;

/** A task's life ("I did the matrix review", "我周二的复习没做"): find the task (on the weekday named), propose the mark. */
function markStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "mark" }>,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
): Decision {
  const { language } = asked;
  const write = MARK_WRITES[request.to];
  const answered = writeEnding(rounds, [write.tool], end, datingOf(facts), language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  // "yesterday's review": the weekday the clock makes of it (a plan writes it as the weekday; a model's step may not).
  const weekday =
    request.weekday ??
    (request.daysAgo !== undefined && facts.now
      ? dayOfWeekOfDate(addDays(facts.now.date, -request.daysAgo))
      : undefined);
  const markable = tasks.filter(
    (task) =>
      (write.from as readonly string[]).includes(task.kind) &&
      (weekday === undefined ||
        task.slots.some((range) => weekdayOf(facts, range.day) === weekday) ||
        wasLately(task, weekday, facts)),
  );
  // "Monday's review", "我周一的复习": the kind of session names no task — the weekday's reviews are what it means: the
  // one there is, or the question which of them (an answer then names it).
  if (weekday !== undefined && namesKindOnly(request.task)) {
    const [only, ...others] = markable;
    if (asked.answer !== undefined) {
      // The answer to which of them: it names the task (the request's own words name none).
      const answer = taskPhrase(asked.answer);
      const answered = matchTask(answer, markable) ?? matchTask(answer, tasks);
      if (answered) return proposeMark(answered.task, answered, request, end, facts, language);
      return finish(end, noTaskMatching(`"${answer}"`, language), notCarriedOut(`${noTaskFound(`"${answer}"`)}`));
    }
    if (only && others.length === 0)
      return proposeMark(only, { task: only, alsoMatching: [] }, request, end, facts, language);
    if (only) return whichReviewOfDay(weekday, markable, language);
  }
  // Of tasks the words name alike — a habit's sessions of this week and of weeks past share their names — the ones
  // still in the work (placed, pending) come before history (missed, skipped): "I did the jogging" on Monday is this
  // week's session, not last week's missed one (a weekday, "Sunday's jogging", names that one).
  const inWorkFirst = [
    ...markable.filter((task) => task.kind === "placed" || task.kind === "pending"),
    ...markable.filter((task) => task.kind !== "placed" && task.kind !== "pending"),
  ];
  // "I'm done": the review in progress now, else the last one today — or the question which.
  if (isLatestReview(request.task)) {
    const latest = latestReview(tasks, facts, asked);
    if ("question" in latest) return latest.question;
    if ("task" in latest)
      return proposeMark(latest.task, { task: latest.task, alsoMatching: [] }, request, end, facts, language);
    const named = namedTask(latest.answer, inWorkFirst, inWorkFirst, asked, "no task was named");
    if ("question" in named) return named.question;
    if ("none" in named)
      return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
    return proposeMark(named.match.task, named.match, request, end, facts, language);
  }
  // A task the words name that the mark cannot take ("I did the matrix review" once it is done): its state is said,
  // never "which task?" — the name was plain.
  const settled = matchTask(request.task, inWorkFirst) ? undefined : matchTask(request.task, tasks);
  if (settled && settled.task.kind !== "event" && asked.answer === undefined)
    return finish(
      end,
      `${unmarkable(settled.task, request.to, language)}${language === "zh" ? "。" : "."}`,
      notCarriedOut(unmarkable(settled.task, request.to, "en")),
    );
  const named = namedTask(request.task, inWorkFirst, inWorkFirst, asked, "the step names no task the schedule has");
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
  return proposeMark(named.match.task, named.match, request, end, facts, language);
}

/**
 * The review "I'm done" (no task named) means: the one placed review in progress now by the run's clock, else the one
 * of today that ended last (still placed: not marked yet). None, or several at once, asks which, naming today's
 * reviews so far; an answer to that question is the task (`answer`).
 */
function latestReview(
  tasks: ListedTask[],
  facts: WeekFacts,
  asked: Asked,
): { task: ListedTask } | { question: Decision } | { answer: string } {
  if (asked.answer !== undefined) return { answer: taskPhrase(asked.answer) };
  const { language } = asked;
  const now = facts.now;
  const timesOf = todaysTimesOf(facts);
  const started = now ? tasks.filter((task) => (timesOf(task)?.start ?? "99:99") <= now.time) : [];
  const inProgress = started.filter((task) => timesOf(task)!.end > now!.time);
  const lastEnd = started
    .map((task) => timesOf(task)!.end)
    .sort()
    .at(-1);
  const meant = inProgress.length > 0 ? inProgress : started.filter((task) => timesOf(task)!.end === lastEnd);
  if (meant.length === 1) return { task: meant[0]! };
  const listed = (among: ListedTask[]) =>
    among
      .map((task) => `${JSON.stringify(task.name)} (${placeWords(task.slots[0]!, facts, language)})`)
      .join(say(language, ", ", "、"));
  const placed = tasks
    .filter((task) => task.kind === "placed")
    .slice(0, 6)
    .map((task) => task.name)
    .join(say(language, ", ", "、"));
  const speak =
    meant.length > 1
      ? say(
          language,
          `Which review are you done with? Today so far: ${listed(meant)}. Answer with its name, and I will mark it done.`,
          `你完成的是哪个复习？今天到现在：${listed(meant)}。请回答任务名称，我会把它记为已完成。`,
        )
      : say(
          language,
          `Which review are you done with? None of today's has started yet. Answer with its name or id (${placed}), and I will mark it done.`,
          `你完成的是哪个复习？今天还没有开始的复习。请回答任务名称或 id（${placed}），我会把它记为已完成。`,
        );
  return { question: { speak, action: "ask_user", reason: "no task was named" } };
}

/**
 * Why `task` (a task item) takes no mark `to` from its state: already so ("… is already done; nothing to mark"), or a
 * state the mark does not follow (a pending review was never on the week to be missed).
 */
export function unmarkable(task: ListedTask, to: keyof typeof MARK_WRITES, language: Language): string {
  const status = task.kind as TaskStatus;
  const places =
    language === "zh"
      ? { subject: label(task, language), state: TASK_STATUS_ZH[status], mark: markInChinese(to) }
      : { subject: label(task, language), state: status === "skipped" ? "skipped this week" : status, mark: to };
  return saySummary(language, status === to ? "alreadyMarked" : "notMarkable", places);
}

/**
 * True when a settled task was on `weekday` in the week up to today: "Sunday's review" said on Monday is the one the
 * window's roll made missed yesterday (no longer on the window's days, only on record), as it is one marked missed
 * on Tuesday and said on Thursday.
 */
function wasLately(task: ListedTask, weekday: number, facts: WeekFacts): boolean {
  const was = task.was;
  if (was === undefined || was.dayOfWeek !== weekday) return false;
  const today = facts.now?.date;
  if (was.date === undefined || today === undefined) return true;
  const ago = daysBetween(was.date, today);
  return ago >= 0 && ago < 7;
}

/** The mark's card for `task` (`match`: how the request named it, to say an ambiguity). */
function proposeMark(
  task: ListedTask,
  match: TaskMatch,
  request: Extract<ScheduleRequest, { kind: "mark" }>,
  end: Finish,
  facts: WeekFacts,
  language: Language,
): Decision {
  // "I didn't do the essay" while its place is still ahead: nothing is missed yet — said, no card.
  const place = task.kind === "placed" ? task.slots[0] : undefined;
  if (request.to === "missed" && place && aheadOfClock(place, facts)) {
    // Said with the place as a person reads it; summarised with it as the tools write it (read back later).
    const refusal = (words: Language, summary = false) =>
      saySummary(words, "notMissedYet", {
        subject: label(task, words),
        place: summary ? formatRange(place, datingOf(facts)) : placeWords(place, facts, words),
      });
    // The final answer says it (read from the summary): said once, not in a note and again in the answer.
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal("en", true)));
  }
  const write = MARK_WRITES[request.to];
  const saying = {
    done: ["Marking", "done", "把", "记为已完成"],
    missed: ["Marking", "missed", "把", "记为错过"],
    skipped: ["Skipping", "this week", "本周跳过", ""],
  }[request.to];
  return propose(
    say(
      language,
      `${saying[0]} ${label(task, language)} ${saying[1]}${ambiguity(match, language)}.`,
      `${saying[2]}${label(task, language)}${saying[3]}${ambiguity(match, language)}。`,
    ),
    write.tool,
    { task_id: task.id },
    say(language, "the task the request names", "请求指定的任务"),
    { action: end, goalCheck: `marked task ${task.id} ${request.to} (it was ${task.kind})` },
  );
}

/**
 * How a step of one write ends once its card was answered (undefined while the write is still to propose): applied
 * — the result, its lines joined —, refused by the tool (the answer tells it), or rejected (the user's feedback said
 * back: why nothing changed).
 */
export function writeEnding(
  rounds: RoundView[],
  tools: readonly string[],
  end: Finish,
  dating: Dating,
  language: Language,
  rejected: string = SUMMARY_WORDS.en.rejectedIt,
): Decision | undefined {
  const outcome = lastWriteOutcome(rounds, tools);
  if (!outcome) return undefined;
  if (outcome.outcome === "applied")
    return finish(end, "", appliedWriteSummary(outcome.round, language, dating).replace(/\n- /g, "; "));
  if (outcome.outcome === "failed")
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(outcome.round, "en", dating)));
  const feedback = parseFeedback(feedbackOfResult(outcome.round.result));
  return finish(end, unchangedBecause(feedback, language), notCarriedOut(rejected));
}

/** Unplace: find the placed task item, propose unplace. */
function unplaceStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "unplace" }>,
  end: Finish,
  asked: Asked,
  dating: Dating,
): Decision {
  const { language } = asked;
  const answered = writeEnding(rounds, ["unplace"], end, dating, language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  const named = namedTask(
    request.task,
    tasks.filter((task) => task.kind === "placed"),
    tasks,
    asked,
    "the step names no task the schedule has",
  );
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
  const { match } = named;
  if (match.task.kind !== "placed") {
    const why = match.task.kind === "pending" ? "pendingAlready" : "onlyReviewsUnplaced";
    return finish(
      end,
      say(
        language,
        `${label(match.task, language)} cannot be unplaced: ${saySummary("en", why)}.`,
        `${label(match.task, language)} 不能撤下：${saySummary("zh", why)}。`,
      ),
      notCarriedOut(
        saySummary("en", "cannotUnplace", { subject: label(match.task, "en"), unplaceWhy: saySummary("en", why) }),
      ),
    );
  }
  const { task } = match;
  // What unplace reports once it applies as proposed.
  const then: Then | undefined = task.slots[0]
    ? {
        action: end,
        goalCheck: unplacedText(
          { id: task.id, from: task.slots[0], ...(task.hostId ? { hostId: task.hostId } : {}) },
          dating,
        ),
      }
    : undefined;
  return propose(
    say(
      language,
      `Taking ${label(task, language)} off the schedule${ambiguity(match, language)}.`,
      `把${label(task, language)}从日程上撤下${ambiguity(match, language)}。`,
    ),
    "unplace",
    { task_id: task.id },
    say(language, "the task the request names", "请求指定的任务"),
    then,
  );
}

/**
 * Remove a timetable event (`remove_event`): the events the step's words name — on the weekday they name, if any
 * ("friday tutorial") — and, when several match, the one the user's answer picks. One match is proposed (the card says
 * what goes: a series goes whole); several are asked about, never guessed; none is said.
 */
function removeEventStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "remove_event" }>,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
): Decision {
  const { language } = asked;
  const answered = writeEnding(rounds, ["remove_event"], end, datingOf(facts), language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.event, language);
  const events = tasks.filter((task) => task.kind === "event");
  const named = eventsNamed(request.event, events, facts);
  const chosen =
    asked.answer === undefined || named.length === 1
      ? named
      : eventsNamed(taskPhrase(normalizeText(asked.answer)), named.length > 0 ? named : events, facts);
  const event = chosen.length === 1 ? chosen[0] : undefined;
  if (event)
    return propose(
      say(
        language,
        `Removing ${label(event, language)} from the timetable.`,
        `从课表中删除${label(event, language)}。`,
      ),
      "remove_event",
      { event_id: event.id },
      say(language, "the event the request names", "请求指定的活动"),
    );
  // An answer is asked for once: one that settles nothing ends the step, said, never asked again.
  if (asked.answer !== undefined) {
    const phrase = `"${request.event}" or "${asked.answer}"`;
    const ids = chosen.map((task) => task.id).join(", ");
    return chosen.length === 0
      ? finish(
          end,
          say(language, `I found no event matching ${phrase}.`, `我没有找到与 ${phrase} 匹配的活动。`),
          notCarriedOut(saySummary("en", "noEventFound", { matching: phrase })),
        )
      : finish(
          end,
          say(
            language,
            `${phrase} still matches ${chosen.length} events (${ids}); name one by its id to remove it.`,
            `${phrase} 仍匹配 ${chosen.length} 个活动（${ids}）；请用 id 指明要删除哪一个。`,
          ),
          notCarriedOut(saySummary("en", "matchesEvents", { matching: phrase, count: chosen.length, ids })),
        );
  }
  // Several match ("the linear algebra lecture" on Tuesday and Thursday), or none: which one, by its day or id.
  const among = (chosen.length > 0 ? chosen : events).slice(0, 8);
  const choices = among
    .map((task) => {
      const at = task.slots[0];
      // Named and dated as a person tells them apart (an answer naming its id is read too, but none is shown).
      return at
        ? say(
            language,
            `${nameOf(task)} (${placeWords(at, facts, language)})`,
            `${nameOf(task)}（${placeWords(at, facts, language)}）`,
          )
        : nameOf(task);
    })
    .join(say(language, "; ", "；"));
  const speak =
    chosen.length > 0
      ? say(
          language,
          `"${request.event}" matches ${chosen.length} events: ${choices}. Which one should go? Answer with its day.`,
          `“${request.event}”匹配 ${chosen.length} 个活动：${choices}。要删除哪一个？请回答它的日期。`,
        )
      : say(
          language,
          `I found no event matching "${request.event}". Which event do you mean? Answer with its name, for example: ${choices}.`,
          `我没有找到与“${request.event}”匹配的活动。你指的是哪个活动？请回答名称，例如：${choices}。`,
        );
  return { speak, action: "ask_user", reason: "the step's words name no single event" };
}

/**
 * The events `phrase` names: by id, else those on the weekday it names ("friday tutorial", "周五的辅导课") that the rest
 * of it matches — every one on that weekday when the rest names nothing ("the Thursday one", "周四的").
 */
function eventsNamed(phrase: string, events: ListedTask[], facts: WeekFacts): ListedTask[] {
  const byId = events.find((task) => task.id.toLowerCase() === phrase.trim().toLowerCase());
  if (byId) return [byId];
  const { weekday, rest } = splitWeekday(phrase);
  const onDay =
    weekday === undefined
      ? events
      : events.filter((task) => task.slots.some((range) => weekdayOf(facts, range.day) === weekday));
  if (weekday !== undefined && matchTokens(rest).length === 0) return onDay;
  const match = matchTask(rest, onDay);
  return match ? [match.task, ...match.alsoMatching] : [];
}

/** When am I free: find_free where asked, answered day by day. */
function freeStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "free" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const days = allowedDays(request.where, facts);
  const window = slotRangeOf(request.where.slots, facts);
  // A window with no slot of the day ("before 8"): said, and no search (find_free takes no empty slot range).
  const noSlot = emptyWindowWhy(request.where.slots, facts, "en");
  if (noSlot !== undefined)
    return finish(end, emptyWindowEnding(request.where.slots, facts, language), notCarriedOut(noSlot));
  const search = rounds.findLast((round) => round.name === "find_free" && !round.summarised);
  if (!search) {
    const args: Record<string, unknown> = { min_length: request.minLength, limit: 100 };
    if (days) args.days = days;
    if (window.from > 1) args.slot_start = window.from;
    if (window.to < facts.slotsPerDay) args.slot_end = window.to;
    return read(
      say(language, "Looking for free time.", "正在查找空闲时间。"),
      "find_free",
      args,
      "the question is about free time",
    );
  }
  if (callResultOf(search) === "failed") return finish(end, "", couldNotLookUp(failureOf(search), language));
  const found = toolDataOf(search, "find_free");
  const runs = found?.runs;
  // Time that has started is not free (find_free leaves it out, as the place tools refuse it): say so.
  const past = found?.pastLeftOut
    ? say(language, " Time that has already passed is not counted.", "已经过去的时间不算在内。")
    : "";
  if (!runs)
    return read(
      say(language, "Looking for free time.", "正在查找空闲时间。"),
      "find_free",
      search.arguments,
      "the question is about free time",
    );
  const narrowed = window.from > 1 || window.to < facts.slotsPerDay;
  const slots = narrowed
    ? say(
        language,
        ` in ${slotWords(window.from, window.to, facts, language)}`,
        `（${slotWords(window.from, window.to, facts, language)}）`,
      )
    : "";
  if (runs.length === 0) {
    const where = days ? days.map((day) => dayName(day, facts, language)).join(say(language, ", ", "、")) : "";
    return finish(
      end,
      "",
      say(
        language,
        `You have no free run of ${request.minLength} slot(s)${slots}${days ? ` on ${where}` : " this week"}.`,
        `${days ? where : "本周"}${slots}没有连续 ${request.minLength} 节的空闲时间。`,
      ) + past,
    );
  }
  const byDay = new Map<number, string[]>();
  for (const run of runs) {
    const text = `${slotWords(run.start, run.end, facts, language)}${run.hostId ? say(language, ` (inside ${run.hostId}, free for a review task)`, `（在 ${run.hostId} 内，可放复习任务）`) : ""}`;
    byDay.set(run.day, [...(byDay.get(run.day) ?? []), text]);
  }
  const lines = [...byDay].map(
    ([day, texts]) =>
      `- ${dayName(day, facts, language)}${say(language, ": ", "：")}${texts.join(say(language, ", ", "，"))}`,
  );
  return finish(
    end,
    "",
    [say(language, `You are free${slots}:`, `你有空的时间${slots}：`), ...lines, ...(past ? [past.trim()] : [])].join(
      "\n",
    ),
  );
}

/** "I could not look that up: …" for a read the tool refused (`why`, as it said it). */
function couldNotLookUp(why: string, language: Language): string {
  return say(language, `I could not look that up: ${why}`, `查询失败：${why}`);
}

/** What's on a day: query_range, answered segment by segment. */
function dayStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "day" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const days = allowedDays(request.where, facts) ?? [1];
  const window = slotRangeOf(request.where.slots, facts);
  // A window with no slot of the day: said, and no query (query_range takes no empty slot range).
  const noSlot = emptyWindowWhy(request.where.slots, facts, "en");
  if (noSlot !== undefined)
    return finish(end, emptyWindowEnding(request.where.slots, facts, language), notCarriedOut(noSlot));
  const query = rounds.findLast((round) => round.name === "query_range" && !round.summarised);
  if (!query) {
    const first = days[0] ?? 1;
    const last = Math.min(days.at(-1) ?? first, first + 13);
    const args: Record<string, unknown> = { day: first };
    if (last > first) args.day_end = last;
    if (window.from > 1) args.slot_start = window.from;
    if (window.to < facts.slotsPerDay) args.slot_end = window.to;
    return read(
      say(language, "Looking at the day.", "正在查看这一天。"),
      "query_range",
      args,
      "the question is about what is on a day",
    );
  }
  if (callResultOf(query) === "failed") return finish(end, "", couldNotLookUp(failureOf(query), language));
  const shown = toolDataOf(query, "query_range");
  if (!shown)
    return read(
      say(language, "Looking at the day.", "正在查看这一天。"),
      "query_range",
      query.arguments,
      "the question is about what is on a day",
    );
  const wanted = new Set(days);
  const lines: string[] = [];
  for (const day of shown.days) {
    if (!wanted.has(day.day)) continue;
    lines.push(
      say(
        language,
        `${dayName(day.day, facts, language)}, ${slotWords(day.slotStart, day.slotEnd, facts, language)}:`,
        `${dayName(day.day, facts, language)}，${slotWords(day.slotStart, day.slotEnd, facts, language)}：`,
      ),
    );
    for (const segment of day.segments)
      lines.push(
        `- ${slotWords(segment.start, segment.end, facts, language)}${say(language, ": ", "：")}${segmentWords(segment, day.day, facts, language)}`,
      );
  }
  return finish(end, "", lines.join("\n"));
}

/**
 * A segment of a day in a person's words. With the clock, started time is not offered as free ("passed, no longer
 * free"), and a review whose time has started without being marked done says so (its time has passed, or it is under
 * way): the place tools refuse started slots, and a review left unmarked is not silently counted as done.
 */
function segmentWords(segment: RangeSegment, day: number, facts: WeekFacts, language: Language): string {
  const { occupant } = segment;
  if (!segment.started) return readableOccupant(occupant, language);
  if (occupant.kind === "free") return say(language, "passed, no longer free", "已过去，不再空闲");
  const review = occupant.kind === "task" ? occupant : occupant.kind === "event" ? occupant.embedded : undefined;
  const endTime = facts.slotTimes?.[segment.end - 1]?.end;
  const today = todayOf(facts);
  const ended =
    today === undefined ||
    day < today ||
    (endTime !== undefined && facts.now !== undefined && endTime <= facts.now.time);
  // A host whose time has passed without a review has no room left for one.
  const text = readableOccupant(occupant, language, !ended);
  if (review?.status !== "placed") return text;
  return ended
    ? say(language, `${text} — its time has passed and it is not marked done`, `${text}——时间已过，尚未标记完成`)
    : say(language, `${text} — under way, not marked done yet`, `${text}——正在进行，尚未标记完成`);
}

/**
 * What comes next from now: the days ahead (today and the six after it, within the window) read with query_range, and
 * the answer names what is on now, the next thing that has not started, and the next review when that is something
 * else. A slot whose clock time is not known counts as ahead; without a clock, the window's first day is "today".
 */
function nextStep(rounds: RoundView[], facts: WeekFacts, end: Finish, language: Language): Decision {
  const today = facts.now ? todayOf(facts) : 1;
  if (today === undefined)
    return finish(
      end,
      "",
      say(
        language,
        "Today is not in your schedule's window, so nothing in it comes next.",
        "今天不在日程的时间范围内，所以没有接下来的安排。",
      ),
    );
  const last = Math.min(facts.totalDays ?? today + 6, today + 6);
  const query = rounds.findLast((round) => round.name === "query_range" && !round.summarised);
  const shown = query && callResultOf(query) !== "failed" ? toolDataOf(query, "query_range") : undefined;
  if (query && callResultOf(query) === "failed") return finish(end, "", couldNotLookUp(failureOf(query), language));
  if (!shown) {
    const args: Record<string, unknown> = { day: today };
    if (last > today) args.day_end = last;
    return read(
      say(language, "Looking at the days ahead.", "正在查看接下来几天。"),
      "query_range",
      args,
      "the question is about what comes next",
    );
  }
  const time = facts.now?.time;
  const slotStart = (slot: number) => facts.slotTimes?.[slot - 1]?.start;
  const slotEnd = (slot: number) => facts.slotTimes?.[slot - 1]?.end;
  const busy = shown.days
    .filter((day) => day.day >= today)
    .flatMap((day) =>
      day.segments.filter((segment) => segment.occupant.kind !== "free").map((segment) => ({ day: day.day, segment })),
    )
    // Ended already (today, before now): not what comes next.
    .filter(({ day, segment }) => !(day === today && time !== undefined && (slotEnd(segment.end) ?? "99:99") <= time));
  const started = (entry: (typeof busy)[number]) =>
    entry.day === today && time !== undefined && (slotStart(entry.segment.start) ?? "99:99") <= time;
  const isReview = (occupant: RangeOccupant) =>
    occupant.kind === "task" || (occupant.kind === "event" && occupant.embedded !== undefined);
  const place = (entry: (typeof busy)[number]) =>
    `${dayName(entry.day, facts, language)}${say(language, ", ", "，")}${slotWords(entry.segment.start, entry.segment.end, facts, language)}`;
  const now = busy.find(started);
  const next = busy.find((entry) => !started(entry));
  const review = busy.find((entry) => !started(entry) && isReview(entry.segment.occupant));
  const through = dayName(shown.days.at(-1)?.day ?? last, facts, language);
  const lines: string[] = [];
  if (now)
    lines.push(
      say(
        language,
        `Now: ${readableOccupant(now.segment.occupant, language)} (${place(now)}).`,
        `现在：${readableOccupant(now.segment.occupant, language)}（${place(now)}）。`,
      ),
    );
  lines.push(
    next
      ? say(
          language,
          `Next: ${readableOccupant(next.segment.occupant, language)} (${place(next)}).`,
          `接下来：${readableOccupant(next.segment.occupant, language)}（${place(next)}）。`,
        )
      : say(language, `Nothing else is on from now through ${through}.`, `从现在到${through}没有别的安排。`),
  );
  if (review && review !== next) {
    const occupant = review.segment.occupant;
    const name =
      occupant.kind === "event"
        ? (occupant.embedded?.name ?? occupant.name)
        : occupant.kind === "task"
          ? occupant.name
          : "";
    lines.push(
      say(language, `Your next review: ${name} (${place(review)}).`, `下一个复习：${name}（${place(review)}）。`),
    );
  }
  if (!review)
    lines.push(say(language, `No review is placed from now through ${through}.`, `从现在到${through}没有安排复习。`));
  return finish(end, "", lines.join(say(language, " ", "")));
}

/**
 * What occupies a run of slots, in a person's words: `Calculus lecture (locked)` (`微积分课（锁定）`). Ids stay out of the
 * answer (they are the tools' words, not the user's; `/debug` shows them). `open`: false for a host whose time has
 * started (it is no longer "free for embedding").
 */
function readableOccupant(occupant: RangeOccupant, language: Language, open = true): string {
  const named = (name: string, flags: string[] = []) =>
    flags.length === 0 ? name : language === "zh" ? `${name}（${flags.join("，")}）` : `${name} (${flags.join(", ")})`;
  if (occupant.kind === "free") return say(language, "free", "空闲");
  if (occupant.kind === "task") return named(occupant.name);
  const flags = [
    ...(occupant.locked ? [say(language, "locked", "锁定")] : []),
    ...(occupant.canEmbed ? [say(language, "embeddable", "可嵌入")] : []),
  ];
  const event = named(occupant.name, flags);
  if (!occupant.canEmbed) return event;
  const guest = occupant.embedded;
  if (!guest && !open) return event;
  return guest
    ? `${event}${say(language, "; inside it: ", "；其中：")}${named(guest.name)}`
    : `${event}${say(language, ", free for embedding", "，可嵌入复习任务")}`;
}

/** List pending / placed / all review tasks. */
function listStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "list" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  // The listing asked for; a pending one is followed by the missed reviews' (read apart, below), and "not done yet"
  // past one listing's 100 by a listing of each status still to do.
  const isMissedListing = (round: RoundView) => request.status === "pending" && round.arguments.status === "missed";
  const listing = rounds.findLast(
    (round) =>
      round.name === "list_tasks" &&
      !round.summarised &&
      !isMissedListing(round) &&
      (request.status !== "open" || round.arguments.status === undefined),
  );
  // "Not done yet" past the first listing's 100: what it left out may be still to do, so each status still to do is
  // listed on its own, in one round (so the three stay whole together when summarising cuts the long first listing),
  // and the answer counts from those.
  const statusRound = rounds.findLastIndex(
    (round, index) =>
      request.status === "open" &&
      STILL_TO_DO.every((status, offset) => {
        const each = rounds[index + offset];
        return each?.name === "list_tasks" && !each.summarised && each.arguments.status === status;
      }),
  );
  const statusData =
    statusRound === -1
      ? []
      : STILL_TO_DO.flatMap((_, offset) => {
          const data = toolDataOf(rounds[statusRound + offset], "list_tasks");
          return data ? [data] : [];
        });
  const counted = statusData.length === STILL_TO_DO.length ? statusData : undefined;
  const listed = toolDataOf(listing, "list_tasks");
  // A listing that failed lists nothing; one without data (saved before tools gave data) is read again.
  if (!counted && (!listing || (!listed && callResultOf(listing) !== "failed"))) {
    const args: Record<string, unknown> =
      request.status === "all" || request.status === "open"
        ? { source: "task_item", limit: 100 }
        : { status: request.status, limit: 100 };
    return read(
      say(language, "Listing the review tasks.", "正在列出复习任务。"),
      "list_tasks",
      args,
      "the question is about the review tasks",
    );
  }
  // "Which are pending?" after the week rolled on: the missed reviews are still to do too — read, and named apart.
  const missedRound =
    request.status === "pending" && listing
      ? rounds
          .slice(rounds.indexOf(listing) + 1)
          .findLast((round) => round.name === "list_tasks" && !round.summarised && isMissedListing(round))
      : undefined;
  if (request.status === "pending" && listed && !missedRound)
    return read(
      say(language, "Looking for missed reviews too.", "也看看错过的复习。"),
      "list_tasks",
      { status: "missed", limit: 100 },
      "missed reviews are still to do, and are not pending",
    );
  const missed = (toolDataOf(missedRound, "list_tasks")?.tasks ?? []).filter((task) => task.kind === "missed");
  const missedLine =
    missed.length === 0
      ? []
      : [
          say(
            language,
            `Missed and without a place (${missed.length}): ${missed.map((task) => task.name).join("; ")} — "reschedule my missed reviews" proposes them again.`,
            `错过且没有安排的（${missed.length} 个）：${missed.map((task) => task.name).join("、")}——说“补排错过的复习”即可重新安排。`,
          ),
        ];
  // Still to do: not done and not skipped, wherever it is (pending, placed, missed).
  const stillToDo = (kind: string) => (STILL_TO_DO as readonly string[]).includes(kind);
  if (request.status === "open" && !counted && listed && listed.omitted > 0)
    return readAll(
      say(language, "Listing each kind of review still to do on its own.", "分别列出每种还没完成的复习。"),
      STILL_TO_DO.map((status) => ({ name: "list_tasks", arguments: { status, limit: 100 } })),
      "one listing of every task item stops at 100",
    );
  const firstOrder = new Map((listed?.tasks ?? []).map((task, index) => [task.id, index]));
  const tasks = counted
    ? counted
        .flatMap((each) => each.tasks)
        .sort((a, b) => (firstOrder.get(a.id) ?? firstOrder.size) - (firstOrder.get(b.id) ?? firstOrder.size))
    : (listed?.tasks ?? []).filter(
        (task) => task.kind !== "event" && (request.status !== "open" || stillToDo(task.kind)),
      );
  const which = listedReviews(request.status, language, "review task(s)");
  if (tasks.length === 0)
    return finish(end, "", [say(language, `You have no ${which}.`, `你没有${which}。`), ...missedLine].join("\n"));
  const lines = tasks.map((task) => listedLine(task, facts, language));
  const more = listed && listed.omitted > 0 ? formatCount(listed.omitted) : undefined;
  let head: string;
  if (counted) {
    // Each status's own listing stops at 100 too: the count is still exact, and says how many are listed.
    const total = counted.reduce((sum, each) => sum + each.tasks.length + each.omitted, 0);
    head =
      total > tasks.length
        ? say(
            language,
            `${formatCount(total)} ${which}; ${tasks.length} listed:`,
            `${formatCount(total)} 个${which}；列出其中 ${tasks.length} 个：`,
          )
        : say(language, `${tasks.length} ${which}:`, `${tasks.length} 个${which}：`);
  } else
    head = say(
      language,
      `${tasks.length}${more ? `+${more}` : ""} ${which}:`,
      `${tasks.length}${more ? `+${more}` : ""} 个${which}：`,
    );
  return finish(end, "", [head, ...lines, ...missedLine].join("\n"));
}

/** A task as a listing answer shows it: its name, length and place (or status). */
function listedLine(task: ListedTask, facts: WeekFacts, language: Language): string {
  const range = task.slots[0];
  // A done one says so beside its place; a missed or skipped one has none (the list shows where it was as history).
  const status = task.kind === "event" ? "pending" : task.kind;
  if (language === "zh") {
    const where = range
      ? `，${status === "done" ? "已完成，" : ""}在${placeWords(range, facts, language)}${task.hostId ? "（嵌入在课程时间内）" : ""}`
      : `，${TASK_STATUS_ZH[status]}`;
    return `- ${task.name}，${task.duration} 节${where}`;
  }
  const where = range
    ? `, ${status === "done" ? "done " : ""}on ${placeWords(range, facts, language)}${task.hostId ? " inside a timetable entry" : ""}`
    : `, ${status}`;
  return `- ${task.name}, ${task.duration} slot(s)${where}`;
}

/** The statuses of a task item still to do: not done and not skipped, wherever it is. */
const STILL_TO_DO = ["pending", "placed", "missed"] as const satisfies readonly TaskStatus[];

/**
 * A task as an explain answer tells it, in sentences (`get_task_info`'s data): an event's places, whether it is locked
 * and what sits inside it; a task item's class, length and where it stands. Names, never ids or field names.
 */
function explainedTask(shown: GetTaskInfoData, dating: Dating | undefined, language: Language): string {
  const { task } = shown;
  const name = JSON.stringify(task.name);
  const places =
    task.slots.length === 0
      ? undefined
      : dating
        ? readablePlaces(formatRanges(task.slots, dating), language)
        : formatRanges(task.slots);
  if (task.kind === "event") {
    const guests = (shown.embeds ?? []).flatMap(({ task: guest }) => (guest ? [JSON.stringify(guest.name)] : []));
    return say(
      language,
      `${name} is a timetable event${places ? ` on ${places}` : ""}` +
        `${task.locked ? "; it is locked (a swap never moves it)" : ""}` +
        `${task.canEmbed ? `; reviews can go inside it${guests.length > 0 ? ` (inside it now: ${guests.join(", ")})` : ""}` : ""}.`,
      `${name}是课表上的活动${places ? `，在${places}` : ""}` +
        `${task.locked ? "；已锁定（交换不会移动它）" : ""}` +
        `${task.canEmbed ? `；可以在其中安排复习${guests.length > 0 ? `（现在其中有：${guests.join("、")}）` : ""}` : ""}。`,
    );
  }
  const course = JSON.stringify(shown.categoryName ?? task.categoryId ?? "");
  const host = shown.hostName === undefined ? undefined : JSON.stringify(shown.hostName);
  const where = places ? say(language, ` on ${places}`, `在${places}`) : "";
  const inside = host ? say(language, ` inside ${host}`, `（在${host}之内）`) : "";
  const status = task.kind as TaskStatus;
  const stands = {
    pending: say(language, "pending: it has no place yet", "待安排：还没有时间"),
    placed: say(language, `placed${where}${inside}`, `已安排${where}${inside}`),
    done: say(language, `done${where}`, `已完成${places ? `（${places}）` : ""}`),
    missed: say(language, "missed: it has no place now", "已错过：现在没有时间"),
    skipped: say(language, "skipped this week", "本周已跳过"),
  }[status];
  return say(
    language,
    `${name} is a study task in the class ${course}, ${task.duration} slot(s), ${stands}.`,
    `${name}是${course}的学习任务，${task.duration} 节，${stands}。`,
  );
}

/** Explain a task: find it, then get_task_info. */
function explainStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "explain" }>,
  end: Finish,
  asked: Asked,
  dating: Dating,
): Decision {
  const { language } = asked;
  const info = rounds.findLast((round) => round.name === "get_task_info" && !round.summarised);
  if (info && callResultOf(info) === "failed") return finish(end, "", couldNotLookUp(failureOf(info), language));
  const shown = toolDataOf(info, "get_task_info");
  if (shown) return finish(end, "", explainedTask(shown, dating, language));
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  const named = namedTask(request.task, tasks, tasks, asked, "the step names no task the schedule has");
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, "", notCarriedOut(noTaskMatching(named.none, "en")));
  const { match } = named;
  return read(
    say(
      language,
      `Reading ${label(match.task, language)}${ambiguity(match, language)}.`,
      `正在读取${label(match.task, language)}${ambiguity(match, language)}。`,
    ),
    "get_task_info",
    { task_id: match.task.id },
    "the question is about this task",
  );
}
