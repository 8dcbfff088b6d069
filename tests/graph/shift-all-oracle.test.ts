/**
 * "Push all my reviews back a day / an hour" (and into a part of a day, below) against the brute-force oracle (tests/support/schedule-oracle.ts, which
 * shares no code with the tools or the policy), over small generated weeks with every rule kind and a clock before or
 * inside the week, through the graph with the offline policy, every card accepted.
 *
 * The step places the reviews one at a time, and what it takes is never freed again, so a place free in the week as
 * it ended was free when each review was placed. The claims are held to that week:
 * - a review that moved is on the day asked (by time: its own day, past its own start that way), and no place the
 *   oracle lets it take there is nearer the time asked (by days: its own time);
 * - a review that stayed is named, and — unless its new day is off the schedule or it has started — the oracle lets
 *   it take no place there: "no free time fits it" is true, and a rule the week refused was the last word only when no
 *   other place of that day keeps the rules.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { namedWeek, placesFor, startedBy, tempoOf } from "../support/offline-weeks.js";
import { converse } from "./support/offline-conversation.js";

/** Minutes after midnight of a slot's start: its clock time, else an hour a slot. */
const minuteOf = (state: ScheduleState, slot: number) => {
  const time = state.window.slotTimes?.[slot - 1]?.start;
  if (time === undefined) return slot * 60;
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
};

/** The part of the day a slot is in: the day's slots in thirds (`resolveSlotWindow`'s rule, as the parser documents it). */
function partOfSlot(state: ScheduleState, slot: number): "morning" | "afternoon" | "evening" {
  const third = Math.max(1, Math.round(state.window.slotsPerDay / 3));
  return slot <= third ? "morning" : slot <= 2 * third ? "afternoon" : "evening";
}

const WEEKDAY_NAMES = ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const dayOfWeekOf = (state: ScheduleState, day: number) =>
  state.window.days.find((each) => each.dayIndex === day)?.dayOfWeek;

/** The weekday and part of the day a review begins in, as a request names them ("Tuesday evening"). */
function partOf(state: ScheduleState, review: TaskItem) {
  const range = review.slots![0]!;
  const day = state.window.days.find((each) => each.dayIndex === range.day);
  if (!day) return undefined;
  const part = partOfSlot(state, range.start);
  return { day, part, name: `${WEEKDAY_NAMES[day.dayOfWeek]} ${part}` };
}

/** A generated week small enough to judge by brute force with two reviews placed or more, and its placed reviews. */
function smallWeek(seed: number): { week?: ScheduleState; placed: TaskItem[] } {
  const week = namedWeek(seed);
  const placed = (week?.tasks ?? []).filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "placed",
  );
  if (!week || placed.length < 2 || week.window.totalDays * week.window.slotsPerDay > 45) return { placed };
  return { week, placed };
}

/**
 * `message` said on `week`, every card accepted: the week as judged (its standing preferences and clock), the week
 * after with them, and all that was said; the week after keeps every invariant.
 */
async function acceptedRun(week: ScheduleState, seed: number, message: string) {
  const { tempo, week: judged } = await tempoOf(week);
  const outcome = await converse(tempo, message, () => ({ type: "accept", args: null }));
  const after: ScheduleState = { ...outcome.schedule, standing: judged.standing, now: judged.now };
  expect({ seed, message, problems: checkScheduleInvariants(outcome.schedule) }).toEqual({
    seed,
    message,
    problems: [],
  });
  return { judged, after, said: `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}` };
}

/** The requests, each with its shift. */
const REQUESTS: Array<[string, { days: number } | { minutes: number }]> = [
  ["push all my reviews back a day", { days: 1 }],
  ["bring all my reviews forward a day", { days: -1 }],
  ["push all my reviews back an hour", { minutes: 60 }],
  ["move all my reviews an hour earlier", { minutes: -60 }],
];

describe("every review moved at once, against the brute-force oracle", () => {
  test("each review lands nearest the time asked, or stays only when no place of its new day fits", async () => {
    const seen = { moved: 0, stayed: 0, partAsked: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.nat({ max: REQUESTS.length - 1 }), async (seed, kind) => {
        const { week, placed } = smallWeek(seed);
        if (!week) return;
        // Half the runs name one part of one day ("push Tuesday evening's reviews back a day"): the first placed
        // review's, so at least one review is of it. Only those that begin in it move; every other stays as it was.
        const [asked, shift] = REQUESTS[kind]!;
        const part = seed % 2 === 0 ? partOf(week, placed[0]!) : undefined;
        const message = part ? asked.replace("all my reviews", `all of ${part.name}'s reviews`) : asked;
        if (part) seen.partAsked += 1;
        const chosen = (review: TaskItem) =>
          !part ||
          (dayOfWeekOf(week, review.slots![0]!.day) === part.day.dayOfWeek &&
            partOfSlot(week, review.slots![0]!.start) === part.part);
        const { judged, after, said } = await acceptedRun(week, seed, message);
        const later = ("days" in shift ? shift.days : shift.minutes) > 0;
        for (const review of placed) {
          const own = review.slots![0]!;
          const where = { seed, message, review: review.id, own };
          const now = (after.tasks.find((task) => task.id === review.id) as TaskItem).slots?.[0];
          if (startedBy(judged, own.day, own.start) || !chosen(review)) {
            expect({ ...where, now }).toEqual({ ...where, now: own });
            continue;
          }
          const day = own.day + ("days" in shift ? shift.days : 0);
          const target = minuteOf(judged, own.start) + ("minutes" in shift ? shift.minutes : 0);
          const distance = (start: number) => Math.abs(minuteOf(judged, start) - target);
          const places = placesFor(after, review.id).filter(
            (place) =>
              place.day === day && ("days" in shift || (later ? place.start > own.start : place.start < own.start)),
          );
          const moved = now && (now.day !== own.day || now.start !== own.start);
          if (moved) {
            seen.moved += 1;
            expect({ ...where, day: now.day }).toEqual({ ...where, day });
            const nearer = places.filter((place) => distance(place.start) < distance(now.start));
            expect({ ...where, now, nearer }).toEqual({ ...where, now, nearer: [] });
          } else {
            seen.stayed += 1;
            expect({ ...where, named: said.includes(`"${review.name}" stays`) }).toEqual({ ...where, named: true });
            if (day < 1 || day > judged.window.totalDays) continue;
            expect({ ...where, places }).toEqual({ ...where, places: [] });
          }
        }
      }),
      // FCSEED and FCRUNS run it wider by hand (ten seeds of 300 runs passed on 2026-12-04).
      { seed: Number(process.env.FCSEED ?? 20261204), numRuns: Number(process.env.FCRUNS ?? 80) },
    );
    expect(seen.moved).toBeGreaterThan(10);
    expect(seen.partAsked).toBeGreaterThan(10);
    expect(seen.stayed).toBeGreaterThan(3);
  });
});

/**
 * "Move Tuesday's reviews to another day", "I'm busy Tuesday evening, move my reviews": every review of that day (or
 * that part of it) still ahead leaves it for the free time nearest its own by the clock — on another day, or outside
 * that part of its day. Held to the week as it ended, as above: a review that moved is off where it was asked to leave
 * and no place the oracle lets it take off there is nearer its own time; one that stayed is named, and the oracle lets
 * it take no place off there.
 */
describe("every review of a day moved off it, against the brute-force oracle", () => {
  test("each lands nearest its own time off the day (or part), or stays only when nothing fits there", async () => {
    const seen = { moved: 0, stayed: 0, part: 0, twoDays: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.nat({ max: 5 }), async (seed, kind) => {
        const { week, placed } = smallWeek(seed);
        if (!week) return;
        // The day (and part) of a review still ahead, so that at least one moves when anything fits.
        const ahead = placed.find((review) => !startedBy(week, review.slots![0]!.day, review.slots![0]!.start));
        const at = ahead && partOf(week, ahead);
        if (!at) return;
        const weekday = WEEKDAY_NAMES[at.day.dayOfWeek]!;
        const byPart = kind === 2 || kind === 3;
        // Two days: the day of another review still ahead on another weekday, else the next day of the week.
        const other =
          placed
            .map((review) => dayOfWeekOf(week, review.slots![0]!.day))
            .find((day) => day !== undefined && day !== at.day.dayOfWeek) ?? (at.day.dayOfWeek % 7) + 1;
        const weekdays = kind >= 4 ? [at.day.dayOfWeek, other] : [at.day.dayOfWeek];
        const message = [
          `move ${weekday}'s reviews to another day`,
          `move all my reviews off ${weekday}`,
          `I'm busy ${at.name}, move my reviews`,
          `move my reviews out of ${at.name}`,
          `move my reviews off ${weekday} and ${WEEKDAY_NAMES[other]}`,
          `I'm busy ${WEEKDAY_NAMES[other]}, ${weekday}, move my reviews`,
        ][kind]!;
        if (byPart) seen.part += 1;
        if (kind >= 4) seen.twoDays += 1;
        const { judged, after, said } = await acceptedRun(week, seed, message);
        for (const review of placed) {
          const own = review.slots![0]!;
          const where = { seed, message, review: review.id, own };
          const now = (after.tasks.find((task) => task.id === review.id) as TaskItem).slots?.[0];
          const chosen =
            weekdays.includes(dayOfWeekOf(week, own.day)!) && (!byPart || partOfSlot(week, own.start) === at.part);
          if (startedBy(judged, own.day, own.start) || !chosen) {
            expect({ ...where, now }).toEqual({ ...where, now: own });
            continue;
          }
          const length = own.end - own.start + 1;
          // Off its day (and every day named), or (by part) nothing of it in that part of its day.
          const allowed = (place: { day: number; start: number }) =>
            (place.day !== own.day && !weekdays.includes(dayOfWeekOf(judged, place.day)!)) ||
            (byPart &&
              Array.from({ length }, (_, index) => place.start + index).every(
                (slot) => partOfSlot(judged, slot) !== at.part,
              ));
          const offset = (place: { day: number; start: number }) =>
            (place.day - own.day) * 24 * 60 + minuteOf(judged, place.start) - minuteOf(judged, own.start);
          const places = placesFor(after, review.id).filter(allowed);
          const moved = now && (now.day !== own.day || now.start !== own.start);
          if (moved) {
            seen.moved += 1;
            expect({ ...where, now, allowed: allowed(now) }).toEqual({ ...where, now, allowed: true });
            const nearer = places.filter((place) => Math.abs(offset(place)) < Math.abs(offset(now)));
            expect({ ...where, now, nearer }).toEqual({ ...where, now, nearer: [] });
          } else {
            seen.stayed += 1;
            expect({ ...where, named: said.includes(`"${review.name}" stays`) }).toEqual({ ...where, named: true });
            expect({ ...where, places }).toEqual({ ...where, places: [] });
          }
        }
      }),
      {
        seed: Number(process.env.FCSEED ?? 20261205),
        numRuns: Number(process.env.FCRUNS ?? 120),
        // Weeks where a class's buffer refused the nearest places of two reviews landing side by side: one stayed
        // while places fitted (a day's reviews; two days').
        examples: [
          [937, 0],
          [2825, 4],
        ],
      },
    );
    expect(seen.moved).toBeGreaterThan(10);
    expect(seen.part).toBeGreaterThan(10);
    expect(seen.twoDays).toBeGreaterThan(5);
    expect(seen.stayed).toBeGreaterThan(0);
  });
});

/**
 * "Move Tuesday's reviews to Tuesday evening", "I'm busy Tuesday morning, move my reviews to the evening", "move
 * Tuesday's reviews to Wednesday evening": every review of that day (or part) still ahead goes into that part of its
 * own day or of the day named, at the free start nearest its own. Held to the week as it ended, as above: a review that
 * moved lies wholly in that part of the day asked, and no place the oracle lets it take wholly there is nearer its own
 * start; one that stayed is named, and the oracle lets it take no place wholly there. One already wholly there the same
 * day is no review to move.
 */
describe("every review of a day moved into a part of a day, against the brute-force oracle", () => {
  test("each lands in the part asked nearest its own start, or stays only when nothing fits there", async () => {
    const seen = { moved: 0, stayed: 0, nextDay: 0, busy: 0 };
    const PARTS = ["morning", "afternoon", "evening"] as const;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.nat({ max: 2 }), async (seed, kind) => {
        const { week, placed } = smallWeek(seed);
        if (!week) return;
        const ahead = placed.find((review) => !startedBy(week, review.slots![0]!.day, review.slots![0]!.start));
        const at = ahead && partOf(week, ahead);
        if (!ahead || !at) return;
        // Another part of the day than the review's own, and (kind 2) the next day of the window.
        const into = PARTS[(PARTS.indexOf(at.part) + 1 + (seed % 2)) % 3]!;
        const targetDay = ahead.slots![0]!.day + (kind === 2 ? 1 : 0);
        const target = week.window.days.find((day) => day.dayIndex === targetDay);
        if (!target) return;
        const weekday = WEEKDAY_NAMES[at.day.dayOfWeek]!;
        const message = [
          `move ${weekday}'s reviews to ${weekday} ${into}`,
          `I'm busy ${at.name}, move my reviews to the ${into}`,
          `move ${weekday}'s reviews to ${WEEKDAY_NAMES[target.dayOfWeek]} ${into}`,
        ][kind]!;
        if (kind === 1) seen.busy += 1;
        if (kind === 2) seen.nextDay += 1;
        const { judged, after, said } = await acceptedRun(week, seed, message);
        const whollyIn = (start: number, length: number) =>
          Array.from({ length }, (_, index) => start + index).every((slot) => partOfSlot(judged, slot) === into);
        for (const review of placed) {
          const own = review.slots![0]!;
          const length = own.end - own.start + 1;
          const where = { seed, message, review: review.id, own };
          const now = (after.tasks.find((task) => task.id === review.id) as TaskItem).slots?.[0];
          const chosen =
            dayOfWeekOf(week, own.day) === at.day.dayOfWeek &&
            (kind !== 1 || partOfSlot(week, own.start) === at.part) &&
            !(kind !== 2 && whollyIn(own.start, length));
          if (startedBy(judged, own.day, own.start) || !chosen) {
            expect({ ...where, now }).toEqual({ ...where, now: own });
            continue;
          }
          const day = own.day + (kind === 2 ? 1 : 0);
          const places = placesFor(after, review.id).filter(
            (place) => place.day === day && whollyIn(place.start, length),
          );
          const moved = now && (now.day !== own.day || now.start !== own.start);
          if (moved) {
            seen.moved += 1;
            expect({ ...where, now, there: now.day === day && whollyIn(now.start, length) }).toEqual({
              ...where,
              now,
              there: true,
            });
            const nearer = places.filter(
              (place) => Math.abs(place.start - own.start) < Math.abs(now.start - own.start),
            );
            expect({ ...where, now, nearer }).toEqual({ ...where, now, nearer: [] });
          } else {
            seen.stayed += 1;
            expect({ ...where, named: said.includes(`"${review.name}" stays`) }).toEqual({ ...where, named: true });
            expect({ ...where, places }).toEqual({ ...where, places: [] });
          }
        }
      }),
      { seed: Number(process.env.FCSEED ?? 20261207), numRuns: Number(process.env.FCRUNS ?? 120) },
    );
    expect(seen.moved).toBeGreaterThan(10);
    expect(seen.stayed).toBeGreaterThan(3);
    expect(seen.busy).toBeGreaterThan(5);
    expect(seen.nextDay).toBeGreaterThan(5);
  });
});
