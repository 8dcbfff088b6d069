/**
 * The run guard on `streamEvents`, the method the LangGraph server runs a
 * graph with. Protocol runs (what `@langchain/react`'s `useStream` starts)
 * call it with `version: "v3"`, which resolves to LangGraph's run stream; the
 * `runs.stream` path (Agent Chat UI, the SDK) iterates what it returns.
 * Both must run the graph to its card, and both must refuse a bad message
 * before anything is written.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { TempoError } from "../../errors/index.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, scriptedGraph, threadConfig } from "../support/scripted.js";

const plan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const message = (text: string) => ({ messages: [new HumanMessage(text)] });

/** A protocol event of LangGraph's v3 run stream. */
type ProtocolEvent = { method: string; params: { namespace: string[]; data: unknown } };

/** The streamEvents overloads the LangGraph server calls, without the graph's own typing. */
type ServerStreamEvents = (
  input: unknown,
  options: Record<string, unknown>,
) => Promise<AsyncIterable<ProtocolEvent>> | AsyncIterable<{ event: string }>;

function serverStreamEvents(graph: object): ServerStreamEvents {
  const target = graph as { streamEvents: ServerStreamEvents };
  return target.streamEvents.bind(target);
}

describe('streamEvents with version "v3" (protocol runs, as useStream starts them)', () => {
  test("resolves to LangGraph's run stream, which runs the graph to the plan card", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
    const config = threadConfig("v3-card");
    const run = await serverStreamEvents(graph)(message("Add a note: call mom"), { version: "v3", ...config });
    const methods = new Set<string>();
    for await (const event of run as AsyncIterable<ProtocolEvent>) methods.add(event.method);
    expect(methods).toContain("values");
    const state = await graph.getState(config);
    expect(
      state.tasks.flatMap((task) =>
        task.interrupts.map((item) => (item.value as { action_request: { action: string } }).action_request.action),
      ),
    ).toEqual(["confirm_plan"]);
  });

  test("a refused message rejects with the typed error before anything is written", async () => {
    const { graph, models } = scriptedGraph({ domain: createNotesDomain() });
    const config = threadConfig("v3-empty");
    const error = await Promise.resolve(serverStreamEvents(graph)(message(" "), { version: "v3", ...config })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TempoError);
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    expect(models.chat.callCount).toBe(0);
    expect((await graph.getState(config)).createdAt).toBeUndefined();
  });
});

describe("streamEvents without a version 3 (runs.stream)", () => {
  test("iterates the run's events up to the plan card", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
    const config = threadConfig("v2-card");
    const events: string[] = [];
    for await (const event of serverStreamEvents(graph)(message("Add a note: call mom"), {
      version: "v2",
      ...config,
    }) as AsyncIterable<{ event: string }>)
      events.push(event.event);
    expect(events).toContain("on_chain_stream");
    const state = await graph.getState(config);
    expect(state.tasks.some((task) => task.interrupts.length > 0)).toBe(true);
  });
});
