/**
 * The behaviour every `ScheduleRepository` must have, as a reusable block of
 * tests: the in-memory and the Postgres repositories both run it.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import {
  canonicalScheduleState,
  createScheduleDomain,
  diffScheduleState,
  emptyScheduleState,
  generateSchedule,
  InvalidScheduleError,
  sampleWeek,
  rollWindowTool,
  ScheduleConflictError,
  type ScheduleRepository,
  type ScheduleRepositoryOptions,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { commandArbitrary, resolveCommand, scheduleArbitrary } from "./arbitraries.js";
import { event, runTool, write } from "./support.js";
import { oneEventCalendar } from "../support/calendars.js";

/** Options of the contract. */
export interface RepositoryContractOptions {
  /** A fresh repository (fresh storage or not: every test uses its own user ids). */
  makeRepository(options?: ScheduleRepositoryOptions): ScheduleRepository;
  /** Runs of the random round-trip property. */
  roundTripRuns: number;
}

let userCounter = 0;
/** A user id no other test uses. */
function freshUser(label: string): string {
  userCounter += 1;
  return `${label}-${userCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Registers the repository contract tests in the current describe block. */
export function repositoryContract(options: RepositoryContractOptions): void {
  const json = (state: ScheduleState) => JSON.stringify(state);

  it("loads the default for a user with nothing stored, or what whenMissing says", async () => {
    expect(await options.makeRepository().load(freshUser("nobody"))).toEqual(emptyScheduleState());
    const custom = options.makeRepository({ whenMissing: () => sampleWeek() });
    expect(json(await custom.load(freshUser("nobody")))).toBe(json(sampleWeek()));
  });

  it("seeds and loads back the same schedule, byte for byte, also a large one", async () => {
    const repository = options.makeRepository();
    const user = freshUser("seed");
    await repository.seed(user, sampleWeek());
    expect(json(await repository.load(user))).toBe(json(sampleWeek()));
    const large = generateSchedule({ days: 112, taskCount: 2_000, seed: 5 });
    await repository.seed(user, large);
    expect(json(await repository.load(user))).toBe(json(large));
  });

  it("persists task classes and tasks added, changed and removed, all or nothing; a stale repeat changes nothing", async () => {
    const repository = options.makeRepository();
    const user = freshUser("task-writes");
    const before = write("place", sampleWeek(), { task_id: "review-limits", day: 1, slot_start: 9 });
    await repository.seed(user, before);
    const after = structuredClone(before);
    after.categories = [
      ...after.categories.map((category, index) =>
        index === 0 ? { ...category, preferredParts: ["evening" as const], bufferSlots: 1 } : category,
      ),
      { id: "physics", name: "Physics" },
    ];
    after.tasks = after.tasks
      .filter((task) => task.id !== "review-limits")
      .map((task) =>
        task.id === "vocabulary-list" && task.source === "task_item"
          ? { ...task, name: "Vocabulary list unit 6", duration: 2, priority: "low" as const }
          : task,
      )
      // The removed review leaves its study hall.
      .map((task) =>
        task.source === "event" ? { ...task, embeds: task.embeds.filter((id) => id !== "review-limits") } : task,
      );
    after.tasks.push({
      id: "waves-review",
      name: "Waves review",
      source: "task_item",
      duration: 2,
      categoryId: "physics",
      status: "pending",
      dueBefore: { day: 5 },
    });
    const changes = diffScheduleState(before, after);
    expect(await repository.applyChanges(user, changes, { applyId: "task-writes-1" })).toEqual({ applied: true });
    expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(after)));
    await expect(repository.applyChanges(user, changes, { applyId: "task-writes-2" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(after)));
  });

  it("persists a class removed, once; a removal while a task uses the class is refused and changes nothing", async () => {
    const repository = options.makeRepository();
    const user = freshUser("class-removal");
    const before = write("upsert_task_class", sampleWeek(), { class_id: "physics", name: "Physics", buffer_slots: 1 });
    await repository.seed(user, before);
    const removed = write("remove_task_class", before, { class_id: "physics" });
    const changes = diffScheduleState(before, removed);
    expect(await repository.applyChanges(user, changes, { applyId: "class-removal-1" })).toEqual({ applied: true });
    expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(removed)));
    await expect(repository.applyChanges(user, changes, { applyId: "class-removal-2" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    // A class still named by a task: the store refuses the removal whole.
    const used = structuredClone(sampleWeek());
    used.categories = used.categories.filter((category) => category.id !== "english");
    await expect(
      repository.applyChanges(user, diffScheduleState(removed, used), { applyId: "class-removal-3" }),
    ).rejects.toBeInstanceOf(ScheduleConflictError);
    expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(removed)));
  });

  it("persists a roll of the window forward, once: a repeat finds the window moved and changes nothing", async () => {
    const repository = options.makeRepository();
    const user = freshUser("roll");
    const before = write("place", sampleWeek(), { task_id: "vocabulary-list", day: 7, slot_start: 6 });
    await repository.seed(user, before);
    const rolled = rollWindowTool.run(before, { days: 3 });
    expect(rolled.content).toMatch(
      /^moved the window on by 3 day\(s\): it now runs \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}; \d+ done task\(s\) moved to history; \d+ placed task\(s\) passed without being marked done and are now missed(: [\w-]+(, [\w-]+)*)?; \d+ past event\(s\) left with the old days/,
    );
    const changes = diffScheduleState(before, rolled.state!);
    expect(changes).toEqual([{ kind: "roll", days: 3, from: before.window.days[0] }]);
    expect(await repository.applyChanges(user, changes, { applyId: "roll-1" })).toEqual({ applied: true });
    const stored = await repository.load(user);
    expect(json(stored)).toBe(json(canonicalScheduleState(rolled.state!)));
    expect(stored.tasks.find((task) => task.id === "vocabulary-list")?.slots).toEqual([{ day: 4, start: 6, end: 6 }]);
    await expect(repository.applyChanges(user, changes, { applyId: "roll-2" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    expect(json(await repository.load(user))).toBe(json(stored));
  });

  it("persists a series ended where the clock had not passed (remove_event mid-week), once; the past stays", async () => {
    const repository = options.makeRepository();
    const user = freshUser("ended-series");
    const ics = oneEventCalendar("reading-1", "Reading group", "20240311T134500Z", "20240311T143000Z", [
      "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR,SU;COUNT=20",
    ]);
    const imported = write("import_calendar", sampleWeek(), { ics });
    const group = imported.tasks.find((task) => task.name === "Reading group")!;
    await repository.seed(user, imported);
    const wednesday = { ...imported, now: "2024-03-13T12:00:00+08:00" };
    const after = write("remove_event", wednesday, { event_id: group.id });
    const changes = diffScheduleState(wednesday, after);
    expect(await repository.applyChanges(user, changes, { applyId: "end-1" })).toEqual({ applied: true });
    const stored = await repository.load(user);
    expect(json(stored)).toBe(json(canonicalScheduleState({ ...after, now: undefined })));
    const kept = stored.tasks.find((task) => task.id === group.id)!;
    expect(kept.source === "event" && kept.series).toBe(undefined);
    expect(kept.slots).toEqual([
      { day: 1, start: 12, end: 12 },
      { day: 2, start: 12, end: 12 },
    ]);
    await expect(repository.applyChanges(user, changes, { applyId: "end-2" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    expect(json(await repository.load(user))).toBe(json(stored));
  });

  it("persists a task's life, once: done with when, missed with where, and a roll that keeps both on record", async () => {
    const repository = options.makeRepository();
    const user = freshUser("life");
    let before = write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
    before = write("place", before, { task_id: "review-limits", day: 3, slot_start: 9 });
    await repository.seed(user, before);
    const done = write("mark_done", before, { task_id: "matrix-review", at: "2024-03-12T21:00:00+08:00" });
    const missed = write("mark_missed", done, { task_id: "review-limits" });
    for (const [from, to, id] of [
      [before, done, "life-1"],
      [done, missed, "life-2"],
    ] as const) {
      expect(await repository.applyChanges(user, diffScheduleState(from, to), { applyId: id })).toEqual({
        applied: true,
      });
      expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(to)));
    }
    await expect(
      repository.applyChanges(user, diffScheduleState(before, done), { applyId: "life-3" }),
    ).rejects.toBeInstanceOf(ScheduleConflictError);
    const rolled = write("roll_window", missed, { days: 7 });
    await repository.applyChanges(user, diffScheduleState(missed, rolled), { applyId: "life-4" });
    const stored = await repository.load(user);
    expect(json(stored)).toBe(json(canonicalScheduleState(rolled)));
    expect(stored.tasks.find((task) => task.id === "matrix-review")).toMatchObject({
      status: "done",
      markedAt: "2024-03-12T21:00:00+08:00",
      was: { date: "2024-03-12", start: 9, end: 10 },
    });
  });

  it("tells a user's time zone without loading the schedule: the stored window's, else the default's", async () => {
    const repository = options.makeRepository({ whenMissing: () => sampleWeek() });
    const user = freshUser("zone");
    expect(await repository.timeZone(user)).toBe(sampleWeek().window.timeZone);
    await repository.seed(user, { ...sampleWeek(), window: { ...sampleWeek().window, timeZone: "Europe/Berlin" } });
    expect(await repository.timeZone(user)).toBe("Europe/Berlin");
    await repository.seed(user, emptyScheduleState());
    expect(await repository.timeZone(user)).toBeUndefined();
  });

  it("keeps a calendar, task classes' profiles and tasks' rules (deadline, priority, earliest day), byte for byte", async () => {
    const repository = options.makeRepository();
    const user = freshUser("profiles");
    const week = sampleWeek();
    const dated: ScheduleState = {
      ...week,
      window: {
        ...week.window,
        days: week.window.days.map((day) => ({ ...day, date: `2026-03-${String(8 + day.dayIndex).padStart(2, "0")}` })),
        timeZone: "Asia/Shanghai",
        slotTimes: Array.from({ length: week.window.slotsPerDay }, (_, index) => ({
          start: `${String(8 + index).padStart(2, "0")}:00`,
          end: `${String(8 + index).padStart(2, "0")}:45`,
        })),
      },
      categories: week.categories.map((category, index) =>
        index === 0
          ? {
              ...category,
              preferredParts: ["morning" as const],
              minSession: 1,
              maxSession: 3,
              excludedDaysOfWeek: [7],
              blockedDays: [6],
              strategy: "compact" as const,
              bufferSlots: 1,
            }
          : category,
      ),
      tasks: week.tasks.map((task, index) =>
        task.source === "task_item" && index % 2 === 0
          ? { ...task, dueBefore: { day: 6 }, priority: "high" as const, earliestDay: 2 }
          : task.source === "task_item"
            ? { ...task, dueBefore: { eventId: "sat-calculus-midterm" } }
            : task,
      ),
    };
    await repository.seed(user, dated);
    expect(json(await repository.load(user))).toBe(json(canonicalScheduleState(dated)));
  });

  it("rejects an invalid seed and keeps what was stored", async () => {
    const repository = options.makeRepository();
    const user = freshUser("invalid");
    await repository.seed(user, sampleWeek());
    const broken = sampleWeek();
    broken.tasks.push(event("clash", 1, 1, 1));
    await expect(repository.seed(user, broken)).rejects.toBeInstanceOf(InvalidScheduleError);
    expect(json(await repository.load(user))).toBe(json(sampleWeek()));
  });

  it("hands out copies: changing a loaded schedule changes nothing stored", async () => {
    const repository = options.makeRepository();
    const user = freshUser("copy");
    const seeded = sampleWeek();
    await repository.seed(user, seeded);
    seeded.tasks.length = 0;
    const loaded = await repository.load(user);
    loaded.tasks.length = 0;
    expect(json(await repository.load(user))).toBe(json(sampleWeek()));
  });

  it("applies what it is given and keeps no record of applied ids: a change applied already is refused as stale", async () => {
    const repository = options.makeRepository();
    const user = freshUser("idempotent");
    const before = sampleWeek();
    await repository.seed(user, before);
    const after = write("place", before, { task_id: "review-limits", day: 1, slot_start: 5 });
    const changes = diffScheduleState(before, after);
    expect(await repository.applyChanges(user, changes, { applyId: "call-1" })).toEqual({ applied: true });
    expect(json(await repository.load(user))).toBe(json(after));
    // Exactly-once is the runner's (the execution log claims each write): here the same change again no longer fits.
    await expect(repository.applyChanges(user, changes, { applyId: "call-1" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    expect(json(await repository.load(user))).toBe(json(after));
    // An applyId is not a key here: a different change under a used one applies.
    const moved = write("move", after, { task_id: "review-limits", day: 4, slot_start: 1 });
    expect(await repository.applyChanges(user, diffScheduleState(after, moved), { applyId: "call-1" })).toEqual({
      applied: true,
    });
    expect(json(await repository.load(user))).toBe(json(moved));
  });

  it("applies one of several concurrent applies of one change; the others find it stale and change nothing", async () => {
    const repository = options.makeRepository();
    const user = freshUser("concurrent");
    const before = sampleWeek();
    await repository.seed(user, before);
    const after = write("place", before, { task_id: "essay-draft", day: 4, slot_start: 1 });
    const changes = diffScheduleState(before, after);
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => repository.applyChanges(user, changes, { applyId: "same-call" })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results)
      if (result.status === "rejected") expect(result.reason).toBeInstanceOf(ScheduleConflictError);
    expect(json(await repository.load(user))).toBe(json(after));
  });

  it("refuses a stale or conflicting change and applies nothing; a retry that fits applies", async () => {
    const repository = options.makeRepository();
    const user = freshUser("conflict");
    const before = sampleWeek();
    await repository.seed(user, before);
    // Two sessions compute changes from the same state; the second one lands on the first one's slots.
    const first = write("place", before, { task_id: "review-limits", day: 1, slot_start: 5 });
    const second = write("place", before, { task_id: "matrix-review", day: 1, slot_start: 5 });
    expect(await repository.applyChanges(user, diffScheduleState(before, first), { applyId: "first" })).toEqual({
      applied: true,
    });
    await expect(
      repository.applyChanges(user, diffScheduleState(before, second), { applyId: "second" }),
    ).rejects.toBeInstanceOf(ScheduleConflictError);
    expect(json(await repository.load(user))).toBe(json(first));
    // A stale move (the task is no longer where the change says) is refused too.
    const staleMove = diffScheduleState(
      first,
      write("move", first, { task_id: "review-limits", day: 4, slot_start: 1 }),
    );
    await repository.applyChanges(
      user,
      diffScheduleState(first, write("unplace", first, { task_id: "review-limits" })),
      { applyId: "unplace" },
    );
    await expect(repository.applyChanges(user, staleMove, { applyId: "stale" })).rejects.toThrow(
      /no longer where the change expects it/,
    );
    // A retry with a change that fits is applied.
    const current = await repository.load(user);
    const retry = diffScheduleState(
      current,
      write("place", current, { task_id: "matrix-review", day: 4, slot_start: 1 }),
    );
    expect(await repository.applyChanges(user, retry, { applyId: "second" })).toEqual({ applied: true });
  });

  it("refuses changes for a user with no schedule stored", async () => {
    const repository = options.makeRepository();
    const before = sampleWeek();
    const changes = diffScheduleState(
      before,
      write("place", before, { task_id: "review-limits", day: 1, slot_start: 5 }),
    );
    await expect(repository.applyChanges(freshUser("empty"), changes, { applyId: "x" })).rejects.toBeInstanceOf(
      ScheduleConflictError,
    );
    expect(await repository.applyChanges(freshUser("empty"), [], { applyId: "x" })).toEqual({ applied: true });
  });

  it("keeps users apart", async () => {
    const repository = options.makeRepository();
    const alice = freshUser("alice");
    const bob = freshUser("bob");
    await repository.seed(alice, sampleWeek());
    await repository.seed(bob, sampleWeek());
    const after = write("place", sampleWeek(), { task_id: "review-limits", day: 1, slot_start: 5 });
    await repository.applyChanges(alice, diffScheduleState(sampleWeek(), after), { applyId: "a-1" });
    expect(json(await repository.load(alice))).toBe(json(after));
    expect(json(await repository.load(bob))).toBe(json(sampleWeek()));
  });

  it("round trip: load → random valid writes → persist (diff + applyChanges) → load equals the modified state", async () => {
    await fc.assert(
      fc.asyncProperty(
        scheduleArbitrary,
        fc.array(commandArbitrary, { minLength: 3, maxLength: 20, size: "max" }),
        async (initial, commands) => {
          const repository = options.makeRepository();
          const domain = createScheduleDomain({ repository });
          const user = freshUser("round-trip");
          await repository.seed(user, initial);
          let expected = await domain.load(user);
          expect(json(expected)).toBe(json(initial));
          for (const [step, command] of commands.entries()) {
            const { name, args } = resolveCommand(expected, command);
            const result = runTool(name, expected, args);
            if (result.state === undefined) continue;
            expect(await domain.persist(user, expected, result.state, { applyId: `step-${step}` })).toEqual({
              applied: true,
            });
            expected = result.state;
          }
          expect(json(await domain.load(user))).toBe(json(expected));
        },
      ),
      { numRuns: options.roundTripRuns },
    );
  });
}
