/**
 * A client's recursion limit on the served graph (`callerRecursionLimit: "ignore"`, as `createServedGraph` builds it):
 * the LangGraph server hands a run's `config.recursion_limit` to the graph as `recursionLimit`. Honoured, a client
 * sending 1 stopped a task midway on a raw GraphRecursionError (its plan half run, the thread in `error`), and one
 * sending 10^9 let a run looping past its round budget go on without bound. Served, every run is bounded by the round
 * budget's own limit (`withRecursionLimit`), whatever the client sends; code that runs the graph itself keeps its own.
 */
import { HumanMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { withRecursionLimit } from "../../server/run-options.js";
import type { CallerRecursionLimit } from "../../server/run-guard.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, scriptedGraph, threadConfig } from "../support/scripted.js";
import { thrownBy } from "../reliability/support/thread-state.js";

const readOnlyPlan = json({
  speak: "",
  action: "plan_done",
  reason: "a question",
  complexity: "simple",
  read_only: true,
  plan_steps: [{ content: "List the notes", done_when: "they are listed" }],
});

/** A graph answering "What are my notes?" with one read; `limits` hears the recursion limit the read ran under. */
function notesGraph(callerRecursionLimit: CallerRecursionLimit, limits: unknown[] = []) {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  const list = domain.tools.find((tool) => tool.name === "list_notes")!;
  const run = list.run.bind(list);
  list.run = ((...args: Parameters<typeof run>) => {
    limits.push(AsyncLocalStorageProviderSingleton.getRunnableConfig()?.recursionLimit);
    return run(...args);
  }) as typeof run;
  return scriptedGraph({
    domain,
    callerRecursionLimit,
    plan: [readOnlyPlan],
    execute: [
      json({ speak: "", action: "continue", reason: "read", tool_call: { name: "list_notes", arguments: {} } }),
      json({ speak: "", action: "done", reason: "answered", goal_check: "You have 1 note: buy milk" }),
    ],
    deliver: ["You have 1 note: buy milk"],
  }).graph;
}

const question = { messages: [new HumanMessage("What are my notes?")] };
const ownLimit = withRecursionLimit(undefined, DEFAULT_WORKFLOW_SETTINGS).recursionLimit;

test("served: a client's recursion limit of 1 neither stops the task midway nor fails the run", async () => {
  const graph = notesGraph("ignore");
  const config = threadConfig("limit-one");
  const result = await graph.invoke(question, { ...config, recursionLimit: 1 });
  expect(interruptsOf(result)).toEqual([]);
  expect(result.phase).toBe("done");
  expect(result.planSteps.map((step) => step.status)).toEqual(["done"]);
  expect(String(result.messages.at(-1)?.content)).toBe("You have 1 note: buy milk");
});

test("served: a client's recursion limit of 10^9 does not unbound the run; the round budget's limit applies", async () => {
  const limits: unknown[] = [];
  const graph = notesGraph("ignore", limits);
  const result = await graph.invoke(question, { ...threadConfig("limit-huge"), recursionLimit: 1_000_000_000 });
  expect(result.phase).toBe("done");
  expect(ownLimit).toBeGreaterThan(25);
  expect(limits).toEqual([ownLimit]);
  // The streamed path the LangGraph server takes (`streamEvents` v2) is bounded the same way.
  const streamed: unknown[] = [];
  const events = notesGraph("ignore", streamed).streamEvents(question, {
    ...threadConfig("limit-huge-events"),
    recursionLimit: 1_000_000_000,
    version: "v2",
  });
  for await (const _ of events) void _;
  expect(streamed).toEqual([ownLimit]);
});

test("code that runs the graph itself keeps its own recursion limit (honoured by default)", async () => {
  const graph = notesGraph("honour");
  const error = await thrownBy(graph.invoke(question, { ...threadConfig("limit-own"), recursionLimit: 1 }));
  expect((error as Error).name).toBe("GraphRecursionError");
  const limits: unknown[] = [];
  await notesGraph("honour", limits).invoke(question, { ...threadConfig("limit-raised"), recursionLimit: 5_000 });
  expect(limits).toEqual([5_000]);
});
