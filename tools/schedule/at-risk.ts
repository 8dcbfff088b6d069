/**
 * At risk, told early (issue 47 item 6): the reviews with a deadline (a day, or an event such as an exam) that the
 * free time left cannot hold. The exact placement search decides it on the week as it is now — what is placed stays,
 * the clock's past is out of reach — for the reviews still to place (pending, or missed and not made up) whose
 * deadline has not passed; the reviews without a deadline are set aside (they can wait). A review is at risk only when
 * the search proves it: the search finished and the most of them that fit leaves it out. A search that stopped at its
 * budget proves nothing, and says so ("not proved").
 *
 * What is proved is said, and no more: the free time before the deadline, with the placed reviews where they are (a
 * review placed and not yet started could move, and the recovery says how). A review no free time holds even on its
 * own is said so; one that fits on its own but not beside the other deadline reviews is said as "at most N of the M
 * reviews due fit together" — which of them is left out is the search's choice, not a proof about that one.
 *
 * With it comes the change that recovers the most: the reviews placed and not yet started are taken up, the search
 * places the deadline reviews first (the most of them that fit, exact), then puts the others back — where they are
 * when that place is still free, so only the reviews in the way move — one candidate of writes (unplace, move or
 * batch_move, place) that the cards apply like any other. "Recovers none" is said as proved only when that search
 * finished.
 */
import { addDays } from "../../contracts/clock.js";
import type { Language } from "../../contracts/language.js";
import type { AtRiskNotice } from "../domain.js";
import { applyWrites } from "./candidate-writes.js";
import { buildTaskItem } from "./canonical-form.js";
import { describeScheduleCall } from "./describe-call.js";
import { formatDate } from "./state.js";
import {
  searchInputOf,
  searchPlacements,
  startBudget,
  type PlannedPlacement,
  type SearchBudget,
} from "./placement-search.js";
import { deadlinePassed, isFixedByClock, ruleBookOf, searchLimitsOf, withRules, type RuleBook } from "./rules.js";
import type { ScheduleState, TaskItem } from "./state.js";

/** A write call: a tool name and its arguments. */
type Write = { name: string; arguments: Record<string, unknown> };

/** A review whose deadline the time left cannot hold, and its deadline in words. */
export interface RiskedTask {
  id: string;
  name: string;
  /** "the Linear algebra midterm (Thu 19 Mar)", "Thu 19 Mar". */
  due: string;
  /**
   * True when the search proved no free time before its deadline holds it even on its own; false when it fits on
   * its own, but not beside the other deadline reviews (or the search on its own stopped at its budget).
   */
  alone: boolean;
  /**
   * With `alone`: free time before its deadline would hold it, but each such day holds another session of its task
   * (no two sessions on one day) — the task's sessions outnumber the days, not the free time.
   */
  sessionEachDay?: true;
}

/** The recovery: the writes that meet the most deadlines, what they do in words, and the reviews they recover. */
export interface Recovery {
  writes: Write[];
  /** Each write in words, in the user's language. */
  said: string[];
  /** The at-risk reviews it gives a place before their deadline. */
  recovers: string[];
  /** Reviews without a deadline it takes off the week to make room (pending again). */
  displaces: string[];
}

/** What `atRiskOf` found. */
export interface AtRiskReport {
  /** The reviews with a deadline still to place. */
  due: number;
  /** The most of the reviews due that the free time holds together (proved when `atRisk` is not empty). */
  most: number;
  /**
   * Proved (the search finished): with the placed reviews where they are, the free time holds at most `most` of the
   * reviews due, and these are left out of such a best arrangement (`alone`: not even on its own).
   */
  atRisk: RiskedTask[];
  /** The search stopped at its budget: these got no place, nothing is proved. */
  unproved: RiskedTask[];
  /** The change that recovers the most at-risk reviews, when one does. */
  recovery?: Recovery;
  /**
   * Without a recovery: true when the search proved that moving every review not yet started fits no more of the
   * reviews due (or none can move); false when it stopped at its budget — then nothing is proved.
   */
  noneProved?: boolean;
  /**
   * Without a recovery, proved: moving the reviews not yet started could give a review at risk a place only by taking
   * one from a placed review due (two sessions of one task, no two on a day): no more deadlines met. "Recovers none"
   * would be untrue then; it is said as this trade.
   */
  trades?: true;
  /**
   * Proved: the user's standing preferences keep out free time before the deadlines that would hold more of the
   * reviews due — `most` of them fit with the preferences, `freed` without them. `rules` are the preferences named,
   * in the user's words: those whose removal alone fits more, else all of them (only together do they).
   */
  preferences?: { rules: string[]; freed: number };
}

/** The exact search for `tasks` in `input`'s room, each under its own rules there. */
function searchFor(tasks: readonly TaskItem[], input: ReturnType<typeof searchInputOf>, budget: SearchBudget) {
  return searchPlacements(
    tasks.map((task) => withRules({ id: task.id, duration: task.duration }, task, input.rules)),
    input.room,
    budget,
  );
}

/** Reviews still to place: pending ones, and missed ones not made up. */
function toPlace(task: TaskItem): boolean {
  return task.status === "pending" || task.status === "missed";
}

/** The reviews with a deadline still to place, proved at risk or not, and the change that recovers the most. */
export function atRiskOf(state: ScheduleState, budget: SearchBudget = {}, language: Language = "en"): AtRiskReport {
  const book = ruleBookOf(state);
  const items = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const due = items.filter(
    (task) => toPlace(task) && searchLimitsOf(task, book).endBefore !== undefined && !deadlinePassed(task, book),
  );
  if (due.length === 0) return { due: 0, most: 0, atRisk: [], unproved: [] };
  const work = startBudget(budget);
  const input = searchInputOf(state);
  const search = searchFor(due, input, work);
  const most = search.placements.length;
  const placed = new Set(search.placements.map((placement) => placement.id));
  const outside = due.filter((task) => !placed.has(task.id));
  if (outside.length === 0) return { due: due.length, most, atRisk: [], unproved: [] };
  if (!search.exact)
    return { due: due.length, most, atRisk: [], unproved: outside.map((task) => risked(task, book, language, false)) };
  // Left out of one best arrangement is not "no place": on its own, a review may fit where another one went.
  const left = outside.map((task) => {
    const own = searchFor([task], input, work);
    const alone = own.exact && own.placements.length === 0;
    // A session with no place on its own: is it the free time, or another session on each day that has it?
    const { group: _group, ...ungrouped } = task;
    const sessions = alone && task.group !== undefined ? searchFor([ungrouped], input, work) : undefined;
    return {
      ...risked(task, book, language, alone),
      ...(sessions?.exact && sessions.placements.length > 0 ? { sessionEachDay: true as const } : {}),
    };
  });
  const found = recoveryOf(state, due, most, book, work, language);
  const preferences = preferencesInTheWay(state, due, most, work);
  return {
    due: due.length,
    most,
    atRisk: left,
    unproved: [],
    ...(preferences ? { preferences } : {}),
    ...("recovery" in found
      ? { recovery: found.recovery }
      : { noneProved: found.proved, ...(found.proved && found.trades ? { trades: true as const } : {}) }),
  };
}

/**
 * The standing preferences that keep out free time before the deadlines: without them the exact search fits more of
 * the reviews due than `most`. Named: those whose removal alone fits more, else all of them. Undefined when lifting
 * them fits no more, or a search stopped at its budget (nothing proved).
 */
function preferencesInTheWay(
  state: ScheduleState,
  due: readonly TaskItem[],
  most: number,
  budget: SearchBudget,
): AtRiskReport["preferences"] {
  const rules = state.standing ?? [];
  if (rules.length === 0) return undefined;
  const fitting = (standing: typeof rules) => {
    const search = searchFor(due, searchInputOf({ ...state, standing }), budget);
    return search.exact ? search.placements.length : undefined;
  };
  const freed = fitting([]);
  if (freed === undefined || freed <= most) return undefined;
  const lifting = rules.filter((rule) => (fitting(rules.filter((other) => other !== rule)) ?? 0) > most);
  return { rules: (lifting.length > 0 ? lifting : rules).map((rule) => JSON.stringify(rule.text)), freed };
}

/**
 * The change that meets the most deadlines: every placed review not yet started taken up, the deadline reviews
 * placed first (the most that fit), the others put back where they still fit; or, when it recovers none, whether
 * that is proved (the search finished, or nothing can move). `alreadyFit`: the most of `due` that fit now (the exact
 * search's, which the caller ran on the week as it is).
 */
function recoveryOf(
  state: ScheduleState,
  due: readonly TaskItem[],
  alreadyFit: number,
  book: RuleBook,
  budget: SearchBudget,
  language: Language,
): { recovery: Recovery } | { proved: boolean; trades?: true } {
  const movable = state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "placed" && !isFixedByClock(task, book),
  );
  if (movable.length === 0) return { proved: true };
  const lifted = new Set(movable.map((task) => task.id));
  const open: ScheduleState = {
    ...state,
    tasks: state.tasks.map((task) =>
      lifted.has(task.id) && task.source === "task_item" ? buildTaskItem({ ...task, status: "pending" }) : task,
    ),
  };
  const room = searchInputOf(open);
  const first = searchFor(due, room, budget);
  const recovered = new Set(first.placements.map((placement) => placement.id));
  if (first.placements.length <= alreadyFit) return { proved: first.exact };
  // The placed reviews with a deadline of their own count too: a change that places one due review by taking off
  // another (two sessions of one task, no two on a day) meets no more deadlines. The most that fit together, the
  // placed ones lifted, against what is met now.
  const placedDue = movable.filter(
    (task) => searchLimitsOf(task, book).endBefore !== undefined && !deadlinePassed(task, book),
  );
  if (placedDue.length > 0) {
    const together = searchFor([...due, ...placedDue], room, budget);
    if (together.placements.length <= alreadyFit + placedDue.length) return { proved: together.exact, trades: true };
  }
  // The deadline reviews in their places, then the lifted ones back: where they are when that place is still free (only
  // the ones in the way move), or all searched afresh when that puts more of them back.
  const places = placeWrites(first.placements);
  const withDue = applyWrites(open, places);
  if (!withDue) return { proved: false };
  const variants = [putBack(withDue, movable, budget, true), putBack(withDue, movable, budget, false)].map((backAt) => {
    const changes: Changes = new Map();
    for (const task of movable) {
      const place = backAt.get(task.id);
      const now = task.slots?.[0];
      if (place === undefined) changes.set(task.id, "off");
      else if (now === undefined || now.day !== place.day || now.start !== place.start)
        changes.set(task.id, { day: place.day, slot_start: place.start });
    }
    return changes;
  });
  const off = (changes: Changes) => [...changes.values()].filter((change) => change === "off").length;
  // The writes must apply, in order, on the week as it is (the same checks as the card's).
  const chosen = variants
    .filter((changes) => applyWrites(state, writesOf(changes, places)) !== undefined)
    .sort((a, b) => off(a) - off(b) || a.size - b.size)[0];
  if (!chosen) return { proved: false };
  const changes = leftInPlace(state, chosen, places);
  const writes = writesOf(changes, places);
  const displaced = movable.filter((task) => changes.get(task.id) === "off");
  // The change found takes off as many due reviews as it places: it meets no more deadlines (another might; not proved).
  const lost = displaced.filter((task) => placedDue.includes(task)).length;
  if (due.filter((task) => recovered.has(task.id)).length <= lost) return { proved: false };
  let current = state;
  const said = writes.map((write) => {
    const text = describeScheduleCall(current, write.name, write.arguments, language) ?? write.name;
    current = applyWrites(current, [write]) ?? current;
    return text;
  });
  return {
    recovery: {
      writes,
      said,
      recovers: due.filter((task) => recovered.has(task.id)).map((task) => task.id),
      displaces: displaced.map((task) => task.id),
    },
  };
}

/** What a recovery does to each lifted review it changes: takes it off the week, or moves it to a place. */
type Changes = Map<string, "off" | { day: number; slot_start: number }>;

/** Off first (what makes room), then the moves together, then the deadline reviews into the room made. */
function writesOf(changes: Changes, places: readonly Write[]): Write[] {
  const moves = [...changes].flatMap(([id, change]) => (change === "off" ? [] : [{ task_id: id, ...change }]));
  return [
    ...[...changes].flatMap(([id, change]) =>
      change === "off" ? [{ name: "unplace", arguments: { task_id: id } }] : [],
    ),
    ...movesOf(moves),
    ...places,
  ];
}

/**
 * `changes` with every review left where it is whose move (or taking off) the change does not need: dropped one at a
 * time while the writes still apply, until none can be — so each review the change moves was in the way.
 */
function leftInPlace(state: ScheduleState, changes: Changes, places: readonly Write[]): Changes {
  let current = changes;
  // A pass may free an earlier one (a review moved into another's place): passes until one drops nothing.
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const id of [...current.keys()]) {
      const fewer = new Map(current);
      fewer.delete(id);
      if (!applyWrites(state, writesOf(fewer, places))) continue;
      current = fewer;
      dropped = true;
    }
  }
  return current;
}

/**
 * Where the lifted reviews go back on `withDue` (the deadline reviews placed): with `stay`, each whose place is still
 * free stays there and the search places only the rest; without, the search places them all afresh.
 */
function putBack(
  withDue: ScheduleState,
  movable: readonly TaskItem[],
  budget: SearchBudget,
  stay: boolean,
): Map<string, { day: number; start: number }> {
  const at = new Map<string, { day: number; start: number }>();
  let current = withDue;
  for (const task of stay ? movable : []) {
    const place = task.slots?.[0];
    const kept = place && applyWrites(current, placeWrites([{ id: task.id, ...place }]));
    if (!place || !kept) continue;
    current = kept;
    at.set(task.id, place);
  }
  const back = searchInputOf(current);
  const rest = movable.filter((task) => !at.has(task.id));
  const search = searchFor(rest, back, budget);
  for (const placement of search.placements) at.set(placement.id, placement);
  return at;
}

/** The moves as one write: a `move` alone, or a `batch_move` (the reviews may take each other's places). */
function movesOf(moves: ReadonlyArray<{ task_id: string; day: number; slot_start: number }>): Write[] {
  if (moves.length === 0) return [];
  if (moves.length === 1) return [{ name: "move", arguments: { ...moves[0]! } }];
  return [{ name: "batch_move", arguments: { moves: [...moves] } }];
}

/** Placements as `place` writes. */
function placeWrites(placements: readonly PlannedPlacement[]): Write[] {
  return placements.map((placement) => ({
    name: "place",
    arguments: { task_id: placement.id, day: placement.day, slot_start: placement.start },
  }));
}

/** A deadline review as told: its name and its deadline in words (`alone`: no free time holds it on its own). */
function risked(task: TaskItem, book: RuleBook, language: Language, alone: boolean): RiskedTask {
  const limit = searchLimitsOf(task, book).endBefore!;
  // A deadline past the window's end (due before the day after it: a habit's last week, "by Sunday") by its date too.
  const days = book.window?.days ?? [];
  const last = days[days.length - 1]?.date;
  const date =
    days[limit.day - 1]?.date ??
    (last !== undefined && limit.day > days.length ? addDays(last, limit.day - days.length) : undefined);
  const day =
    date === undefined ? (language === "zh" ? `第${limit.day}天` : `day ${limit.day}`) : formatDate(date, language);
  const due = task.dueBefore;
  const event = due && "eventId" in due ? book.eventStarts.get(due.eventId) : undefined;
  return { id: task.id, name: task.name, due: event ? `${event.name} (${day})` : day, alone };
}

/**
 * What the user is told, in `language`, or undefined when nothing is at risk: the reviews proved at risk with their
 * deadlines — said as what the search proved: no free time holds one even on its own, or not all the reviews due fit
 * together (with the placed reviews where they are) — and the change that recovers the most (or that none does,
 * proved or not), or the ones the search could not place within its budget — said as not proved.
 */
export function atRiskText(report: AtRiskReport, language: Language): string | undefined {
  const zh = language === "zh";
  const list = (tasks: readonly RiskedTask[]) =>
    tasks
      .map((task) => (zh ? `${task.name}（${task.due}之前）` : `${task.name} (due before ${task.due})`))
      .join(zh ? "、" : "; ");
  if (report.atRisk.length === 0 && report.unproved.length === 0) return undefined;
  if (report.atRisk.length === 0)
    return zh
      ? `可能有风险（未证明：搜索在预算内没有找到位置）：${list(report.unproved)}。`
      : `Possibly at risk (not proved: the search found no place within its budget): ${list(report.unproved)}.`;
  const alone = report.atRisk.filter((task) => task.alone && !task.sessionEachDay);
  const apart = report.atRisk.filter((task) => task.sessionEachDay);
  const crowded = report.atRisk.filter((task) => !task.alone);
  const heads: string[] = [];
  const proved = zh
    ? "有风险（已证明，已安排的复习都在原位）："
    : "At risk (proved, with the reviews already placed where they are): ";
  // Free time the standing preferences keep out is not "no free time": the free time they allow is said.
  const kept = report.preferences;
  const allowed = kept ? { en: " that your standing preferences allow", zh: "你的长期偏好允许的" } : { en: "", zh: "" };
  if (alone.length > 0)
    heads.push(
      zh
        ? `${proved}截止前已没有${allowed.zh}空闲时间放得下 ${list(alone)}。`
        : `${proved}no free time before ${alone.length === 1 ? "its deadline" : "their deadlines"}${allowed.en} holds ${list(alone)}.`,
    );
  if (apart.length > 0)
    heads.push(
      zh
        ? `${proved}${list(apart)}：截止前每个有${allowed.zh}空闲时间的日子都已安排了同一任务的另一次（同一任务一天只安排一次）。`
        : `${proved}${list(apart)}: each day before ${apart.length === 1 ? "its deadline" : "their deadlines"} with free time${allowed.en} for ${apart.length === 1 ? "it" : "them"} already holds another session of the same task (no two sessions on one day).`,
    );
  if (crowded.length > 0)
    heads.push(
      zh
        ? `${proved}截止前${allowed.zh}空闲时间最多只能同时放下 ${report.due} 个有截止的复习中的 ${report.most} 个，放不下的：${list(crowded)}。`
        : `${proved}the free time before the deadlines${allowed.en} holds at most ${report.most} of the ${report.due} reviews due ` +
            `together; left without a place: ${list(crowded)}.`,
    );
  if (kept) {
    const one = report.due === 1;
    const holds = zh
      ? one
        ? "截止前有空闲时间放得下它"
        : `截止前的空闲时间能同时放下 ${report.due} 个有截止的复习中的 ${kept.freed} 个`
      : one
        ? "free time before its deadline holds it"
        : `the free time before the deadlines holds ${kept.freed} of the ${report.due} reviews due together`;
    heads.push(
      zh
        ? `如果没有你的长期偏好${kept.rules.map((rule) => `“${JSON.parse(rule) as string}”`).join("、")}，${holds}（/prefs 查看偏好，/forget 删除一条）。`
        : `Without your standing preference${kept.rules.length === 1 ? "" : "s"} ${kept.rules.join(", ")}, ${holds} (/prefs lists your preferences, /forget removes one).`,
    );
  }
  const head = heads.join(zh ? "" : " ");
  const recovery = report.recovery;
  // What the person can do when no move recovers it.
  const remedy = kept
    ? zh
      ? `请腾出截止前的时间、取消${kept.rules.length === 1 ? "这条" : "其中一条"}偏好，或调整截止日期。`
      : `free time before the deadline, lift ${kept.rules.length === 1 ? "the preference" : "one of those preferences"}, or move the deadline.`
    : zh
      ? "请腾出截止前的时间，或调整截止日期。"
      : "free time before the deadline, or move the deadline.";
  if (!recovery) {
    if (report.noneProved === false)
      return zh
        ? `${head}没有找到靠挪动还没开始的复习补回的方案（未证明）。`
        : `${head} No change moving the reviews not yet started was found to recover it (not proved).`;
    if (report.trades)
      return zh
        ? `${head}挪动还没开始的复习只能用一个有截止的复习换另一个，赶上截止的不会更多（已证明）：${remedy}`
        : `${head} Moving the reviews not yet started only trades one review due for another, meeting no more deadlines (proved): ${remedy}`;
    return zh
      ? `${head}即使挪动所有还没开始的复习也补不回来（已证明）：${remedy}`
      : `${head} Moving every review not yet started recovers none of it (proved): ${remedy}`;
  }
  const named = new Map(report.atRisk.map((task) => [task.id, task.name]));
  const recovers = recovery.recovers.filter((id) => named.has(id)).map((id) => named.get(id)!);
  // What to say to have it: `propose_recovery` lists it as a card ("recover" is read as that request).
  return zh
    ? `${head}补救最多的方案（补回 ${recovers.join("、")}）：${recovery.said.join("；")}。回复“补救”即可在卡片上确认。`
    : `${head} The change that recovers the most (${recovers.join(", ")}): ${recovery.said.join("; ")}. Say "recover" to have it on a card.`;
}

/** The domain's `atRisk`: the reviews at risk (proved, or not found within the budget) and the words, or undefined. */
export function atRiskNotice(state: ScheduleState, language: Language): AtRiskNotice | undefined {
  const report = atRiskOf(state, {}, language);
  const text = atRiskText(report, language);
  return text === undefined ? undefined : { ids: [...report.atRisk, ...report.unproved].map((task) => task.id), text };
}
