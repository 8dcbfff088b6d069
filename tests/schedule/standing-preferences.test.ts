/**
 * The user's standing preferences as the schedule's rules (issue 31 item 3): folded into the loaded state for a tool
 * run, an avoided day is hard — propose_arrangement, propose_candidates and find_free never offer it, and a place or
 * move onto it is refused naming the preference and how to remove it — an "only" part of the day and an hour bind
 * the search, a preferred part is soft (the health judge); the preferences are never persisted; a domain without the
 * hook (todo) runs as before, and combined domains fold each part.
 */
import { describe, expect, test } from "vitest";
import type { Preference, PreferenceDraft } from "../../contracts/preferences.js";
import { preferenceId } from "../../memory/preferences.js";
import { combineDomains } from "../../tools/combined-domain.js";
import type { CandidateListing } from "../../tools/domain.js";
import { runTool } from "../../tools/runner.js";
import { withStandingPreferences } from "../../tools/schedule/domain.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { summaryInChinese } from "../../offline/schedule/replies.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { createTodoDomain } from "../../tools/todo/domain.js";
import { InMemoryTodoRepository } from "../../tools/todo/repository.js";

const entry = (draft: PreferenceDraft): Preference =>
  ({
    ...draft,
    id: preferenceId(draft),
    source: "card feedback on place (thread t-1)",
    createdAt: "2026-01-05T10:00:00.000Z",
  }) as Preference;
const NEVER_MONDAY = entry({ kind: "avoid_day", value: 1, text: "never on Monday" });

/** The sample week's Mondays (day indices), from its dates. */
const mondays = (state: ScheduleState) =>
  state.window.days.filter((day) => day.dayOfWeek === 1).map((day) => day.dayIndex);

async function scheduleWith(week: ScheduleState = sampleWeek()) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", week);
  return { repository, domain: createScheduleDomain({ repository }) };
}

const run = (
  domain: ReturnType<typeof createScheduleDomain>,
  name: string,
  args: Record<string, unknown>,
  preferences: Preference[] = [NEVER_MONDAY],
) =>
  runTool(
    domain,
    { userId: "student", threadId: "t-1", stepId: null, preferences },
    { id: `call-${Math.random().toString(36).slice(2)}`, name, arguments: args },
  );

/** The days a listing's writes put tasks on. */
const daysOf = (listing: CandidateListing) =>
  listing.candidates.flatMap((candidate) =>
    candidate.writes.flatMap((write) =>
      [
        write.arguments.day,
        ...((write.arguments.moves as Array<{ day: number }> | undefined) ?? []).map((move) => move.day),
      ].filter((day) => day !== undefined),
    ),
  );

describe("an avoided day is hard", () => {
  test("the sample week has a Monday, and without the preference the arrangement uses it", async () => {
    const { domain } = await scheduleWith();
    const week = await domain.load("student");
    expect(mondays(week)).toEqual([1]);
    const listing = (await run(domain, "propose_arrangement", {}, [])).data as CandidateListing;
    expect(daysOf(listing)).toContain(1);
  });

  test("propose_arrangement and propose_candidates never put a task on Monday; find_free leaves Monday out and says why", async () => {
    const { domain } = await scheduleWith();
    const arrangement = (await run(domain, "propose_arrangement", {})).data as CandidateListing;
    expect(daysOf(arrangement).length).toBeGreaterThan(3);
    expect(daysOf(arrangement)).not.toContain(1);
    const candidates = (await run(domain, "propose_candidates", { k: 5 })).data as CandidateListing;
    expect(candidates.candidates.length).toBeGreaterThan(0);
    expect(daysOf(candidates)).not.toContain(1);
    const free = await run(domain, "find_free", { min_length: 1 });
    expect((free.data as { runs: Array<{ day: number }> }).runs.map((entry) => entry.day)).not.toContain(1);
    expect(free.content).toContain("left out: your standing preferences rule them out");
    expect(summaryInChinese(free.content)).toContain("（已略过第 1 天：你的长期偏好排除了它们）");
    // Asked for Monday outright, nothing is placed, and the listing says which preference stands in the way.
    const onMonday = (await run(domain, "propose_arrangement", { task_ids: ["review-limits"], days: [1] }))
      .data as CandidateListing & { left?: Array<{ id: string; why: string }> };
    expect(onMonday.candidates).toEqual([]);
    expect(onMonday.left).toEqual([
      {
        id: "review-limits",
        why: expect.stringContaining('your standing preference "never on Monday" rules out the free time it fits in'),
      },
    ]);
    // A Chinese user reads the reason in Chinese.
    expect(
      summaryInChinese(
        `every placement the plan had room for was proposed; left pending: review-limits (${onMonday.left![0]!.why})`,
      ),
    ).toBe(
      '已为计划中放得下的每个任务提出了安排；仍待安排：review-limits（你的长期偏好 "never on Monday" 排除了能容纳它的时段；/prefs 查看偏好，/forget 删除一条）',
    );
    // Asked for Monday by name, the read shows it.
    expect(((await run(domain, "find_free", { days: [1] })).data as { runs: unknown[] }).runs.length).toBeGreaterThan(
      0,
    );
  });

  test("a place or move onto Monday is refused naming the preference and how to remove it; nothing changes", async () => {
    const { domain, repository } = await scheduleWith();
    const before = await repository.load("student");
    const place = await run(domain, "place", { task_id: "review-limits", day: 1, slot_start: 5 });
    expect(place.ok).toBe(false);
    expect(place.content).toContain(
      'cannot go on day 1 (Mon 11 Mar 2024): your standing preference "never on Monday" rules Mon out',
    );
    expect(place.content).toContain(`/forget ${NEVER_MONDAY.id}`);
    expect(place.content).toContain('"Mondays are fine now"');
    // In Chinese: the day, the preference in the user's words, how to lift it — no English left of the refusal.
    const zh = summaryInChinese(place.content);
    expect(zh).toContain("不能安排在3月11日周一：你的长期偏好“never on Monday”排除了周一；");
    expect(zh).toContain(
      `要改变它，请删除它（/prefs 查看偏好，/forget ${NEVER_MONDAY.id} 删除这一条），或者告诉我“周一可以了”`,
    );
    expect(zh).not.toMatch(/standing preference|to change it|fine now/);
    expect(await repository.load("student")).toEqual(before);
    // Placed elsewhere, then moved onto Monday: refused too.
    expect((await run(domain, "place", { task_id: "review-limits", day: 2, slot_start: 3 })).ok).toBe(true);
    const move = await run(domain, "move", { task_id: "review-limits", day: 1, slot_start: 5 });
    expect(move.ok).toBe(false);
    expect(move.content).toContain("never on Monday");
    // Without the preference (removed), Monday takes it.
    expect((await run(domain, "move", { task_id: "review-limits", day: 1, slot_start: 5 }, [])).ok).toBe(true);
  });

  test("never persisted: a write made under the preferences stores the schedule without them", async () => {
    const { domain, repository } = await scheduleWith();
    expect((await run(domain, "place", { task_id: "review-limits", day: 2, slot_start: 3 })).ok).toBe(true);
    const stored = await repository.load("student");
    expect(stored.standing).toBeUndefined();
    expect(stored.tasks.find((task) => task.id === "review-limits")?.slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });
});

describe("slots and parts of the day", () => {
  test("'only in the evening' and 'never before 10' bind the arrangement's slots", async () => {
    const { domain } = await scheduleWith();
    const week = await domain.load("student");
    const evening = entry({ kind: "only_part_of_day", value: "evening", text: "only in the evening" });
    const placed = (listing: CandidateListing) =>
      listing.candidates.flatMap((candidate) => candidate.writes.map((write) => write.arguments.slot_start as number));
    const evenings = placed((await run(domain, "propose_arrangement", {}, [evening])).data as CandidateListing);
    const eveningStart = week.window.slotTimes!.findIndex((time) => Number(time.start.slice(0, 2)) >= 18) + 1;
    expect(evenings.length).toBeGreaterThan(0);
    expect(Math.min(...evenings)).toBeGreaterThanOrEqual(eveningStart);
    const late = entry({ kind: "not_before_hour", value: 10, text: "never before 10" });
    const firstAfterTen = week.window.slotTimes!.findIndex((time) => Number(time.start.slice(0, 2)) >= 10) + 1;
    const starts = placed((await run(domain, "propose_arrangement", {}, [late])).data as CandidateListing);
    expect(starts.length).toBeGreaterThan(0);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(firstAfterTen);
    // A free place before 10:00 (free without the preference), refused with it.
    const before = (
      (await run(domain, "find_free", { min_length: 2, slot_end: firstAfterTen - 1 }, [])).data as {
        runs: Array<{ day: number; start: number }>;
      }
    ).runs[0]!;
    const early = await run(
      domain,
      "place",
      { task_id: "derivative-drills", day: before.day, slot_start: before.start },
      [late],
    );
    expect(early.ok).toBe(false);
    expect(early.content).toContain('your standing preference "never before 10"');
    expect(summaryInChinese(early.content)).toMatch(
      /不能从第\d+节开始：你的长期偏好“never before 10”只允许第\d+(?:-\d+节|节起)；要改变它/,
    );
    expect(
      (await run(domain, "place", { task_id: "derivative-drills", day: before.day, slot_start: before.start }, [])).ok,
    ).toBe(true);
  });

  test("a preferred part of the day is soft: the judge counts a session outside it, nothing is refused", async () => {
    const { domain } = await scheduleWith();
    const mornings = entry({ kind: "part_of_day", value: "morning", text: "I prefer mornings" });
    const week = await domain.load("student");
    // A class without preferred parts of its own, so the user's preference is the one that counts.
    const plain: ScheduleState = {
      ...week,
      categories: week.categories.map(({ preferredParts: _parts, ...category }) => category),
    };
    const lastSlot = plain.window.slotsPerDay - 1;
    const evening: ScheduleState = {
      ...plain,
      tasks: plain.tasks.map((task) =>
        task.id === "review-limits" && task.source === "task_item"
          ? {
              ...task,
              status: "placed" as const,
              slots: [{ day: 2, start: lastSlot, end: lastSlot + task.duration - 1 }],
            }
          : task,
      ),
    };
    const off = (state: ScheduleState) =>
      analyzeHealth(state).issues.filter(
        (issue) => issue.kind === "off_profile" && issue.tasks.includes("review-limits"),
      );
    expect(off(evening)).toEqual([]);
    expect(off(withStandingPreferences(evening, [mornings])).map((issue) => issue.message)).toEqual([
      expect.stringContaining("outside the morning you prefer"),
    ]);
    expect(
      (await run(domain, "place", { task_id: "review-limits", day: 2, slot_start: lastSlot }, [mornings])).ok,
    ).toBe(true);
  });
});

describe("the judge sees the hours a standing preference keeps", () => {
  // A review placed before the preference was said stays where it is (no write puts one there now): "how is my week"
  // must name it. It judged whole days only, so "no studying after 9pm" never flagged a review at 21:45.
  const times = sampleWeek().window.slotTimes!;
  const last = times.length;
  /**
   * The sample week with review-limits (two slots) placed on Tuesday (day 2) from `slot`, its classes preferring no part
   * of the day (a class's preferred part is soft, and would be named instead).
   */
  const placedAt = (slot: number): ScheduleState => {
    const week = sampleWeek();
    return {
      ...week,
      categories: week.categories.map(({ preferredParts: _parts, ...category }) => category),
      tasks: week.tasks.map((task) =>
        task.id === "review-limits" && task.source === "task_item"
          ? { ...task, status: "placed" as const, slots: [{ day: 2, start: slot, end: slot + task.duration - 1 }] }
          : task,
      ),
    };
  };
  const offMessages = (state: ScheduleState, rules: Preference[]) =>
    analyzeHealth(withStandingPreferences(state, rules))
      .issues.filter((issue) => issue.kind === "off_profile" && issue.tasks.includes("review-limits"))
      .map((issue) => issue.message);
  // Read off the week's clock, not Tempo's: the first slot and the last one of the day.
  const hour = (clock: string) => Number(clock.slice(0, 2)) + Number(clock.slice(3, 5)) / 60;
  const endsAfter = (limit: number) => hour(times[last - 1]!.end) > limit;
  const startsBefore = (limit: number) => hour(times[0]!.start) < limit;

  test.each([
    { rule: entry({ kind: "not_after_hour", value: 21, text: "no studying after 9pm" }), outside: last - 1, inside: 1 },
    { rule: entry({ kind: "not_before_hour", value: 10, text: "never before 10" }), outside: 1, inside: last - 1 },
    {
      rule: entry({ kind: "avoid_part_of_day", value: "morning", text: "never in the morning" }),
      outside: 1,
      inside: last - 1,
    },
    {
      rule: entry({ kind: "only_part_of_day", value: "evening", text: "only in the evening" }),
      outside: 1,
      inside: last - 1,
    },
    {
      rule: entry({ kind: "not_after_hour", value: 21, days: [2], text: "nothing after 21:00 on Tuesdays" }),
      outside: last - 1,
      inside: 1,
    },
  ])("$rule.text: a review it rules out is named with it, one it allows is not", ({ rule, outside, inside }) => {
    expect(endsAfter(21) && startsBefore(10)).toBe(true);
    expect(offMessages(placedAt(outside), [rule])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^"Review limits and continuity" is on day 2 .*, which your standing preference "${rule.text}" rules out$`,
        ),
      ),
    ]);
    expect(offMessages(placedAt(inside), [rule])).toEqual([]);
    expect(offMessages(placedAt(outside), [])).toEqual([]);
  });

  test("on a week half over, a review whose place has started is history: not judged, one still ahead is", () => {
    const late = entry({ kind: "not_after_hour", value: 21, text: "no studying after 9pm" });
    const week = placedAt(last - 1);
    // Tuesday 12 March 2024 in Shanghai (the sample window's day 2): before 20:50 the review is ahead, after it begun.
    const at = (clock: string): ScheduleState => ({
      ...week,
      now: new Date(`2024-03-12T${clock}:00+08:00`).toISOString(),
    });
    expect(times[last - 2]!.start).toBe("20:50");
    expect(offMessages(at("20:00"), [late])).toHaveLength(1);
    expect(offMessages(at("21:00"), [late])).toEqual([]);
  });

  test("a rule of other days leaves the day alone", () => {
    const friday = entry({ kind: "not_after_hour", value: 21, days: [5], text: "nothing after 21:00 on Fridays" });
    expect(offMessages(placedAt(last - 1), [friday])).toEqual([]);
  });
});

describe("other domains", () => {
  test("a domain without the hook runs as before with preferences given; combined domains fold the schedule's part only", async () => {
    const todo = createTodoDomain({ repository: new InMemoryTodoRepository() });
    const listed = await runTool(
      todo,
      { userId: "student", threadId: "t-1", stepId: null, preferences: [NEVER_MONDAY] },
      { id: "c-1", name: todo.tools[0]!.name, arguments: {} },
    );
    expect(listed.content).not.toContain("Error");
    const { domain: schedule } = await scheduleWith();
    const combined = combineDomains([schedule, todo]);
    const folded = combined.withPreferences!(await combined.load("student"), [NEVER_MONDAY]) as Record<string, unknown>;
    expect((folded.schedule as ScheduleState).standing).toEqual([
      { kind: "avoid_day", value: 1, text: "never on Monday", id: NEVER_MONDAY.id },
    ]);
    expect(folded.todo).toEqual(await todo.load("student"));
    const refused = await runTool(
      combined,
      { userId: "student", threadId: "t-1", stepId: null, preferences: [NEVER_MONDAY] },
      { id: "c-2", name: "place", arguments: { task_id: "review-limits", day: 1, slot_start: 5 } },
    );
    expect(refused.content).toContain("never on Monday");
    expect(combined.readPreferences!("never on Monday", { kind: "message" }).add).toHaveLength(1);
  });
});
