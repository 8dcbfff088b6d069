/**
 * A read's carry-on run (server/carry-on.ts, `CARRY_ON_ONLY_KEY`) carries a stopped run on and does nothing else: a
 * thread that, once held, turns out not to be stopped — another reader carried it on first, it waits on a card, it
 * ended — is left exactly as it is. And the thread lock's carry-on mark is what ExecutionState reads as `resuming`.
 */
import { describe, expect, test } from "vitest";
import { carryOnStoppedRun, recoverThread } from "../../server/carry-on.js";
import { toExecutionState } from "../../server/execution-state.js";
import { CARRY_ON_ONLY_KEY } from "../../server/run-options.js";
import { LocalThreadLock } from "../../server/thread-lock.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, scriptedGraph } from "../support/scripted.js";

const config = { configurable: { thread_id: "carry-on-only-1", user_id: "user-1" } };

function graphAtPlanCard() {
  const { graph } = scriptedGraph({
    domain: createNotesDomain({ "user-1": ["buy milk"] }),
    plan: [
      json({
        speak: "One step.",
        action: "plan_done",
        reason: "clear",
        complexity: "simple",
        plan_steps: [{ content: "List the notes", done_when: "listed" }],
      }),
    ],
    execute: [],
    deliver: [],
  });
  return graph;
}

describe("a carry-on-only run", () => {
  test("on a thread waiting on its card: nothing runs, no checkpoint is written, the card stays", async () => {
    const graph = graphAtPlanCard();
    await graph.invoke({ messages: [{ type: "human", content: "List my notes" }] } as never, config);
    const before = await graph.getState(config);
    expect(before.tasks.some((task) => task.interrupts.length > 0)).toBe(true);
    const stream = await graph.stream(null, {
      ...config,
      configurable: { ...config.configurable, [CARRY_ON_ONLY_KEY]: true },
    });
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual([]);
    const after = await graph.getState(config);
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    expect(after.tasks.flatMap((task) => task.interrupts.map((interrupt) => interrupt.id))).toEqual(
      before.tasks.flatMap((task) => task.interrupts.map((interrupt) => interrupt.id)),
    );
  });

  test("a read of a thread with nothing stopped starts no run: recoverThread reads it as it is", async () => {
    const graph = graphAtPlanCard();
    await graph.invoke({ messages: [{ type: "human", content: "List my notes" }] } as never, config);
    expect(await carryOnStoppedRun(graph, config)).toBeUndefined();
    const recovery = await recoverThread(graph, config);
    expect(recovery).toMatchObject({ carriedOn: false, state: { status: "waiting_user_confirmation" } });
  });
});

describe("the carry-on mark", () => {
  test("a lease marked carrying on reads as resuming until unmarked or released; a plain run reads as running", async () => {
    const lock = new LocalThreadLock();
    const lease = await lock.acquire("t1", 0);
    expect(await lock.carriesOn("t1")).toBe(false);
    await lease.carryingOn(true);
    expect(await lock.carriesOn("t1")).toBe(true);
    await lease.carryingOn(false);
    expect(await lock.carriesOn("t1")).toBe(false);
    await lease.carryingOn(true);
    await lease.release();
    expect(await lock.carriesOn("t1")).toBe(false);
    const snapshot = {
      values: { phase: "executing" },
      config: { configurable: { thread_id: "t1" } },
      tasks: [{ name: "execute", interrupts: [] }],
      next: ["execute"],
    } as never;
    expect(toExecutionState(snapshot, { running: true, resuming: true }).status).toBe("resuming");
    expect(toExecutionState(snapshot, { running: true }).status).toBe("running");
    expect(toExecutionState(snapshot, { running: false }).status).toBe("stopped");
  });
});
