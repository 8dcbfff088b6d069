/** Where a thread's last run left it (server/stopped-run.ts), and what a dropped task says it leaves (write-facts). */
import type { StateSnapshot } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { mustCarryOn, runPoint, type PendingWrite } from "../../server/stopped-run.js";
import { droppedWritesText, type WriteFact } from "../../review/write-facts.js";
import { toExecutionState } from "../../server/execution-state.js";

type Task = StateSnapshot["tasks"][number];
const task = (fields: Partial<Task> = {}): Task =>
  ({ id: "t1", name: "confirm", interrupts: [], path: ["__pregel_pull", "confirm"], ...fields }) as Task;
const card = { id: "i1", value: { action_request: { action: "place" } } };
const point = (tasks: Task[], writes: PendingWrite[] = []) => runPoint({ tasks }, writes);

describe("runPoint", () => {
  test.each<[string, Task[], PendingWrite[], string, boolean]>([
    ["no task left: the run ended", [], [], "idle", false],
    ["an open card nobody answered", [task({ interrupts: [card] })], [], "waiting", false],
    [
      "an open card whose answer LangGraph recorded (the answering run died)",
      [task({ interrupts: [card] })],
      [["00000000-0000-0000-0000-000000000000", "__resume__", { type: "accept" }]],
      "answered",
      true,
    ],
    [
      "an open card whose last answer was refused (its task holds the error)",
      [task({ interrupts: [card], error: new Error("bad answer") })],
      [["x", "__resume__", 1]],
      "waiting",
      false,
    ],
    [
      "a card already answered (its task has a result)",
      [task({ interrupts: [card], result: { phase: "executing" } })],
      [],
      "stopped",
      true,
    ],
    ["a node that failed", [task({ name: "execute", error: new Error("model down") })], [], "failed", false],
    ["a node left with no error (a killed worker)", [task({ name: "execute" })], [], "stopped", true],
  ])("%s → %s", (_name, tasks, writes, expected, carryOn) => {
    expect(point(tasks, writes)).toBe(expected);
    expect(mustCarryOn(point(tasks, writes))).toBe(carryOn);
  });
});

describe("droppedWritesText", () => {
  const fact = (id: string): WriteFact => ({ id, name: "place", summary: `placed task ${id}` });

  test("nothing applied and nothing approved: nothing was changed", () => {
    expect(droppedWritesText({ applied: [], approvedNotApplied: [] })).toBe("Nothing was changed.");
  });

  test("applied writes are named and never called nothing", () => {
    const text = droppedWritesText({ applied: ["a", "b", "c", "d", "e", "f", "g"].map(fact), approvedNotApplied: [] });
    expect(text).toBe(
      "The 7 change(s) already applied stay: placed task a; placed task b; placed task c; placed task d; placed task e and 2 more. Nothing more will be done.",
    );
  });

  test("an approval that was never applied is said, not lost in silence", () => {
    const text = droppedWritesText({ applied: [fact("a")], approvedNotApplied: [fact("b"), fact("c")] });
    expect(text).toBe(
      "The 1 change(s) already applied stay: placed task a. 2 change(s) you approved were not applied and will not be: placed task b; placed task c. Nothing more will be done.",
    );
  });
});

describe("ExecutionState of a stopped run", () => {
  const snapshot = (tasks: Task[]) =>
    ({
      values: { phase: "executing", pending: null, planSteps: [], messages: [] },
      next: tasks.map((entry) => entry.name),
      tasks,
      config: { configurable: { thread_id: "t" } },
      metadata: {},
      createdAt: "2026-11-24T00:00:00.000Z",
    }) as unknown as StateSnapshot;

  test("a run left part-way with nobody running it reads 'stopped'; one in progress reads 'running'; unknown keeps the phase; a failed step reads 'stopped'", () => {
    const left = snapshot([task({ name: "execute" })]);
    expect(toExecutionState(left, { running: false }).status).toBe("stopped");
    expect(toExecutionState(left, { running: true }).status).toBe("running");
    expect(toExecutionState(left).status).toBe("running");
    // A step that failed on an error is stopped too (nothing runs it; "continue" retries it).
    expect(
      toExecutionState(snapshot([task({ name: "execute", error: new Error("model down") })]), { running: false })
        .status,
    ).toBe("stopped");
  });
});
