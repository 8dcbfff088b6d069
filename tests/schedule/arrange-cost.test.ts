/**
 * The arrangement is cheap and never blocks the process (issue 46, item 5): its polishing scores changes on the week
 * model — no write tool runs and no full health judge per change considered —, the climb is bounded by the window
 * (a 4-week window is polished within a step budget the per-change rescoring could not finish in), and the tools'
 * `runAsync` compute the same listing in slices that give the event loop back.
 */
import { describe, expect, test, vi } from "vitest";
import { arrangementSteps, proposeArrangement } from "../../tools/schedule/arrangement.js";
import {
  generateSchedule,
  proposeArrangementTool,
  proposeCandidatesTool,
  sampleWeek,
  type ScheduleListing,
} from "../../tools/schedule/index.js";
import { finishAsync } from "../../tools/schedule/steps.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { proposeCandidates } from "../../tools/schedule/candidates.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { buildOccupancyIndex } from "../../tools/schedule/occupancy-index.js";
import { commitUnplaces } from "../../tools/schedule/placement.js";
import { swapPartners } from "../../tools/schedule/swap-partners.js";

// Counted, not changed: how often the arrangement runs the move tool and the full judge.
vi.mock("../../tools/schedule/tools/move.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/tools/move.js")>();
  return { ...original, moveTool: { ...original.moveTool, run: vi.fn(original.moveTool.run) } };
});
vi.mock("../../tools/schedule/tools/place.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/tools/place.js")>();
  return { ...original, placeTool: { ...original.placeTool, run: vi.fn(original.placeTool.run) } };
});
vi.mock("../../tools/schedule/tools/unplace.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/tools/unplace.js")>();
  return { ...original, unplaceTool: { ...original.unplaceTool, run: vi.fn(original.unplaceTool.run) } };
});
vi.mock("../../tools/schedule/search-room.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/search-room.js")>();
  return { ...original, startTable: vi.fn(original.startTable) };
});
vi.mock("../../tools/schedule/describe-call.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/describe-call.js")>();
  return { ...original, describeScheduleCall: vi.fn(original.describeScheduleCall) };
});
// Unchanged unless a test says otherwise: one test runs the runner's slices on a clock of its own.
vi.mock("../../tools/schedule/steps.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/steps.js")>();
  return { ...original, finishAsync: vi.fn(original.finishAsync) };
});
vi.mock("../../tools/schedule/health.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../tools/schedule/health.js")>();
  return { ...original, analyzeHealth: vi.fn(original.analyzeHealth) };
});

/** A generated window of `days` days as dense as a generated week (24 tasks a week). */
const windowOf = (days: number, taskCount = Math.round((days * 24) / 7)) =>
  generateSchedule({ days, slotsPerDay: 12, taskCount, seed: 3 });

/** Counts the turns of the event loop (a `setImmediate` that queues itself) until stopped; `stop` gives the count. */
function startTicker(): { stop(): number } {
  let ticks = 0;
  let done = false;
  const tick = () => {
    ticks += 1;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      done = true;
      return ticks;
    },
  };
}

describe("the arrangement's cost", () => {
  test("its polishing scores changes on the model: no move tool call, the full judge only before and after", async () => {
    // The unit tier shares modules between files (isolate: false), so another file may have loaded the real ones
    // first: the arrangement is loaded afresh here, so that it reaches the counted tool and judge.
    vi.resetModules();
    const { moveTool } = await import("../../tools/schedule/tools/move.js");
    const { analyzeHealth } = await import("../../tools/schedule/health.js");
    const { proposeArrangement } = await import("../../tools/schedule/arrangement.js");
    vi.mocked(moveTool.run).mockClear();
    vi.mocked(analyzeHealth).mockClear();
    const listing = proposeArrangement(sampleWeek());
    expect(listing.candidates[0]?.scoreAfter).toBe(99.5);
    expect(vi.mocked(moveTool.run)).not.toHaveBeenCalled();
    // The score before, and the score of the card's week.
    expect(vi.mocked(analyzeHealth).mock.calls.length).toBeLessThanOrEqual(2);
  });

  test("a 4-week window is polished within 30,000 changes scored (no clock): no budget stop, and a better week", () => {
    const week = windowOf(28);
    const listing = proposeArrangement(week, { budget: { now: () => 0, stepLimit: 30_000 } });
    expect(listing.stop).toBeUndefined();
    const searched = proposeArrangement(week, { budget: { now: () => 0, stepLimit: 1 } });
    expect(searched.budgetNote).toMatch(/polishing stopped/);
    expect(listing.candidates[0]!.scoreAfter).toBeGreaterThan(searched.candidates[0]!.scoreAfter);
  });
});

describe("what grows faster than the window, cut", () => {
  test("a climb describes each tied change once, however often it ties again step after step", async () => {
    vi.resetModules();
    const { describeScheduleCall } = await import("../../tools/schedule/describe-call.js");
    const { proposeArrangement } = await import("../../tools/schedule/arrangement.js");
    vi.mocked(describeScheduleCall).mockClear();
    const week = windowOf(28);
    const listing = proposeArrangement(week);
    // The arrangement's card is not described with these: every description here breaks a tie of its polishing.
    const made = vi
      .mocked(describeScheduleCall)
      .mock.calls.map(([view, tool, args]) =>
        JSON.stringify([tool, args, view.tasks.map((task) => [task.id, task.slots])]),
      );
    // A move's words are its review's (one card cut per review and place) and its target's: the climb's 493 tied
    // changes take 16 cards, each written once.
    expect(made.length).toBeGreaterThan(10);
    expect(made.length).toBeLessThan(50);
    expect(new Set(made).size).toBe(made.length);
    expect(listing.candidates[0]!.writes.length).toBeGreaterThan(40);
  });

  test("swap partners are looked up by day: the reach asked about a few times a review, not for every pair", () => {
    let asked = 0;
    const reach = (day: number): readonly [number, number] => {
      asked += 1;
      const first = Math.max(1, Math.min(day - 3, 112 - 6));
      return [first, first + 6];
    };
    // 300 reviews over 112 days, in no order.
    const days = Array.from({ length: 300 }, (_, index) => ((index * 37) % 112) + 1);
    const partners = swapPartners(days, reach);
    expect(asked).toBeLessThanOrEqual(days.length * 8);
    // What every pair, looked at, gives.
    const within = (from: number, to: number) => {
      const first = Math.max(1, Math.min(from - 3, 112 - 6));
      return to >= first && to <= first + 6;
    };
    const allPairs = days.map((day, index) =>
      days.flatMap((other, second) =>
        second > index && other !== day && within(day, other) && within(other, day) ? [second] : [],
      ),
    );
    expect(partners).toEqual(allPairs);
  });

  test("the rearrangement takes a long window's reviews off in one copy of the week, as the unplace tool would", async () => {
    vi.resetModules();
    const { unplaceTool } = await import("../../tools/schedule/tools/unplace.js");
    const { proposeCandidates } = await import("../../tools/schedule/candidates.js");
    const { applyWrites } = await import("../../tools/schedule/candidate-writes.js");
    const week = windowOf(28);
    const after = applyWrites(week, proposeArrangement(week).candidates[0]!.writes)!;
    vi.mocked(unplaceTool.run).mockClear();
    const listing = proposeCandidates(after, { k: 3, budget: { now: () => 0 } });
    expect(listing.candidates.length).toBeGreaterThan(0);
    expect(vi.mocked(unplaceTool.run)).not.toHaveBeenCalled();
    // The week it leaves is the one the tool leaves, unplace after unplace (hosts' embeds included).
    const sample = applyWrites(sampleWeek(), proposeArrangement(sampleWeek()).candidates[0]!.writes)!;
    const positions = sample.tasks.flatMap((task, position) =>
      task.source === "task_item" && task.status === "placed" ? [position] : [],
    );
    expect(sample.tasks.some((task) => task.source === "task_item" && task.embeddedIn !== undefined)).toBe(true);
    const oneByOne = applyWrites(
      sample,
      positions.map((position) => ({ name: "unplace", arguments: { task_id: sample.tasks[position]!.id } })),
    );
    expect(commitUnplaces(sample, buildOccupancyIndex(sample), positions)).toEqual(oneByOne);
  });
});

describe("the refinement listing's cost", () => {
  test("a 4-week window is listed within 45,000 changes scored (no clock): a week's reach, and the best gain kept", () => {
    const week = windowOf(28);
    const after = applyWrites(week, proposeArrangement(week).candidates[0]!.writes)!;
    const listing = proposeCandidates(after, { k: 3, budget: { now: () => 0, stepLimit: 45_000 } });
    expect(listing.stop).toBeUndefined();
    // What the unbounded listing's best candidate gains (a reach of 13 days scored 63,000 changes for it).
    expect(listing.candidates[0]!.delta).toBeGreaterThanOrEqual(3.5);
  });
});

describe("the arrangement off the event loop", () => {
  test("the placement search and the health judge pause every 32 nodes or start tables, with the one-go answer", async () => {
    vi.resetModules();
    const room = await import("../../tools/schedule/search-room.js");
    const { placementSteps, searchInputOf, searchPlacements } =
      await import("../../tools/schedule/placement-search.js");
    const { analyzeHealth, healthSteps } = await import("../../tools/schedule/health.js");
    const tables = () => vi.mocked(room.startTable).mock.calls.length;
    /** Runs `steps` to the end, giving its pauses, the most start tables built in one step, and the result. */
    const stepped = <T>(steps: Generator<void, T, void>) => {
      let pauses = 0;
      let most = 0;
      for (;;) {
        const before = tables();
        const next = steps.next();
        most = Math.max(most, tables() - before);
        if (next.done) return { pauses, most, value: next.value };
        pauses += 1;
      }
    };
    // 200 two-slot reviews on a week that holds far fewer, each with a place of its own turned down (so each has a
    // start table of its own): the search backtracks until its node limit.
    const week = windowOf(7);
    const { room: where, dayLoad } = searchInputOf(week);
    const tasks = Array.from({ length: 200 }, (_, index) => ({
      id: `r${index}`,
      duration: 2,
      notAt: new Set([`${(index % 7) + 1}:${(index % 11) + 1}`, `${index}:1`]),
    }));
    const meter = { nodes: 0 };
    const search = stepped(placementSteps(tasks, where, { nodeLimit: 3_000, dayLoad, meter }));
    expect(meter.nodes).toBeGreaterThan(2_900);
    expect(search.pauses).toBeGreaterThanOrEqual(Math.floor(meter.nodes / 32));
    expect(search.most).toBeLessThanOrEqual(32);
    expect(search.value).toEqual(searchPlacements(tasks, where, { nodeLimit: 3_000, dayLoad }));
    // The judge's feasibility search runs in the same slices.
    const crowded = windowOf(7, 400);
    const judged = stepped(healthSteps(crowded, {}, { nodeLimit: 3_000 }));
    expect(judged.pauses).toBeGreaterThanOrEqual(90);
    expect(judged.value).toEqual(analyzeHealth(crowded, {}, { nodeLimit: 3_000 }));
  });

  test("no step between two pauses applies more than 16 writes, however many reviews the window places", async () => {
    vi.resetModules();
    const { placeTool } = await import("../../tools/schedule/tools/place.js");
    const { unplaceTool } = await import("../../tools/schedule/tools/unplace.js");
    const { arrangementSteps } = await import("../../tools/schedule/arrangement.js");
    const { candidateSteps } = await import("../../tools/schedule/candidates.js");
    const { applyWrites } = await import("../../tools/schedule/candidate-writes.js");
    const writes = () => vi.mocked(placeTool.run).mock.calls.length + vi.mocked(unplaceTool.run).mock.calls.length;
    /** Runs `steps` to the end, giving the most writes made in one step, and the result. */
    const mostPerStep = <T>(steps: Generator<void, T, void>): { most: number; value: T } => {
      let most = 0;
      for (;;) {
        const before = writes();
        const next = steps.next();
        most = Math.max(most, writes() - before);
        if (next.done) return { most, value: next.value };
      }
    };
    const week = windowOf(28);
    const arranged = mostPerStep(arrangementSteps(week));
    expect(arranged.value.candidates[0]!.writes.length).toBeGreaterThan(40);
    expect(arranged.most).toBeLessThanOrEqual(16);
    const after = applyWrites(week, arranged.value.candidates[0]!.writes)!;
    // The listing's rearrangement unplaces and places again every placed review.
    expect(mostPerStep(candidateSteps(after, { k: 3 })).most).toBeLessThanOrEqual(16);
  });

  test("in slices, it gives the event loop back between them and proposes what the one-go run proposes", async () => {
    const week = windowOf(14);
    const ticker = startTicker();
    // A clock that moves one unit a look: a slice is 20 looks, whatever the machine's speed.
    let looks = 0;
    const sliced = await finishAsync(arrangementSteps(week), { sliceMs: 20, clock: () => (looks += 1) });
    const ticks = ticker.stop();
    expect(ticks).toBeGreaterThan(10);
    expect(sliced.candidates[0]!.writes).toEqual(proposeArrangement(week).candidates[0]!.writes);
  });

  test("propose_arrangement and propose_candidates run asynchronously as the runner calls them, with run's answer", async () => {
    const week = windowOf(7);
    const arranged = await proposeArrangementTool.runAsync!(week, {});
    expect(arranged).toEqual(proposeArrangementTool.run(week, {}));
    const after = applyWrites(week, (arranged.data as ScheduleListing).candidates[0]!.writes)!;
    const listed = await proposeCandidatesTool.runAsync!(after, { k: 3 });
    expect(listed).toEqual(proposeCandidatesTool.run(after, { k: 3 }));
  });

  test("through the runner (and a combined domain), a long arrangement lets other work of the process run meanwhile", async () => {
    // Fresh modules, so that the runner's tools reach the mocked slicer (the unit tier shares modules between files).
    vi.resetModules();
    const steps = await import("../../tools/schedule/steps.js");
    const { runTool } = await import("../../tools/runner.js");
    const { combineDomains } = await import("../../tools/combined-domain.js");
    const { createScheduleDomain } = await import("../../tools/schedule/domain.js");
    const { InMemoryScheduleRepository } = await import("../../tools/schedule/in-memory-repository.js");
    const actual = await vi.importActual<typeof import("../../tools/schedule/steps.js")>(
      "../../tools/schedule/steps.js",
    );
    // Slices on a clock that moves one unit a look, as the runner sets them up otherwise: on a fast machine 8 weeks
    // are arranged within one 10 ms slice of wall time, so wall time cannot show the slices whatever the machine.
    let looks = 0;
    vi.mocked(steps.finishAsync).mockImplementation(((work, options) =>
      actual.finishAsync(work, { ...options, clock: () => (looks += 1) })) as typeof actual.finishAsync);
    const repository = new InMemoryScheduleRepository({ whenMissing: () => windowOf(56) });
    const domain = combineDomains([createScheduleDomain({ repository }), createNotesDomain()]);
    const context = { userId: "u", threadId: "t", stepId: null };
    const ticker = startTicker();
    const outcome = await runTool(domain, context, { id: "c1", name: "propose_arrangement", arguments: {} });
    const ticks = ticker.stop();
    expect(outcome.ok).toBe(true);
    expect(outcome.data).toEqual(proposeArrangementTool.run(windowOf(56), {}).data);
    // The runner ran the tool's slices (not its one-go run), and between them the ticker ran.
    expect(vi.mocked(steps.finishAsync)).toHaveBeenCalled();
    expect(ticks).toBeGreaterThan(10);
  });
});
