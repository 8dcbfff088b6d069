/**
 * A search's placements applied in one batch (`placesApplied`, issue 46 item 5) give the week the place tool gives
 * applying them one by one, on rule-bearing weeks (buffers, hosts, deadlines, the clock), whether the batch is the
 * arrangement's own or drawn at random (and then often refused).
 */
import { describe, expect, test } from "vitest";
import { applyWrites, placesApplied } from "../../tools/schedule/candidate-writes.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { finish } from "../../tools/schedule/steps.js";
import { mulberry32 } from "../../tools/schedule/sample-data.js";
import { clockedWeek, ruleWeek } from "../support/rule-weeks.js";
import type { ScheduleState } from "../../tools/schedule/index.js";

const pendingIds = (week: ScheduleState) =>
  week.tasks.flatMap((task) => (task.source === "task_item" && task.status === "pending" ? [task.id] : []));

describe("a search's placements applied in one batch", () => {
  test("leave the week the place tool leaves applying them one by one, or fail where it fails", () => {
    let batches = 0;
    let refused = 0;
    for (let seed = 1; seed <= 60; seed += 1) {
      const week = seed % 2 === 0 ? ruleWeek(seed) : clockedWeek(seed);
      const card = proposeArrangement(week).candidates[0];
      const random = mulberry32(seed);
      const drawn = pendingIds(week).map((id) => ({
        name: "place",
        arguments: {
          task_id: id,
          day: 1 + Math.floor(random() * week.window.totalDays),
          slot_start: 1 + Math.floor(random() * week.window.slotsPerDay),
        },
      }));
      for (const writes of [card?.writes ?? [], drawn]) {
        const oneByOne = applyWrites(week, writes);
        expect(finish(placesApplied(week, writes)), `seed ${seed}`).toStrictEqual(oneByOne);
        batches += 1;
        if (oneByOne === undefined) refused += 1;
      }
    }
    // Both outcomes must be seen.
    expect(refused).toBeGreaterThan(10);
    expect(batches - refused).toBeGreaterThan(40);
  });
});
