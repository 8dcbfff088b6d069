/**
 * A write card's frame (`ToolDomain.cardFrame`): its `moved` finds the window ROLLED on since the card was made — the
 * whole card bears on another week — and only that; a review the card names changed since is `stale`, not `moved`.
 */
import { describe, expect, test } from "vitest";
import { createScheduleDomain, datedWindow, InMemoryScheduleRepository } from "../../tools/schedule/index.js";
import { combineDomains } from "../../tools/combined-domain.js";
import { pendingReview, termWeekWith } from "../support/calendars.js";
import { createNotesDomain } from "../support/notes-domain.js";

const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
const frame = domain.cardFrame!;
const WEEK = termWeekWith([pendingReview("lim", "Limits review", "calculus", 2)]);
const PLACE = { name: "place", arguments: { task_id: "lim", day: 7, slot_start: 3 } };
const made = frame.of(WEEK, PLACE)!;
/** The same week rolled on to Mon 14 – Sun 20 Sep. */
const ROLLED = { ...WEEK, window: datedWindow({ firstDate: "2026-09-14", days: 7, timeZone: "Asia/Shanghai" }) };

describe("a card's frame, moved", () => {
  test("the window rolled on: moved, with both weeks' dates", () => {
    expect(frame.moved!(ROLLED, "place", made)).toMatch(
      /^this card was made on the week of day 1 \(Mon 7 Sep 2026\) – day 7 \(Sun 13 Sep 2026\), and the schedule has moved on to day 1 \(Mon 14 Sep 2026\) – day 7 \(Sun 20 Sep 2026\) since/,
    );
    expect(frame.stale(ROLLED, PLACE, made)).toBe(frame.moved!(ROLLED, "place", made));
  });

  test("the same window with the review changed: stale, not moved", () => {
    const placed = {
      ...WEEK,
      tasks: [{ ...WEEK.tasks[0]!, status: "placed" as const, slots: [{ day: 1, start: 1, end: 2 }] }],
    };
    expect(frame.moved!(placed, "place", made)).toBeUndefined();
    expect(frame.stale(placed, PLACE, made)).toMatch(/^task lim has changed since this card was made/);
  });

  test("served beside another domain, the write's own domain tells", () => {
    const combined = combineDomains([domain, createNotesDomain()]).cardFrame!;
    expect(combined.moved!({ schedule: ROLLED }, "place", made)).toBe(frame.moved!(ROLLED, "place", made));
    expect(combined.moved!({ schedule: WEEK }, "place", made)).toBeUndefined();
  });
});
