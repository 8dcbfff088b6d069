/**
 * What an arrange step covers: the tasks its words name against the tasks listed (or the question "which tasks do you
 * mean?"), the tasks left out, the days before an event named, and the arguments of `propose_arrangement` from the
 * step's days, slots and the user's limits.
 */
import type { TaskLimits } from "../../tools/schedule/arrangement.js";
import { parseTaskListing } from "./result-parsing.js";
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, read, type Decision, type Finish } from "../decisions.js";
import { toolDataOf, notCarriedOut } from "./tool-data.js";
import { questionAnswer, type PromptView } from "../prompt-reading.js";
import { parseScheduleRequest, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { say, type Language } from "../../contracts/language.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { emptyWindowEnding, emptyWindowWhy } from "./empty-window.js";
import { matchTasks } from "./task-matching.js";
import { resolveDays, slotRangeOf, type WeekFacts } from "./week-facts.js";
import { type ArrangeMemory, taskLimitsOf } from "./arrange-memory.js";
import { LISTING_ARGUMENTS, listingOfRound, type Names } from "./arrange-names.js";
import { finishArrange } from "./arrange-ending.js";
import { partKeptFree } from "./step-where.js";

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
export function scopeOf(
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
  // "Not tonight", "not Friday evening": that part of the day kept free, the rest of it still used.
  const partOut = partKeptFree(request.where, facts);
  const ruledOut = resolveDays(request.where.not, facts);
  const keepFree = partOut ? ruledOut.map((day) => ({ day, ...slotRangeOf({ part: partOut }, facts) })) : [];
  const not = [...new Set([...(partOut ? [] : ruledOut), ...memory.daysOff])];
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
    ...(keepFree.length > 0 ? { keep_free: keepFree } : {}),
    ...(limits.length > 0 ? { limits } : {}),
    ...(Number.isFinite(writesPerCard) ? { max_places: writesPerCard } : {}),
  };
}

/** Asks the backend where the step's tasks go. */
export function listArrangement(
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
