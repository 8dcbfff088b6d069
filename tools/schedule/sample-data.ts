/**
 * Sample schedules: `sampleWeek()`, a realistic student week for demos and
 * tests, and `generateSchedule()`, a deterministic generator of schedules of
 * any size for benches and property tests.
 */
import { addDays, dayOfWeekOfDate, isIsoDate, localClock } from "../../contracts/clock.js";
import { TempoError } from "../../errors/index.js";
import { datedWindow, DEFAULT_SLOT_TIMES } from "./calendar.js";
import { buildEventTask, buildTaskItem, sortIds } from "./canonical-form.js";
import {
  consecutiveDays,
  DEFAULT_SLOTS_PER_DAY,
  type EventTask,
  type ScheduleState,
  type ScheduleTask,
  type EventSeries,
  type TaskCategory,
  type TaskItem,
} from "./state.js";

/** A timetable entry of the sample week: [id, name, day, first slot, last slot, flags]. */
type SampleEvent = [id: string, name: string, day: number, start: number, end: number, flags?: "can_embed" | "locked"];

/** The sample week's timetable (12 sections a day; 1-4 morning, 5-8 afternoon, 9-12 evening). */
const SAMPLE_EVENTS: readonly SampleEvent[] = [
  ["mon-calculus", "Calculus lecture", 1, 1, 2],
  ["mon-english", "College English", 1, 3, 4],
  ["mon-data-structures", "Data Structures lecture", 1, 7, 8],
  ["mon-study-hall", "Evening self-study hall", 1, 9, 11, "can_embed"],
  ["tue-linear-algebra", "Linear Algebra lecture", 2, 1, 2],
  ["tue-physical-education", "Physical education", 2, 5, 6],
  ["tue-programming-lab", "Data Structures programming lab", 2, 7, 10, "can_embed"],
  ["wed-calculus", "Calculus lecture", 3, 1, 2],
  ["wed-english-listening", "English listening", 3, 5, 6],
  ["wed-study-hall", "Evening self-study hall", 3, 9, 12, "can_embed"],
  ["thu-linear-algebra", "Linear Algebra lecture", 4, 3, 4],
  ["thu-data-structures", "Data Structures lecture", 4, 5, 6],
  ["thu-club", "Robotics club meeting", 4, 9, 10],
  ["fri-calculus-tutorial", "Calculus tutorial", 5, 1, 2],
  ["fri-english-quiz", "English vocabulary quiz", 5, 3, 3, "locked"],
  ["fri-physics-lab", "Physics lab", 5, 5, 8],
  ["sat-calculus-midterm", "Calculus midterm exam", 6, 3, 5, "locked"],
  ["sun-library", "Library study block", 7, 1, 4, "can_embed"],
];

/** The sample week's task classes. */
const SAMPLE_CATEGORIES: readonly TaskCategory[] = [
  { id: "calculus", name: "Calculus" },
  { id: "linear-algebra", name: "Linear Algebra" },
  { id: "english", name: "English" },
  { id: "data-structures", name: "Data Structures" },
];

/** The sample week's pending review tasks: [id, name, duration, category]. */
const SAMPLE_TASK_ITEMS: ReadonlyArray<[id: string, name: string, duration: number, categoryId: string]> = [
  ["review-limits", "Review limits and continuity", 2, "calculus"],
  ["derivative-drills", "Derivative practice set", 1, "calculus"],
  ["matrix-review", "Matrix operations review", 2, "linear-algebra"],
  ["determinant-exercises", "Determinant exercises", 1, "linear-algebra"],
  ["vocabulary-list", "Vocabulary list unit 5", 1, "english"],
  ["essay-draft", "Draft the English essay", 2, "english"],
  ["linked-list-exercises", "Linked list exercises", 2, "data-structures"],
  ["binary-tree-review", "Binary tree review", 1, "data-structures"],
];

/**
 * Other names people use for the sample week's tasks, classes and events, by id — Chinese ones above all, since its
 * names are English: the offline policy matches a request's words against them as against the names themselves
 * ("交换极限复习和矩阵复习", "把微积分复习安排好", "在期中考试之前"). A user's own week brings its own names.
 */
export const SAMPLE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  "review-limits": ["极限与连续复习", "极限复习", "极限", "limits review", "limits"],
  "derivative-drills": ["导数练习", "导数习题", "导数", "derivative drills", "derivatives"],
  "matrix-review": ["矩阵运算复习", "矩阵复习", "矩阵"],
  "determinant-exercises": ["行列式习题", "行列式练习", "行列式"],
  "vocabulary-list": ["第五单元单词表", "单词表", "单词", "vocabulary"],
  "essay-draft": ["英语作文草稿", "英语作文", "作文", "essay"],
  "linked-list-exercises": ["链表习题", "链表练习", "链表"],
  "binary-tree-review": ["二叉树复习", "二叉树"],
  calculus: ["微积分", "高数", "高等数学", "calc"],
  "linear-algebra": ["线性代数", "线代"],
  english: ["英语", "英文"],
  "data-structures": ["数据结构"],
  "sat-calculus-midterm": ["微积分期中考试", "期中考试", "期中", "midterm", "calculus midterm"],
  "fri-english-quiz": ["英语单词测验", "单词测验", "小测", "quiz", "vocabulary quiz"],
  "thu-club": ["机器人社团", "社团"],
  "fri-calculus-tutorial": ["辅导课", "习题课"],
  "fri-physics-lab": ["物理实验"],
};

/** The Monday the sample week starts on unless told otherwise: fixed, so that tests and benches never depend on the clock. */
export const SAMPLE_WEEK_MONDAY = "2024-03-11";
/** The sample week's time zone (a Chinese university's). */
export const SAMPLE_TIME_ZONE = "Asia/Shanghai";

/** Where the sample week lies in the calendar. */
export interface SampleWeekOptions {
  /** The date of its Monday, "YYYY-MM-DD" (it must be a Monday: the timetable is Monday's to Sunday's); `SAMPLE_WEEK_MONDAY` by default. */
  monday?: string;
  /** IANA time zone; `SAMPLE_TIME_ZONE` by default. */
  timeZone?: string;
  /**
   * The timetable as weekly series (every event but the locked quiz and midterm, which are one-offs), so it is there
   * again when the window rolls on; one-off events by default (a week that ends with itself, as the tests' fixture).
   */
  weekly?: boolean;
}

/**
 * A student's week: 7 dated days × 12 sections (`DEFAULT_SLOT_TIMES`, 08:00–22:30), 18 timetable events (4 embeddable,
 * 2 locked), 4 task classes, 8 pending reviews. Monday 11 March 2024 in Asia/Shanghai unless `options` say otherwise.
 */
export function sampleWeek(options: SampleWeekOptions = {}): ScheduleState {
  const monday = options.monday ?? SAMPLE_WEEK_MONDAY;
  if (!isIsoDate(monday) || dayOfWeekOfDate(monday) !== 1)
    throw new TempoError(
      "INVALID_INPUT",
      `The sample week starts on a Monday: ${monday} is not one (write it YYYY-MM-DD).`,
    );
  const timeZone = options.timeZone ?? SAMPLE_TIME_ZONE;
  // `weekly`: a lecture, a lab, a study hall repeat every week, as in examples/week.json.
  const weekly = (day: number, start: number, end: number): EventSeries => ({
    rule: { freq: "weekly", interval: 1, byDay: [day] },
    firstDate: addDays(monday, day - 1),
    start: DEFAULT_SLOT_TIMES[start - 1]!.start,
    end: DEFAULT_SLOT_TIMES[end - 1]!.end,
    timeZone,
    cancelled: [],
    moved: [],
  });
  const events: ScheduleTask[] = SAMPLE_EVENTS.map(([id, name, day, start, end, flags]) =>
    buildEventTask({
      id,
      name,
      source: "event",
      slots: [{ day, start, end }],
      canEmbed: flags === "can_embed",
      locked: flags === "locked",
      embeds: [],
      ...(options.weekly && flags !== "locked" ? { series: weekly(day, start, end) } : {}),
    }),
  );
  // The calculus reviews prepare Saturday's midterm: they are due before it.
  const items: ScheduleTask[] = SAMPLE_TASK_ITEMS.map(([id, name, duration, categoryId]) =>
    buildTaskItem({
      id,
      name,
      source: "task_item",
      duration,
      categoryId,
      status: "pending",
      ...(categoryId === "calculus" ? { dueBefore: { eventId: "sat-calculus-midterm" } } : {}),
    }),
  );
  return {
    window: datedWindow({ firstDate: monday, days: 7, timeZone }),
    categories: SAMPLE_CATEGORIES.map((category) => ({ ...category })),
    tasks: [...events, ...items],
  };
}

/**
 * The sample week for a user seeded at `now`: the coming week — from the next Monday in the sample's time zone, or
 * today on a Monday before its first slot starts — so nothing of it is past when it is first seen; its timetable weekly
 * series, so a user who lives on into the next week keeps their lectures.
 */
export function sampleWeekFrom(now: Date, timeZone = SAMPLE_TIME_ZONE): ScheduleState {
  const today = localClock(now, timeZone);
  const started = today.dayOfWeek === 1 && today.time >= DEFAULT_SLOT_TIMES[0]!.start;
  return sampleWeek({ monday: addDays(today.date, started ? 7 : (8 - today.dayOfWeek) % 7), timeZone, weekly: true });
}

/** Options of `generateSchedule`. */
export interface GenerateScheduleOptions {
  /** Days in the window (e.g. 112 for 16 weeks). */
  days: number;
  /** Slots per day; default 12. */
  slotsPerDay?: number;
  /** Total number of tasks (events + task items). */
  taskCount: number;
  /** Seed of the pseudo-random generator; the same options give the same schedule. Default 1. */
  seed?: number;
}

/** Share of the tasks the generator tries to make timetable events. */
const EVENT_SHARE = 0.3;
/** Share of the tasks the generator tries to make placed task items. */
const PLACED_SHARE = 0.2;
/** Most of the room outside events the generator fills with placed task items. */
const PLACED_ROOM_SHARE = 0.5;
/** Most of a day's slots the generator fills with events. */
const EVENT_FILL_LIMIT = 0.5;

/**
 * A valid schedule of `taskCount` tasks: about 30% events (at most half of
 * each day; ~20% of them embeddable, ~10% locked), about 20% task items placed
 * in free slots or embedded in hosts (using at most half of the room outside
 * events), the rest pending. When the window is too
 * small, the tasks that do not fit become pending task items.
 */
export function generateSchedule(options: GenerateScheduleOptions): ScheduleState {
  const slotsPerDay = options.slotsPerDay ?? DEFAULT_SLOTS_PER_DAY;
  const totalDays = options.days;
  const random = mulberry32(options.seed ?? 1);
  const pick = (count: number): number => Math.floor(random() * count);
  const categories: TaskCategory[] = SAMPLE_CATEGORIES.map((category) => ({ ...category }));

  const primary = new Array<string | undefined>(totalDays * slotsPerDay);
  const embedded = new Array<boolean>(totalDays * slotsPerDay).fill(false);
  const perDayEventSlots = new Array<number>(totalDays + 1).fill(0);
  const cell = (day: number, slot: number): number => (day - 1) * slotsPerDay + (slot - 1);
  const isFree = (day: number, start: number, end: number): boolean => {
    for (let slot = start; slot <= end; slot += 1) if (primary[cell(day, slot)] !== undefined) return false;
    return true;
  };

  const events: EventTask[] = [];
  const eventTarget = totalDays === 0 ? 0 : Math.floor(options.taskCount * EVENT_SHARE);
  for (let attempt = 0; attempt < eventTarget * 8 && events.length < eventTarget; attempt += 1) {
    const day = 1 + pick(totalDays);
    const length = Math.min(slotsPerDay, 1 + pick(4));
    const start = 1 + pick(slotsPerDay - length + 1);
    const end = start + length - 1;
    if ((perDayEventSlots[day] ?? 0) + length > Math.max(1, Math.floor(slotsPerDay * EVENT_FILL_LIMIT))) continue;
    if (!isFree(day, start, end)) continue;
    const roll = random();
    const id = `event-${events.length + 1}`;
    for (let slot = start; slot <= end; slot += 1) primary[cell(day, slot)] = id;
    perDayEventSlots[day] = (perDayEventSlots[day] ?? 0) + length;
    events.push({
      id,
      name: `Lecture ${events.length + 1}`,
      source: "event",
      slots: [{ day, start, end }],
      canEmbed: roll < 0.2 && length >= 2,
      locked: roll >= 0.2 && roll < 0.3,
      embeds: [],
    });
  }
  const eventById = new Map(events.map((event) => [event.id, event]));

  const items: TaskItem[] = [];
  const placedTarget = Math.floor(options.taskCount * PLACED_SHARE);
  const eventSlots = perDayEventSlots.reduce((sum, count) => sum + count, 0);
  // Leave half of the room outside events free, so that find_free and place have something to find.
  let placedSlotBudget = Math.floor((totalDays * slotsPerDay - eventSlots) * PLACED_ROOM_SHARE);
  let placed = 0;
  const itemCount = options.taskCount - events.length;
  for (let itemIndex = 0; itemIndex < itemCount; itemIndex += 1) {
    const category = categories[pick(categories.length)] as TaskCategory;
    const duration = Math.min(slotsPerDay, 1 + pick(2));
    const item: TaskItem = {
      id: `task-${itemIndex + 1}`,
      name: `${category.name} review ${itemIndex + 1}`,
      source: "task_item",
      duration,
      categoryId: category.id,
      status: "pending",
    };
    if (placed < placedTarget && totalDays > 0 && placedSlotBudget >= duration) {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const day = 1 + pick(totalDays);
        const start = 1 + pick(slotsPerDay - duration + 1);
        const end = start + duration - 1;
        const occupant = primary[cell(day, start)];
        if (occupant === undefined && isFree(day, start, end)) {
          for (let slot = start; slot <= end; slot += 1) primary[cell(day, slot)] = item.id;
          item.status = "placed";
          item.slots = [{ day, start, end }];
          break;
        }
        const host = occupant === undefined ? undefined : eventById.get(occupant);
        if (
          host !== undefined &&
          host.canEmbed &&
          fitsInHost(host, day, start, end, (slot) => embedded[cell(day, slot)] === true)
        ) {
          for (let slot = start; slot <= end; slot += 1) embedded[cell(day, slot)] = true;
          item.status = "placed";
          item.slots = [{ day, start, end }];
          item.embeddedIn = host.id;
          host.embeds.push(item.id);
          break;
        }
      }
      if (item.status === "placed") {
        placed += 1;
        placedSlotBudget -= duration;
      }
    }
    items.push(item);
  }

  return {
    window: { totalDays, slotsPerDay, days: consecutiveDays(totalDays) },
    categories,
    tasks: [
      ...events.map((event) => buildEventTask({ ...event, embeds: sortIds(event.embeds) })),
      ...items.map(buildTaskItem),
    ],
  };
}

/** True when slots start..end of `day` lie inside the host and none is taken by an embedded task. */
function fitsInHost(
  host: EventTask,
  day: number,
  start: number,
  end: number,
  taken: (slot: number) => boolean,
): boolean {
  const range = host.slots[0];
  if (range === undefined || range.day !== day || start < range.start || end > range.end) return false;
  for (let slot = start; slot <= end; slot += 1) if (taken(slot)) return false;
  return true;
}

/** A small, fast, seedable pseudo-random generator returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
