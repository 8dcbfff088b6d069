/**
 * The oracle of issue 46: how many of a small week's pending reviews fit together at most, and which — by brute
 * force, from the rules as documented (docs/design.md#task-classes, `TaskCategory` / `TaskItem` in state.ts, the
 * standing preferences of docs/design.md), sharing no code with the placement search it judges (only the state's
 * types). For weeks of at most 7 days × 9 slots and 12 pending reviews.
 *
 * A review fits at (day, first slot) when, on its own in the week as it is:
 * - its slots lie in the day, and are all plainly free, or all inside one event that allows embedding (`canEmbed`)
 *   with no review embedded there yet;
 * - its class excludes neither the day's weekday nor the day; the user's standing preferences rule out neither the
 *   weekday (`avoid_day`, `only_days`) nor its slots (`only_part_of_day`, `avoid_part_of_day`, `not_before_hour` — it
 *   starts at the hour or later —, `not_after_hour` — it ends by the hour —, each on its days when it names some);
 * - it is not before its earliest day, and ends before its deadline: an earlier day, or the event's first slot;
 * - its class's buffer (free slots on each side, within the day) holds nothing but the event it sits inside, and it
 *   lies in no buffer the class of a review with a place keeps (a placed one, or a done one: history keeps its place).
 * - its slots span no break of the day's clock: no two of them more than 30 minutes apart (lunch, dinner);
 * - the clock (issue 47, `ScheduleState.now`): it starts in no slot that has started — read in the window's time zone,
 *   every slot of a day before today has started, and today's slots whose start time is at or before the clock's time
 *   (a window without clock times: none of today's); a window without dates or a time zone has no past.
 * Two reviews placed on one day do not overlap, and the slots between them are at least the larger of their buffers.
 * Two reviews of one task group (`TaskItem.group`: a habit's occurrences, a long task's sessions) are never on one day,
 * unless the group says `sameDay`: neither two pending ones, nor a pending one beside a placed or done one of it.
 * Preferred parts of the day and strategies are soft: they never decide what fits. A place the user rejected for a
 * review (`notAt`) is not one of its places.
 */
import type { EventTask, ScheduleState, SlotRange, TaskItem } from "../../tools/schedule/index.js";

/** What the oracle says of a week. */
export interface OracleAnswer {
  /** The pending reviews, in task-list order: bit i of a set is `ids[i]`. */
  ids: string[];
  /** The most pending reviews placed together. */
  most: number;
  /** Among the sets of `most` reviews that fit: the most high-priority ones, then the most normal, then the low. */
  profile: [high: number, normal: number, low: number];
  /** True when the reviews `ids` can all be placed together (with nothing else moved). */
  fitsTogether(ids: Iterable<string>): boolean;
  /** Where each review may go on its own: `day:start` places. */
  alone: Map<string, string[]>;
}

/** A review's priority as a rank: 0 high, 1 normal, 2 low. */
function rankOf(task: TaskItem): 0 | 1 | 2 {
  return task.priority === "high" ? 0 : task.priority === "low" ? 2 : 1;
}

/** The slots a part of the day covers: by the clock (before 12:00, before 18:00, after) or by thirds of the day. */
function partSlots(state: ScheduleState, part: string): { from: number; to: number } {
  const { slotsPerDay, slotTimes } = state.window;
  if (slotTimes && slotTimes.length === slotsPerDay) {
    const inPart: number[] = [];
    slotTimes.forEach((time, index) => {
      const hour = Number(time.start.slice(0, 2));
      const of = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
      if (of === part) inPart.push(index + 1);
    });
    // A part the clock times have no slot in covers none (never the grid's last third).
    return inPart.length > 0
      ? { from: Math.min(...inPart), to: Math.max(...inPart) }
      : { from: slotsPerDay + 1, to: 0 };
  }
  const third = Math.max(1, Math.round(slotsPerDay / 3));
  if (part === "morning") return { from: 1, to: Math.min(slotsPerDay, third) };
  if (part === "afternoon") return { from: Math.min(slotsPerDay, third + 1), to: Math.min(slotsPerDay, 2 * third) };
  return { from: Math.min(slotsPerDay, 2 * third + 1), to: slotsPerDay };
}

/**
 * The standing preferences' hard part: weekdays ruled out, and the slots a review may use on a day of the week — a rule
 * of some days (`days`) only on those. The morning kept out starts a day after it; the evening kept out ends a day
 * before it (a part with no slot keeps nothing out).
 */
function standingLimits(state: ScheduleState): {
  weekdays: Set<number>;
  on: (weekday: number) => { from: number; to: number };
} {
  const weekdays = new Set<number>();
  for (const rule of state.standing ?? []) {
    if (rule.kind === "avoid_day") weekdays.add(rule.value);
    if (rule.kind === "only_days")
      for (let day = 1; day <= 7; day += 1) if (!rule.value.includes(day)) weekdays.add(day);
  }
  const on = (weekday: number) => {
    let from = 1;
    let to = state.window.slotsPerDay;
    for (const rule of state.standing ?? []) {
      const days = "days" in rule ? (rule.days as number[] | undefined) : undefined;
      if (days && !days.includes(weekday)) continue;
      if (rule.kind === "only_part_of_day") {
        const part = partSlots(state, rule.value);
        from = Math.max(from, part.from);
        to = Math.min(to, part.to);
      }
      if (rule.kind === "avoid_part_of_day") {
        const part = partSlots(state, rule.value);
        if (part.from <= part.to && rule.value === "morning") from = Math.max(from, part.to + 1);
        if (part.from <= part.to && rule.value === "evening") to = Math.min(to, part.from - 1);
      }
      const times = state.window.slotTimes;
      if (rule.kind === "not_before_hour" && times && times.length === state.window.slotsPerDay) {
        const first = times.findIndex((time) => Number(time.start.slice(0, 2)) >= rule.value);
        from = Math.max(from, first === -1 ? times.length + 1 : first + 1);
      }
      // Nothing after the hour: the last slot whose end, in minutes of the day, is by it (none: the day keeps none).
      if (rule.kind === "not_after_hour" && times && times.length === state.window.slotsPerDay) {
        const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
        let last = 0;
        times.forEach((time, index) => {
          if (minutes(time.end) <= rule.value * 60) last = index + 1;
        });
        to = Math.min(to, last);
      }
    }
    return { from, to };
  };
  return { weekdays, on };
}

/** The clock rule: true when (day, slot) has started by `state.now` (see the file's comment). */
export function clockRule(state: ScheduleState): (day: number, slot: number) => boolean {
  const { window } = state;
  if (state.now === undefined || window.timeZone === undefined || window.days.some((day) => day.date === undefined))
    return () => false;
  // Swedish dates read "2024-03-13 14:30": the date and the time in the window's zone.
  const [today, time] = new Intl.DateTimeFormat("sv-SE", {
    timeZone: window.timeZone,
    dateStyle: "short",
    timeStyle: "short",
    hourCycle: "h23",
  })
    .format(new Date(state.now))
    .split(" ") as [string, string];
  return (day, slot) => {
    const date = window.days[day - 1]!.date!;
    if (date !== today) return date < today;
    const start = window.slotTimes?.[slot - 1]?.start;
    return window.slotTimes?.length === window.slotsPerDay && start !== undefined && start <= time;
  };
}

/** Answers for `state` (small weeks only); `notAt` holds places the user rejected, `day:start` by review id. */
export function oracle(state: ScheduleState, notAt?: ReadonlyMap<string, ReadonlySet<string>>): OracleAnswer {
  const { totalDays, slotsPerDay } = state.window;
  const pending = state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "pending",
  );
  if (pending.length > 12 || totalDays > 7 || slotsPerDay > 9) throw new Error("the oracle is for small weeks only");
  const buffer = (task: TaskItem) =>
    state.categories.find((category) => category.id === task.categoryId)?.bufferSlots ?? 0;
  // Who is at each (day, slot) now: the event or review there without a host, and the review embedded there.
  const holder = new Map<string, EventTask | TaskItem>();
  const guest = new Map<string, TaskItem>();
  for (const task of state.tasks)
    for (const range of task.slots ?? [])
      for (let slot = range.start; slot <= range.end; slot += 1)
        (task.source === "task_item" && task.embeddedIn ? guest : holder).set(`${range.day}:${slot}`, task as never);
  // The slots the buffers of the reviews with a place (placed, or done) keep free.
  const kept = new Set<string>();
  for (const task of state.tasks) {
    if (task.source !== "task_item" || (task.status !== "placed" && task.status !== "done") || !task.slots?.length)
      continue;
    const range = task.slots![0]!;
    for (let offset = 1; offset <= buffer(task); offset += 1) {
      kept.add(`${range.day}:${range.start - offset}`);
      kept.add(`${range.day}:${range.end + offset}`);
    }
  }
  const limits = standingLimits(state);
  const started = clockRule(state);
  // A break of the day's clock: more than 30 minutes from one slot's end to the next one's start.
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const times = state.window.slotTimes;
  const spansBreak = (start: number, end: number) => {
    if (!times || times.length !== slotsPerDay) return false;
    for (let slot = start; slot < end; slot += 1)
      if (minutes(times[slot]!.start) - minutes(times[slot - 1]!.end) > 30) return true;
    return false;
  };
  // A task group's reviews on the week now: "group:day" taken by a placed or done one.
  const groupOf = (task: TaskItem) => (task.group && !task.group.sameDay ? task.group.id : undefined);
  const groupDays = new Set<string>();
  for (const task of state.tasks)
    if (task.source === "task_item" && groupOf(task) !== undefined)
      for (const range of task.slots ?? []) groupDays.add(`${groupOf(task)}:${range.day}`);
  const weekday = (day: number) => state.window.days[day - 1]!.dayOfWeek;

  const fitsAlone = (task: TaskItem, range: SlotRange): boolean => {
    const { day, start, end } = range;
    if (start < 1 || end > slotsPerDay || started(day, start)) return false;
    if (spansBreak(start, end)) return false;
    const category = state.categories.find((entry) => entry.id === task.categoryId);
    if (category?.excludedDaysOfWeek?.includes(weekday(day)) || category?.blockedDays?.includes(day)) return false;
    const slots = limits.on(weekday(day));
    if (limits.weekdays.has(weekday(day)) || start < slots.from || end > slots.to) return false;
    if (task.earliestDay !== undefined && day < task.earliestDay) return false;
    if (groupOf(task) !== undefined && groupDays.has(`${groupOf(task)}:${day}`)) return false;
    const due = task.dueBefore;
    if (due && "day" in due && day >= due.day) return false;
    if (due && "eventId" in due) {
      const event = state.tasks.find((entry) => entry.id === due.eventId)!;
      const first = [...(event.slots ?? [])].sort((a, b) => a.day - b.day || a.start - b.start)[0];
      if (first && (day > first.day || (day === first.day && end >= first.start))) return false;
    }
    // Plainly free, or inside one host with no guest there.
    let host: EventTask | undefined;
    for (let slot = start; slot <= end; slot += 1) {
      const there = holder.get(`${day}:${slot}`);
      if (guest.has(`${day}:${slot}`) || kept.has(`${day}:${slot}`)) return false;
      if (slot === start) {
        if (there && (there.source !== "event" || !there.canEmbed)) return false;
        host = there as EventTask | undefined;
      } else if (there !== host) return false;
    }
    // Its buffer: nothing there but its own host.
    for (let offset = 1; offset <= buffer(task); offset += 1)
      for (const slot of [start - offset, end + offset]) {
        if (slot < 1 || slot > slotsPerDay) continue;
        const there = holder.get(`${day}:${slot}`);
        if (guest.has(`${day}:${slot}`) || (there && there !== host)) return false;
      }
    return true;
  };

  const alone = new Map<string, string[]>();
  const startsOn = pending.map((task) =>
    Array.from({ length: totalDays }, (_, offset) => {
      const day = offset + 1;
      const starts: number[] = [];
      for (let start = 1; start <= slotsPerDay; start += 1)
        if (
          !notAt?.get(task.id)?.has(`${day}:${start}`) &&
          fitsAlone(task, { day, start, end: start + task.duration - 1 })
        )
          starts.push(start);
      return starts;
    }),
  );
  pending.forEach((task, index) =>
    alone.set(
      task.id,
      startsOn[index]!.flatMap((starts, offset) => starts.map((start) => `${offset + 1}:${start}`)),
    ),
  );

  // Per day, every set of reviews that fits on it together: reviews laid out from the day's first slot to its last,
  // each at any start it may take after the one before (its end and the larger buffer between them). What may come
  // next depends only on the set so far, the last one's end and the last one's buffer: an earlier one ends before
  // the last one starts, by at least its own buffer, so anything after the last is after its buffer too.
  const size = 1 << pending.length;
  let reachable = new Uint8Array(size);
  reachable[0] = 1;
  for (let day = 1; day <= totalDays; day += 1) {
    const onDay = new Uint8Array(size);
    const seen = new Set<string>();
    const stack: Array<{ set: number; end: number; buffer: number }> = [{ set: 0, end: -99, buffer: 0 }];
    while (stack.length > 0) {
      const { set, end, buffer: last } = stack.pop()!;
      onDay[set] = 1;
      pending.forEach((task, index) => {
        if (set & (1 << index)) return;
        // One of its group on this day already: not a second.
        const group = groupOf(task);
        if (group !== undefined && pending.some((other, at) => set & (1 << at) && groupOf(other) === group)) return;
        const gap = Math.max(last, buffer(task));
        for (const start of startsOn[index]![day - 1]!) {
          if (start <= end + gap) continue;
          const next = { set: set | (1 << index), end: start + task.duration - 1, buffer: buffer(task) };
          const key = `${next.set}:${next.end}:${next.buffer}`;
          if (seen.has(key)) continue;
          seen.add(key);
          stack.push(next);
        }
      });
    }
    // The sets placed over the days so far: one placed before, beside a set of this day.
    const next = new Uint8Array(size);
    for (let set = 0; set < size; set += 1) {
      if (!reachable[set]) continue;
      const rest = (size - 1) & ~set;
      for (let part = rest; ; part = (part - 1) & rest) {
        if (onDay[part]) next[set | part] = 1;
        if (part === 0) break;
      }
    }
    reachable = next;
  }

  let most = 0;
  let profile: [number, number, number] = [0, 0, 0];
  for (let set = 0; set < size; set += 1) {
    if (!reachable[set]) continue;
    const counts: [number, number, number] = [0, 0, 0];
    pending.forEach((task, index) => {
      if (set & (1 << index)) counts[rankOf(task)] += 1;
    });
    const count = counts[0] + counts[1] + counts[2];
    if (
      count > most ||
      (count === most && (counts[0] > profile[0] || (counts[0] === profile[0] && counts[1] > profile[1])))
    ) {
      most = count;
      profile = counts;
    }
  }
  const ids = pending.map((task) => task.id);
  return {
    ids,
    most,
    profile,
    alone,
    fitsTogether(together) {
      let set = 0;
      for (const id of together) {
        const index = ids.indexOf(id);
        if (index < 0) return false;
        set |= 1 << index;
      }
      return reachable[set] === 1;
    },
  };
}

/**
 * The first `count` seeds whose week (`weekOf(seed)`) is small enough for the oracle to walk (at most 45 cells) and
 * has between 1 and `maxPending` pending reviews: the weeks an oracle property runs over.
 */
export function oracleSeeds(count: number, weekOf: (seed: number) => ScheduleState, maxPending = Infinity): number[] {
  const chosen: number[] = [];
  for (let seed = 1; chosen.length < count; seed += 1) {
    const week = weekOf(seed);
    const pending = week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    if (pending >= 1 && pending <= maxPending && week.window.totalDays * week.window.slotsPerDay <= 45)
      chosen.push(seed);
  }
  return chosen;
}
