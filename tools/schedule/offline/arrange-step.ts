/**
 * The arrange step of the offline policy: read the week once (list_tasks and
 * find_free in one round), choose where every task in scope goes with the
 * placement search (as many as fit, hardest first, spread over the days,
 * exact for small sets), and in one decision keep that placement plan in
 * working memory and propose every `place` of the plan at once, as one batch
 * card (one action request per placement, decided one by one) whose `then`
 * ends the step once every placement applies unchanged.
 *
 * The week is read again only when something invalidates the plan: a write
 * failed (an edited placement took another's room, say), or feedback added a
 * constraint; then the tasks still pending go out on a new card. Working memory (the scratchpad) carries the plan, the
 * skipped tasks and the constraints, because older tool rounds of the step
 * are compressed away; what was already proposed is read from the rounds
 * still in view, which always include the last one.
 *
 * Feedback on a placement: "skip this one" (or a rejection without a comment)
 * leaves the task pending; "not Monday", "Friday instead", "in the evening",
 * "later" / "earlier" (in the same day) re-plan that task under the
 * constraint; anything else leaves the task pending and says so.
 */
import type { AvoidedPlace } from "../candidates.js";
import { parseTaskListing } from "../result-parsing.js";
import type { FindFreeData, ListedTask, ListTasksData } from "../tools/index.js";
import { searchPlacements, type PlannedPlacement, type SearchRun, type SearchTask } from "../placement-search.js";
import { finish, proposeAll, read, readAll, type Call, type Decision, type Finish, type Then } from "../../offline/decisions.js";
import { feedbackOfResult, parseFeedback } from "./feedback.js";
import { callResultOf, liveOverviewOf, toolDataOf } from "./tool-data.js";
import { questionAnswer, section, userLanguage, type PromptView, type RoundView } from "../../offline/prompt-reading.js";
import { cannotActOn, summaryInChinese } from "./replies.js";
import { dayLabelIn, parseScheduleRequest, resolveSlotWindow, type ScheduleRequest, type Where } from "./request-parsing.js";
import { say, weekdayName, type Language } from "../../../contracts/language.js";
import { matchTasks } from "./task-matching.js";
import { resolveDays, weekdayOf, type WeekFacts } from "./week-facts.js";

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
  /** Placements still to propose, in order; "reread" when the week must be read again first. */
  plan: PlannedPlacement[] | "reread" | undefined;
  /** Tasks left pending on purpose (rejected). */
  skip: string[];
  /** Constraints per task id. */
  avoid: Map<string, Avoid>;
  /** Tasks in scope the plan could not place, with why. */
  leftOut: string[];
  /** True when the plan was cut to fit working memory: more placements follow after a re-read. */
  more?: boolean;
  /** Lines of the scratchpad that are not the step's. */
  other: string[];
}

const PLAN_LINE = /^Placement plan: (.*)$/;
const SKIP_LINE = /^Skip tasks: (.*)$/;
const AVOID_LINE = /^Avoid: (.*)$/;
const LEFT_OUT_LINE = /^Left out: (.*)$/;
const REREAD = "(read the week again)";
const MORE = "(more after a re-read)";
/** Longest scratchpad the step writes (update_working_memory takes at most 4,000 characters). */
const SCRATCHPAD_LIMIT = 3_800;

/** Reads the step's lines of the scratchpad. */
function readMemory(scratchpad: string): ArrangeMemory {
  const memory: ArrangeMemory = { plan: undefined, skip: [], avoid: new Map(), leftOut: [], other: [] };
  for (const line of scratchpad.split("\n")) {
    const plan = PLAN_LINE.exec(line)?.[1];
    const skip = SKIP_LINE.exec(line)?.[1];
    const avoid = AVOID_LINE.exec(line)?.[1];
    const leftOut = LEFT_OUT_LINE.exec(line)?.[1];
    if (plan !== undefined) {
      memory.plan = plan.trim() === REREAD ? "reread" : [...plan.matchAll(/(\S+)@(\d+):(\d+)-(\d+)/g)].map(([, id = "", day, start, end]) => ({ id, day: Number(day), start: Number(start), end: Number(end) }));
      memory.more = plan.endsWith(MORE);
    } else if (skip !== undefined) {
      memory.skip = skip.split(",").map((id) => id.trim()).filter(Boolean);
    } else if (avoid !== undefined) {
      for (const entry of avoid.split(";")) {
        const match = /^\s*(\S+)(?: days ([\d,]+))?(?: not ([\d,]+))?(?: from (\d+))?(?: to (\d+))?(?: at ([\d:,]+))?\s*$/.exec(entry);
        if (!match) continue;
        const limits: Avoid = { notDays: numbers(match[3]), notAt: (match[6] ?? "").split(",").filter(Boolean) };
        if (match[2]) limits.days = numbers(match[2]);
        if (match[4]) limits.from = Number(match[4]);
        if (match[5]) limits.to = Number(match[5]);
        memory.avoid.set(match[1] ?? "", limits);
      }
    } else if (leftOut !== undefined) {
      memory.leftOut = leftOut.split(";").map((entry) => entry.trim()).filter(Boolean);
    } else if (line.trim() !== "") {
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

function numbers(text: string | undefined): number[] {
  return (text ?? "").split(",").filter(Boolean).map(Number);
}

/** The scratchpad with the step's lines written back. */
function renderMemory(memory: ArrangeMemory): string {
  const lines = [...memory.other];
  if (memory.plan !== undefined) {
    const entries = memory.plan === "reread" ? REREAD : memory.plan.map((entry) => `${entry.id}@${entry.day}:${entry.start}-${entry.end}`).join(", ") || "(nothing left)";
    lines.push(`Placement plan: ${entries}${memory.more && memory.plan !== "reread" ? ` ${MORE}` : ""}`);
  }
  if (memory.skip.length > 0) lines.push(`Skip tasks: ${memory.skip.join(", ")}`);
  if (memory.avoid.size > 0) {
    const entries = [...memory.avoid].map(([id, limits]) =>
      [id, limits.days ? `days ${limits.days.join(",")}` : "", limits.notDays.length ? `not ${limits.notDays.join(",")}` : "", limits.from ? `from ${limits.from}` : "", limits.to ? `to ${limits.to}` : "", limits.notAt.length ? `at ${limits.notAt.join(",")}` : ""].filter(Boolean).join(" "),
    );
    lines.push(`Avoid: ${entries.join("; ")}`);
  }
  if (memory.leftOut.length > 0) lines.push(`Left out: ${memory.leftOut.join("; ")}`);
  return lines.join("\n");
}

/** The memory as working memory can hold it: a plan too long is cut, the rest planned again once the kept part is proposed. */
function fitted(memory: ArrangeMemory): ArrangeMemory {
  let fitting = memory;
  while (renderMemory(fitting).length > SCRATCHPAD_LIMIT && Array.isArray(fitting.plan) && fitting.plan.length > 1) {
    fitting = { ...fitting, plan: fitting.plan.slice(0, Math.ceil(fitting.plan.length * 0.8)), more: true };
  }
  return fitting;
}

/** The update_working_memory call that writes the step's memory (a memory tool: runs at once, no card). */
function memoryCall(memory: ArrangeMemory): Call {
  return { name: "update_working_memory", arguments: { content: renderMemory(fitted(memory)) } };
}

/** Writes the scratchpad. */
function remember(memory: ArrangeMemory, speak: string, reason: string): Decision {
  const call = memoryCall(memory);
  return { speak, action: "continue", reason, tool_call: call };
}

const LISTING_ARGUMENTS = { source: "task_item", limit: 100 };

/** Task id → name, from every task listing in view (the live state's and the step's list_tasks rounds). */
type Names = ReadonlyMap<string, string>;

function namesOf(view: PromptView): Names {
  const names = new Map<string, string>();
  // The live state's pending tasks and a whole round's listing are data; the summaries of compressed rounds, text.
  const listed = (round: RoundView) => (round.summarised ? parseTaskListing(round.result) : (toolDataOf(round, "list_tasks")?.tasks ?? []));
  const listings: ReadonlyArray<ReadonlyArray<{ id: string; name: string }>> = [liveOverviewOf(view)?.pendingTasks ?? [], ...view.rounds.filter((round) => round.name === "list_tasks").map(listed)];
  for (const listing of listings) for (const task of listing) if (task.name) names.set(task.id, task.name);
  return names;
}

/** A whole list_tasks round's listing: its data, or nothing listed when it failed; undefined without data (read again). */
function listingOfRound(round: RoundView): ListTasksData | undefined {
  return callResultOf(round) === "failed" ? { tasks: [], matching: 0, total: 0, omitted: 0 } : toolDataOf(round, "list_tasks");
}

/** A whole find_free round's runs: its data, or no run when it failed; undefined without data. */
function runsOfRound(round: RoundView): FindFreeData | undefined {
  return callResultOf(round) === "failed" ? { runs: [], found: 0, omitted: 0, lastDay: 0 } : toolDataOf(round, "find_free");
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

/**
 * The week's reads in one round: the review tasks, and the free runs long enough for the shortest pending task
 * the live state shows (any length when it shows none, or not all).
 */
function readWeek(view: PromptView, speak: string): Decision {
  const live = liveOverviewOf(view);
  const durations = (live?.pendingTasks ?? []).map((task) => task.duration).filter((duration) => duration > 0);
  const shortest = durations.length > 0 && live?.pendingOmitted === 0 ? Math.min(...durations) : 1;
  return readAll(speak, [{ name: "list_tasks", arguments: LISTING_ARGUMENTS }, { name: "find_free", arguments: { min_length: shortest, limit: 100 } }], "need the pending tasks, where the placed ones are, and the free room of the week");
}

/** The arrange step's decision. */
export function arrangeStep(view: PromptView, request: Extract<ScheduleRequest, { kind: "arrange" }>, facts: WeekFacts, end: Finish, writesPerCard = Number.POSITIVE_INFINITY): Decision {
  const { rounds } = view;
  const language = userLanguage(view);
  const names = namesOf(view);
  const memory = readMemory(section(view.context, "scratchpad"));
  const readListing = (speak: string) => readWeek(view, speak);
  const last = rounds.at(-1);
  if (!last) return readListing(say(language, "Reading the review tasks.", "正在读取复习任务。"));

  const lastWrite = rounds.findLastIndex((round) => round.name === "place" || round.name === "update_working_memory");
  const reads = rounds.slice(lastWrite + 1);
  const listings = reads.filter((round) => round.name === "list_tasks" && !round.summarised).flatMap((round) => {
    const listed = listingOfRound(round);
    return listed ? [{ round, listed }] : [];
  });
  const listing = listings[0]?.listed;
  if (listing) {
    // A listing cut at 100 lines may hide pending tasks: list the pending ones on their own (the first listing still
    // gives the placed ones, for the day loads).
    const pendingListing = listings.find(({ round }) => round.arguments.status === "pending")?.listed;
    if (!pendingListing && listing.omitted > 0) return read(say(language, "Listing the pending tasks on their own.", "正在单独列出待安排的任务。"), "list_tasks", { status: "pending", limit: 100 }, "the first listing was cut");
    const tasks = [...listing.tasks.filter((task) => task.kind !== "pending"), ...(pendingListing ?? listing).tasks.filter((task) => task.kind === "pending")];
    return planFromReads(reads, tasks, memory, request, facts, end, writesPerCard, language, names, questionAnswer(view));
  }
  if (!Array.isArray(memory.plan)) return readListing(say(language, "Reading the week again.", "正在重新读取本周日程。"));

  // Plan mode: the plan goes out as one batch card (or cards of `writesPerCard`); once one is answered, act on
  // what the answers said, then propose the rest.
  const proposed = rounds.slice(rounds.findLastIndex((round) => round.name === "update_working_memory") + 1).filter((round) => round.name === "place");
  // Cards go out in plan order and older rounds may be summarised away: what follows the last one in view is left.
  const proposedIds = new Set(proposed.map((round) => String(round.arguments.task_id)));
  const lastProposed = Math.max(-1, ...memory.plan.map((entry, index) => (proposedIds.has(entry.id) ? index : -1)));
  const plan = memory.plan.slice(lastProposed + 1);
  const answered = proposed.length > 0 ? afterBatch(proposed, { ...memory, plan }, facts, end, readListing, language, names) : undefined;
  if (answered) return answered;
  if (plan.length === 0) return memory.more ? readListing(readAgainForTheRest(language)) : finishArrange(memory, end, language, names);
  return proposeCard(plan, memory, facts, end, writesPerCard, language, names);
}

function readAgainForTheRest(language: Language): string {
  return say(language, "Reading the week again for the rest of the tasks.", "正在重新读取本周日程，安排其余任务。");
}

/**
 * The next card of `plan` (the placements not proposed yet), after `before` (the plan's update_working_memory call,
 * when it goes in the same decision). A card that holds the rest of the plan ends the step once every placement
 * applies unchanged (then), with the summary the step would give then.
 */
function proposeCard(plan: PlannedPlacement[], memory: ArrangeMemory, facts: WeekFacts, end: Finish, writesPerCard: number, language: Language, names: Names, before: Call[] = [], preface = ""): Decision {
  const card = plan.slice(0, writesPerCard);
  const day = (entry: PlannedPlacement) => dayLabelIn(entry.day, (candidate) => weekdayOf(facts, candidate), language);
  const name = (entry: PlannedPlacement) => taskName(entry.id, names, language);
  const where = (entry: PlannedPlacement) => say(language, `${name(entry)} on ${day(entry)} slots ${entry.start}-${entry.end}`, `${name(entry)}到${day(entry)}第${entry.start}-${entry.end}节`);
  const last = card.length === plan.length && !memory.more;
  const then: Then | undefined = last ? { action: end, goalCheck: arrangeSummary({ ...memory, plan: [] }) } : undefined;
  const placing =
    card.length === 1
      ? say(language, `Placing ${where(card[0]!)}.`, `安排${where(card[0]!)}。`)
      : say(language, `Placing ${card.length} tasks: ${card.map(where).join("; ")}.`, `安排 ${card.length} 个任务：${card.map(where).join("；")}。`);
  return proposeAll(
    `${preface}${placing}`,
    [...before, ...card.map((entry) => ({ name: "place", arguments: { task_id: entry.id, day: entry.day, slot_start: entry.start } }))],
    say(language, "the placement plan for the week puts them there", "本周的安排计划把它们放在这里"),
    then,
  );
}

/**
 * After a card of placements, with `memory.plan` the placements not proposed yet: rejected placements are skipped
 * or re-planned under their feedback; a placement that failed (an edit took its room, say) sends the step back to
 * read the week and place what is still pending. Undefined when every placement applied: the rest of the plan goes on.
 */
function afterBatch(batch: RoundView[], memory: ArrangeMemory, facts: WeekFacts, end: Finish, readWeekAgain: (speak: string) => Decision, language: Language, names: Names): Decision | undefined {
  const rejected = batch.filter((round) => callResultOf(round) === "rejected");
  const failed = batch.some((round) => callResultOf(round) === "failed");
  if (rejected.length === 0) {
    if (failed) return readWeekAgain(say(language, "A placement failed; reading the week again.", "有一项安排没有成功，正在重新读取本周日程。"));
    if (Array.isArray(memory.plan) && memory.plan.length > 0) return undefined;
    return memory.more ? readWeekAgain(readAgainForTheRest(language)) : finishArrange({ ...memory, plan: [] }, end, language, names);
  }
  let next: ArrangeMemory = memory;
  const said: string[] = [];
  for (const round of rejected) {
    const answer = afterRejection(round, next, facts, language, names);
    next = answer.memory;
    said.push(answer.speak);
  }
  // A re-plan (feedback with a constraint), a failure, or more tasks: read the week again before the next card.
  if (failed || next.plan === "reread" || memory.more) next = { ...next, plan: "reread" };
  return remember(next, said.join(" "), "keep the skips and constraints in working memory so they survive context compression");
}

/** After reading the tasks (and the free runs): find room, choose the placements, write the plan. */
function planFromReads(after: RoundView[], listing: ListedTask[], memory: ArrangeMemory, request: Extract<ScheduleRequest, { kind: "arrange" }>, facts: WeekFacts, end: Finish, writesPerCard: number, language: Language, names: Names, answer: string | undefined): Decision {
  const pending = listing.filter((task) => task.kind === "pending");
  const leftOut: string[] = [];
  const alreadyPlaced: string[] = [];
  let scope = pending;
  let phrases = request.tasks;
  const matchesNothing = (candidates: string[]) => candidates.length > 0 && candidates.every((phrase) => matchTasks(phrase, listing).length === 0);
  if (matchesNothing(phrases) && !Array.isArray(memory.plan)) {
    // The step names tasks and none of them exists: never claim the step done. Ask which tasks; an answer that
    // names none either ends the step saying so.
    const asked = phrases.map((phrase) => JSON.stringify(phrase)).join(", ");
    if (answer === undefined) return askWhichTasks(asked, pending, language);
    const answered = parseScheduleRequest(`place ${answer}`);
    phrases = answered.kind === "arrange" ? answered.tasks : [answer];
    if (matchesNothing(phrases)) {
      const both = `${asked} or ${JSON.stringify(answer)}`;
      return finish(end, say(language, `I found no pending task matching ${both}, so nothing was placed.`, `我没有找到与 ${both} 匹配的待安排任务，所以没有安排任何任务。`), `not carried out: no pending task matches ${both}`, "the step names no task the schedule has");
    }
  }
  if (phrases.length > 0) {
    const chosen = new Map<string, ListedTask>();
    for (const phrase of phrases) {
      const matches = matchTasks(phrase, pending);
      for (const task of matches) chosen.set(task.id, task);
      if (matches.length > 0) continue;
      // A named task that is on the schedule already (maybe placed earlier in this step) is not left pending.
      const placed = matchTasks(phrase, listing)[0];
      if (placed) alreadyPlaced.push(placed.id);
      else leftOut.push(`"${phrase}" (no pending task matches)`);
    }
    scope = [...chosen.values()];
  }
  const candidates = scope.filter((task) => !memory.skip.includes(task.id));
  if (candidates.length === 0) {
    const placedNote = alreadyPlaced.length > 0 && !Array.isArray(memory.plan) ? `${alreadyPlaced.join(", ")} already on the schedule` : "";
    return finishArrange({ ...memory, plan: [], leftOut }, end, language, names, placedNote);
  }

  const searches = after.filter((round) => round.name === "find_free" && !round.summarised).flatMap((round) => runsOfRound(round) ?? []);
  const shortest = Math.min(...candidates.map((task) => task.duration));
  if (searches.length === 0) return read(say(language, `Looking for free runs for ${candidates.length} task(s).`, `正在为 ${candidates.length} 个任务查找空闲时段。`), "find_free", { min_length: shortest, limit: 100 }, "need the free room of the week, once");
  // A list of free runs cut at 100 lines goes on from the last day it reached (runs seen twice count once).
  const lastSearch = searches.at(-1)!;
  const lastDay = lastSearch.runs.at(-1)?.day;
  const windowEnd = lastSearch.lastDay;
  if (lastSearch.omitted > 0 && lastDay !== undefined && lastDay < windowEnd && searches.length < 20) {
    const days = Array.from({ length: windowEnd - lastDay + 1 }, (_, offset) => lastDay + offset);
    return read(say(language, "Looking for the rest of the free runs.", "正在查找其余的空闲时段。"), "find_free", { min_length: shortest, days, limit: 100 }, "the list of free runs was cut");
  }
  const seen = new Set<string>();
  // Runs too short for every task in scope are left out (the first search may have asked for a shorter length).
  const freeRuns = searches.flatMap((search) => search.runs).filter((run) => {
    if (run.end - run.start + 1 < shortest) return false;
    const key = `${run.day}:${run.start}:${run.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  const allowed = new Set(resolveDays(request.where.only, facts));
  const notAllowed = new Set(resolveDays(request.where.not, facts));
  const window = resolveSlotWindow(request.where.slots, facts.slotsPerDay);
  const runs: SearchRun[] = freeRuns
    .filter((run) => (allowed.size === 0 || allowed.has(run.day)) && !notAllowed.has(run.day))
    .map((run) => ({ day: run.day, start: Math.max(run.start, window.from), end: Math.min(run.end, window.to), ...(run.hostId ? { hostId: run.hostId } : {}) }))
    .filter((run) => run.end >= run.start);
  const tasks: SearchTask[] = candidates.map((task) => searchTaskOf(task, memory.avoid.get(task.id)));
  const rejectedAt = new Map(candidates.map((task) => [task.id, new Set(memory.avoid.get(task.id)?.notAt ?? [])]));
  const dayLoad = new Map<number, number>();
  for (const task of listing) if (task.kind === "placed") for (const range of task.slots) dayLoad.set(range.day, (dayLoad.get(range.day) ?? 0) + 1);
  // Tasks the user gave feedback on come first: their new place is the answer to that card.
  const placements = searchAvoiding(tasks, runs, dayLoad, rejectedAt).sort((a, b) => Number(memory.avoid.has(b.id)) - Number(memory.avoid.has(a.id)));
  const placedIds = new Set(placements.map((entry) => entry.id));
  const unbounded: SearchRun[] = freeRuns.map((run) => ({ day: run.day, start: run.start, end: run.end }));
  for (const task of candidates) if (!placedIds.has(task.id)) leftOut.push(`${task.id} (${whyLeftOut(task, memory.avoid.get(task.id), request.where, runs, unbounded, facts)})`);
  const next: ArrangeMemory = { ...memory, plan: placements, leftOut, more: false };
  if (placements.length === 0) return finishArrange(next, end, language, names);
  // The plan goes into working memory (it must survive the compression of older tool rounds) and its first card
  // out, in one decision.
  const kept = fitted(next);
  const found = say(language, `Found room for ${placements.length} of ${candidates.length} task(s); keeping the placement plan in working memory. `, `为 ${candidates.length} 个任务中的 ${placements.length} 个找到了位置。`);
  return proposeCard(kept.plan as PlannedPlacement[], kept, facts, end, writesPerCard, language, names, [memoryCall(kept)], found);
}

/** "Which tasks do you mean?" when a step names tasks the schedule does not have. */
function askWhichTasks(asked: string, pending: ListedTask[], language: Language): Decision {
  const examples = pending.slice(0, 6).map((task) => `${task.name} (${task.id})`).join(language === "zh" ? "、" : ", ");
  const speak =
    language === "zh"
      ? `我没有找到与 ${asked} 匹配的待安排任务，所以还没有安排任何任务。你指的是哪些任务？请回答任务名称或 id${examples ? `，例如：${examples}` : ""}；回答“全部”则安排所有待安排的任务。`
      : `I found no pending task matching ${asked}, so nothing is placed yet. Which tasks do you mean? Answer with their names or ids${examples ? `, for example: ${examples}` : ""}; answer "all" to place every pending task.`;
  return { speak, action: "ask_user", reason: "the step names no task the schedule has" };
}

/** The search's view of a task under the user's limits. */
function searchTaskOf(task: ListedTask, limits: Avoid | undefined): SearchTask {
  const searchTask: SearchTask = { id: task.id, duration: task.duration };
  if (limits?.days) searchTask.days = new Set(limits.days);
  if (limits?.notDays.length) searchTask.notDays = new Set(limits.notDays);
  if (limits?.from !== undefined) searchTask.from = limits.from;
  if (limits?.to !== undefined) searchTask.to = limits.to;
  return searchTask;
}

/**
 * The placement search, never putting a task where the user rejected it (`rejectedAt`: "day:start" per task). When
 * the search picks a rejected place, that task is searched again on the other days, or later or earlier on that day
 * (whichever places the most); a place still rejected after a few tries is left out.
 */
function searchAvoiding(tasks: SearchTask[], runs: SearchRun[], dayLoad: Map<number, number>, rejectedAt: ReadonlyMap<string, ReadonlySet<string>>): PlannedPlacement[] {
  const rejected = (entry: PlannedPlacement) => rejectedAt.get(entry.id)?.has(`${entry.day}:${entry.start}`) ?? false;
  let current = tasks;
  let placements = searchPlacements(current, runs, { dayLoad }).placements;
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const bad = placements.find(rejected);
    if (!bad) return placements;
    const index = current.findIndex((task) => task.id === bad.id);
    const task = current[index]!;
    const variants: SearchTask[] = [
      { ...task, notDays: new Set([...(task.notDays ?? []), bad.day]) },
      { ...task, days: new Set([bad.day]), from: Math.max(task.from ?? 1, bad.start + 1) },
      { ...task, days: new Set([bad.day]), to: Math.min(task.to ?? Number.POSITIVE_INFINITY, bad.start + task.duration - 2) },
    ];
    let best: { tasks: SearchTask[]; placements: PlannedPlacement[]; score: number } | undefined;
    for (const variant of variants) {
      const tried = current.map((candidate, position) => (position === index ? variant : candidate));
      const found = searchPlacements(tried, runs, { dayLoad }).placements;
      const score = found.length * 2 + Number(found.some((entry) => entry.id === task.id));
      if (!best || score > best.score) best = { tasks: tried, placements: found, score };
    }
    current = best!.tasks;
    placements = best!.placements;
  }
  return placements.filter((entry) => !rejected(entry));
}

/** True when some run could take the task on its own, within its limits and away from the places rejected for it. */
function fitsSomewhere(task: SearchTask, notAt: ReadonlySet<string>, runs: readonly SearchRun[]): boolean {
  return runs.some((run) => {
    if (task.days && !task.days.has(run.day)) return false;
    if (task.notDays?.has(run.day)) return false;
    const last = Math.min(run.end, task.to ?? run.end) - task.duration + 1;
    for (let start = Math.max(run.start, task.from ?? run.start); start <= last; start += 1) if (!notAt.has(`${run.day}:${start}`)) return true;
    return false;
  });
}

/**
 * Why a task in scope got no place, truthfully: the other placements took the room it fits in, or its limits (the
 * user's feedback, the step's days and slots) leave no free slot that fits, or no free slot fits it at all.
 */
function whyLeftOut(task: ListedTask, limits: Avoid | undefined, where: Where, runs: readonly SearchRun[], unbounded: readonly SearchRun[], facts: WeekFacts): string {
  const bare: SearchTask = { id: task.id, duration: task.duration };
  const notAt = new Set(limits?.notAt ?? []);
  if (fitsSomewhere(searchTaskOf(task, limits), notAt, runs)) return "no room left beside the other placements";
  if (!fitsSomewhere(bare, new Set(), unbounded)) return "no free slot fits";
  const stepLimits = fitsSomewhere(bare, new Set(), runs) ? [] : whereLimits(where, facts);
  // The places rejected for it are named only when they are what blocks it.
  const own = limits ? limitsText({ ...limits, notAt: [] }, facts) : [];
  if (limits && fitsSomewhere(searchTaskOf(task, limits), new Set(), runs)) own.push("away from the places you rejected");
  const blocking = [...stepLimits, ...own];
  return blocking.length > 0 ? `no free slot fits ${blocking.join(", ")}` : "no free slot fits";
}

/** Days as the limits name them: weekday names in a window of a week, day numbers in a longer one. */
function daysText(days: readonly number[], facts: WeekFacts): string {
  const long = (facts.totalDays ?? 7) > 7;
  return [...new Set(days.map((day) => (long ? `day ${day}` : weekdayName(weekdayOf(facts, day), "en"))))].join(" and ");
}

/** A user's limits on one task, in words ("outside Friday", "in slots 9-12", "away from the places you rejected"). */
function limitsText(limits: Avoid, facts: WeekFacts): string[] {
  const parts: string[] = [];
  if (limits.days?.length) parts.push(`only on ${daysText(limits.days, facts)}`);
  if (limits.notDays.length) parts.push(`outside ${daysText(limits.notDays, facts)}`);
  if (limits.from !== undefined || limits.to !== undefined) parts.push(`in slots ${limits.from ?? 1}-${Math.min(limits.to ?? facts.slotsPerDay, facts.slotsPerDay)}`);
  if (limits.notAt.length) parts.push("away from the places you rejected");
  return parts;
}

/** The step's own limits (its days and slots) in the same words. */
function whereLimits(where: Where, facts: WeekFacts): string[] {
  const window = resolveSlotWindow(where.slots, facts.slotsPerDay);
  const limits: Avoid = { notDays: resolveDays(where.not, facts), notAt: [] };
  const only = resolveDays(where.only, facts);
  if (only.length > 0) limits.days = only;
  if (window.from > 1 || window.to < facts.slotsPerDay) [limits.from, limits.to] = [window.from, window.to];
  return limitsText(limits, facts);
}

/**
 * A rejected placement: skip the task, or re-plan it under the feedback's constraint. The rejected place itself is
 * never proposed again in the step, whatever the feedback said.
 */
function afterRejection(round: RoundView, memory: ArrangeMemory, facts: WeekFacts, language: Language, names: Names): { memory: ArrangeMemory; speak: string } {
  const taskId = String(round.arguments.task_id);
  const task = taskName(taskId, names, language);
  const day = Number(round.arguments.day);
  const start = Number(round.arguments.slot_start);
  const text = feedbackOfResult(round.result);
  const feedback = parseFeedback(text);
  if (feedback.kind !== "constrain") {
    const speak = feedback.kind === "unclear"
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
  if (feedback.part) ({ from: limits.from, to: limits.to } = resolveSlotWindow({ part: feedback.part }, facts.slotsPerDay));
  // "Later" and "earlier" mean later or earlier on the same day.
  if ((feedback.later || feedback.earlier) && only.length === 0 && Number.isFinite(day)) limits.days = [day];
  if (feedback.later && Number.isFinite(start)) limits.from = Math.max(limits.from ?? 1, start + 1);
  if (feedback.earlier && Number.isFinite(start)) limits.to = Math.min(limits.to ?? Number.POSITIVE_INFINITY, start - 1);
  const avoid = new Map(memory.avoid).set(taskId, limits);
  return { memory: { ...memory, avoid, plan: "reread" }, speak: say(language, `Understood: finding ${task} another place (${text}).`, `明白：为${task}另找位置（${text}）。`) };
}

/** The step's summary at its end: what was proposed, skipped and left out (and, when nothing was to do, what was already placed). */
function arrangeSummary(memory: ArrangeMemory, note = ""): string {
  const skipped = memory.skip.length ? `; skipped: ${memory.skip.join(", ")}` : "";
  const leftOut = memory.leftOut.length ? `; left pending: ${memory.leftOut.join("; ")}` : "";
  const already = note ? `; ${note}` : "";
  return `every placement the plan had room for was proposed${skipped}${leftOut}${already}`;
}

/** The end of the step, with its summary. */
function finishArrange(memory: ArrangeMemory, end: Finish, language: Language, names: Names, note = ""): Decision {
  const summary = arrangeSummary(memory, note);
  const rest = summary.slice("every placement the plan had room for was proposed".length);
  // The summary keeps ids (it is parsed back); what is said names the tasks.
  const speak = withNames(
    language === "zh"
      ? rest ? `${summaryInChinese(summary)}。` : "范围内每个待安排的复习任务都已提出安排。"
      : rest ? `Every placement that fits was proposed${rest}.` : "Every pending review task in scope has been proposed a place.",
    names,
    language,
  );
  return finish(end, speak, summary, "no placement is left to propose");
}
