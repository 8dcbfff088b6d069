/**
 * The offline policy's whole-day writes, "put back X" and "I missed X" (then its reschedule) held to what the week
 * holds, checked by brute force (tests/support/schedule-oracle.ts, sharing no code with the tools or the policy) over
 * small generated weeks with every rule kind — class days and buffers, deadlines (a day, an exam), earliest days,
 * hosts, standing preferences (kept in the user's memory, where the graph reads them), task groups — with a clock
 * before or inside the week (reviews whose place has started, days gone), driven through the graph, cards accepted:
 *
 * - "clear Thursday" takes off exactly the reviews placed on that day whose place has not started (those that have
 *   are named as started and stay), "skip all my reviews on Thursday" skips every review placed there, and "no review
 *   is placed" is said only of a day with none;
 * - "put back X" for a pending X places it exactly when some place takes it beside the week as it is, at such a place;
 * - "I missed X" marks it missed and proposes it again: placed exactly when some place takes it (its old place freed),
 *   at such a place; else it stays missed, said so.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { namedWeek, placesFor, startedBy, tempoOf } from "../support/offline-weeks.js";
import { converse } from "./support/offline-conversation.js";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const accept = () => ({ type: "accept", args: null });

const itemsOf = (state: ScheduleState) => state.tasks.filter((task): task is TaskItem => task.source === "task_item");
const small = (week: ScheduleState | undefined): week is ScheduleState =>
  week !== undefined && week.window.totalDays * week.window.slotsPerDay <= 45;

describe("offline whole-day writes, put back and reschedule against brute force", () => {
  test("clearing or skipping a day writes exactly its reviews, started ones kept on a clear", async () => {
    const seen = { cleared: 0, none: 0, started: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4000 }),
        fc.nat({ max: 6 }),
        fc.boolean(),
        async (seed, pick, skip) => {
          const week = namedWeek(seed);
          if (!small(week)) return;
          const day = pick % week.window.totalDays;
          const weekday = WEEKDAYS[week.window.days[day]!.dayOfWeek - 1]!;
          const message = skip ? `skip all my reviews on ${weekday}` : `clear ${weekday}`;
          const { tempo, week: judged } = await tempoOf(week);
          const there = itemsOf(judged).filter(
            (task) => task.status === "placed" && task.slots?.some((range) => range.day === day + 1),
          );
          const started = skip ? [] : there.filter((task) => startedBy(judged, day + 1, task.slots![0]!.start));
          const chosen = there.filter((task) => !started.includes(task)).map((task) => task.id);
          const outcome = await converse(tempo, message, accept);
          const writes = outcome.cards.filter((card) => card.action === (skip ? "skip" : "unplace"));
          const said = `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`;
          const where = { seed, message };
          expect({ ...where, ids: writes.map((card) => String(card.args.task_id)).sort() }).toEqual({
            ...where,
            ids: [...chosen].sort(),
          });
          for (const task of itemsOf(outcome.schedule)) {
            const before = itemsOf(judged).find((entry) => entry.id === task.id)!;
            const status = chosen.includes(task.id) ? (skip ? "skipped" : "pending") : before.status;
            expect({ ...where, id: task.id, status: task.status }).toEqual({ ...where, id: task.id, status });
          }
          // "No review is placed" only of a day with none; a started one is named as started.
          expect({ ...where, none: /No review is placed/.test(said) }).toEqual({ ...where, none: there.length === 0 });
          for (const task of started)
            expect({ ...where, said: said.includes(`"${task.name}" has started`) }).toEqual({ ...where, said: true });
          if (chosen.length > 0) seen.cleared += 1;
          if (there.length === 0) seen.none += 1;
          if (started.length > 0) seen.started += 1;
        },
      ),
      { seed: 4711, numRuns: 40 },
    );
    expect(seen.cleared).toBeGreaterThan(5);
    expect(seen.none).toBeGreaterThan(3);
    expect(seen.started).toBeGreaterThan(0);
  });

  test("'put back X' for a pending X places it exactly when a place takes it, at such a place", async () => {
    const seen = { placed: 0, left: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.nat({ max: 11 }), async (seed, pick) => {
        const week = namedWeek(seed);
        if (!small(week)) return;
        const pending = itemsOf(week).filter((task) => task.status === "pending");
        if (pending.length === 0) return;
        const task = pending[pick % pending.length]!;
        const { tempo, week: judged } = await tempoOf(week);
        const places = placesFor(judged, task.id);
        const message = `put back the ${task.name.toLowerCase()}`;
        const outcome = await converse(tempo, message, accept);
        const now = itemsOf(outcome.schedule).find((entry) => entry.id === task.id)!;
        const at = now.slots?.[0];
        const where = { seed, message, places: places.length };
        expect({ ...where, placed: now.status === "placed" }).toEqual({ ...where, placed: places.length > 0 });
        if (at)
          expect({ ...where, legal: places.some((place) => place.day === at.day && place.start === at.start) }).toEqual(
            { ...where, legal: true },
          );
        if (at) seen.placed += 1;
        else seen.left += 1;
      }),
      { seed: 4712, numRuns: 30 },
    );
    expect(seen.placed).toBeGreaterThan(5);
    expect(seen.left).toBeGreaterThan(0);
  });

  test("'I missed X' proposes it again exactly when a place takes it, at such a place; else it stays missed", async () => {
    const seen = { placed: 0, missed: 0 };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4000 }), fc.nat({ max: 11 }), async (seed, pick) => {
        const week = namedWeek(seed);
        if (!small(week)) return;
        const placed = itemsOf(week).filter((task) => task.status === "placed");
        if (placed.length === 0) return;
        const task = placed[pick % placed.length]!;
        const { tempo, week: judged } = await tempoOf(week);
        // Its place freed by the miss: where a place of it alone may go, every other review as it is.
        const places = placesFor(judged, task.id);
        const message = `I missed the ${task.name.toLowerCase()}`;
        const outcome = await converse(tempo, message, accept);
        const said = `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`;
        const now = itemsOf(outcome.schedule).find((entry) => entry.id === task.id)!;
        const at = now.slots?.[0];
        const where = { seed, message, places: places.length };
        expect({ ...where, status: now.status }).toEqual({ ...where, status: places.length > 0 ? "placed" : "missed" });
        if (at)
          expect({ ...where, legal: places.some((place) => place.day === at.day && place.start === at.start) }).toEqual(
            { ...where, legal: true },
          );
        else
          expect({ ...where, said: /stays missed|no place|no new place/i.test(said) }).toEqual({
            ...where,
            said: true,
          });
        if (at) seen.placed += 1;
        else seen.missed += 1;
      }),
      { seed: 4713, numRuns: 30 },
    );
    expect(seen.placed).toBeGreaterThan(5);
    expect(seen.missed).toBeGreaterThan(0);
  });
});
