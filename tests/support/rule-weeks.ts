/**
 * Small generated weeks that carry rules (issue 46): task classes with excluded weekdays, blocked days, buffers,
 * session bounds and preferred parts; reviews due before a day or an exam, with earliest days and priorities; events
 * that host reviews (`canEmbed`) and locked exams; reviews already placed; and the user's standing preferences. At
 * most 7 days of 9 slots and 12 pending reviews, so the brute-force oracle (`schedule-oracle.ts`) answers quickly.
 *
 * Deterministic: one seed, one week. The reviews already placed are placed through the real `place` tool, so the week
 * itself keeps every rule. A kind drawn only when a suite asks for it (`RuleWeekOptions`) comes from a stream of its
 * own: the weeks of a suite that does not ask are the same as before the kind was added.
 */
import type { PreferenceRule } from "../../contracts/preferences.js";
import {
  consecutiveDays,
  parseScheduleState,
  placeTool,
  type EventTask,
  type ScheduleState,
  type TaskCategory,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { isFixedByClock, ruleBookOf } from "../../tools/schedule/rules.js";
import { mulberry32 } from "../../tools/schedule/sample-data.js";
import type { DayPart, StandingRule } from "../../tools/schedule/state.js";
import { oracle } from "./schedule-oracle.js";

const PARTS: DayPart[] = ["morning", "afternoon", "evening"];

/** The kinds a suite may ask a rule week to draw too (none by default). */
export interface RuleWeekOptions {
  /**
   * An hour nothing goes after (`not_after_hour`, "no studying after 9pm") on half the weeks with clock times: on every
   * day or on one weekday of the window, at the end of one of its slots — the last (it keeps every slot) or one before
   * the first ends (the day keeps none) now and then.
   */
  late?: boolean;
}

/**
 * The hour nothing goes after of week `seed` (`RuleWeekOptions.late`), drawn from its own stream, or undefined (half
 * the weeks). `firstHour` is when the first of the day's `slotsPerDay` one-hour slots starts.
 */
function lateRule(
  seed: number,
  firstHour: number,
  slotsPerDay: number,
  weekdays: readonly number[],
): { rule: PreferenceRule; text: string } | undefined {
  const random = mulberry32(seed * 15_485_863 + 11);
  const pick = (count: number) => Math.floor(random() * count);
  if (random() < 0.5) return undefined;
  // The hour slot `k` ends at, for k from 0 (before the first ends) to the last.
  const value = firstHour + pick(slotsPerDay + 1);
  if (pick(2) === 0) return { rule: { kind: "not_after_hour", value }, text: "nothing after that hour" };
  const days = [weekdays[pick(weekdays.length)]!];
  return { rule: { kind: "not_after_hour", value, days }, text: "nothing after that hour on that day" };
}

/** The rule-bearing week of `seed`: 1-7 days of 3-9 slots, 1-12 pending reviews; `options` asks for more kinds. */
export function ruleWeek(seed: number, options: RuleWeekOptions = {}): ScheduleState {
  const random = mulberry32(seed);
  const pick = (count: number) => Math.floor(random() * count);
  const chance = (share: number) => random() < share;
  const days = 1 + pick(7);
  const slotsPerDay = 3 + pick(7);
  const firstHour = 7 + pick(6);
  const clock = chance(0.5);
  const hour = (offset: number) => `${String(firstHour + offset).padStart(2, "0")}:00`;
  const window = {
    totalDays: days,
    slotsPerDay,
    days: consecutiveDays(days, 1, 1 + pick(7)),
    ...(clock
      ? { slotTimes: Array.from({ length: slotsPerDay }, (_, slot) => ({ start: hour(slot), end: hour(slot + 1) })) }
      : {}),
  };

  const categories: TaskCategory[] = Array.from({ length: 1 + pick(3) }, (_, index) => {
    const category: TaskCategory = { id: `class-${index + 1}`, name: `Class ${index + 1}` };
    if (chance(0.3)) category.excludedDaysOfWeek = [...new Set([1 + pick(7), ...(chance(0.3) ? [1 + pick(7)] : [])])];
    if (chance(0.25)) category.blockedDays = [1 + pick(days)];
    if (chance(0.45)) category.bufferSlots = chance(0.75) ? 1 : 2;
    if (chance(0.4)) category.preferredParts = [PARTS[pick(3)]!];
    if (chance(0.3)) category.minSession = 1 + pick(2);
    if (chance(0.3)) category.maxSession = Math.max(category.minSession ?? 1, 1 + pick(3));
    if (chance(0.3)) category.strategy = chance(0.5) ? "steady" : "compact";
    return category;
  });

  const taken = new Set<string>();
  const free = (day: number, start: number, end: number) => {
    for (let slot = start; slot <= end; slot += 1) if (taken.has(`${day}:${slot}`)) return false;
    return true;
  };
  const events: EventTask[] = [];
  for (let attempt = 0, wanted = pick(6); attempt < 20 && events.length < wanted; attempt += 1) {
    const length = 1 + pick(Math.min(3, slotsPerDay));
    const day = 1 + pick(days);
    const start = 1 + pick(slotsPerDay - length + 1);
    if (!free(day, start, start + length - 1)) continue;
    for (let slot = start; slot < start + length; slot += 1) taken.add(`${day}:${slot}`);
    const roll = random();
    const host = roll < 0.3 && length >= 2;
    const exam = !host && roll < 0.55;
    events.push({
      id: `event-${events.length + 1}`,
      name: host
        ? `Study hall ${events.length + 1}`
        : exam
          ? `Exam ${events.length + 1}`
          : `Lecture ${events.length + 1}`,
      source: "event",
      slots: [{ day, start, end: start + length - 1 }],
      canEmbed: host,
      locked: exam,
      embeds: [],
    });
  }

  const reviews: TaskItem[] = [];
  const placedCount = pick(4);
  const pendingCount = 1 + Math.min(11, pick(7) + pick(7));
  for (let index = 0; index < placedCount + pendingCount; index += 1) {
    const category = categories[pick(categories.length)]!;
    const low = category.minSession ?? 1;
    const high = Math.max(low, Math.min(category.maxSession ?? 3, 3));
    const review: TaskItem = {
      id: `review-${index + 1}`,
      name: `Review ${index + 1}`,
      source: "task_item",
      duration: Math.min(slotsPerDay, low + pick(high - low + 1)),
      categoryId: category.id,
      status: "pending",
    };
    if (index >= placedCount) {
      const due = random();
      if (due < 0.2) review.dueBefore = { day: 2 + pick(days) };
      else if (due < 0.4 && events.length > 0) {
        const exams = events.filter((event) => event.locked);
        review.dueBefore = { eventId: (exams.length > 0 ? exams : events)[pick(exams.length || events.length)]!.id };
      }
      if (chance(0.2)) review.earliestDay = 1 + pick(days);
      if (chance(0.5)) review.priority = (["high", "normal", "low"] as const)[pick(3)]!;
    }
    reviews.push(review);
  }

  const standing: StandingRule[] = [];
  const prefer = (rule: PreferenceRule, text: string) =>
    standing.push({ ...rule, text, id: `pref-${standing.length + 1}` });
  if (chance(0.2)) prefer({ kind: "avoid_day", value: 1 + pick(7) }, "never on that day");
  if (chance(0.08)) prefer({ kind: "only_days", value: [1 + pick(7), 1 + pick(7), 1 + pick(7)] }, "only on those days");
  if (chance(0.12)) prefer({ kind: "only_part_of_day", value: PARTS[pick(3)]! }, "only then");
  if (clock && chance(0.15)) prefer({ kind: "not_before_hour", value: firstHour + pick(4) }, "not early");
  if (chance(0.2)) prefer({ kind: "part_of_day", value: PARTS[pick(3)]! }, "rather then");
  // (From its own stream, so the draws above stay as they were; before the reviews placed, which keep it too — an
  // asked-for week's may land elsewhere.)
  const late =
    options.late && clock
      ? lateRule(
          seed,
          firstHour,
          slotsPerDay,
          window.days.map((day) => day.dayOfWeek),
        )
      : undefined;
  if (late) prefer(late.rule, late.text);

  let week: ScheduleState = parseScheduleState({ window, categories, tasks: [...events, ...reviews] });
  if (standing.length > 0) week = { ...week, standing };
  // The reviews placed before: through the place tool, so they keep every rule.
  for (const review of reviews.slice(0, placedCount)) {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const placed = placeTool.run(week, {
        task_id: review.id,
        day: 1 + pick(days),
        slot_start: 1 + pick(slotsPerDay - review.duration + 1),
      });
      if (placed.ok && placed.state) {
        week = placed.state;
        break;
      }
    }
  }
  // One that fit nowhere is left out of the week, so that at most 12 reviews are pending.
  const unplaced = new Set(
    reviews.slice(0, placedCount).flatMap((review) => {
      const now = week.tasks.find((task) => task.id === review.id);
      return now?.source === "task_item" && now.status === "pending" ? [review.id] : [];
    }),
  );
  return unplaced.size === 0 ? week : { ...week, tasks: week.tasks.filter((task) => !unplaced.has(task.id)) };
}

/**
 * The rule-bearing week of `seed` dated (from the week of Monday 11 March 2024, in Asia/Shanghai) with a clock on it
 * (issue 47): a fifth of the seeds before the window, a fifth after it, the rest on one of its days at a time of day
 * between 06:00 and 23:59 — so a clock falls before, between and inside slots.
 */
export function clockedWeek(seed: number, options: RuleWeekOptions = {}): ScheduleState {
  const week = ruleWeek(seed, options);
  const random = mulberry32(seed * 7919 + 17);
  const pick = (count: number) => Math.floor(random() * count);
  const firstDate = new Date(Date.UTC(2024, 2, 10 + week.window.days[0]!.dayOfWeek));
  const dateOf = (offset: number) => new Date(firstDate.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const days = week.window.days.map((day, offset) => ({ ...day, date: dateOf(offset) }));
  const roll = pick(5);
  const offset = roll === 0 ? -1 - pick(3) : roll === 1 ? days.length + pick(3) : pick(days.length);
  const time = `${String(6 + pick(18)).padStart(2, "0")}:${String(pick(60)).padStart(2, "0")}`;
  return {
    ...week,
    window: { ...week.window, days, timeZone: "Asia/Shanghai" },
    now: new Date(`${dateOf(offset)}T${time}:00+08:00`).toISOString(),
  };
}

/**
 * The rule-bearing week of `seed` with its pending reviews tied into task groups (issue 47: a long task's sessions, a
 * habit's occurrences): each pending review, by turns, in one of two groups or in none; a placed review of a group
 * now and then. No two of a group may share a day.
 */
export function sessionWeek(seed: number, options: RuleWeekOptions = {}): ScheduleState {
  const week = ruleWeek(seed, options);
  let turn = seed;
  const tasks = week.tasks.map((task) => {
    if (task.source !== "task_item" || (task.status !== "pending" && task.status !== "placed")) return task;
    turn += 1;
    const group = turn % 3;
    return group === 2 ? task : { ...task, group: { id: `task-${group + 1}`, kind: "sessions" as const } };
  });
  return { ...week, tasks };
}

/**
 * `week` placed by hand, badly: each pending review in turn at its last place the oracle (`schedule-oracle.ts`) allows
 * it on its own, through the real `place` tool — left pending when that place no longer fits beside the ones before.
 */
export function handPlaced(week: ScheduleState): ScheduleState {
  const answer = oracle(week);
  let placed = week;
  for (const id of answer.ids) {
    const at = answer.alone.get(id)?.at(-1);
    if (!at) continue;
    const [day, start] = at.split(":").map(Number);
    const ran = placeTool.run(placed, { task_id: id, day: day!, slot_start: start! });
    if (ran.ok && ran.state) placed = ran.state;
  }
  return placed;
}

/** `week` with every placed review the clock has not fixed made pending again. */
export function reopened(week: ScheduleState): ScheduleState {
  const book = ruleBookOf(week);
  return {
    ...week,
    tasks: week.tasks.map((task) =>
      task.source === "task_item" && task.status === "placed" && task.slots?.length === 1 && !isFixedByClock(task, book)
        ? { ...task, status: "pending" as const, slots: undefined, embeddedIn: undefined }
        : task,
    ),
  };
}
