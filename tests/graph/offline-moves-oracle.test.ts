/**
 * The offline moves' placement claims against the brute-force oracle (tests/support/schedule-oracle.ts, which shares
 * no code with the tools or the policy): "push the X review back a day" lands "at its own time, else the nearest free
 * time that day"; "an hour later" at the free start nearest that time, past its own start; "to later" at the nearest
 * free start that way; "move X to Thursday" at the first free start of Thursday (X on Thursday already: no move, it says so) — and "no free time fits" only when
 * no place of that day is one a write of X may take (else, with free time there, the write's refusal names the rule
 * that keeps X out, and nothing moves). Over small generated weeks with every rule kind (class days and
 * buffers, deadlines, earliest days, hosts, standing preferences, task groups), placed by hand or not, and a clock
 * before or inside the week (reviews whose place has started do not move), driven through the graph with the
 * offline policy, the cards accepted.
 *
 * A "free" place is one the move may take: every hard rule a write checks, the task's own slots free (it leaves
 * them). Until 2026-12-02 the policy chose among find_free's free runs, which ignore the task's rules and count its
 * own slots as taken: "an hour later" of a two-hour review went two hours later, or said "no free time fits", and a
 * day's first free run inside a class's buffer was proposed and refused.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { namedWeek, placesFor, startedBy, tempoOf } from "../support/offline-weeks.js";
import { converse } from "./support/offline-conversation.js";

/** Minutes after midnight of a slot's start: its clock time, else an hour a slot. */
const minuteOf = (state: ScheduleState, slot: number) => {
  const time = state.window.slotTimes?.[slot - 1]?.start;
  if (time === undefined) return slot * 60;
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
};

/** A request and the shift it says, for review `name`. */
const REQUESTS = [
  (name: string) => `push the ${name} back a day`,
  (name: string) => `bring the ${name} forward a day`,
  (name: string) => `delay the ${name} by 2 days`,
  (name: string) => `postpone the ${name}`,
  (name: string) => `push the ${name} an hour later`,
  (name: string) => `move the ${name} an hour earlier`,
  (name: string) => `push the ${name} 2 hours later`,
  (name: string) => `move the ${name} to later`,
  (name: string) => `move the ${name} to earlier`,
  (name: string) => `move the ${name} to weekday`,
];

/**
 * Where the request should put review `task` as documented, by brute force: `{ to }`, `{ none }` (no place of the day
 * fits), `{ outside }` (a shift off the window) or `{ fixed }` (its place has started).
 */
function expected(
  state: ScheduleState,
  task: TaskItem,
  message: string,
): { to: { day: number; start: number } } | { none: true } | { outside: true } | { fixed: true } | { already: true } {
  const request = parseScheduleRequest(message);
  if (request?.kind !== "move") throw new Error(`not a move: ${message}`);
  const own = task.slots![0]!;
  const places = placesFor(state, task.id);
  const nearest = (among: Array<{ day: number; start: number }>, distance: (start: number) => number, later: boolean) =>
    [...among].sort(
      (a, b) => distance(a.start) - distance(b.start) || (later ? b.start - a.start : a.start - b.start),
    )[0];
  if (!request.shift) {
    // A weekday named: the first place of that day (its own place excepted); the day it is on already, no move.
    const day = state.window.days.findIndex((entry) => request.where.only.weekdays.includes(entry.dayOfWeek)) + 1;
    if (startedBy(state, own.day, own.start)) return { fixed: true };
    if (day === own.day) return { already: true };
    const first = places.find((place) => place.day === day && !(day === own.day && place.start === own.start));
    return first ? { to: first } : { none: true };
  }
  const shift = request.shift;
  const day = own.day + ("days" in shift ? shift.days : 0);
  if (day < 1 || day > state.window.totalDays) return { outside: true };
  if (startedBy(state, own.day, own.start)) return { fixed: true };
  const onDay = places.filter((place) => place.day === day && !(day === own.day && place.start === own.start));
  const later = "days" in shift ? shift.days > 0 : "minutes" in shift ? shift.minutes > 0 : shift.sameDay === "later";
  let to: { day: number; start: number } | undefined;
  if ("days" in shift)
    to = nearest(onDay, (start) => Math.abs(minuteOf(state, start) - minuteOf(state, own.start)), later);
  else {
    const way = onDay.filter((place) => (later ? place.start > own.start : place.start < own.start));
    const target = minuteOf(state, own.start) + ("minutes" in shift ? shift.minutes : 0);
    to =
      "minutes" in shift
        ? nearest(way, (start) => Math.abs(minuteOf(state, start) - target), later)
        : nearest(way, (start) => Math.abs(start - own.start), later);
  }
  return to ? { to } : { none: true };
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

describe("offline moves against the brute-force oracle", () => {
  test("a shift or a move to a day lands where the documented rule says, and 'no free time' is true", async () => {
    const seen = { moved: 0, none: 0, fixed: 0, nearest: 0, already: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4000 }),
        fc.nat({ max: 11 }),
        fc.nat({ max: REQUESTS.length - 1 }),
        fc.nat({ max: 6 }),
        async (seed, pick, kind, weekday) => {
          const week = namedWeek(seed);
          const placed = (week?.tasks ?? []).filter(
            (task): task is TaskItem => task.source === "task_item" && task.status === "placed",
          );
          if (!week || placed.length === 0 || week.window.totalDays * week.window.slotsPerDay > 45) return;
          const task = placed[pick % placed.length]!;
          const day = week.window.days[weekday % week.window.totalDays]!;
          const message = REQUESTS[kind]!(task.name.toLowerCase()).replace("weekday", WEEKDAYS[day.dayOfWeek - 1]!);
          const { tempo, week: judged } = await tempoOf(week);
          const want = expected(judged, task, message);
          // (A question — a weekday behind today means the coming one, which the week may not reach — is withdrawn.)
          const outcome = await converse(tempo, message, (card) =>
            card.action === "ask_user" ? { type: "response", args: "never mind" } : { type: "accept", args: null },
          );
          const moves = outcome.cards.filter((card) => card.action === "move");
          const said = `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`;
          const where = { seed, message, want };
          // "No free time fits" is said only when no place of that day takes the review.
          if (/No free (?:time|slot) fits/.test(said))
            expect({ ...where, none: "none" in want }).toEqual({ ...where, none: true });
          if ("to" in want) {
            expect({ ...where, move: moves.map((card) => card.args) }).toEqual({
              ...where,
              move: [{ task_id: task.id, day: want.to.day, slot_start: want.to.start }],
            });
            const now = outcome.schedule.tasks.find((entry) => entry.id === task.id);
            expect({ ...where, at: now?.slots?.[0] }).toMatchObject({
              ...where,
              at: { day: want.to.day, start: want.to.start },
            });
            seen.moved += 1;
            if (want.to.start !== task.slots![0]!.start) seen.nearest += 1;
          } else {
            // No move: the card that would be refused is never raised, and the review stays where it was.
            expect({ ...where, move: moves }).toEqual({ ...where, move: [] });
            const now = outcome.schedule.tasks.find((entry) => entry.id === task.id);
            expect({ ...where, at: now?.slots?.[0] }).toEqual({ ...where, at: task.slots![0] });
            const because =
              "none" in want
                ? /./
                : "outside" in want
                  ? /outside your schedule/
                  : "already" in want
                    ? /is already on .+; nothing to move/
                    : /has passed|has started|the past is fixed/;
            expect({ ...where, said: because.test(said) ? "true" : said }).toEqual({ ...where, said: "true" });
            if ("none" in want) seen.none += 1;
            if ("fixed" in want) seen.fixed += 1;
            if ("already" in want) seen.already += 1;
          }
        },
      ),
      { seed: 20261202, numRuns: 70 },
    );
    // Each claim was met: moves (some off the review's own time), "no free time", and a review the clock fixed.
    expect(seen.moved).toBeGreaterThan(10);
    expect(seen.nearest).toBeGreaterThan(3);
    expect(seen.none).toBeGreaterThan(3);
    expect(seen.fixed).toBeGreaterThan(1);
    expect(seen.already).toBeGreaterThan(0);
  });
});
