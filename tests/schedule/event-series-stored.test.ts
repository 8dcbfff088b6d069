/**
 * Monthly series and added dates stored (issue 47 item 2): an event whose series is a monthly rule (2TU) with an
 * RDATE and an EXDATE goes through the Postgres repository as it is, on PGlite and on PostgreSQL 15, and a roll stored
 * there re-expands it into the new window.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandSeries } from "../../tools/schedule/event-series.js";
import {
  canonicalScheduleState,
  diffScheduleState,
  PostgresScheduleRepository,
  sampleWeek,
} from "../../tools/schedule/index.js";
import type { EventSeries, EventTask } from "../../tools/schedule/state.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

describe.each(postgresTargets())("a monthly series stored on $kind postgres", (target) => {
  let server: TestPostgres | undefined;
  let pool: pg.Pool;

  beforeAll(async () => {
    server = await target.start();
    pool = new pg.Pool({ connectionString: server.url, max: 3 });
    await new PostgresScheduleRepository(pool).migrate();
  });

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  it("keeps its rule, added date and cancelled date, and a stored roll re-expands it", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const week = sampleWeek();
    await repository.seed("monthly-user", week);
    const firstDate = week.window.days[0]!.date!;
    // The first Monday of each month from the window's month, one cancelled, one extra Sunday evening added.
    const series: EventSeries = {
      rule: { freq: "monthly", interval: 1, byNthDay: [{ nth: 1, day: 1 }], byMonthDay: [1, 2, 3, 4, 5, 6, 7] },
      firstDate: "2024-03-04",
      start: "19:00",
      end: "20:40",
      timeZone: week.window.timeZone!,
      cancelled: ["2024-04-01"],
      moved: [],
      added: [{ date: "2024-03-17", start: "19:00" }],
    };
    expect(firstDate).toBe("2024-03-11");
    const seminar: EventTask = {
      id: "monthly-seminar",
      name: "Monthly seminar",
      source: "event",
      slots: expandSeries(series, week.window).slots,
      canEmbed: false,
      locked: false,
      embeds: [],
      series,
    };
    const withSeries = { ...week, tasks: [...week.tasks, seminar] };
    await repository.applyChanges("monthly-user", diffScheduleState(week, withSeries), { applyId: "monthly-1" });
    const loaded = await repository.load("monthly-user");
    expect(loaded).toEqual(canonicalScheduleState(withSeries));
    // The added Sunday 17 March is in the first window; 1 April is cancelled, so the next one is Monday 6 May.
    expect(seminar.slots).toHaveLength(1);
    // Eight weekly rolls, each stored.
    for (let roll = 0; roll < 8; roll += 1) {
      const current = await repository.load("monthly-user");
      await repository.applyChanges("monthly-user", [{ kind: "roll", days: 7, from: current.window.days[0]! }], {
        applyId: `monthly-roll-${roll}`,
      });
    }
    const rolled = await repository.load("monthly-user");
    const stored = rolled.tasks.find((task) => task.id === "monthly-seminar") as EventTask;
    expect(stored.series).toEqual(series);
    expect(rolled.window.days[0]!.date).toBe("2024-05-06");
    expect(stored.slots).toEqual(expandSeries(series, rolled.window).slots);
    expect(stored.slots).toHaveLength(1);
    expect(stored.slots[0]!.day).toBe(1);
  });
});
