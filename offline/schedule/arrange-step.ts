/**
 * The arrange step of the offline policy, through the same tools a model uses (seed 003: the backend decides, the
 * model chooses): `propose_arrangement` finds where the tasks in scope go — as many as fit, hardest first, spread over
 * the days, exact for small sets, within the step's days and slots and the user's feedback — and the policy chooses
 * its proposal (`choose_candidate` a1), whose placements go out as one batch card (one action request per placement,
 * decided one by one). The card's `then` ends the step once every placement applies unchanged.
 *
 * With `writesPerCard`, the proposal holds at most that many placements; once they apply the step lists again for
 * the rest. Tasks named by the request are matched against a `list_tasks` listing first.
 *
 * Feedback on a placement: "skip this one" (or a rejection without a comment) leaves the task pending; "not Monday",
 * "Friday instead", "in the evening", "later" / "earlier" (in the same day) re-arrange that task under the
 * constraint, and the rejected place is never proposed again; anything else leaves the task pending and says so.
 * Working memory (the scratchpad) carries the skipped tasks and the constraints, because older tool rounds of the
 * step are compressed away.
 */
import type { AvoidedPlace } from "../../tools/schedule/candidate-writes.js";
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import type { TaskLimits } from "../../tools/schedule/arrangement.js";
import { parseTaskListing } from "./result-parsing.js";
import type { ListedTask, ListTasksData } from "../../tools/schedule/tools/index.js";
import { finish, propose, read, type Call, type Decision, type Finish, type Then } from "../decisions.js";
import { daysOffIn, feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import { callResultOf, failureOf, liveOverviewOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { questionAnswer, section, userLanguage, type PromptView, type RoundView } from "../prompt-reading.js";
import { cannotActOn, summaryInChinese } from "./replies.js";
import {
  dayLabelIn,
  parseScheduleRequest,
  resolveSlotWindow,
  type ScheduleRequest,
} from "../../tools/schedule/request-parsing.js";
import { say, type Language } from "../../contracts/language.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { emptyWindowEnding, emptyWindowWhy } from "./empty-window.js";
import { matchTasks } from "./task-matching.js";
import { datingOf, resolveDays, slotRangeOf, weekdayOf, type WeekFacts } from "./week-facts.js";
import { placeName } from "../../tools/schedule/calendar.js";

/** Limits on one task's place, from the user's feedback. */
interface Avoid {
  /** Days it must not use. */
  notDays: number[];
  /** Only these days, when set. */
  days?: number[];
  /** First slot allowed. */
  from?: number;
  /** Last slot allowed. */
  to?: number;
  /** Places the user rejected ("day:start"): never proposed again in the step. */
  notAt: string[];
}

/** What the step keeps in working memory. */
interface ArrangeMemory {
  /** Tasks left pending on purpose (rejected). */
  skip: string[];
  /** Constraints per task id. */
  avoid: Map<string, Avoid>;
  /** Days the user called off ("Friday is my day off"): no task of the step goes there. */
  daysOff: number[];
  /** Lines of the scratchpad that are not the step's. */
  other: string[];
}

/** Lines the step wrote before it chose through the tools (a placement plan, the tasks left out): read and dropped. */
const OLD_LINE = /^(Placement plan|Left out): /;
const SKIP_LINE = /^Skip tasks: (.*)$/;
const AVOID_LINE = /^Avoid: (.*)$/;
const DAYS_OFF_LINE = /^Days off: (.*)$/;

/** Reads the step's lines of the scratchpad. */
function readMemory(scratchpad: string): ArrangeMemory {
  const memory: ArrangeMemory = { skip: [], avoid: new Map(), daysOff: [], other: [] };
  for (const line of scratchpad.split("\n")) {
    const skip = SKIP_LINE.exec(line)?.[1];
    const avoid = AVOID_LINE.exec(line)?.[1];
    const daysOff = DAYS_OFF_LINE.exec(line)?.[1];
    if (daysOff !== undefined) {
      memory.daysOff = numbers(daysOff);
    } else if (skip !== undefined) {
      memory.skip = skip
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean);
    } else if (avoid !== undefined) {
      for (const entry of avoid.split(";")) {
        const match =
          /^\s*(\S+)(?: days ([\d,]+))?(?: not ([\d,]+))?(?: from (\d+))?(?: to (\d+))?(?: at ([\d:,]+))?\s*$/.exec(
            entry,
          );
        if (!match) continue;
        const limits: Avoid = { notDays: numbers(match[3]), notAt: (match[6] ?? "").split(",").filter(Boolean) };
        if (match[2]) limits.days = numbers(match[2]);
        if (match[4]) limits.from = Number(match[4]);
        if (match[5]) limits.to = Number(match[5]);
        memory.avoid.set(match[1] ?? "", limits);
      }
    } else if (line.trim() !== "" && !OLD_LINE.test(line)) {
      memory.other.push(line);
    }
  }
  return memory;
}

/**
 * What the arrange step's working memory says the refinement must respect, as `propose_candidates`' `avoid`: a task
 * left pending on purpose, or limited to some days or slots, stays as it is; a day or a place the user rejected for
 * a task is never proposed for it.
 */
export function arrangeLimits(scratchpad: string): AvoidedPlace[] {
  const memory = readMemory(scratchpad);
  const limits: AvoidedPlace[] = memory.skip.map((id) => ({ task_id: id }));
  for (const [id, avoid] of memory.avoid) {
    if (avoid.days || avoid.from !== undefined || avoid.to !== undefined) limits.push({ task_id: id });
    for (const day of avoid.notDays) limits.push({ task_id: id, day });
    for (const place of avoid.notAt) {
      const [day, start] = place.split(":").map(Number);
      if (day && start) limits.push({ task_id: id, day, slot_start: start });
    }
  }
  return limits;
}

/** The user's limits as `propose_arrangement` takes them. */
function taskLimitsOf(memory: ArrangeMemory): TaskLimits[] {
  return [...memory.avoid].map(([id, avoid]) => {
    const limits: TaskLimits = { task_id: id };
    if (avoid.days?.length) limits.days = avoid.days;
    if (avoid.notDays.length) limits.not_days = avoid.notDays;
    if (avoid.from !== undefined) limits.from = avoid.from;
    if (avoid.to !== undefined && Number.isFinite(avoid.to)) limits.to = avoid.to;
    const notAt = avoid.notAt.map((place) => place.split(":").map(Number)).filter(([day, start]) => day && start);
    if (notAt.length) limits.not_at = notAt.map(([day, start]) => ({ day: day!, slot_start: start! }));
    return limits;
  });
}

function numbers(text: string | undefined): number[] {
  return (text ?? "").split(",").filter(Boolean).map(Number);
}

/** The scratchpad with the step's lines written back. */
function renderMemory(memory: ArrangeMemory): string {
  const lines = [...memory.other];
  if (memory.skip.length > 0) lines.push(`Skip tasks: ${memory.skip.join(", ")}`);
  if (memory.daysOff.length > 0) lines.push(`Days off: ${memory.daysOff.join(",")}`);
  if (memory.avoid.size > 0) {
    const entries = [...memory.avoid].map(([id, limits]) =>
      [
        id,
        limits.days ? `days ${limits.days.join(",")}` : "",
        limits.notDays.length ? `not ${limits.notDays.join(",")}` : "",
        limits.from ? `from ${limits.from}` : "",
        limits.to ? `to ${limits.to}` : "",
        limits.notAt.length ? `at ${limits.notAt.join(",")}` : "",
      ]
        .filter(Boolean)
        .join(" "),
    );
    lines.push(`Avoid: ${entries.join("; ")}`);
  }
  return lines.join("\n");
}

/** Writes the scratchpad (a memory tool: runs at once, no card). */
function remember(memory: ArrangeMemory, speak: string, reason: string): Decision {
  const call: Call = { name: "update_working_memory", arguments: { content: renderMemory(memory) } };
  return { speak, action: "continue", reason, tool_call: call };
}

const LISTING_ARGUMENTS = { source: "task_item", limit: 100 };

/** Task id → name, from every task listing in view (the live state's and the step's list_tasks rounds). */
type Names = ReadonlyMap<string, string>;

function namesOf(view: PromptView): Names {
  const names = new Map<string, string>();
  // The live state's pending tasks and a whole round's listing are data; the summaries of compressed rounds, text.
  const listed = (round: RoundView) =>
    round.summarised ? parseTaskListing(round.result) : (toolDataOf(round, "list_tasks")?.tasks ?? []);
  const listings: ReadonlyArray<ReadonlyArray<{ id: string; name: string }>> = [
    liveOverviewOf(view)?.pendingTasks ?? [],
    ...view.rounds.filter((round) => round.name === "list_tasks").map(listed),
  ];
  for (const listing of listings) for (const task of listing) if (task.name) names.set(task.id, task.name);
  return names;
}

/** A whole list_tasks round's listing: its data, or nothing listed when it failed; undefined without data (read again). */
function listingOfRound(round: RoundView): ListTasksData | undefined {
  return callResultOf(round) === "failed"
    ? { tasks: [], matching: 0, total: 0, omitted: 0 }
    : toolDataOf(round, "list_tasks");
}

/** A task as the policy names it when it speaks: by its name ("Review limits and continuity"), by id only when no listing in view names it. */
function taskName(id: string, names: Names, language: Language): string {
  const name = names.get(id);
  if (name === undefined) return id;
  return language === "zh" ? `“${name}”` : JSON.stringify(name);
}

/** `text` with the task ids it holds told by their names (for speech made from a summary the policy parses back). */
function withNames(text: string, names: Names, language: Language): string {
  let told = text;
  for (const [id, name] of names) {
    if (!name || !told.includes(id)) continue;
    const escaped = id.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
    told = told.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, "g"), () => taskName(id, names, language));
  }
  return told;
}

/** What the request's task names come to, against the tasks listed. */
type Scope =
  | { kind: "decided"; decision: Decision }
  | { kind: "scope"; taskIds?: string[]; leftOut: string[]; note: string; exceptIds?: string[] };

/** The latest task listing in view (a whole round's data, or a compressed round's text), with the pending tasks a cut listing hid listed on their own. */
function latestListing(view: PromptView, language: Language): ListedTask[] | Decision | undefined {
  const rounds = view.rounds.filter((round) => round.name === "list_tasks");
  const whole = rounds
    .filter((round) => !round.summarised)
    .flatMap((round) => {
      const listed = listingOfRound(round);
      return listed ? [{ round, listed }] : [];
    });
  const listing = whole[0]?.listed;
  if (!listing) {
    const summarised = rounds.filter((round) => round.summarised).flatMap((round) => parseTaskListing(round.result));
    return summarised.length > 0 ? summarised : undefined;
  }
  // A listing cut at 100 lines may hide pending tasks: list the pending ones on their own (the first listing still
  // gives the placed ones).
  const pendingListing = whole.find(({ round }) => round.arguments.status === "pending")?.listed;
  if (!pendingListing && listing.omitted > 0)
    return read(
      say(language, "Listing the pending tasks on their own.", "正在单独列出待安排的任务。"),
      "list_tasks",
      { status: "pending", limit: 100 },
      "the first listing was cut",
    );
  return [
    ...listing.tasks.filter((task) => task.kind !== "pending"),
    ...(pendingListing ?? listing).tasks.filter((task) => task.kind === "pending"),
  ];
}

/**
 * The tasks the step is about: every pending one when the request names none; else the pending tasks its names
 * match (read from a task listing), the names that match nothing, and the named tasks already placed. A step whose
 * names all match nothing asks which tasks are meant, once.
 */
function scopeOf(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  end: Finish,
  language: Language,
  names: Names,
): Scope {
  const except = request.except ?? [];
  if (request.tasks.length === 0 && except.length === 0) return { kind: "scope", leftOut: [], note: "" };
  const listing = latestListing(view, language);
  if (listing === undefined)
    return {
      kind: "decided",
      decision: read(
        say(language, "Reading the review tasks.", "正在读取复习任务。"),
        "list_tasks",
        LISTING_ARGUMENTS,
        "need the tasks the step names",
      ),
    };
  if (!Array.isArray(listing)) return { kind: "decided", decision: listing };
  // The tasks the step leaves out ("everything except the essay"): never proposed.
  const exceptIds = [...new Set(except.flatMap((phrase) => matchTasks(phrase, listing).map((task) => task.id)))];
  if (request.tasks.length === 0) return { kind: "scope", leftOut: [], note: "", exceptIds };
  const pending = listing.filter((task) => task.kind === "pending");
  const started = view.rounds.some((round) => round.name === "place");
  let phrases = request.tasks;
  const matchesNothing = (candidates: string[]) =>
    candidates.every((phrase) => matchTasks(phrase, listing).length === 0);
  if (matchesNothing(phrases) && !started) {
    // The step names tasks and none of them exists: never claim the step done. Ask which tasks; an answer that
    // names none either ends the step saying so.
    const asked = phrases.map((phrase) => JSON.stringify(phrase)).join(", ");
    const answer = questionAnswer(view);
    if (answer === undefined) return { kind: "decided", decision: askWhichTasks(asked, pending, language) };
    const answered = parseScheduleRequest(`place ${answer}`);
    phrases = answered.kind === "arrange" ? answered.tasks : [answer];
    if (phrases.length === 0) return { kind: "scope", leftOut: [], note: "" };
    if (matchesNothing(phrases)) {
      const both = `${asked} or ${JSON.stringify(answer)}`;
      return {
        kind: "decided",
        decision: finish(
          end,
          say(
            language,
            `I found no pending task matching ${both}, so nothing was placed.`,
            `我没有找到与 ${both} 匹配的待安排任务，所以没有安排任何任务。`,
          ),
          notCarriedOut(saySummary("en", "noPendingTaskMatches", { matching: both })),
          "the step names no task the schedule has",
        ),
      };
    }
  }
  const chosen = new Set<string>();
  const leftOut: string[] = [];
  const alreadyPlaced: string[] = [];
  const settled: ListedTask[] = [];
  for (const phrase of phrases) {
    const matches = matchTasks(phrase, pending);
    for (const task of matches) chosen.add(task.id);
    if (matches.length > 0) continue;
    // A named task that is on the schedule already is not left pending; one skipped, missed or done is said as such.
    const found = matchTasks(phrase, listing)[0];
    if (found?.kind === "placed") alreadyPlaced.push(found.id);
    else if (found && SETTLED.has(found.kind)) settled.push(found);
    else leftOut.push(`"${phrase}"${saySummary("en", "noPendingMatch")}`);
  }
  const taskIds = [...chosen].filter((id) => !exceptIds.includes(id));
  if (settled.length > 0 && !started && taskIds.length === 0 && alreadyPlaced.length === 0) {
    const said = settled.map((task) => settledWords(task, language)).join(" ");
    return {
      kind: "decided",
      decision: finish(
        end,
        said,
        notCarriedOut(
          saySummary("en", "settledNotPending", {
            settled: settled
              .map((task) => saySummary("en", "settledAs", { id: task.id, status: task.kind }))
              .join(", "),
          }),
        ),
        "the tasks named are not pending",
      ),
    };
  }
  leftOut.push(...settled.map((task) => `"${task.name}" (${task.kind}, not pending)`));
  if (taskIds.every((id) => memory.skip.includes(id))) {
    const note =
      alreadyPlaced.length > 0 && !started
        ? saySummary("en", "alreadyOnSchedule", { ids: alreadyPlaced.join(", ") })
        : "";
    return { kind: "decided", decision: finishArrange(view, memory, leftOut, end, language, names, note) };
  }
  return { kind: "scope", taskIds, leftOut, note: "", exceptIds };
}

/** The statuses a task to put back may have that no placing changes: it is first taken back or reopened. */
const SETTLED: ReadonlySet<string> = new Set(["skipped", "missed", "done"]);

/**
 * What a task named to put back or place is, when it is skipped, missed or done — never "already on the schedule" —
 * with the words that plan it again (what the offline reader understands).
 */
function settledWords(task: ListedTask, language: Language): string {
  const name = JSON.stringify(task.name);
  if (task.kind === "missed")
    return say(
      language,
      `${name} was missed, so it is not put back as it is; say "reschedule my missed reviews" to give it a new place.`,
      `“${task.name}”已错过，没有直接放回；说“补排错过的复习”可以给它安排新的时间。`,
    );
  if (task.kind === "skipped")
    return say(
      language,
      `${name} was skipped this week, so it is not put back; to take the skip back, say "undo that" while the skip is the last change of this conversation.`,
      `“${task.name}”本周已跳过，所以没有放回；要收回跳过，请在跳过仍是这段对话最近一次修改时说“撤销”。`,
    );
  return say(
    language,
    `${name} is done already, so there is nothing to put back; if that mark was a mistake, say "undo that" while it is the last change of this conversation.`,
    `“${task.name}”已经完成，不用放回；如果是误记，请在它仍是这段对话最近一次修改时说“撤销”。`,
  );
}

/** `propose_arrangement`'s arguments for the step: its tasks, days and slots, the user's limits, the card's size. */
function arrangementArguments(
  taskIds: string[] | undefined,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  facts: WeekFacts,
  writesPerCard: number,
  exceptIds: readonly string[] = [],
): Record<string, unknown> {
  const only = resolveDays(request.where.only, facts);
  const skip = [...new Set([...memory.skip, ...exceptIds])];
  const not = [...new Set([...resolveDays(request.where.not, facts), ...memory.daysOff])];
  const window = slotRangeOf(request.where.slots, facts);
  // A day off is in `avoid_days` for every task: a task's own limits leave it out (said once, not twice).
  const limits = taskLimitsOf(memory).flatMap(({ not_days, ...rest }) => {
    const own = (not_days ?? []).filter((day) => !memory.daysOff.includes(day));
    const entry: TaskLimits = own.length > 0 ? { ...rest, not_days: own } : rest;
    return Object.keys(entry).length > 1 ? [entry] : [];
  });
  return {
    ...(taskIds ? { task_ids: taskIds } : {}),
    ...(skip.length > 0 ? { skip_task_ids: skip } : {}),
    ...(only.length > 0 ? { days: only } : {}),
    ...(not.length > 0 ? { avoid_days: not } : {}),
    ...(window.from > 1 || window.to < facts.slotsPerDay ? { slots: { from: window.from, to: window.to } } : {}),
    ...(limits.length > 0 ? { limits } : {}),
    ...(Number.isFinite(writesPerCard) ? { max_places: writesPerCard } : {}),
  };
}

/** Asks the backend where the step's tasks go. */
function listArrangement(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  facts: WeekFacts,
  end: Finish,
  writesPerCard: number,
  language: Language,
  names: Names,
  speak: string,
): Decision {
  // A step whose words name a window with no slot of the day ("in slots 1-0", "before 8:30"): said, and no tool called
  // (`propose_arrangement` takes no empty slot range).
  const noSlot = emptyWindowWhy(request.where.slots, facts, "en");
  if (noSlot !== undefined)
    return finish(
      end,
      emptyWindowEnding(request.where.slots, facts, language, "nothingPlaced"),
      notCarriedOut(noSlot),
      "the time asked for holds no slot of the day",
    );
  const scope = scopeOf(view, request, memory, end, language, names);
  if (scope.kind === "decided") return scope.decision;
  const before = daysBefore(view, request, facts, end, language);
  if (before !== undefined && !Array.isArray(before)) return before;
  const args = arrangementArguments(scope.taskIds, request, memory, facts, writesPerCard, scope.exceptIds);
  if (before) {
    const only = (args.days as number[] | undefined) ?? before;
    args.days = only.filter((day) => before.includes(day));
    if ((args.days as number[]).length === 0)
      return finish(
        end,
        say(
          language,
          `No day of the window comes before the ${request.where.before}, so nothing was placed.`,
          `窗口里没有在${request.where.before}之前的日子，所以没有安排任何任务。`,
        ),
        notCarriedOut(saySummary("en", "noDayBefore", { phrase: request.where.before! })),
        "no day before the event",
      );
  }
  return read(
    speak,
    "propose_arrangement",
    args,
    "the backend finds where the tasks go; the step chooses its proposal",
  );
}

/**
 * The days before the event the step must finish before ("before the midterm": the days before the event's first
 * day), read from a listing of the events; a decision when the events must be listed first, or none matches.
 */
function daysBefore(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): number[] | Decision | undefined {
  const phrase = request.where.before;
  if (!phrase) return undefined;
  const named = eventNamed(view, phrase, end, language, "placed");
  if (!("event" in named)) return named.decision;
  return Array.from({ length: Math.max(0, named.first.day - 1) }, (_, offset) => offset + 1).filter(
    (day) => day <= (facts.totalDays ?? day),
  );
}

/**
 * The event `phrase` names ("the midterm"), with its first range, read from a listing of the events: else the
 * decision to list the events first, or, when none matches, to finish saying nothing was `done` ("placed", "added").
 */
export function eventNamed(
  view: PromptView,
  phrase: string,
  end: Finish,
  language: Language,
  done: "placed" | "added",
): { event: ListedTask; first: ListedTask["slots"][number] } | { decision: Decision } {
  const listed = view.rounds.filter((round) => round.name === "list_tasks" && round.arguments.source === "event");
  if (listed.length === 0)
    return {
      decision: read(
        say(language, `Looking for the ${phrase} among your events.`, `正在你的日程中查找${phrase}。`),
        "list_tasks",
        { source: "event", limit: 100 },
        "the step must finish before an event",
      ),
    };
  const listing = listed.flatMap((round) => toolDataOf(round, "list_tasks")?.tasks ?? []);
  const found = matchTasks(phrase, listing)
    .flatMap((event) => event.slots.map((first) => ({ event, first })))
    .sort((a, b) => a.first.day - b.first.day)[0];
  if (found) return found;
  const zhDone = done === "placed" ? "安排任何任务" : "添加任务";
  return {
    decision: finish(
      end,
      say(
        language,
        `I found no event matching "${phrase}", so nothing was ${done}.`,
        `我没有找到与“${phrase}”匹配的日程，所以没有${zhDone}。`,
      ),
      notCarriedOut(saySummary("en", "noEventMatches", { phrase })),
      "the step names an event the schedule does not have",
    ),
  };
}

/** The latest whole `propose_arrangement` listing of the step (undefined when none, or it was compressed). */
function latestArrangement(view: PromptView): ScheduleListing | undefined {
  return toolDataOf(
    view.rounds.findLast((round) => round.name === "propose_arrangement"),
    "propose_arrangement",
  );
}

/** The arrange step's decision. */
export function arrangeStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  facts: WeekFacts,
  end: Finish,
  writesPerCard = Number.POSITIVE_INFINITY,
): Decision {
  const { rounds } = view;
  const language = userLanguage(view);
  const names = namesOf(view);
  const memory = readMemory(section(view.context, "scratchpad"));
  const list = (speak: string) =>
    listArrangement(view, request, memory, facts, end, writesPerCard, language, names, speak);
  const last = rounds.at(-1);
  if (!last) return list(say(language, "Finding room for the pending tasks.", "正在为待安排的任务寻找位置。"));

  if (last.name === "propose_arrangement" && !last.summarised) {
    if (callResultOf(last) === "failed")
      return finish(
        end,
        say(language, `I could not arrange the tasks: ${failureOf(last)}`, `无法安排这些任务：${failureOf(last)}`),
        notCarriedOut(failureOf(last)),
        "the backend could not arrange",
      );
    const listing = toolDataOf(last, "propose_arrangement");
    if (!listing)
      return finish(
        end,
        say(
          language,
          "I could not read the proposed arrangement, so nothing was placed.",
          "无法读取建议的安排，所以没有安排任何任务。",
        ),
        notCarriedOut(SUMMARY_WORDS.en.arrangementUnread),
        "no data",
      );
    return chooseArrangement(view, listing, request, memory, facts, end, language, names);
  }
  if (last.name === "list_tasks" || last.name === "update_working_memory") {
    // After a card with feedback: re-arrange only when the feedback constrained a task, a placement failed, or more fit.
    if (last.name === "update_working_memory" && !relistAfterCard(rounds.slice(0, -1)))
      return finishArrange(view, memory, leftOutOf(view, request, memory, end, language, names), end, language, names);
    return list(say(language, "Finding room for the tasks.", "正在为这些任务寻找位置。"));
  }
  if (last.name === "choose_candidate" && callResultOf(last) === "failed") {
    if (rounds.filter((round) => round.name === "choose_candidate" && callResultOf(round) === "failed").length >= 2)
      return finish(
        end,
        say(language, `I could not choose the arrangement: ${failureOf(last)}`, `无法选择这个安排：${failureOf(last)}`),
        notCarriedOut(failureOf(last)),
        "choosing failed twice",
      );
    return list(say(language, "Listing the arrangement again.", "正在重新列出安排。"));
  }
  if (last.name !== "place")
    return list(say(language, "Finding room for the pending tasks.", "正在为待安排的任务寻找位置。"));

  // A card was answered: act on what its answers said.
  const card = lastCard(rounds);
  const rejected = card.filter((round) => callResultOf(round) === "rejected");
  if (rejected.length === 0) {
    if (card.some((round) => callResultOf(round) === "failed"))
      return list(
        say(language, "A placement failed; reading the week again.", "有一项安排没有成功，正在重新读取本周日程。"),
      );
    if ((latestArrangement(view)?.later ?? 0) > 0)
      return list(say(language, "Finding room for the rest of the tasks.", "正在为其余任务寻找位置。"));
    return finishArrange(view, memory, leftOutOf(view, request, memory, end, language, names), end, language, names);
  }
  let next = memory;
  const said: string[] = [];
  for (const round of rejected) {
    const answer = afterRejection(round, next, facts, language, names);
    next = answer.memory;
    said.push(answer.speak);
  }
  return remember(
    next,
    said.join(" "),
    "keep the skips and constraints in working memory so they survive context compression",
  );
}

/** The place rounds of the last card answered (the rounds after the last that is not a placement). */
function lastCard(rounds: readonly RoundView[]): readonly RoundView[] {
  return rounds.slice(rounds.findLastIndex((round) => round.name !== "place") + 1);
}

/** True when the card before a memory write needs the week arranged again: a constraint to honour, a failure, or more that fit. */
function relistAfterCard(rounds: readonly RoundView[]): boolean {
  const card = lastCard(rounds);
  if (card.length === 0) return true;
  if (card.some((round) => callResultOf(round) === "failed")) return true;
  if (
    card.some(
      (round) =>
        callResultOf(round) === "rejected" && parseFeedback(feedbackOfResult(round.result)).kind === "constrain",
    )
  )
    return true;
  const listing = toolDataOf(
    rounds.findLast((round) => round.name === "propose_arrangement"),
    "propose_arrangement",
  );
  return listing === undefined || (listing.later ?? 0) > 0;
}

/** What the step leaves pending, with why: the names that match nothing, and what the latest arrangement left out. */
function leftOutOf(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  end: Finish,
  language: Language,
  names: Names,
): string[] {
  const scope = scopeOf(view, request, memory, end, language, names);
  const named = scope.kind === "scope" ? scope.leftOut : [];
  const skipped = new Set(memory.skip);
  return [
    ...named,
    ...(latestArrangement(view)?.left ?? [])
      .filter((entry) => !skipped.has(entry.id))
      .map((entry) => `${entry.id} (${entry.why})`),
  ];
}

/** The backend's proposal, chosen: its placements go out on one card (ending the step once they apply, when it holds the rest). */
function chooseArrangement(
  view: PromptView,
  listing: ScheduleListing,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  facts: WeekFacts,
  end: Finish,
  language: Language,
  names: Names,
): Decision {
  const leftOut = leftOutOf(view, request, memory, end, language, names);
  const proposal = listing.candidates[0];
  if (!proposal) return finishArrange(view, memory, leftOut, end, language, names);
  const places =
    proposal.places ??
    proposal.writes.map((write) => ({
      id: String(write.arguments.task_id),
      day: Number(write.arguments.day),
      start: Number(write.arguments.slot_start),
      end: Number(write.arguments.slot_start),
    }));
  const day = (entry: { day: number }) => dayLabelIn(entry.day, (candidate) => weekdayOf(facts, candidate), language);
  const name = (entry: { id: string }) => taskName(entry.id, names, language);
  // By date and clock time in a dated window, as the card names it; else by day and slots.
  const dating = datingOf(facts);
  const where = (entry: { id: string; day: number; start: number; end: number }) =>
    dating
      ? say(
          language,
          `${name(entry)} on ${placeName(dating, entry, language)}`,
          `${name(entry)}到${placeName(dating, entry, language)}`,
        )
      : say(
          language,
          `${name(entry)} on ${day(entry)} slots ${entry.start}-${entry.end}`,
          `${name(entry)}到${day(entry)}第${entry.start}-${entry.end}节`,
        );
  const later = listing.later ?? 0;
  const fit = places.length + later;
  const total = fit + (listing.left?.length ?? 0);
  const found = say(
    language,
    `Found room for ${fit} of ${total} task(s). `,
    `为 ${total} 个任务中的 ${fit} 个找到了位置。`,
  );
  const placing =
    places.length === 1
      ? say(language, `Placing ${where(places[0]!)}.`, `安排${where(places[0]!)}。`)
      : say(
          language,
          `Placing ${places.length} tasks: ${places.map(where).join("; ")}.`,
          `安排 ${places.length} 个任务：${places.map(where).join("；")}。`,
        );
  const then: Then | undefined = later === 0 ? { action: end, goalCheck: arrangeSummary(memory, leftOut) } : undefined;
  return propose(
    `${found}${placing}`,
    "choose_candidate",
    { id: proposal.id },
    say(language, "the backend's arrangement places as many as fit", "后台的安排放下了尽可能多的任务"),
    then,
  );
}

/** "Which tasks do you mean?" when a step names tasks the schedule does not have. */
function askWhichTasks(asked: string, pending: ListedTask[], language: Language): Decision {
  const examples = pending
    .slice(0, 6)
    .map((task) => `${task.name} (${task.id})`)
    .join(language === "zh" ? "、" : ", ");
  const speak =
    language === "zh"
      ? `我没有找到与 ${asked} 匹配的待安排任务，所以还没有安排任何任务。你指的是哪些任务？请回答任务名称或 id${examples ? `，例如：${examples}` : ""}；回答“全部”则安排所有待安排的任务。`
      : `I found no pending task matching ${asked}, so nothing is placed yet. Which tasks do you mean? Answer with their names or ids${examples ? `, for example: ${examples}` : ""}; answer "all" to place every pending task.`;
  return { speak, action: "ask_user", reason: "the step names no task the schedule has" };
}

/**
 * A rejected placement: skip the task, or re-plan it under the feedback's constraint. The rejected place itself is
 * never proposed again in the step, whatever the feedback said.
 */
function afterRejection(
  round: RoundView,
  memory: ArrangeMemory,
  facts: WeekFacts,
  language: Language,
  names: Names,
): { memory: ArrangeMemory; speak: string } {
  const taskId = String(round.arguments.task_id);
  const task = taskName(taskId, names, language);
  const day = Number(round.arguments.day);
  const start = Number(round.arguments.slot_start);
  const text = feedbackOfResult(round.result);
  const feedback = parseFeedback(text);
  // A day the user called off is a rule for every task of the step from now on.
  const off = resolveDays({ weekdays: daysOffIn(text), days: [] }, facts);
  if (off.length > 0) memory = { ...memory, daysOff: [...new Set([...memory.daysOff, ...off])] };
  if (feedback.kind !== "constrain") {
    const speak =
      feedback.kind === "unclear"
        ? cannotActOn(feedback.text, { en: `so I'm leaving ${task} pending`, zh: `${task} 先保持待安排` })
        : say(language, `Skipping ${task}: you rejected its placement.`, `跳过${task}：你拒绝了它的安排。`);
    return { memory: { ...memory, skip: [...memory.skip, taskId] }, speak };
  }
  const limits: Avoid = { notDays: [], notAt: [], ...memory.avoid.get(taskId) };
  limits.notDays = [...new Set([...limits.notDays, ...resolveDays(feedback.not, facts)])];
  if (Number.isFinite(day) && Number.isFinite(start)) limits.notAt = [...new Set([...limits.notAt, `${day}:${start}`])];
  // A day to avoid is never a day to use: "Friday is my day off" after "Friday instead" leaves any other day.
  const only = resolveDays(feedback.only, facts).filter((candidate) => !limits.notDays.includes(candidate));
  if (only.length > 0) limits.days = only;
  else if (limits.days) limits.days = limits.days.filter((candidate) => !limits.notDays.includes(candidate));
  if (limits.days?.length === 0) delete limits.days;
  if (feedback.part)
    ({ from: limits.from, to: limits.to } = resolveSlotWindow({ part: feedback.part }, facts.slotsPerDay));
  // "Later" and "earlier" mean later or earlier on the same day.
  if ((feedback.later || feedback.earlier) && only.length === 0 && Number.isFinite(day)) limits.days = [day];
  if (feedback.later && Number.isFinite(start)) limits.from = Math.max(limits.from ?? 1, start + 1);
  if (feedback.earlier && Number.isFinite(start))
    limits.to = Math.min(limits.to ?? Number.POSITIVE_INFINITY, start - 1);
  const avoid = new Map(memory.avoid).set(taskId, limits);
  return {
    memory: { ...memory, avoid },
    speak: say(
      language,
      `Understood: finding ${task} another place (${text}).`,
      `明白：为${task}另找位置（${text}）。`,
    ),
  };
}

/**
 * The step's summary at its end: what was proposed, skipped and left out (and, when nothing was to do, what was already
 * placed), in English from the summary phrases (`summaryInChinese` reads it back).
 */
export function arrangeSummary(
  memory: Pick<ArrangeMemory, "skip">,
  leftOutEntries: readonly string[],
  note = "",
): string {
  const skipped = memory.skip.length ? `${saySummary("en", "proposedSkipped")}${memory.skip.join(", ")}` : "";
  const leftOut = leftOutEntries.length ? `${saySummary("en", "proposedLeftPending")}${leftOutEntries.join("; ")}` : "";
  return `${saySummary("en", "everyProposed")}${skipped}${leftOut}${note}`;
}

/**
 * The end of the step, with its summary. A step that placed nothing while the backend's arrangement left some of what
 * it asked out (no room where asked: "tonight" when tonight has passed) ended without doing it: not carried out, as
 * every such step is reported, with what it left pending (issue 45, item 3), never told as done.
 */
function finishArrange(
  view: PromptView,
  memory: ArrangeMemory,
  leftOut: readonly string[],
  end: Finish,
  language: Language,
  names: Names,
  note = "",
): Decision {
  const summary = arrangeSummary(memory, leftOut, note);
  const rest = summary.slice(saySummary("en", "everyProposed").length);
  // The summary keeps ids (it is parsed back); what is said names the tasks.
  const speak = withNames(
    language === "zh"
      ? rest
        ? `${summaryInChinese(summary)}。`
        : "范围内每个待安排的复习任务都已提出安排。"
      : rest
        ? `Every placement that fits was proposed${rest}.`
        : "Every pending review task in scope has been proposed a place.",
    names,
    language,
  );
  const placedAny = view.rounds.some((round) => round.name === "place" && callResultOf(round) === "applied");
  if (!placedAny && leftOut.length > 0 && (latestArrangement(view)?.left?.length ?? 0) > 0)
    return finish(
      end,
      speak,
      notCarriedOut(`${saySummary("en", "placedNone")}${saySummary("en", "proposedLeftPending")}${leftOut.join("; ")}`),
      "nothing the step asked for could be placed",
    );
  return finish(end, speak, summary, "no placement is left to propose");
}
