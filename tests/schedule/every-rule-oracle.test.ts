/**
 * The exact search under every rule at once, against the brute-force oracle (tests/support/schedule-oracle.ts, which
 * shares no code with the search): small generated weeks (one seed, one week; a failure names its seed) that carry
 * task classes (excluded weekdays, blocked days, buffers), deadlines (a day, an exam), earliest days, hosts, standing
 * preferences (days, parts of the day, an hour), a long task's sessions, a day's clock with breaks of more than 30
 * minutes, the clock mid-week (slots that have started are not free; a review whose place has started stays), done
 * reviews, reviews placed by hand, and places the user rejected on a card. The other oracle files take these rules a
 * few at a time, on a clock without breaks; here every one is on together.
 *
 * - place refuses exactly what the oracle rules out, and find_free for a review lists exactly the oracle's places;
 * - propose_arrangement, kept to a request's days and slots and to a card's limits (a task's days, slots, a rejected
 *   place), places the oracle's most with its priority profile, and its card applies; a review it leaves out cannot
 *   join the ones it places, and one it says fits nowhere (any reason but "beside the other placements") fits nowhere;
 * - the health judge's "fit" is the oracle's most, each review it calls forced is proved;
 * - propose_reschedule, the same reviews missed, places the oracle's most and leaves out only what cannot join.
 */
import { describe, expect, test } from "vitest";
import { proposeArrangement, type ArrangementOptions, type TaskLimits } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { findFreeTool, markDoneTool, placeTool, type FindFreeData } from "../../tools/schedule/index.js";
import { isFixedByClock, ruleBookOf } from "../../tools/schedule/rules.js";
import { mulberry32 } from "../../tools/schedule/sample-data.js";
import type { ScheduleState, SlotTime, TaskItem } from "../../tools/schedule/state.js";
import { proposeReschedule } from "../../tools/schedule/tools/reschedule.js";
import { healthClaimsAgainst } from "../support/health-claims.js";
import { clockedWeek, handPlaced, sessionWeek } from "../support/rule-weeks.js";
import { oracle } from "../support/schedule-oracle.js";

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** `slots` slots of 45 minutes from `first` (minutes), 10 minutes apart, with a break of 80 minutes after each of `after`. */
function timesWithBreaks(slots: number, first: number, after: readonly number[]): SlotTime[] {
  const times: SlotTime[] = [];
  let at = first;
  for (let slot = 1; slot <= slots; slot += 1) {
    times.push({ start: clock(at), end: clock(at + 45) });
    at += 45 + (after.includes(slot) ? 80 : 10);
  }
  return times;
}

/** `week` with the reviews `ids` taken off (pending again), out of the events that held them. */
function takenOff(week: ScheduleState, ids: ReadonlySet<string>): ScheduleState {
  return {
    ...week,
    tasks: week.tasks.map((task) => {
      if (task.source === "event") return { ...task, embeds: task.embeds.filter((id) => !ids.has(id)) };
      if (!ids.has(task.id)) return task;
      const { slots: _slots, embeddedIn: _host, ...rest } = task;
      return { ...rest, status: "pending" as const };
    }),
  };
}

/** The placed reviews of `week` whose place has not started. */
const movablePlaced = (week: ScheduleState) => {
  const book = ruleBookOf(week);
  return week.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "placed" && !isFixedByClock(task, book),
  );
};

/**
 * The week of `seed` with every rule: `sessionWeek`'s groups, `clockedWeek`'s dates and clock, a day's clock with one
 * or two breaks, reviews placed by hand, every third placed one done, and every other one still to place taken off
 * again. A review the generator had placed across a break (before the clock had one) is taken off, unless its place
 * has started (the past stays as it was).
 */
export function everyRuleWeek(seed: number): ScheduleState {
  const clocked = clockedWeek(seed);
  const slots = clocked.window.slotsPerDay;
  const after = [Math.ceil(slots / 2), ...(slots >= 7 && seed % 2 === 0 ? [slots - 1] : [])];
  const slotTimes = timesWithBreaks(slots, (7 + (seed % 5)) * 60 + (seed % 4) * 15, after);
  const sessions = sessionWeek(seed);
  let week: ScheduleState = { ...sessions, window: { ...clocked.window, slotTimes }, now: clocked.now };
  const spans = (task: TaskItem) =>
    task.slots?.some((range) => after.some((slot) => range.start <= slot && range.end > slot)) ?? false;
  week = takenOff(
    week,
    new Set(
      movablePlaced(week)
        .filter(spans)
        .map((task) => task.id),
    ),
  );
  let marked = handPlaced(week);
  movablePlaced(marked).forEach((task, index) => {
    const ran = index % 3 === 0 ? markDoneTool.run(marked, { task_id: task.id }) : undefined;
    if (ran?.ok && ran.state) marked = ran.state;
  });
  return takenOff(
    marked,
    new Set(movablePlaced(marked).flatMap((task, index) => ((seed + index) % 2 === 0 ? [task.id] : []))),
  );
}

/** The seeds whose every-rule week has 1-8 reviews to place (the oracle's walk stays quick). */
const SEEDS = (() => {
  const chosen: number[] = [];
  for (let seed = 1; chosen.length < 160; seed += 1) {
    const count = pendingOf(everyRuleWeek(seed)).length;
    if (count >= 1 && count <= 8) chosen.push(seed);
  }
  return chosen;
})();

/** What a request and the user's answers on cards limit an arrangement to (`proposeArrangement`'s options). */
interface Asked {
  options: ArrangementOptions;
  /** The places those limits rule out, `day:start` by review id: the oracle's `notAt`. */
  notAt: Map<string, Set<string>>;
}

/**
 * Limits for the arrangement of `week` (by `seed`): now and then days of the step only, days it avoids, its slots;
 * for some reviews days, days they avoid, slots, and their first place the oracle allows rejected on a card.
 */
function askedOf(week: ScheduleState, seed: number): Asked {
  const random = mulberry32(seed * 31 + 7);
  const pick = (count: number) => Math.floor(random() * count);
  const chance = (share: number) => random() < share;
  const { totalDays, slotsPerDay } = week.window;
  const options: ArrangementOptions = {};
  if (chance(0.2)) options.days = [1 + pick(totalDays), 1 + pick(totalDays), 1 + pick(totalDays)];
  if (chance(0.2)) options.avoidDays = [1 + pick(totalDays)];
  if (chance(0.2)) options.slots = { from: 1 + pick(2), to: slotsPerDay - pick(2) };
  const answer = oracle(week);
  const limits: TaskLimits[] = [];
  for (const task of pendingOf(week)) {
    const limit: TaskLimits = { task_id: task.id };
    const first = answer.alone.get(task.id)?.[0];
    if (first && chance(0.5)) {
      const [day, start] = first.split(":").map(Number) as [number, number];
      limit.not_at = [{ day, slot_start: start }];
    }
    if (chance(0.15)) limit.days = [1 + pick(totalDays), 1 + pick(totalDays)];
    if (chance(0.15)) limit.not_days = [1 + pick(totalDays)];
    if (chance(0.15)) limit.from = 1 + pick(3);
    if (chance(0.15)) limit.to = slotsPerDay - pick(3);
    if (Object.keys(limit).length > 1) limits.push(limit);
  }
  if (limits.length > 0) options.limits = limits;
  // The places they rule out, written from what each limit says.
  const notAt = new Map<string, Set<string>>();
  for (const task of pendingOf(week)) {
    const own = limits.find((limit) => limit.task_id === task.id);
    const out = new Set<string>();
    for (let day = 1; day <= totalDays; day += 1)
      for (let start = 1; start <= slotsPerDay; start += 1) {
        const end = start + task.duration - 1;
        const ruledOut =
          (options.days !== undefined && !options.days.includes(day)) ||
          (options.avoidDays?.includes(day) ?? false) ||
          start < (options.slots?.from ?? 1) ||
          end > (options.slots?.to ?? slotsPerDay) ||
          (own?.days !== undefined && !own.days.includes(day)) ||
          (own?.not_days?.includes(day) ?? false) ||
          start < (own?.from ?? 1) ||
          end > (own?.to ?? slotsPerDay) ||
          (own?.not_at?.some((place) => place.day === day && place.slot_start === start) ?? false);
        if (ruledOut) out.add(`${day}:${start}`);
      }
    if (out.size > 0) notAt.set(task.id, out);
  }
  return { options, notAt };
}

describe("every rule at once: the tools' answers and claims against the oracle", () => {
  test("the weeks carry every rule (an idle generator fails here)", () => {
    const weeks = SEEDS.map(everyRuleWeek);
    const has = (test: (week: ScheduleState) => boolean) => weeks.filter(test).length;
    const items = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");
    expect(has((week) => items(week).some((task) => task.status === "done"))).toBeGreaterThan(20);
    expect(has((week) => items(week).some((task) => task.group !== undefined))).toBeGreaterThan(40);
    expect(
      has((week) => items(week).some((task) => task.status === "placed" && isFixedByClock(task, ruleBookOf(week)))),
    ).toBeGreaterThan(10);
    expect(has((week) => (week.standing ?? []).length > 0)).toBeGreaterThan(20);
    expect(has((week) => items(week).some((task) => task.dueBefore !== undefined))).toBeGreaterThan(40);
    expect(has((week) => week.categories.some((category) => (category.bufferSlots ?? 0) > 0))).toBeGreaterThan(40);
    expect(has((week) => week.tasks.some((task) => task.source === "event" && task.canEmbed))).toBeGreaterThan(20);
  });

  test("place refuses exactly what the oracle rules out; find_free for a review lists exactly its places", () => {
    const problems: string[] = [];
    const counts = { placed: 0, refused: 0 };
    for (const seed of SEEDS) {
      const week = everyRuleWeek(seed);
      const answer = oracle(week);
      const { totalDays, slotsPerDay } = week.window;
      for (const task of pendingOf(week)) {
        const allowed = new Set(answer.alone.get(task.id) ?? []);
        for (let day = 1; day <= totalDays; day += 1)
          for (let start = 1; start + task.duration - 1 <= slotsPerDay; start += 1) {
            const ran = placeTool.run(week, { task_id: task.id, day, slot_start: start });
            if (ran.ok !== allowed.has(`${day}:${start}`))
              problems.push(`week ${seed}: place ${task.id} at ${day}:${start}: ${ran.ok ? "placed" : ran.content}`);
            counts[ran.ok ? "placed" : "refused"] += 1;
          }
        const free = findFreeTool.run(week, { task_id: task.id, limit: 500 });
        const listed = new Set(
          (free.ok ? (free.data as FindFreeData).runs : []).flatMap((run) =>
            Array.from(
              { length: run.end - run.start - task.duration + 2 },
              (_, offset) => `${run.day}:${run.start + offset}`,
            ),
          ),
        );
        const missing = [...allowed].filter((place) => !listed.has(place));
        const extra = [...listed].filter((place) => !allowed.has(place));
        if (missing.length + extra.length > 0)
          problems.push(`week ${seed}: find_free for ${task.id} misses ${missing.join(" ")}, lists ${extra.join(" ")}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Math.min(counts.placed, counts.refused)).toBeGreaterThan(200);
  });

  test("propose_arrangement, kept to the request's and the cards' limits: the most, the best priorities, each claim true", () => {
    const problems: string[] = [];
    const counts = { limited: 0, rejected: 0, beside: 0, nowhere: 0 };
    for (const seed of SEEDS) {
      const week = everyRuleWeek(seed);
      const { options, notAt } = askedOf(week, seed);
      if (notAt.size > 0) counts.limited += 1;
      counts.rejected += (options.limits ?? []).filter((limit) => limit.not_at).length;
      const answer = oracle(week, notAt);
      const listing = proposeArrangement(week, options);
      if (listing.stop === "budget") problems.push(`week ${seed}: stopped at its budget`);
      const writes = listing.candidates[0]?.writes ?? [];
      const placed = writes.map((write) => String(write.arguments.task_id));
      if (placed.length + (listing.later ?? 0) !== answer.most)
        problems.push(`week ${seed}: ${placed.length} placed, the oracle fits ${answer.most}`);
      const priority = new Map(pendingOf(week).map((task) => [task.id, task.priority ?? "normal"]));
      const profile = [0, 0, 0];
      for (const id of placed) profile[["high", "normal", "low"].indexOf(priority.get(id)!)]! += 1;
      if (listing.later === undefined && profile.join("/") !== answer.profile.join("/"))
        problems.push(`week ${seed}: priorities ${profile.join("/")}, the best ${answer.profile.join("/")}`);
      if (writes.length > 0 && !applyWrites(week, writes)) problems.push(`week ${seed}: its card does not apply`);
      // Every place kept to every rule and limit: the oracle's places, with the limits' places taken out.
      if (!answer.fitsTogether(placed)) problems.push(`week ${seed}: its places break a rule or a limit`);
      for (const left of listing.left ?? []) {
        if (answer.fitsTogether([...placed, left.id]))
          problems.push(`week ${seed}: ${left.id} left out (${left.why}), yet it fits beside the others`);
        // Any other reason says it fits nowhere under its rules and limits, whatever else is placed.
        if (left.why === "no room left beside the other placements") counts.beside += 1;
        else {
          counts.nowhere += 1;
          if ((answer.alone.get(left.id) ?? []).length > 0)
            problems.push(`week ${seed}: ${left.id} left out (${left.why}), yet it fits on its own`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(counts.limited).toBeGreaterThan(50);
    expect(counts.rejected).toBeGreaterThan(50);
    expect(Math.min(counts.beside, counts.nowhere)).toBeGreaterThan(3);
  });

  test("the health judge's fit is the oracle's most, and each review it calls forced is proved", () => {
    const problems: string[] = [];
    let forced = 0;
    for (const seed of SEEDS) {
      const week = everyRuleWeek(seed);
      const answer = oracle(week);
      const claims = healthClaimsAgainst(analyzeHealth(week), answer);
      problems.push(...claims.problems.map((problem) => `week ${seed}: ${problem}`));
      forced += claims.forced.length;
    }
    expect(problems).toEqual([]);
    expect(forced).toBeGreaterThan(10);
  });

  test("propose_reschedule, the same reviews missed: the oracle's most, and only what cannot join is left", () => {
    const problems: string[] = [];
    let short = 0;
    for (const seed of SEEDS) {
      const week = everyRuleWeek(seed);
      const ids = pendingOf(week).map((task) => task.id);
      const missed: ScheduleState = {
        ...week,
        tasks: week.tasks.map((task) =>
          task.source === "task_item" && task.status === "pending"
            ? { ...task, status: "missed" as const, slots: [] }
            : task,
        ),
      };
      const answer = oracle(week);
      const listing = proposeReschedule(missed, ids);
      const writes = listing.candidates[0]?.writes ?? [];
      const placed = writes.map((write) => String(write.arguments.task_id));
      if (placed.length !== answer.most)
        problems.push(`week ${seed}: ${placed.length} rescheduled, the oracle fits ${answer.most}`);
      if (writes.length > 0 && !applyWrites(missed, writes)) problems.push(`week ${seed}: its card does not apply`);
      for (const left of listing.unplaced)
        if (answer.fitsTogether([...placed, left.id]))
          problems.push(`week ${seed}: ${left.id} left (${left.why}), yet it fits beside the others`);
      if (listing.unplaced.length > 0) short += 1;
    }
    expect(problems).toEqual([]);
    expect(short).toBeGreaterThan(5);
  });
});
