/**
 * Parsers for the stable lines of format.ts, for a deterministic policy (and
 * the tests) that read tool results back. Each pattern matches one whole line.
 * The tools give the same facts as data (their `ToolRun.data`), which programs should read instead: these parsers
 * remain for text that has no data beside it (the summary lines of compressed rounds), for the model-server test
 * doubles (which receive text only) and for the tests that check a tool's data says what its text says.
 */
import { dayOfWeekOfDate } from "../../contracts/clock.js";
import type { MovedTask } from "../../tools/schedule/atomic-moves.js";
import type { ScheduleCandidate, ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import type { PlannedPlacement } from "../../tools/schedule/placement-search.js";
import { dayOfWeekNumber, TASK_STATUS_ZH, type SlotRange, type TaskStatus } from "../../tools/schedule/state.js";
import type { BatchMoveData } from "../../tools/schedule/tools/batch-move.js";
import type { FindFreeData, FreeRunEntry, StandingHoursNote } from "../../tools/schedule/tools/find-free.js";
import type { GetOverviewData, PendingTaskEntry } from "../../tools/schedule/tools/get-overview.js";
import type { GetTaskInfoData } from "../../tools/schedule/tools/get-task-info.js";
import type { ListedPastPlace, ListedTask, ListTasksData } from "../../tools/schedule/tools/list-tasks.js";
import type { MoveData } from "../../tools/schedule/tools/move.js";
import type { PlaceData } from "../../tools/schedule/tools/place.js";
import type { QueryRangeData, QueryRangeDay, RangeOccupant } from "../../tools/schedule/tools/query-range.js";
import type { SwapData } from "../../tools/schedule/tools/swap.js";
import type { UnplaceData } from "../../tools/schedule/tools/unplace.js";
import type { RescheduleListing } from "../../tools/schedule/tools/reschedule.js";
import { REDOES_LINE, type UndoListing } from "../../tools/schedule/tools/undo.js";
import type { RecoveryListing } from "../../tools/schedule/tools/recovery.js";
import type { HealthIssue, HealthIssueKind, HealthReport } from "../../tools/schedule/health.js";
import { summaryPattern } from "../../tools/schedule/summary-phrases.js";

/** A pending task line; groups: id, name (JSON string literal), duration, category id. */
export const PENDING_TASK_LINE_PATTERN =
  /^- task (\S+) ("(?:[^"\\]|\\.)*") duration=(\d+) category=(\S+)(?: due_before=(?:event|day):\S+)?$/;
/** A free run line; groups: day, first slot, last slot, length, host id (optional). */
export const FREE_RUN_LINE_PATTERN = /^- day (\d+) slots (\d+)-(\d+) \((\d+) free\)(?: embeddable host (\S+))?$/;
/** A successful place result; groups: id, day, first slot, last slot, host id (optional); the date note is skipped. */
export const PLACED_RESULT_PATTERN =
  /^placed task (\S+) on day (\d+) slots (\d+)-(\d+)(?: \((?!was )[^()]*\))?(?: embedded in host (\S+))?$/;
/** The overflow line of a capped list; group: the count left out, with thousands commas. */
export const OVERFLOW_LINE_PATTERN = /^\.\.\. and ([\d,]+) more; .+$/;

/** Every pending task line of a get_overview or list_tasks result, in order. */
export function parsePendingTasks(content: string): PendingTaskEntry[] {
  const entries: PendingTaskEntry[] = [];
  for (const line of content.split("\n")) {
    const match = PENDING_TASK_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, id = "", name = '""', duration = "0", categoryId = ""] = match;
    entries.push({ id, name: JSON.parse(name) as string, duration: Number(duration), categoryId });
  }
  return entries;
}

/** Every free run line of a find_free result, in order. */
export function parseFreeRuns(content: string): FreeRunEntry[] {
  const entries: FreeRunEntry[] = [];
  for (const line of content.split("\n")) {
    const match = FREE_RUN_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, day = "0", start = "0", end = "0", length = "0", hostId] = match;
    const entry: FreeRunEntry = { day: Number(day), start: Number(start), end: Number(end), length: Number(length) };
    if (hostId !== undefined) entry.hostId = hostId;
    entries.push(entry);
  }
  return entries;
}

/** The placement a successful place result reports, or undefined for any other text. */
export function parsePlacedResult(content: string): PlaceData | undefined {
  const match = PLACED_RESULT_PATTERN.exec(content.trim());
  if (match === null) return undefined;
  const [, id = "", day = "0", start = "0", end = "0", hostId] = match;
  const entry: PlaceData = { id, day: Number(day), start: Number(start), end: Number(end) };
  if (hostId !== undefined) entry.hostId = hostId;
  return entry;
}

/** How many items a capped list left out (0 when it was not capped). */
export function parseOverflowCount(content: string): number {
  for (const line of content.split("\n")) {
    const match = OVERFLOW_LINE_PATTERN.exec(line);
    if (match !== null) return Number((match[1] ?? "0").replaceAll(",", ""));
  }
  return 0;
}

/** Any task line of a list_tasks result; groups: kind ("task" / "placed task" / "event"), id, name, rest of the line. */
export const TASK_LINE_PATTERN =
  /^- (task|placed task|done task|missed task|skipped task|event) (\S+) ("(?:[^"\\]|\\.)*")(.*)$/;

/**
 * Where a settled task was, as `pastPlaceText` writes it at the start of `text`: "2024-03-12 slots 9-10", or undated
 * "week 1 Tue slots 9-10" (get_task_info, whose data has no week: "Tue slots 9-10").
 */
function parsePastPlace(text: string): ListedPastPlace | undefined {
  const was = /^(?:(\d{4}-\d{2}-\d{2})|(?:week \d+ )?(Mon|Tue|Wed|Thu|Fri|Sat|Sun)) slots (\d+)-(\d+)/.exec(text);
  if (was === null) return undefined;
  return {
    dayOfWeek: was[1] !== undefined ? dayOfWeekOfDate(was[1]) : dayOfWeekNumber(was[2]!),
    ...(was[1] !== undefined ? { date: was[1] } : {}),
    start: Number(was[3]),
    end: Number(was[4]),
  };
}

/** Every task line of a list_tasks (or get_overview) result, in order. */
export function parseTaskListing(content: string): ListedTask[] {
  const tasks: ListedTask[] = [];
  for (const line of content.split("\n")) {
    const match = TASK_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, word = "", id = "", name = '""', rest = ""] = match;
    const slots = [...rest.matchAll(/day (\d+) slots (\d+)-(\d+)/g)].map(([, day, start, end]) => ({
      day: Number(day),
      start: Number(start),
      end: Number(end),
    }));
    // "task" is a pending one; "placed task", "done task", … say their status (`taskLine`).
    const kind = word === "event" ? "event" : word === "task" ? "pending" : (word.split(" ")[0] as ListedTask["kind"]);
    const duration = Number(
      /duration=(\d+)/.exec(rest)?.[1] ?? (slots.length === 1 ? slots[0]!.end - slots[0]!.start + 1 : 0),
    );
    const task: ListedTask = {
      id,
      name: JSON.parse(name) as string,
      kind,
      duration,
      slots,
      locked: / locked\b/.test(rest),
      canEmbed: / can_embed\b/.test(rest),
    };
    const category = /category=(\S+)/.exec(rest)?.[1];
    if (category !== undefined) task.categoryId = category;
    const host = / embedded in host (\S+)/.exec(rest)?.[1];
    if (host !== undefined) task.hostId = host;
    const due = / due_before=(event|day):(\S+)/.exec(rest);
    if (due !== null) task.dueBefore = due[1] === "event" ? { eventId: due[2]! } : { day: Number(due[2]) };
    const was = / was (.*)$/.exec(rest)?.[1];
    const past = was === undefined ? undefined : parsePastPlace(was);
    if (past !== undefined) task.was = past;
    tasks.push(task);
  }
  return tasks;
}

/** A count as the texts write it ("4,812"). */
function count(text: string | undefined): number {
  return Number((text ?? "0").replaceAll(",", ""));
}

/** `day <d> slots <a>-<b>` ranges, in order. */
function rangesIn(text: string): SlotRange[] {
  return [...text.matchAll(/day (\d+) slots (\d+)-(\d+)/g)].map(([, day, start, end]) => ({
    day: Number(day),
    start: Number(start),
    end: Number(end),
  }));
}

/** A `<id> "<name>"` pair at the start of `text`. */
const ID_NAME = /^(\S+) ("(?:[^"\\]|\\.)*")/;

/**
 * The data a schedule tool gives beside its text (`ToolRun.data`), read back from the text alone — for a reader
 * that has only the text (a model stand-in fed over the wire, a tool message saved before tools gave data).
 * Undefined for a failure (`error: …`), a tool it does not know, or text of another shape.
 */
export function parseToolData(name: string, content: string): unknown {
  if (content.startsWith("error:")) return undefined;
  const lines = content.split("\n");
  switch (name) {
    case "list_tasks": {
      const header = /^tasks matching .*: ([\d,]+) of ([\d,]+)$/.exec(lines[0] ?? "");
      if (!header) return undefined;
      return {
        tasks: parseTaskListing(content),
        matching: count(header[1]),
        total: count(header[2]),
        omitted: parseOverflowCount(content),
      } satisfies ListTasksData;
    }
    case "find_free": {
      const header =
        /^(?:free runs|no free run) with min_length=\d+ on days [\d,-]*?(\d+) slots \d+-\d+(?: \((?:[^()"]|"(?:[^"\\]|\\.)*")*\))*(?:: ([\d,]+) found)?$/.exec(
          lines[0] ?? "",
        );
      if (!header) return undefined;
      return {
        runs: parseFreeRuns(content),
        found: count(header[2]),
        omitted: parseOverflowCount(content),
        lastDay: Number(header[1]),
        // The standing preferences' note, then the clock's (`find-free.ts`).
        ...standingNotesOf(lines[0]!),
        ...(/ \(time that has started left out\)(?::|$)/.test(lines[0]!) ? { pastLeftOut: true as const } : {}),
      } satisfies FindFreeData;
    }
    case "get_overview":
      return parseOverview(lines);
    case "query_range":
      return parseQueryRange(lines);
    case "get_task_info":
      return parseTaskInfo(lines);
    case "place":
      return parsePlacedResult(content);
    case "move": {
      const match =
        /^moved task (\S+) from (day \d+ slots \d+-\d+(?: \((?!was )[^()]*\))?) to (day \d+ slots \d+-\d+(?: \((?!was )[^()]*\))?)(?: embedded in host (\S+))?$/.exec(
          content,
        );
      if (!match) return undefined;
      const data: MoveData = {
        id: match[1] ?? "",
        from: rangesIn(match[2] ?? "")[0]!,
        to: rangesIn(match[3] ?? "")[0]!,
      };
      if (match[4] !== undefined) data.hostId = match[4];
      return data;
    }
    case "swap": {
      const match = /^swapped task (\S+) and task (\S+)$/.exec(lines[0] ?? "");
      return match
        ? ({ swapped: [match[1] ?? "", match[2] ?? ""], moved: parseMovedLines(lines) } satisfies SwapData)
        : undefined;
    }
    case "batch_move":
      return /^moved \d+ tasks$/.test(lines[0] ?? "")
        ? ({ moved: parseMovedLines(lines) } satisfies BatchMoveData)
        : undefined;
    case "propose_candidates":
    case "propose_arrangement":
      return parseListing(lines);
    case "propose_reschedule":
      return parseRescheduleListing(lines);
    case "propose_undo":
      return parseUndoListing(lines);
    case "propose_recovery":
      return parseRecoveryListing(lines);
    case "analyze_health":
      return parseHealth(lines);
    case "unplace": {
      const match =
        /^unplaced task (\S+) from (day \d+ slots \d+-\d+(?: \((?!was )[^()]*\))?)(?: \(was embedded in host (\S+)\))?; it is pending again$/.exec(
          content,
        );
      if (!match) return undefined;
      const data: UnplaceData = { id: match[1] ?? "", from: rangesIn(match[2] ?? "")[0]! };
      if (match[3] !== undefined) data.hostId = match[3];
      return data;
    }
    default:
      return undefined;
  }
}

/**
 * analyze_health's report as its text shows it (`formatHealth`): every figure of its lines, and each issue's kind,
 * penalty, whether it is forced, its message and the days its message names. The text names an issue's tasks by
 * name, not id, so `tasks` is read as empty; with nothing that cannot fit, `proved` is read as "the search did not
 * stop at its budget".
 */
function parseHealth(lines: readonly string[]): HealthReport | undefined {
  const [head, rhythm, tightness, profile, feasibility, issuesHead, ...issueLines] = lines;
  const score = /^health score ([\d.]+)\/100$/.exec(head ?? "");
  const beat =
    /^rhythm: review slots per day ([\d ]*); spread ([\d.]+); heavy days ((?:\d+(?:, )?)+|none); back to back (\d+)$/.exec(
      rhythm ?? "",
    );
  const tight = /^tightness: reviews without a buffer (\d+); single free slots (\d+)$/.exec(tightness ?? "");
  const off = /^profile: reviews outside your preferences (\d+)$/.exec(profile ?? "");
  const fit =
    /^feasibility: pending (\d+)(?:, missed without a place (\d+))?, of which fit (\d+), (cannot fit|no place found) (\d+)(?: beside the placed reviews as they are)?(?: \((proved|not found within the search budget|not proved)\))?$/.exec(
      feasibility ?? "",
    );
  if (!score || !beat || !tight || !off || !fit) return undefined;
  const issues: HealthIssue[] = [];
  if (issuesHead !== "issues: none") {
    if (issuesHead !== `issues (${issueLines.length}):`) return undefined;
    for (const line of issueLines) {
      const issue =
        /^- ([a-z_]+) -([\d.]+)( \((?:forced|no room beside the placed reviews as they are)\))?: (.*)$/.exec(line);
      if (!issue) return undefined;
      const message = issue[4]!;
      issues.push({
        kind: issue[1] as HealthIssueKind,
        penalty: Number(issue[2]),
        forced: issue[3] !== undefined,
        tasks: [],
        days: [...message.matchAll(/\bday (\d+)\b/g)].map((found) => Number(found[1])),
        message,
      });
    }
  }
  const budget = fit[4] === "no place found";
  return {
    score: Number(score[1]),
    rhythm: {
      dailyLoad: beat[1]!.split(" ").filter(Boolean).map(Number),
      spread: Number(beat[2]),
      heavyDays: beat[3] === "none" ? [] : beat[3]!.split(", ").map(Number),
      backToBack: Number(beat[4]),
    },
    tightness: { unbuffered: Number(tight[1]), isolatedSlots: Number(tight[2]) },
    profile: { offProfile: Number(off[1]) },
    feasibility: {
      pending: Number(fit[1]),
      ...(fit[2] !== undefined ? { missed: Number(fit[2]) } : {}),
      placeable: Number(fit[3]),
      cannotFit: Number(fit[5]),
      proved: fit[6] === undefined ? !budget : fit[6] === "proved",
      ...(budget ? { stop: "budget" as const } : {}),
    },
    issues,
  };
}

/**
 * propose_reschedule's listing as its text shows it: why it is empty, the candidate's id and summary (its writes are
 * not in the text: a reader of the text chooses by id), each missed review no place fits with why.
 */
function parseRescheduleListing(lines: readonly string[]): RescheduleListing | undefined {
  const listing: RescheduleListing = { candidates: [], unplaced: [] };
  for (const line of lines) {
    const empty = /^nothing to propose: (.*)$/.exec(line);
    const candidate = /^(r\d+): (.*)$/.exec(line);
    const none = /^no place for (\S+) ("(?:[^"\\]|\\.)*"): (.*)$/.exec(line);
    if (empty) listing.empty = empty[1]!;
    else if (candidate) listing.candidates.push({ id: candidate[1]!, summary: candidate[2]!, writes: [] });
    else if (none) listing.unplaced.push({ id: none[1]!, name: JSON.parse(none[2]!) as string, why: none[3]! });
    else return undefined;
  }
  return lines.length > 0 ? listing : undefined;
}

/**
 * propose_undo's listing as its text shows it: why it is empty (and whose the last change was, when another domain's),
 * the candidate's id and summary, each write that cannot be undone with why.
 */
function parseUndoListing(lines: readonly string[]): UndoListing | undefined {
  const listing: UndoListing = { candidates: [], undone: [], kept: [] };
  for (const line of lines) {
    const empty = /^nothing to undo: (.*?)(?: \(([^()]*)\): propose_undo takes back .*)?$/.exec(line);
    const candidate = /^(u\d+): (.*)$/.exec(line);
    const kept = /^cannot undo (.+?): (.*)$/.exec(line);
    if (empty) {
      listing.empty = empty[1]!;
      if (empty[2] !== undefined) listing.elsewhere = empty[2].split(", ");
    } else if (candidate) {
      listing.candidates.push({ id: candidate[1]!, summary: candidate[2]!, writes: [] });
      // The summary opens with what it reverses: "undo place matrix-review, move essay-draft: …".
      listing.undone.push(...(/^undo (.*?): /.exec(candidate[2]!)?.[1]?.split(", ") ?? []));
    } else if (kept) listing.kept.push({ write: kept[1]!, why: kept[2]! });
    else if (line === REDOES_LINE) listing.redoes = true;
    else return undefined;
  }
  return lines.length > 0 ? listing : undefined;
}

/**
 * propose_recovery's listing as its text shows it: why it is empty, or the candidate's id and summary, the reviews it
 * recovers and those it takes off the week (each `id "name"`).
 */
function parseRecoveryListing(lines: readonly string[]): RecoveryListing | undefined {
  const listing: RecoveryListing = { candidates: [], recovers: [], displaces: [] };
  const named = (text: string) =>
    [...text.matchAll(/(\S+) ("(?:[^"\\]|\\.)*")(?:, |$)/g)].map((found) => ({
      id: found[1]!,
      name: JSON.parse(found[2]!) as string,
    }));
  for (const line of lines) {
    const empty = /^nothing to recover: (.*)$/.exec(line);
    const candidate = /^(v\d+): (.*)$/.exec(line);
    const recovers = /^recovers: (.*)$/.exec(line);
    const off = /^takes off the week: (.*)$/.exec(line);
    if (empty) listing.empty = empty[1]!;
    else if (candidate) listing.candidates.push({ id: candidate[1]!, summary: candidate[2]!, writes: [] });
    else if (recovers) listing.recovers = named(recovers[1]!);
    else if (off) listing.displaces = named(off[1]!);
    else return undefined;
  }
  return lines.length > 0 ? listing : undefined;
}

/**
 * A candidate listing as its text shows it: the score, each candidate's id, gain, score after and summary (its writes
 * are not in the text: a reader of the text chooses by id) with an arrangement's places, what the arrangement leaves
 * pending and why, how many more fit later, why it is empty, and what is forced.
 */
function parseListing(lines: readonly string[]): ScheduleListing | undefined {
  const score = /^health score now ([\d.]+)\/100$/.exec(lines[0] ?? "");
  if (!score) return undefined;
  const candidates: ScheduleListing["candidates"] = [];
  const left: Array<{ id: string; why: string }> = [];
  let later: number | undefined;
  let inLeft = false;
  for (const line of lines) {
    const candidate = /^- (\S+) \(([+-]?[\d.]+) → ([\d.]+)\): (.*)$/.exec(line);
    const place = /^ {2}- task (\S+) on day (\d+) slots (\d+)-(\d+)(?: in host (\S+))?$/.exec(line);
    const leftOut = /^ {2}- task (\S+): (.*)$/.exec(line);
    if (line === "left pending:") inLeft = true;
    else if (candidate) {
      const summary = candidate[4] ?? "";
      const more = /; (\d+) more fit after these/.exec(summary);
      if (more) later = Number(more[1]);
      candidates.push({
        id: candidate[1] ?? "",
        kind: kindOf(summary),
        delta: Number(candidate[2]),
        scoreAfter: Number(candidate[3]),
        summary,
        writes: [],
      });
    } else if (place && !inLeft && candidates.length > 0) {
      const last = candidates.at(-1)!;
      const entry: PlannedPlacement = {
        id: place[1] ?? "",
        day: Number(place[2]),
        start: Number(place[3]),
        end: Number(place[4]),
      };
      if (place[5] !== undefined) entry.hostId = place[5];
      last.places = [...(last.places ?? []), entry];
    } else if (leftOut && inLeft) left.push({ id: leftOut[1] ?? "", why: leftOut[2] ?? "" });
  }
  const empty = lines.map((line) => /^no candidates: (.*)$/.exec(line)?.[1]).find((found) => found !== undefined);
  const forced = lines
    .map((line) => /^forced \(no change can fix\): (.*)$/.exec(line)?.[1])
    .find((found) => found !== undefined);
  return {
    score: Number(score[1]),
    candidates,
    ...(later !== undefined ? { later } : {}),
    ...(left.length > 0 ? { left } : {}),
    ...(empty ? { empty } : {}),
    ...(forced ? { forced } : {}),
  };
}

/** A candidate's kind, from how its summary starts ("place 8 of 8 pending review(s)", "Move …", "Swap …", "Place …"). */
function kindOf(summary: string): ScheduleCandidate["kind"] {
  if (/^place \d+ of \d+ pending/.test(summary)) return "arrangement";
  if (summary.startsWith("Swap")) return "swap";
  if (summary.startsWith("Place")) return "place";
  return summary.startsWith("Move") ? "move" : "chain";
}

/** The `- task <id> now on …[; was on …]` lines of swap and batch_move. */
function parseMovedLines(lines: readonly string[]): MovedTask[] {
  return lines.flatMap((line) => {
    const match =
      /^- task (\S+) now on (day \d+ slots \d+-\d+(?: \((?!was )[^()]*\))?)(?: embedded in host (\S+))?(?:; was on (day \d+ slots \d+-\d+(?: \((?!was )[^()]*\))?))?$/.exec(
        line,
      );
    if (!match) return [];
    const moved: MovedTask = { id: match[1] ?? "", ...rangesIn(match[2] ?? "")[0]! };
    if (match[3] !== undefined) moved.hostId = match[3];
    if (match[4] !== undefined) moved.from = rangesIn(match[4])[0]!;
    return [moved];
  });
}

/** get_overview's data from its text. */
function parseOverview(lines: readonly string[]): GetOverviewData | undefined {
  const window = /^schedule: ([\d,]+) days(?: \(.*?(?:, ([^\s,()]+))?\))?, (\d+) slots per day$/.exec(lines[0] ?? "");
  const tasks =
    /^tasks: ([\d,]+) events \(([\d,]+) embeddable, ([\d,]+) locked\), [\d,]+ task items \(([\d,]+) placed, ([\d,]+) pending\)$/.exec(
      lines[1] ?? "",
    );
  if (!window || !tasks) return undefined;
  const slotTimes = /^slot times: (.*)$/
    .exec(lines[2] ?? "")?.[1]
    ?.split(", ")
    .map((entry) => {
      const [, start = "", end = ""] = /^\d+ (\d\d:\d\d)-(\d\d:\d\d)$/.exec(entry) ?? [];
      return { start, end };
    });
  const data: GetOverviewData = {
    totalDays: count(window[1]),
    slotsPerDay: Number(window[3]),
    ...(window[2] === undefined ? {} : { timeZone: window[2] }),
    ...(slotTimes === undefined ? {} : { slotTimes }),
    events: count(tasks[1]),
    embeddableEvents: count(tasks[2]),
    lockedEvents: count(tasks[3]),
    placed: count(tasks[4]),
    pending: count(tasks[5]),
    days: [],
    daysOmitted: 0,
    hosts: [],
    hostsOmitted: 0,
    categories: [],
    categoriesOmitted: 0,
    pendingTasks: [],
    pendingOmitted: 0,
    placedTasks: [],
    placedOmitted: 0,
    missed: 0,
    skipped: 0,
    missedTasks: [],
    missedOmitted: 0,
  };
  let section: "days" | "hosts" | "categories" | "pending" | "placed" | "missed" = "days";
  const omitted = {
    days: "daysOmitted",
    hosts: "hostsOmitted",
    categories: "categoriesOmitted",
    pending: "pendingOmitted",
    placed: "placedOmitted",
    missed: "missedOmitted",
  } as const;
  for (const line of lines.slice(2)) {
    if (line === "days:") section = "days";
    else if (line.startsWith("embeddable hosts (")) section = "hosts";
    else if (line.startsWith("categories (")) section = "categories";
    else if (line.startsWith("pending tasks (")) section = "pending";
    else if (line.startsWith("placed tasks (")) section = "placed";
    else if (line.startsWith("missed tasks (")) section = "missed";
    const unplaced = /^without a place: ([\d,]+) missed .*?, ([\d,]+) skipped by the user$/.exec(line);
    if (unplaced) [data.missed, data.skipped] = [count(unplaced[1]), count(unplaced[2])];
    const overflow = OVERFLOW_LINE_PATTERN.exec(line);
    if (overflow) data[omitted[section]] = count(overflow[1]);
    const day =
      /^- day (\d+) week (\d+) (\w+)(?: (\d{4}-\d{2}-\d{2}))?: occupied=(\d+) free=(\d+) embeddable=(\d+) embedded=(\d+)$/.exec(
        line,
      );
    if (day) {
      const [, index, week, weekday = "", date, occupied, free, embeddable, embedded] = day;
      data.days.push({
        day: Number(index),
        week: Number(week),
        dayOfWeek: dayOfWeekNumber(weekday),
        ...(date === undefined ? {} : { date }),
        occupied: Number(occupied),
        free: Number(free),
        embeddable: Number(embeddable),
        embedded: Number(embedded),
      });
    }
    const host = /^- host (\S+) ("(?:[^"\\]|\\.)*") day (\d+) slots (\d+)-(\d+) \((\d+) free for embedding\)$/.exec(
      line,
    );
    if (host)
      data.hosts.push({
        id: host[1] ?? "",
        name: JSON.parse(host[2] ?? '""') as string,
        day: Number(host[3]),
        start: Number(host[4]),
        end: Number(host[5]),
        open: Number(host[6]),
      });
    const category =
      /^- category (\S+) ("(?:[^"\\]|\\.)*") pending=(\d+) placed=(\d+)(?: excluded_days_of_week=([\d,]+))?$/.exec(
        line,
      );
    if (category) {
      const excluded = category[5] ? { excludedDaysOfWeek: category[5].split(",").map(Number) } : {};
      data.categories.push({
        id: category[1] ?? "",
        name: JSON.parse(category[2] ?? '""') as string,
        pending: Number(category[3]),
        placed: Number(category[4]),
        ...excluded,
      });
    }
    const named = /^- (placed|missed) (\S+) ("(?:[^"\\]|\\.)*") category=(\S+)(?: day (\d+) slots (\d+)-(\d+))?$/.exec(
      line,
    );
    if (named)
      (named[1] === "placed" ? data.placedTasks : data.missedTasks).push({
        id: named[2] ?? "",
        name: JSON.parse(named[3] ?? '""') as string,
        categoryId: named[4] ?? "",
        ...(named[5] ? { place: { day: Number(named[5]), start: Number(named[6]), end: Number(named[7]) } } : {}),
      });
  }
  data.pendingTasks = parsePendingTasks(lines.join("\n"));
  return data;
}

/** A query_range segment's occupant from its text. */
function parseOccupant(text: string): RangeOccupant | undefined {
  if (text === "free") return { kind: "free" };
  const task = /^task (\S+) ("(?:[^"\\]|\\.)*") category=(\S+)$/.exec(text);
  if (task)
    return { kind: "task", id: task[1] ?? "", name: JSON.parse(task[2] ?? '""') as string, categoryId: task[3] ?? "" };
  const event =
    /^event (\S+) ("(?:[^"\\]|\\.)*")( locked)?( can_embed)?(?:, free for embedding|, embedded task (\S+) ("(?:[^"\\]|\\.)*") category=(\S+))?$/.exec(
      text,
    );
  if (!event) return undefined;
  const occupant: RangeOccupant = {
    kind: "event",
    id: event[1] ?? "",
    name: JSON.parse(event[2] ?? '""') as string,
    locked: event[3] !== undefined,
    canEmbed: event[4] !== undefined,
  };
  if (event[5] !== undefined)
    occupant.embedded = { id: event[5], name: JSON.parse(event[6] ?? '""') as string, categoryId: event[7] ?? "" };
  return occupant;
}

/** query_range's data from its text. */
function parseQueryRange(lines: readonly string[]): QueryRangeData | undefined {
  const days: QueryRangeDay[] = [];
  for (const line of lines) {
    const header = /^day (\d+)(?: week (\d+) (\w+)(?: (\d{4}-\d{2}-\d{2}))?)? slots (\d+)-(\d+):$/.exec(line);
    if (header) {
      const day: QueryRangeDay = {
        day: Number(header[1]),
        slotStart: Number(header[5]),
        slotEnd: Number(header[6]),
        segments: [],
      };
      if (header[2] !== undefined) [day.week, day.dayOfWeek] = [Number(header[2]), dayOfWeekNumber(header[3] ?? "")];
      if (header[4] !== undefined) day.date = header[4];
      days.push(day);
      continue;
    }
    const segment = /^- slots (\d+)-(\d+): (.*?)(?: \(started(?:, (done|not marked done))?\))?$/.exec(line);
    const occupant = segment ? parseOccupant(segment[3] ?? "") : undefined;
    if (!segment || !occupant || days.length === 0) return undefined;
    // A started segment (the clock's note, `query-range.ts`): its review's status, when it says one.
    const started = line.endsWith(")") && /\(started(?:, (?:done|not marked done))?\)$/.test(line);
    const status = segment[4] === "done" ? "done" : segment[4] === undefined ? undefined : "placed";
    const review = occupant.kind === "task" ? occupant : occupant.kind === "event" ? occupant.embedded : undefined;
    if (review && status) review.status = status;
    days.at(-1)!.segments.push({
      start: Number(segment[1]),
      end: Number(segment[2]),
      occupant,
      ...(started ? { started: true as const } : {}),
    });
  }
  return days.length > 0 ? { days } : undefined;
}

/** get_task_info's data from its text. */
function parseTaskInfo(lines: readonly string[]): GetTaskInfoData | undefined {
  const title = /^task (\S+) ("(?:[^"\\]|\\.)*")$/.exec(lines[0] ?? "");
  if (!title) return undefined;
  const fields = new Map<string, string>();
  const embeds: Array<{ id: string; task?: ListedTask }> = [];
  for (const line of lines.slice(1)) {
    const unknown = /^- unknown task (\S+)$/.exec(line);
    const [guest] = parseTaskListing(line);
    if (unknown) embeds.push({ id: unknown[1] ?? "" });
    else if (guest) embeds.push({ id: guest.id, task: guest });
    else {
      const field = /^([a-z_ ]+): (.*)$/.exec(line);
      if (field) fields.set(field[1] ?? "", field[2] ?? "");
    }
  }
  const id = title[1] ?? "";
  const name = JSON.parse(title[2] ?? '""') as string;
  const slots = rangesIn(fields.get("slots") ?? "");
  if (fields.get("source") === "event") {
    const only = slots.length === 1 ? slots[0]! : undefined;
    const task: ListedTask = {
      id,
      name,
      kind: "event",
      duration: only ? only.end - only.start + 1 : 0,
      slots,
      locked: fields.get("locked") === "true",
      canEmbed: fields.get("can_embed") === "true",
    };
    return { task, embeds };
  }
  const said = fields.get("status") ?? "";
  // Every status of a task item's life is read as it is (before, all but placed read as pending).
  const status: TaskStatus = Object.hasOwn(TASK_STATUS_ZH, said) ? (said as TaskStatus) : "pending";
  const category = ID_NAME.exec(fields.get("category") ?? "") ?? /^(\S+)/.exec(fields.get("category") ?? "");
  const task: ListedTask = {
    id,
    name,
    kind: status,
    duration: Number(fields.get("duration") ?? 0),
    categoryId: category?.[1] ?? "",
    slots,
    locked: false,
    canEmbed: false,
  };
  const was = parsePastPlace(fields.get("was") ?? "");
  if (was !== undefined) task.was = was;
  const data: GetTaskInfoData = { task };
  if (category?.[2] !== undefined) data.categoryName = JSON.parse(category[2]) as string;
  const host = /^host (\S+)(?: ("(?:[^"\\]|\\.)*"))?$/.exec(fields.get("embedded in") ?? "");
  if (host) {
    task.hostId = host[1] ?? "";
    if (host[2] !== undefined) data.hostName = JSON.parse(host[2]) as string;
  }
  return data;
}

/** Day indices as `formatDayList` writes them ("1-3,5"). */
function dayListOf(said: string): number[] {
  return said.split(",").flatMap((part) => {
    const [first, last = first] = part.split("-").map(Number);
    return Array.from({ length: last! - first! + 1 }, (_, index) => first! + index);
  });
}

/**
 * What find_free's header says of the standing preferences, as its data has it: the days they left out ("(days 6-7
 * left out: …)", and the days their hours leave no slot), and the notes of their hours.
 */
function standingNotesOf(header: string): Pick<FindFreeData, "standingLeftOut" | "standingHours"> {
  const leftOut = new Set<number>();
  for (const match of header.matchAll(summaryPattern("standingDaysLeftOut", "anywhere")))
    for (const day of dayListOf(match[1]!)) leftOut.add(day);
  const notes: StandingHoursNote[] = [];
  const rulesOf = (said: string) => [...said.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((rule) => rule[0]);
  for (const key of ["standingHoursLeftOut", "standingHoursNone", "standingHoursCut"] as const)
    for (const match of header.matchAll(summaryPattern(key, "anywhere"))) {
      const days = dayListOf(match[1]!);
      const note: StandingHoursNote = { days, rules: rulesOf(match[2]!) };
      if (key === "standingHoursCut") note.slots = { from: Number(match[3]), to: Number(match[4]) };
      if (key === "standingHoursLeftOut") {
        note.leftOut = true;
        for (const day of days) leftOut.add(day);
      }
      notes.push(note);
    }
  notes.sort((left, right) => Number(!left.leftOut) - Number(!right.leftOut) || left.days[0]! - right.days[0]!);
  return {
    ...(leftOut.size > 0 ? { standingLeftOut: [...leftOut].sort((left, right) => left - right) } : {}),
    ...(notes.length > 0 ? { standingHours: notes } : {}),
  };
}
