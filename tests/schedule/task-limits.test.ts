/**
 * What the user decided in a task, as the refinement's candidates keep to it (issue 46, item 4): the limits read from
 * the task's decided writes (`refinementLimits`), the days a feedback calls off (`daysOffIn`), and
 * `propose_candidates`' arguments for them (days of the week avoided, tasks that may move), bad ones refused.
 */
import { describe, expect, test } from "vitest";
import type { DecidedWrite } from "../../tools/domain.js";
import { daysOffIn } from "../../tools/schedule/feedback.js";
import {
  decisionUndone,
  refinementLimits,
  SCHEDULE_TASK_DECISIONS,
  withArrangementLimits,
  withCandidateLimits,
} from "../../tools/schedule/task-limits.js";
import { proposeArrangementTool, proposeCandidatesTool } from "../../tools/schedule/tools/optimize.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { type ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { crowdedSampleWeek } from "../support/crowded-week.js";
import { greedyPlacements } from "../support/openai-double/naive-brain.js";
import { ruleWeek } from "../support/rule-weeks.js";
import { runTool } from "./support.js";

const write = (
  name: string,
  args: Record<string, unknown>,
  outcome: DecidedWrite["outcome"],
  extra: Partial<DecidedWrite> = {},
): DecidedWrite => ({ name, arguments: args, outcome, edited: false, feedback: "", ...extra });
const place = (task: string, day: number, slot: number) => ({ task_id: task, day, slot_start: slot });

describe("daysOffIn: a day the user calls their own, not one review's", () => {
  test.each([
    ["Friday is my day off", [5]],
    ["Fridays are my days off", [5]],
    ["I'm busy on Friday", [5]],
    ["I work on Saturdays", [6]],
    ["周五休息", [5]],
    ["周六我没空", [6]],
    ["not Friday", []],
    ["don't schedule it on Friday", []],
    ["Thursday instead", []],
    ["", []],
  ])("%j → %j", (text, weekdays) => {
    expect(daysOffIn(text)).toEqual(weekdays);
  });
});

describe("refinementLimits", () => {
  test("an edit pins its task; a rejection avoids its place and the days it rules out; a day off is for every review", () => {
    const limits = refinementLimits({
      reopens: false,
      writes: [
        write("place", place("a", 1, 3), "applied"),
        write("place", place("b", 4, 7), "applied", { edited: true }),
        write("place", place("c", 5, 9), "declined", { feedback: "Friday is my day off" }),
        write("place", place("d", 2, 1), "declined", { feedback: "not Tuesday" }),
        write("place", place("e", 3, 1), "declined", { feedback: "Thursday instead" }),
        write("place", place("f", 6, 1), "declined"),
        write("place", place("c", 1, 9), "applied"),
        write("move", place("a", 2, 5), "applied"),
        write("place", place("g", 7, 1), "failed"),
      ],
    });
    expect(limits.avoid).toEqual([
      { task_id: "b" },
      place("c", 5, 9),
      { task_id: "c", weekday: 5 },
      place("d", 2, 1),
      { task_id: "d", weekday: 2 },
      place("e", 3, 1),
      { task_id: "e" },
      place("f", 6, 1),
    ]);
    expect(limits.avoid_weekdays).toEqual([5]);
    // Only what the task placed or moved may move: a review placed before the request stays.
    expect(limits.task_ids).toEqual(["a", "b", "c"]);
  });

  test("a request that re-arranges the week lets every review move; no decision, no limit", () => {
    expect(
      refinementLimits({ reopens: true, writes: [write("place", place("b", 4, 7), "applied", { edited: true })] }),
    ).toEqual({ avoid: [{ task_id: "b" }] });
    expect(refinementLimits({ reopens: true, writes: [] })).toEqual({});
    expect(refinementLimits({ reopens: false, writes: [] })).toEqual({ task_ids: [] });
  });

  test("a batch_move's moves and a swap's two tasks are the task's own; a rejected batch_move's places are avoided", () => {
    const limits = refinementLimits({
      reopens: false,
      writes: [
        write("swap", { first_task_id: "a", second_task_id: "b" }, "applied"),
        write("batch_move", { moves: [place("c", 1, 1), place("d", 2, 2)] }, "applied"),
        write("batch_move", { moves: [place("c", 3, 3)] }, "declined"),
      ],
    });
    expect(limits).toEqual({ avoid: [place("c", 3, 3)], task_ids: ["a", "b", "c", "d"] });
  });
});

describe("refinementLimits: a placing the tool refused", () => {
  test("its review may be placed where it fits now (retry_pending), unless the user declined a placing of it", () => {
    const limits = refinementLimits({
      reopens: false,
      writes: [
        write("place", place("g", 7, 1), "failed"),
        write("place", place("h", 7, 2), "failed"),
        write("place", place("h", 3, 2), "declined"),
        write("move", place("a", 2, 5), "failed"),
        write("place", place("i", 1, 1), "applied"),
      ],
    });
    expect(limits.retry_pending).toEqual(["g"]);
    expect(refinementLimits({ reopens: false, writes: [write("place", place("i", 1, 1), "applied")] })).toEqual({
      task_ids: ["i"],
    });
    // A listing call's own and the decisions' add up.
    const task = { reopens: false, writes: [write("place", place("g", 7, 1), "failed")] };
    expect(withCandidateLimits({ k: 3, retry_pending: ["z", "g"] }, task).retry_pending).toEqual(["z", "g"]);
    // However many placings were refused, a listing's schema takes the list (at most 400).
    const many = {
      reopens: false,
      writes: Array.from({ length: 450 }, (_, index) => write("place", place(`r${index}`, 1, 1), "failed")),
    };
    const limited = withCandidateLimits({ k: 3 }, many);
    expect(limited.retry_pending).toHaveLength(400);
    expect(proposeCandidatesTool.schema.safeParse(limited).success).toBe(true);
  });
});

describe("withCandidateLimits: a listing call's own arguments and the task's decisions together", () => {
  test("avoids and days off add up; of the tasks the call lets move, only those the decisions let move", () => {
    const task = {
      reopens: false,
      writes: [
        write("place", place("a", 1, 3), "applied"),
        write("place", place("b", 4, 7), "applied", { edited: true }),
        write("place", place("c", 5, 9), "declined", { feedback: "I'm busy on Friday" }),
      ],
    };
    expect(
      withCandidateLimits({ k: 5, avoid: [{ task_id: "z", day: 2 }], avoid_weekdays: [1], task_ids: ["a", "z"] }, task),
    ).toEqual({
      k: 5,
      avoid: [{ task_id: "z", day: 2 }, { task_id: "b" }, place("c", 5, 9), { task_id: "c", weekday: 5 }],
      avoid_weekdays: [1, 5],
      task_ids: ["a"],
    });
    // A call naming no tasks gets the decisions' own; a week the request re-arranges keeps the call's.
    expect(withCandidateLimits({ k: 3 }, task).task_ids).toEqual(["a", "b"]);
    expect(withCandidateLimits({ k: 3, task_ids: ["z"] }, { ...task, reopens: true }).task_ids).toEqual(["z"]);
  });
});

describe("the task's decisions held for a model's own calls (issue 46 item 4)", () => {
  const week = crowdedSampleWeek();
  const friday = week.window.days.find((day) => day.dayOfWeek === 5)!.dayIndex;
  const monday = week.window.days.find((day) => day.dayOfWeek === 1)!.dayIndex;
  // Two placed reviews, the second on Friday (decisionUndone reads where they are, nothing else).
  const [offFriday, placedB] = week.tasks.filter((task) => task.slots?.[0] && task.slots[0].day !== friday);
  const onFriday = { ...placedB!, slots: [{ ...placedB!.slots![0]!, day: friday }] };
  const swapWeek = { ...week, tasks: week.tasks.map((entry) => (entry.id === onFriday.id ? onFriday : entry)) };
  const task = (...writes: DecidedWrite[]) => ({ reopens: false, writes });

  test("a swap that puts a review on a day off is refused; one that keeps off it is not", () => {
    const dayOff = task(write("place", place("z", friday, 1), "declined", { feedback: "I'm busy on Friday" }));
    const swap = { first_task_id: offFriday!.id, second_task_id: onFriday.id };
    expect(decisionUndone(swapWeek, dayOff, "swap", swap)).toMatch(
      /^Error: Friday is your day off \(you said so in this task: "I'm busy on Friday"\)/,
    );
    expect(decisionUndone(swapWeek, task(), "swap", swap)).toBeUndefined();
    expect(decisionUndone(week, dayOff, "swap", swap)).toBeUndefined();
  });

  test('a day rejected for one review ("not Monday") is refused for it, not for another; an edited review stays', () => {
    const notMonday = task(write("place", place("a", monday, 3), "declined", { feedback: "not Monday" }));
    expect(decisionUndone(week, notMonday, "place", place("a", monday, 9))).toMatch(
      /^Error: the user rejected a on Monday in this task: "not Monday"/,
    );
    expect(decisionUndone(week, notMonday, "place", place("b", monday, 9))).toBeUndefined();
    const edited = task(write("place", place("a", 4, 7), "applied", { edited: true }));
    expect(decisionUndone(week, edited, "unplace", { task_id: "a" })).toMatch(/themselves/);
    expect(decisionUndone(week, edited, "swap", { first_task_id: "b", second_task_id: "a" })).toMatch(/themselves/);
    expect(decisionUndone(week, edited, "move", place("b", 4, 9))).toBeUndefined();
  });

  test("propose_arrangement's arguments get the days off and each task's rejected places and days", () => {
    const decided = task(
      write("place", place("a", 5, 9), "declined", { feedback: "Friday is my day off" }),
      write("place", place("b", 2, 3), "declined", { feedback: "not Tuesday" }),
    );
    expect(withArrangementLimits({ limits: [{ task_id: "b", from: 3 }] }, decided)).toEqual({
      limits: [
        { task_id: "b", from: 3, not_at: [{ day: 2, slot_start: 3 }], not_weekdays: [2] },
        { task_id: "a", not_at: [{ day: 5, slot_start: 9 }], not_weekdays: [5] },
      ],
      avoid_weekdays: [5],
    });
    // The tool turns them into the window's days: nothing placed on a Friday (where it places some without them).
    const pending = sampleWeek();
    const daysPlaced = (args: Record<string, unknown>) =>
      (
        proposeArrangementTool.run(pending, proposeArrangementTool.schema.parse(args)).data as ScheduleListing
      ).candidates.flatMap((candidate) => candidate.writes.map((entry) => entry.arguments.day));
    expect(daysPlaced({})).toContain(friday);
    const dayOff = task(write("place", place("derivative-drills", 5, 9), "declined", { feedback: "周五休息" }));
    expect(daysPlaced(withArrangementLimits({}, dayOff))).not.toContain(friday);
  });
});

describe("a task that removed a review it had placed or declined (remove_task in the same task)", () => {
  test("the limits name no removed review, and the listing runs on the week without it; a restored one is named again", () => {
    const week = crowdedSampleWeek();
    const [placedId, declinedId] = week.tasks.filter((entry) => entry.source === "task_item").map((entry) => entry.id);
    const decided = {
      reopens: false,
      writes: [
        write("place", place(placedId!, 1, 3), "applied"),
        write("place", place(declinedId!, 2, 5), "declined", { feedback: "not Tuesday" }),
        write("remove_task", { task_id: placedId }, "applied"),
        write("remove_task", { task_id: declinedId }, "applied"),
      ],
    };
    const limits = refinementLimits(decided);
    expect(limits.task_ids).toEqual([]);
    expect(limits.avoid).toBeUndefined();
    let after = runTool("remove_task", week, { task_id: placedId }).state!;
    after = runTool("remove_task", after, { task_id: declinedId }).state!;
    // The model's own listing and the refinement's, each kept to the task's decisions: neither is refused.
    for (const args of [{ k: 5 }, { k: 5, place_pending: false }]) {
      const listed = runTool(
        "propose_candidates",
        after,
        SCHEDULE_TASK_DECISIONS.read(decided, "propose_candidates", args),
      );
      expect(listed.ok, listed.content).toBe(true);
    }
    const restored = week.tasks.find((entry) => entry.id === declinedId)!;
    const back = refinementLimits({
      ...decided,
      writes: [...decided.writes, write("restore_task", { task: restored }, "applied")],
    });
    expect(back.avoid?.map((entry) => entry.task_id)).toEqual([declinedId, declinedId]);
  });
});

describe("propose_candidates keeps to the limits it is given", () => {
  const week = crowdedSampleWeek();
  const list = (args: Record<string, unknown>) => {
    const parsed = proposeCandidatesTool.schema.parse(args);
    return proposeCandidatesTool.run(week, parsed);
  };
  /** Where each candidate puts the reviews it moves, as "task@day". */
  const targets = (listing: ScheduleListing, state: ScheduleState) =>
    listing.candidates.flatMap((candidate) =>
      candidate.writes.flatMap((entry) => {
        const args = entry.arguments;
        if (entry.name === "batch_move")
          return (args.moves as Array<{ task_id: string; day: number }>).map((move) => `${move.task_id}@${move.day}`);
        if (entry.name === "swap") {
          const dayOf = (id: unknown) => state.tasks.find((task) => task.id === id)?.slots?.[0]?.day;
          return [
            `${String(args.first_task_id)}@${dayOf(args.second_task_id)}`,
            `${String(args.second_task_id)}@${dayOf(args.first_task_id)}`,
          ];
        }
        return [`${String(args.task_id)}@${String(args.day)}`];
      }),
    );

  test("without limits it moves reviews, some onto a day it then keeps off with avoid_weekdays", () => {
    const free = list({ k: 10, place_pending: false });
    const offered = targets(free.data as ScheduleListing, week);
    expect(offered.length).toBeGreaterThan(0);
    const busiest = offered.map((target) => Number(target.split("@")[1])).find(Boolean)!;
    const weekday = week.window.days[busiest - 1]!.dayOfWeek;
    const kept = targets(
      list({ k: 10, place_pending: false, avoid_weekdays: [weekday] }).data as ScheduleListing,
      week,
    );
    expect(kept.filter((target) => target.endsWith(`@${busiest}`))).toEqual([]);
    // The same as a task's own weekday: that task never goes there.
    const task = offered.find((target) => target.endsWith(`@${busiest}`))!.split("@")[0]!;
    const own = targets(
      list({ k: 10, place_pending: false, avoid: [{ task_id: task, weekday }] }).data as ScheduleListing,
      week,
    );
    expect(own).not.toContain(`${task}@${busiest}`);
  });

  test("task_ids: only those placed reviews move; an empty list moves none", () => {
    const free = targets(list({ k: 10, place_pending: false }).data as ScheduleListing, week);
    const mover = free[0]!.split("@")[0]!;
    const only = targets(list({ k: 10, place_pending: false, task_ids: [mover] }).data as ScheduleListing, week);
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((target) => target.startsWith(`${mover}@`))).toBe(true);
    const none = list({ k: 10, place_pending: false, task_ids: [] }).data as ScheduleListing;
    expect(none.candidates).toEqual([]);
  });

  test("an unknown task id is refused, naming it; nothing is proposed", () => {
    const refused = list({ task_ids: ["no-such-task"], avoid: [{ task_id: "nor-this" }] });
    expect(refused.ok).toBe(false);
    expect(refused.content).toBe(
      "Error: unknown task id(s): no-such-task, nor-this. Nothing was proposed; list_tasks shows the ids.",
    );
    expect(refused.data).toBeUndefined();
  });
});

describe("a week placed greedily by hand, some placings refused by a class's buffer (the eval's generated-rules)", () => {
  /** The rule-bearing week after the naive model's greedy placings: the refused ones left pending, each id. */
  function handPlaced(): { week: ScheduleState; refused: string[] } {
    let week = ruleWeek(5);
    const listing = runTool("list_tasks", week, { status: "pending" }).content;
    const free = runTool("find_free", week, { min_length: 1 }).content;
    const refused: string[] = [];
    for (const call of greedyPlacements(listing, free)) {
      const args = call.arguments as Record<string, unknown>;
      const placed = runTool(call.name, week, args);
      if (placed.ok && placed.state) week = placed.state;
      else refused.push(String(args.task_id));
    }
    return { week, refused };
  }
  const placings = (listing: ScheduleListing) =>
    listing.candidates.flatMap((candidate) =>
      candidate.writes.filter((entry) => entry.name === "place").map((entry) => String(entry.arguments.task_id)),
    );

  test("a listing without place_pending places none of them; with retry_pending, those and no other", () => {
    const { week, refused } = handPlaced();
    expect(refused.length).toBeGreaterThan(1);
    const run = (args: Record<string, unknown>) =>
      proposeCandidatesTool.run(week, proposeCandidatesTool.schema.parse(args)).data as ScheduleListing;
    expect(placings(run({ k: 10, place_pending: false }))).toEqual([]);
    // A refused placing of a made-up id (a model's) names a task the week does not have: the listing goes on.
    const ghost = run({ k: 10, place_pending: false, retry_pending: ["no-such-review"] });
    expect(ghost.candidates.length).toBeGreaterThan(0);
    expect(placings(ghost)).toEqual([]);
    const [retried, ...others] = refused;
    const again = placings(run({ k: 10, place_pending: false, retry_pending: [retried] }));
    expect(again).toContain(retried);
    for (const other of others) expect(again).not.toContain(other);
    // All of them: the best candidate places every one — every review of the week fits.
    const all = run({ k: 3, place_pending: false, retry_pending: refused }).candidates[0]!;
    const after = applyWrites(week, all.writes)!;
    expect(after.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual([]);
  });
});
