/** The workflow's state machine: the phase × event table is total, and the routers and node code follow it. */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { destinationsAfter, NODE, NODE_EVENTS, PHASE_NODE, type RoutedNode } from "../../kernel/routing.js";
import type { Phase } from "../../kernel/state.js";
import { nextPhase, PHASES, TRANSITIONS, WORKFLOW_EVENTS, type WorkflowEvent } from "../../kernel/transitions.js";

describe("the transition table", () => {
  test("is total: every phase × event is a phase or an explicit refusal, and a refusal throws ILLEGAL_TRANSITION", () => {
    for (const phase of PHASES) {
      expect(Object.keys(TRANSITIONS[phase]).sort()).toEqual([...WORKFLOW_EVENTS].sort());
      for (const event of WORKFLOW_EVENTS) {
        const next = TRANSITIONS[phase][event];
        if (next === null)
          expect(() => nextPhase(phase, event)).toThrow(expect.objectContaining({ code: "ILLEGAL_TRANSITION" }));
        else {
          expect(PHASES).toContain(next);
          expect(nextPhase(phase, event)).toBe(next);
        }
      }
    }
  });

  test("every event can happen somewhere, and every phase can reach a resting phase (chatting or done)", () => {
    for (const event of WORKFLOW_EVENTS) expect(PHASES.some((phase) => TRANSITIONS[phase][event] !== null)).toBe(true);
    for (const start of PHASES) {
      const seen = new Set<Phase>([start]);
      const queue: Phase[] = [start];
      while (queue.length > 0) {
        const phase = queue.shift()!;
        for (const event of WORKFLOW_EVENTS) {
          const next = TRANSITIONS[phase][event];
          if (next && !seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      expect(seen.has("chatting") || seen.has("done")).toBe(true);
    }
  });

  test("a task in progress can always end: drop and end_thread are defined in every task phase, finish where work happens", () => {
    for (const phase of ["planning", "waiting_confirm", "executing"] as const) {
      expect(TRANSITIONS[phase].drop_task).toBe("chatting");
      expect(TRANSITIONS[phase].end_thread).toBe("chatting");
    }
    expect(TRANSITIONS.planning.finish_task).toBe("done");
    expect(TRANSITIONS.executing.finish_task).toBe("done");
  });

  test("random walks over the table never get stuck: from any reachable phase some event leads on, and a resting phase is reached", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (choices) => {
        let phase: Phase = "chatting";
        for (const choice of choices) {
          const legal = WORKFLOW_EVENTS.filter((event) => TRANSITIONS[phase][event] !== null);
          expect(legal.length).toBeGreaterThan(0);
          phase = nextPhase(phase, legal[choice % legal.length]!);
        }
        // Whatever the walk did, the thread can be brought to rest: drop a task in progress, then it is idle.
        const rest = phase === "chatting" || phase === "done" ? phase : nextPhase(phase, "drop_task");
        expect(["chatting", "done"]).toContain(rest);
      }),
      { numRuns: 300 },
    );
  });
});

describe("routers derived from the table", () => {
  const expected: Record<RoutedNode, string[]> = {
    chat: ["memorize", "plan", "execute", "confirm", "ask_user"],
    plan: ["plan", "ask_user", "confirm", "execute", "deliver"],
    confirm: ["execute", "plan", "memorize"],
    ask_user: ["plan", "execute", "memorize"],
    execute: ["execute", "deliver", "plan", "confirm", "ask_user"],
  };

  test.each(Object.keys(NODE_EVENTS) as RoutedNode[])("%s reaches exactly the nodes its events lead to", (node) => {
    expect(destinationsAfter(node).sort()).toEqual([...expected[node]].sort());
  });

  test("each phase is served by one node, and only deliver serves an ended task", () => {
    expect(PHASE_NODE).toEqual({
      chatting: NODE.memorize,
      planning: NODE.plan,
      waiting_confirm: NODE.confirm,
      executing: NODE.execute,
      done: NODE.deliver,
    });
    const events = Object.values(NODE_EVENTS).flat() as WorkflowEvent[];
    expect(events).not.toContain("deliver");
  });
});

describe("no node writes phase itself", () => {
  test("phase appears as a written field only in kernel/transitions.ts", () => {
    const folders = ["nodes", "graphs"];
    const writers: string[] = [];
    for (const folder of folders) {
      for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
        const path = `${folder}/${file}`;
        if (path === "kernel/transitions.ts" || path === "kernel/state.ts") continue;
        const source = readFileSync(path, "utf8");
        // A literal phase written into an update: `phase: "…"`.
        if (/\bphase:\s*"(chatting|planning|waiting_confirm|executing|done)"/.test(source)) writers.push(path);
      }
    }
    expect(writers).toEqual([]);
  });
});
