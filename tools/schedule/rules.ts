/**
 * The hard rules of task classes and task items (issue 30): a class's excluded days of the week and blocked days,
 * a task's deadline (`dueBefore`: a day, or an event such as an exam) and earliest day, and a class's buffer (free
 * slots between one of its sessions and anything else on the same day). The placement engine checks them on every
 * write (a refusal names the rule), and the search keeps to them (`searchLimitsOf`), so the backend never proposes
 * what a write would refuse. The soft rules (preferred parts of the day, the strategy) are the health judge's.
 *
 * The user's standing preferences (`ScheduleState.standing`, issue 31) are rules too, over every task item: a day
 * they rule out ("never on Monday", "only on weekends") and the slots they rule out ("nothing before 10:00", "only in
 * the evening") are hard like a class's; a preferred part of the day is soft, for a class that names none. A refusal
 * names the preference and how to remove it.
 */
import { firstSlotFrom, lastSlotBy, placeName } from "./calendar.js";
import { clockOfState, hasStarted, passedText, type WindowClock } from "./window-clock.js";
import { dateNote, formatRange, type Dating } from "./format.js";
import { breakInside } from "./slot-range.js";
import { saySummary } from "./summary-phrases.js";
import { weekdayName, type Language } from "../../contracts/language.js";
import { daysOfRule } from "../../contracts/preferences.js";
import {
  dayOfWeekName,
  formatDate,
  type DayPart,
  type ScheduleState,
  type ScheduleTask,
  type ScheduleWindow,
  type SlotRange,
  type StandingRule,
  type TaskCategory,
  type TaskItem,
  type TaskPriority,
} from "./state.js";

/** The slots of a day the standing preferences allow: the first and the last, each with the preference behind it. */
export interface DayBounds {
  /** The first slot of a day allowed, and the preference behind it. */
  from?: { slot: number; rule: StandingRule };
  /** The last slot of a day allowed, and the preference behind it. */
  to?: { slot: number; rule: StandingRule };
}

/** The user's standing preferences as the rules read them. */
export interface StandingBook extends DayBounds {
  /** Days of the week ruled out, each with the preference that rules it out. */
  avoid: ReadonlyMap<number, StandingRule>;
  /**
   * By day of the week, the bounds of a day some preference of some days holds on ("nothing before 10:00 on
   * weekdays"): those preferences' and every day's (`from`, `to`) together. A day of the week not here keeps to
   * every day's bounds alone.
   */
  onWeekday?: ReadonlyMap<number, DayBounds>;
  /** Soft: the parts of the day preferred (for a class that names none). */
  preferredParts: DayPart[];
  /** Soft, by day of the week: the parts preferred on the days a preference of some days names (over `preferredParts`). */
  preferredOn?: ReadonlyMap<number, DayPart[]>;
}

/** The slots the standing preferences allow on a day of the week `weekday`. */
export function boundsOn(standing: StandingBook, weekday: number): DayBounds {
  return standing.onWeekday?.get(weekday) ?? standing;
}

/** The parts of the day the standing preferences prefer on a day of the week `weekday` (soft). */
export function preferredPartsOn(standing: StandingBook, weekday: number): DayPart[] {
  return standing.preferredOn?.get(weekday) ?? standing.preferredParts;
}

/** What the rules need to know of a schedule. */
export interface RuleBook {
  /** Task classes by id. */
  categories: ReadonlyMap<string, TaskCategory>;
  /** Day of the week of each day index (index 0 is day 1). */
  weekdays: readonly number[];
  /** Each event's earliest range, by id. */
  eventStarts: ReadonlyMap<string, { range: SlotRange; name: string }>;
  /** True when some class keeps a buffer (no buffer to check otherwise). */
  buffered: boolean;
  /** The window, so that a refusal names dates and clock times beside day and slot indices (when it has them). */
  window?: Dating;
  /** The user's standing preferences. */
  standing: StandingBook;
  /** The clock of the run (`ScheduleState.now`), when the window has a past: no review goes into a started slot. */
  clock?: WindowClock;
  /** Where the items of each task group are (`groupDaysOf`): no two of a group on one day unless it allows it. */
  groupDays?: GroupDays;
}

/** By task group id, by day: the ids of the group's items placed (or done) there. */
export type GroupDays = ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>;

/**
 * Where each task group's items are (issue 47): by group, by day, the items on it — of the groups whose items may not
 * share a day. `rangeOf` gives a task's place (a placed or done item's; a batch passes where its tasks land); undefined
 * when no group is there.
 */
export function groupDaysOf(
  tasks: readonly ScheduleTask[],
  rangeOf: (task: ScheduleTask, position: number) => SlotRange | undefined = (task) => task.slots?.[0],
): GroupDays | undefined {
  const groups = new Map<string, Map<number, string[]>>();
  for (const [position, task] of tasks.entries()) {
    if (task.source !== "task_item" || !task.group || task.group.sameDay) continue;
    const range = rangeOf(task, position);
    if (!range) continue;
    const days = groups.get(task.group.id) ?? new Map<number, string[]>();
    days.set(range.day, [...(days.get(range.day) ?? []), task.id]);
    groups.set(task.group.id, days);
  }
  return groups.size > 0 ? groups : undefined;
}

/** The rule book of a schedule. */
export function ruleBookOf(
  state: Pick<ScheduleState, "window" | "categories" | "tasks" | "standing" | "now">,
): RuleBook {
  const eventStarts = new Map<string, { range: SlotRange; name: string }>();
  for (const task of state.tasks) {
    if (task.source !== "event") continue;
    const first = task.slots.reduce<SlotRange | undefined>(
      (earliest, range) =>
        !earliest || range.day < earliest.day || (range.day === earliest.day && range.start < earliest.start)
          ? range
          : earliest,
      undefined,
    );
    if (first) eventStarts.set(task.id, { range: first, name: task.name });
  }
  const weekdays = Array.from(
    { length: state.window.totalDays },
    (_, offset) => state.window.days[offset]?.dayOfWeek ?? (offset % 7) + 1,
  );
  const clock = clockOfState(state);
  const groupDays = groupDaysOf(state.tasks);
  return {
    categories: new Map(state.categories.map((category) => [category.id, category])),
    weekdays,
    eventStarts,
    buffered: state.categories.some((category) => (category.bufferSlots ?? 0) > 0),
    standing: standingBookOf(state.standing ?? [], state.window),
    window: state.window,
    ...(clock ? { clock } : {}),
    ...(groupDays ? { groupDays } : {}),
  };
}

/**
 * The standing preferences as rules of a window: the days and slots they rule out, the parts they prefer — on every
 * day, and on the days of the week a preference of some days names (`onWeekday`, `preferredOn`).
 */
export function standingBookOf(
  rules: readonly StandingRule[],
  window: Pick<ScheduleWindow, "slotsPerDay" | "slotTimes">,
): StandingBook {
  const avoid = new Map<number, StandingRule>();
  const book: StandingBook = { avoid, preferredParts: [] };
  const scoped: StandingRule[] = [];
  for (const rule of rules) {
    if (daysOfRule(rule)) {
      scoped.push(rule);
      continue;
    }
    if (rule.kind === "avoid_day") avoid.set(rule.value, rule);
    if (rule.kind === "only_days")
      for (let weekday = 1; weekday <= 7; weekday += 1)
        if (!rule.value.includes(weekday) && !avoid.has(weekday)) avoid.set(weekday, rule);
    if (rule.kind === "part_of_day") book.preferredParts.push(rule.value);
    boundBy(book, rule, window);
  }
  if (scoped.length === 0) return book;
  const onWeekday = new Map<number, DayBounds>();
  const preferredOn = new Map<number, DayPart[]>();
  for (const rule of scoped)
    for (const weekday of daysOfRule(rule)!) {
      if (rule.kind === "part_of_day") preferredOn.set(weekday, [...(preferredOn.get(weekday) ?? []), rule.value]);
      const bounds = onWeekday.get(weekday) ?? {
        ...(book.from ? { from: book.from } : {}),
        ...(book.to ? { to: book.to } : {}),
      };
      boundBy(bounds, rule, window);
      onWeekday.set(weekday, bounds);
    }
  return { ...book, onWeekday, ...(preferredOn.size > 0 ? { preferredOn } : {}) };
}

/** `bounds` narrowed by the slots `rule` allows in a day (a rule of no slots — a day's, a soft one — leaves them). */
function boundBy(bounds: DayBounds, rule: StandingRule, window: Pick<ScheduleWindow, "slotsPerDay" | "slotTimes">) {
  const bound = (from: number, to: number) => {
    if (!bounds.from || from > bounds.from.slot) bounds.from = { slot: from, rule };
    if (!bounds.to || to < bounds.to.slot) bounds.to = { slot: to, rule };
  };
  if (rule.kind === "only_part_of_day") {
    const part = slotsOfPart(rule.value, window);
    bound(part.from, part.to);
  }
  // The morning kept out: a day starts after it; the evening kept out: a day ends before it (a part the grid has no
  // slot in keeps nothing out).
  if (rule.kind === "avoid_part_of_day") {
    const part = slotsOfPart(rule.value, window);
    if (part.from <= part.to)
      if (rule.value === "morning") bound(part.to + 1, window.slotsPerDay);
      else bound(1, part.from - 1);
  }
  // By the clock: the first slot starting at or after the hour (a window without slot times has no clock to keep to).
  const times = window.slotTimes && window.slotTimes.length === window.slotsPerDay ? window.slotTimes : undefined;
  if (rule.kind === "not_before_hour" && times) bound(firstSlotFrom(times, rule.value), window.slotsPerDay);
  // The last slot ending by the hour (0 when none does: the day keeps no slot, `from` past `to`).
  if (rule.kind === "not_after_hour" && times) bound(1, lastSlotBy(times, rule.value));
}

/**
 * The bounds of the days of a window some standing preference of some days holds on, by day index: what a search
 * keeps to beside every day's bounds (`withRules`); undefined when no such preference is kept. Found once a rule book.
 */
function dayBoundsOf(book: RuleBook): ReadonlyMap<number, { from: number; to: number }> | undefined {
  const { onWeekday } = book.standing;
  if (!onWeekday) return undefined;
  const known = dayBoundsByBook.get(book);
  if (known) return known;
  const bounds = new Map<number, { from: number; to: number }>();
  for (let day = 1; day <= book.weekdays.length; day += 1) {
    const on = onWeekday.get(weekdayOf(day, book));
    if (on) bounds.set(day, { from: on.from?.slot ?? 1, to: on.to?.slot ?? Number.MAX_SAFE_INTEGER });
  }
  dayBoundsByBook.set(book, bounds);
  return bounds;
}

/** `dayBoundsOf`, per rule book (read only). */
const dayBoundsByBook = new WeakMap<RuleBook, ReadonlyMap<number, { from: number; to: number }>>();

/** True when a task's place from `start` to `end` on `day` keeps to its bounds of that day (`SearchTask.dayBounds`). */
export function withinDayBounds(task: Pick<SearchTask, "dayBounds">, day: number, start: number, end: number): boolean {
  const bound = task.dayBounds?.get(day);
  return bound === undefined || (start >= bound.from && end <= bound.to);
}

/** What a person does to lift a standing preference, said after a refusal. */
function liftHint(rule: StandingRule): string {
  return rule.kind === "avoid_day"
    ? saySummary("en", "liftStandingDay", { rule: rule.id, weekday: weekdayName(rule.value, "en") })
    : saySummary("en", "liftStanding", { rule: rule.id });
}

/** `task <id> "<name>"`, or `event <id> "<name>"` for an event. */
function label(task: ScheduleTask): string {
  return `${task.source === "event" ? "event" : "task"} ${task.id} ${JSON.stringify(task.name)}`;
}

/**
 * `day <d>`, with its date in a dated window: `day 7 (Sun 17 Mar 2024)` (the tools' text; `readable.ts` gives a person
 * the date alone).
 */
export function dayText(day: number, book: Pick<RuleBook, "window">): string {
  const date = book.window?.days[day - 1]?.date;
  return date === undefined ? `day ${day}` : `day ${day} (${formatDate(date)} ${date.slice(0, 4)})`;
}

/** A day a weekday rule refuses: by its date in a dated window (`dayText`), else `day 1 (Mon)`. */
function weekdayText(day: number, weekday: number, book: RuleBook): string {
  return book.window?.days[day - 1]?.date !== undefined ? dayText(day, book) : `day ${day} (${dayOfWeekName(weekday)})`;
}

/**
 * A class's name as a refusal quotes it. Built only in a refusal, and by a function of the module's (no closure made
 * per check): the search asks every day of every task, and almost all of them pass.
 */
function classNameOf(category: { name: string } | undefined): string {
  return category ? JSON.stringify(category.name) : "";
}

/**
 * The rule a place breaks, by name (`ruleText` says it in words): a check that makes nothing, since the searches and the
 * week model ask of many places and most refusals there are never told.
 */
type BrokenRule =
  | "excluded_day"
  | "blocked_day"
  | "avoided_day"
  | "before_from"
  | "after_to"
  | "across_break"
  | "same_day"
  | "too_early"
  | "due_day"
  | "due_event";

/** The weekday of `day` as the rules read it (the window's, else counted from day 1 as a Monday). */
export function weekdayOf(day: number, book: Pick<RuleBook, "weekdays">): number {
  return book.weekdays[day - 1] ?? ((day - 1) % 7) + 1;
}

/** Which rule `task` on `range` breaks, in the order `placementRuleProblem` tells them, or undefined. */
function brokenRule(task: TaskItem, range: SlotRange, book: RuleBook, slots: boolean): BrokenRule | undefined {
  const category = book.categories.get(task.categoryId);
  const weekday = weekdayOf(range.day, book);
  if (category?.excludedDaysOfWeek?.includes(weekday)) return "excluded_day";
  if (category?.blockedDays?.includes(range.day)) return "blocked_day";
  const { standing } = book;
  if (standing.avoid.get(weekday)) return "avoided_day";
  const bounds = boundsOn(standing, weekday);
  if (slots && bounds.from && range.start < bounds.from.slot) return "before_from";
  if (slots && bounds.to && range.end > bounds.to.slot) return "after_to";
  if (slots && breakInside(range, book.window) !== undefined) return "across_break";
  if (sameDayOther(task, range, book) !== undefined) return "same_day";
  if (task.earliestDay !== undefined && range.day < task.earliestDay) return "too_early";
  const due = task.dueBefore;
  if (due && "day" in due && range.day >= due.day) return "due_day";
  if (due && "eventId" in due && dueEventPassed(due.eventId, range, book)) return "due_event";
  return undefined;
}

/** The deadline event `eventId`, when `range` is not done before it starts. */
function dueEventPassed(eventId: string, range: SlotRange, book: RuleBook) {
  const event = book.eventStarts.get(eventId);
  return event && (range.day > event.range.day || (range.day === event.range.day && range.end >= event.range.start))
    ? event
    : undefined;
}

/** The rule `broken` that `task` on `range` breaks, in words. */
function ruleText(broken: BrokenRule, task: TaskItem, range: SlotRange, book: RuleBook): string {
  const category = book.categories.get(task.categoryId);
  const weekday = weekdayOf(range.day, book);
  const { standing } = book;
  switch (broken) {
    case "excluded_day":
      return `${label(task)}${saySummary("en", "classExcludesDay", {
        where: weekdayText(range.day, weekday, book),
        className: classNameOf(category),
        weekday: dayOfWeekName(weekday),
      })}`;
    case "blocked_day":
      return `${label(task)}${saySummary("en", "classBlocksDay", { where: dayText(range.day, book), className: classNameOf(category) })}`;
    case "avoided_day": {
      const day = standing.avoid.get(weekday)!;
      const where = weekdayText(range.day, weekday, book);
      return `${label(task)}${saySummary("en", "standingDayOut", { where, said: JSON.stringify(day.text), weekday: dayOfWeekName(weekday) })}${liftHint(day)}`;
    }
    case "before_from": {
      const bounds = boundsOn(standing, weekday);
      const { slot: from, rule } = bounds.from!;
      const places = {
        slot: range.start,
        said: JSON.stringify(rule.text),
        from,
        ...(bounds.to ? { to: bounds.to.slot } : {}),
      };
      const key =
        from > (bounds.to?.slot ?? book.window?.slotTimes?.length ?? Infinity)
          ? "standingStartNone"
          : bounds.to
            ? "standingStartRange"
            : "standingStartFrom";
      return `${label(task)}${saySummary("en", key, places)}${liftHint(rule)}`;
    }
    case "after_to": {
      const bounds = boundsOn(standing, weekday);
      const { slot: to, rule } = bounds.to!;
      const said = JSON.stringify(rule.text);
      // A day the preferences leave no slot of ("nothing after 07:00"): said so, never "slots up to 0".
      if (to < (bounds.from?.slot ?? 1))
        return `${label(task)}${saySummary("en", "standingStartNone", { slot: range.start, said })}${liftHint(rule)}`;
      return `${label(task)}${saySummary("en", "standingEndBy", { slot: range.end, said, to })}${liftHint(rule)}`;
    }
    case "across_break": {
      const slot = breakInside(range, book.window)!;
      const times = book.window!.slotTimes!;
      return `${label(task)}${saySummary("en", "acrossBreak", {
        where: formatRange(range, book.window),
        breakStart: times[slot - 1]!.end,
        breakEnd: times[slot]!.start,
      })}`;
    }
    case "same_day": {
      const group = task.group!;
      return `${label(task)}${saySummary("en", "sameDaySession", {
        where: dayText(range.day, book),
        other: sameDayOther(task, range, book)!,
        what: group.kind === "habit" ? "habit" : "task",
        group: group.id,
      })}`;
    }
    case "too_early":
      return `${label(task)}${saySummary("en", "notBeforeEarliest", {
        earliest: dayText(task.earliestDay!, book),
        where: dayText(range.day, book),
      })}`;
    case "due_day": {
      const due = task.dueBefore as { day: number };
      return `${label(task)}${saySummary("en", "dueBeforeDay", { due: dayText(due.day, book), where: dayText(range.day, book) })}`;
    }
    case "due_event": {
      const due = task.dueBefore as { eventId: string };
      const event = dueEventPassed(due.eventId, range, book)!;
      const starts = { day: event.range.day, start: event.range.start, end: event.range.start };
      return `${label(task)}${saySummary("en", "dueBeforeEvent", {
        deadline: `event ${due.eventId} ${JSON.stringify(event.name)}`,
        deadlineAt: `day ${event.range.day} slot ${event.range.start}${dateNote(starts, book.window, { startOnly: true })}`,
        where: formatRange(range, book.window),
      })}`;
    }
  }
}

/**
 * Why `task` may not go on `range` under its class's days, its own deadline and earliest day, and the user's standing
 * preferences, or undefined. `slots: false` checks the day only (the search keeps to the slots by its bounds).
 */
export function placementRuleProblem(
  task: TaskItem,
  range: SlotRange,
  book: RuleBook,
  options: { slots?: boolean } = {},
): string | undefined {
  const broken = brokenRule(task, range, book, options.slots ?? true);
  return broken === undefined ? undefined : ruleText(broken, task, range, book);
}

/**
 * True when `placementRuleProblem` finds a problem with `task` on `range` (its slots too, or `slots: false` its day
 * only), without putting it in words: for the checks a search or a scan makes of many places.
 */
export function breaksPlacementRule(task: TaskItem, range: SlotRange, book: RuleBook, slots = true): boolean {
  return brokenRule(task, range, book, slots) !== undefined;
}

/** Another item of `task`'s group (a habit, a long task's sessions) on `range`'s day, by id, or undefined. */
function sameDayOther(task: TaskItem, range: SlotRange, book: RuleBook): string | undefined {
  if (!task.group || task.group.sameDay || !book.groupDays) return undefined;
  const ids = book.groupDays.get(task.group.id)?.get(range.day);
  if (ids === undefined) return undefined;
  for (const id of ids) if (id !== task.id) return id;
  return undefined;
}

/**
 * Why `range` is out of reach by the clock (the hard rule of issue 47), or undefined: it starts in a slot that has
 * started — "day 2 slot 9 (Tue 1 Dec 16:00 has passed)".
 */
export function startedProblem(range: SlotRange, book: Pick<RuleBook, "clock" | "window">): string | undefined {
  if (!isStartedByClock(range, book) || !book.window) return undefined;
  return `day ${range.day} slot ${range.start}: ${passedText(book.window, range.day, range.start)}; only a slot not yet started can take a review`;
}

/**
 * True when `startedProblem` refuses `range` (it starts in a slot that has started), without putting it in words: for
 * the checks a search or a scan makes of many places.
 */
export function isStartedByClock(range: SlotRange, book: Pick<RuleBook, "clock" | "window">): boolean {
  return book.window !== undefined && hasStarted(range.day, range.start, book.clock);
}

/**
 * True when `task` — a placed review, or an event on its place (an exam a person moves) — is in the past (its place
 * has started): fixed, never moved.
 */
export function isFixedByClock(task: ScheduleTask, book: Pick<RuleBook, "clock">): boolean {
  const placed = task.source === "event" || task.status === "placed";
  const range = placed ? task.slots?.[0] : undefined;
  return range !== undefined && hasStarted(range.day, range.start, book.clock);
}

/**
 * Why `task` may not move (the past is fixed: its place has started), or undefined; `so` says what that means for the
 * write asked ("it does not move" by default).
 */
export function fixedProblem(
  task: ScheduleTask,
  book: Pick<RuleBook, "clock" | "window">,
  so = "it does not move",
): string | undefined {
  if (!isFixedByClock(task, book) || !book.window) return undefined;
  const range = task.slots![0]!;
  return `${label(task)} is on day ${range.day} slot ${range.start}, and ${passedText(book.window, range.day, range.start)}: the past is fixed, so ${so}`;
}

/**
 * A write the clock refused, as data (the refusal's `ToolRun.data`): the review or event whose place has started, and
 * the write asked. The model reads `fixedProblem`'s text; a person is told it by `pastRefusalText`, in their language.
 */
export interface PastRefusal {
  /** What refused it: the clock (the past is fixed). */
  refused: "past";
  /** The write asked: a move (or swap) of it, taking it off, or removing an event with no time ahead. */
  write: "move" | "unplace" | "remove";
  /** The review or event, by id and name. */
  task: { id: string; name: string };
  /** Its place, which has started. */
  range: SlotRange;
}

/** `fixedProblem` as data (`PastRefusal`), or undefined when the clock does not fix `task`. */
export function pastRefusal(
  task: ScheduleTask,
  book: Pick<RuleBook, "clock" | "window">,
  write: PastRefusal["write"],
): PastRefusal | undefined {
  if (!isFixedByClock(task, book) || !book.window) return undefined;
  const range = task.slots![0]!;
  return { refused: "past", write, task: { id: task.id, name: task.name }, range: { ...range } };
}

/** A tool refusal's data when it says what refused it is `refused` ("past", "buffer"), its fields not yet checked. */
function refusalSaying<T extends { refused: string }>(data: unknown, refused: T["refused"]): Partial<T> | undefined {
  const refusal = data as Partial<T> | null | undefined;
  return typeof refusal === "object" && refusal !== null && refusal.refused === refused ? refusal : undefined;
}

/** True when `data` is a `PastRefusal` (a tool refusal's data). */
export function isPastRefusal(data: unknown): data is PastRefusal {
  const refusal = refusalSaying<PastRefusal>(data, "past");
  return typeof refusal?.task?.name === "string" && typeof refusal.range?.day === "number";
}

/**
 * A `PastRefusal` as a person reads it, in `language`: the review by name, its place by date and clock time, and what
 * to do instead — never its id, a day or slot index, or a tool's name. "\"Matrix review\" (Tue 8 Dec, 16:00–17:40)
 * has already started: the past is fixed, so it is not taken off; tell me you did it or missed it instead".
 */
export function pastRefusalText(
  refusal: PastRefusal,
  window: Pick<ScheduleWindow, "days" | "slotTimes">,
  language: Language = "en",
): string {
  // Said from the summary phrases, so a step that stores it in English is read back in Chinese (`summaryInChinese`).
  const places = {
    said: language === "zh" ? `“${refusal.task.name}”` : JSON.stringify(refusal.task.name),
    place: placeName(window, refusal.range, language),
  };
  const key = { remove: "pastNoTimeAhead", unplace: "pastStartedKept", move: "pastStarted" } as const;
  return saySummary(language, key[refusal.write], places);
}

/**
 * True when `task`'s deadline has passed by the clock: "due before day d" once day d has begun, "due before an event"
 * once the event's first slot has started (the clock rule's `hasStarted`). A deadline still ahead with no slot left
 * before it (an exam at 14:00, the clock at 13:30 past the last slot before it) has not passed: the search finds no
 * room for the review, and says so, never "deadline passed".
 */
export function deadlinePassed(task: TaskItem, book: RuleBook): boolean {
  const { clock } = book;
  const due = clock ? searchLimitsOf(task, book).endBefore : undefined;
  if (clock === undefined || due === undefined) return false;
  return task.dueBefore && "day" in task.dueBefore ? due.day <= clock.dayIndex : hasStarted(due.day, due.slot, clock);
}

/**
 * True when `task` is an event reviews may sit in whose slots hold every slot of `range` — one of its ranges, or two
 * that meet on the day (a write embeds a review there as in one: the same event holds each of its slots).
 */
export function isHostOf(task: ScheduleTask, range: SlotRange): boolean {
  if (task.source !== "event" || !task.canEmbed) return false;
  for (let slot = range.start; slot <= range.end; slot += 1)
    if (!task.slots.some((slots) => slots.day === range.day && slots.start <= slot && slots.end >= slot)) return false;
  return true;
}

/** A task item's buffer: the free slots its class keeps around each session (0 for none). */
export function bufferOf(task: ScheduleTask, book: RuleBook): number {
  return task.source === "task_item" ? (book.categories.get(task.categoryId)?.bufferSlots ?? 0) : 0;
}

/** What occupies a slot: the positions (in the task list) there, without a host and embedded. */
export type SlotOccupants = (day: number, slot: number) => readonly number[];

/**
 * A write a class's buffer refused, as data (the refusal's `ToolRun.data`): the review whose class keeps `buffer` free
 * slots around each of its sessions, and the task found nearer it. A batch that moves several reviews learns from it
 * what each review's own search could not show: how far apart two of them must land.
 */
export interface BufferRefusal {
  /** What refused it: a class's buffer. */
  refused: "buffer";
  /** The review whose buffer is broken, by id and name, with its class. */
  task: { id: string; name: string; categoryId: string };
  /** The task within its buffer. */
  neighbour: { id: string; name: string };
  /** The free slots its class keeps each side. */
  buffer: number;
}

/** True when `data` is a `BufferRefusal` (a tool refusal's data). */
export function isBufferRefusal(data: unknown): data is BufferRefusal {
  const refusal = refusalSaying<BufferRefusal>(data, "buffer");
  return (
    typeof refusal?.task?.categoryId === "string" &&
    typeof refusal.neighbour?.id === "string" &&
    typeof refusal.buffer === "number"
  );
}

/**
 * The first buffer a set of landings breaks, or undefined: around each placed task item whose class keeps a buffer
 * on the days `landed` touches, no other task (its own host aside) within `buffer` slots — counted only when the
 * buffered task or the one too close is among `landed` (an old week's breaches block no unrelated write).
 */
export function bufferProblem(...checked: Parameters<typeof bufferBreach>): string | undefined {
  return bufferBreach(...checked)?.problem;
}

/** `bufferProblem`, with the breach as data (`BufferRefusal`). */
export function bufferBreach(
  tasks: readonly ScheduleTask[],
  rangeOf: (position: number) => SlotRange | undefined,
  occupants: SlotOccupants,
  slotsPerDay: number,
  landed: ReadonlySet<number>,
  book: RuleBook,
): { problem: string; refusal: BufferRefusal } | undefined {
  if (!book.buffered) return undefined;
  const days = new Set([...landed].flatMap((position) => rangeOf(position)?.day ?? []));
  for (const [position, task] of tasks.entries()) {
    const buffer = bufferOf(task, book);
    const range = rangeOf(position);
    if (buffer === 0 || !range || !days.has(range.day) || task.source !== "task_item") continue;
    for (const slot of [
      ...Array.from({ length: buffer }, (_, offset) => range.start - 1 - offset),
      ...Array.from({ length: buffer }, (_, offset) => range.end + 1 + offset),
    ]) {
      if (slot < 1 || slot > slotsPerDay) continue;
      for (const other of occupants(range.day, slot)) {
        const neighbour = tasks[other];
        // Its own host (a study hall it sits inside) is no neighbour.
        const hosts = neighbour !== undefined && isHostOf(neighbour, range);
        if (other === position || !neighbour || hosts || (!landed.has(position) && !landed.has(other))) continue;
        const category = book.categories.get(task.categoryId);
        const held = saySummary("en", "bufferHeld", {
          buffer,
          className: JSON.stringify(category?.name ?? task.categoryId),
          neighbour: label(neighbour),
        });
        return {
          problem: `${label(task)}${held}day ${range.day} slot ${slot}${dateNote({ day: range.day, start: slot, end: slot }, book.window)}`,
          refusal: {
            refused: "buffer",
            task: { id: task.id, name: task.name, categoryId: task.categoryId },
            neighbour: { id: neighbour.id, name: neighbour.name },
            buffer,
          },
        };
      }
    }
  }
  return undefined;
}

/**
 * What the placement search must keep to for a task item: the days its rules rule out, its deadline (the day and slot
 * it ends before: the day itself, or its event's first slot), and its buffer.
 */
export function searchLimitsOf(
  task: TaskItem,
  book: RuleBook,
): { notDays: Set<number>; pad: number; endBefore?: { day: number; slot: number } } {
  const event =
    task.dueBefore && "eventId" in task.dueBefore ? book.eventStarts.get(task.dueBefore.eventId) : undefined;
  const due = task.dueBefore;
  const endBefore = event
    ? { day: event.range.day, slot: event.range.start }
    : due && "day" in due
      ? { day: due.day, slot: 1 }
      : undefined;
  return {
    notDays: new Set(ruledOutDays(task, event, book)),
    pad: bufferOf(task, book),
    ...(endBefore ? { endBefore } : {}),
  };
}

/**
 * The days of the window `task`'s rules rule out, kept per rule book for the tasks that share what the rules read of
 * a task (its class, earliest day and deadline: every task but those of a group kept apart, whose days depend on where
 * the group's other items are). Each is probed once a day, so the days of a window's tasks are found in time that
 * grows with the window, not with its tasks times its days.
 */
function ruledOutDays(task: TaskItem, event: { range: SlotRange } | undefined, book: RuleBook): ReadonlySet<number> {
  const shared = !task.group || task.group.sameDay;
  const key = shared ? `${task.categoryId}|${task.earliestDay ?? ""}|${JSON.stringify(task.dueBefore ?? null)}` : "";
  let known = shared ? ruledOutByBook.get(book) : undefined;
  const remembered = known?.get(key);
  if (remembered) return remembered;
  const undated: TaskItem = { ...task };
  delete undated.dueBefore;
  const notDays = new Set<number>();
  for (let day = 1; day <= book.weekdays.length; day += 1) {
    // The day of a deadline event is kept to by its slot (`endBefore`); the days after it are out.
    const probe = { day, start: 1, end: 1 };
    if (event?.range.day === day) {
      if (breaksPlacementRule(undated, probe, book, false)) notDays.add(day);
    } else if (breaksPlacementRule(task, probe, book, false)) notDays.add(day);
  }
  if (shared) {
    known ??= new Map();
    ruledOutByBook.set(book, known);
    known.set(key, notDays);
  }
  return notDays;
}

/** The days `ruledOutDays` found, per rule book (read only: a book is not changed once made), per what it reads. */
const ruledOutByBook = new WeakMap<RuleBook, Map<string, ReadonlySet<number>>>();

/** A search task kept to the task's hard rules too: the days its class and deadline rule out, its buffer, its priority. */
export function withRules(searchTask: SearchTask, task: TaskItem, book: RuleBook): SearchTask {
  const rules = searchLimitsOf(task, book);
  const notDays = new Set([...(searchTask.notDays ?? []), ...rules.notDays]);
  // The standing preferences' slot bounds narrow the task's own.
  const { from, to } = book.standing;
  const bounds = {
    ...(from ? { from: Math.max(searchTask.from ?? 1, from.slot) } : {}),
    ...(to ? { to: Math.min(searchTask.to ?? Number.MAX_SAFE_INTEGER, to.slot) } : {}),
  };
  // The preferences of some days bound those days on top (`dayBounds`).
  const dayBounds = dayBoundsOf(book);
  return {
    ...searchTask,
    ...bounds,
    ...(dayBounds && dayBounds.size > 0 ? { dayBounds } : {}),
    ...(notDays.size > 0 ? { notDays } : {}),
    ...(rules.pad > 0 ? { pad: rules.pad } : {}),
    ...(rules.endBefore ? { endBefore: rules.endBefore } : {}),
    ...(task.priority && task.priority !== "normal" ? { priority: task.priority } : {}),
    ...(task.group && !task.group.sameDay ? { group: task.group.id } : {}),
  };
}

/**
 * The slots a part of the day covers: by the clock when the window has slot times (morning before 12:00, afternoon
 * before 18:00, evening after), else by thirds of the day's slots. A part the clock times have no slot in (the evening
 * of a grid that ends at 17:40) covers none — `from` past `to` — never the grid's last third: "only in the evening"
 * there leaves no place, as "never before 23:00" does, rather than one in the afternoon.
 */
export function slotsOfPart(
  part: DayPart,
  window: Pick<ScheduleWindow, "slotsPerDay" | "slotTimes">,
): { from: number; to: number } {
  const times = window.slotTimes;
  if (times && times.length === window.slotsPerDay) {
    const inPart = times.flatMap((time, index) => {
      const hour = Number(time.start.slice(0, 2));
      const of: DayPart = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
      return of === part ? [index + 1] : [];
    });
    return inPart.length > 0
      ? { from: Math.min(...inPart), to: Math.max(...inPart) }
      : { from: window.slotsPerDay + 1, to: window.slotsPerDay };
  }
  const third = Math.max(1, Math.round(window.slotsPerDay / 3));
  if (part === "morning") return { from: 1, to: Math.min(window.slotsPerDay, third) };
  if (part === "afternoon")
    return { from: Math.min(window.slotsPerDay, third + 1), to: Math.min(window.slotsPerDay, 2 * third) };
  return { from: Math.min(window.slotsPerDay, 2 * third + 1), to: window.slotsPerDay };
}

/** The parts of the day a range lies wholly inside. */
export function partsOf(range: SlotRange, window: Pick<ScheduleWindow, "slotsPerDay" | "slotTimes">): DayPart[] {
  return (["morning", "afternoon", "evening"] as const).filter((part) => {
    const slots = slotsOfPart(part, window);
    return range.start >= slots.from && range.end <= slots.to;
  });
}

/** A task to place, with the slots it may use. */
export interface SearchTask {
  /** Task id. */
  id: string;
  /** Consecutive slots it needs. */
  duration: number;
  /** Only these day indices, when given. */
  days?: ReadonlySet<number>;
  /** Never these day indices. */
  notDays?: ReadonlySet<number>;
  /** First slot it may start at. */
  from?: number;
  /** Last slot it may end at, inclusive. */
  to?: number;
  /**
   * By day index, the first slot it may start at and the last it may end at there, beside `from` and `to`: the days a
   * standing preference of some days bounds ("nothing before 10:00 on weekdays").
   */
  dayBounds?: ReadonlyMap<number, { from: number; to: number }>;
  /** Free slots it keeps on each side within its day, its host aside (its class's buffer). */
  pad?: number;
  /** Its deadline: it ends before this day and slot (`slot` 1: before the day). */
  endBefore?: { day: number; slot: number };
  /** Places rejected for it ("day:start"): never proposed. */
  notAt?: ReadonlySet<string>;
  /** How much it matters when not all fit; `normal` when absent. */
  priority?: TaskPriority;
  /** Its task group (a habit, a long task's sessions): no two tasks of one group go on one day. */
  group?: string;
}
