/**
 * The run guard is a declared subclass of LangGraph's compiled graph, not a patch on it: the graph `compile()`
 * returns is left exactly as LangGraph made it, the Tempo graph is a `TempoCompiledGraph` (and so a
 * `CompiledStateGraph`) whose guarded methods come from its class, and a copy made by `withConfig` — LangGraph's
 * `new this.constructor({ ...this, config })` — is guarded the same way.
 */
import { HumanMessage } from "@langchain/core/messages";
import { CompiledStateGraph, END, MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { TempoCompiledGraph, type RunGuard } from "../../server/run-guard.js";
import { createTempoBuilder } from "../../graphs/tempo.js";
import { LocalThreadLock } from "../../server/thread-lock.js";
import { snapshot, thrownBy } from "../reliability/support/thread-state.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, scripted, scriptedGraph, threadConfig } from "../support/scripted.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";

const GUARDED = [
  "invoke",
  "stream",
  "streamEvents",
  "getState",
  "getStateHistory",
  "updateState",
  "bulkUpdateState",
] as const;
const plan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const message = (text: string) => ({ messages: [new HumanMessage(text)] });

/** Every own property of `target` with its value, and the entries of its channel map. */
function ownFields(target: object) {
  const channels = (target as { channels: Record<string, unknown> }).channels;
  return {
    fields: Object.entries(Object.getOwnPropertyDescriptors(target)).map(([name, descriptor]) => [
      name,
      descriptor.value,
    ]),
    channels: Object.entries(channels),
  };
}

describe("the Tempo graph is a subclass of LangGraph's compiled graph", () => {
  test("guarding the graph compile() returns leaves that graph exactly as LangGraph made it", () => {
    const domain = createNotesDomain();
    const compiled = createTempoBuilder({ models: { default: scripted([]) }, domain }).compile({
      checkpointer: new MemorySaver(),
      name: "Tempo",
    });
    const before = ownFields(compiled);
    const guard: RunGuard = {
      settings: DEFAULT_WORKFLOW_SETTINGS,
      domain,
      executionLog: new MemoryExecutionLog(),
      threadLock: new LocalThreadLock(),
    };

    const graph = TempoCompiledGraph.from(compiled, guard);

    expect(graph).not.toBe(compiled);
    expect(Object.getPrototypeOf(compiled)).toBe(CompiledStateGraph.prototype);
    const after = ownFields(compiled);
    expect(after.fields.map(([name]) => name)).toEqual(before.fields.map(([name]) => name));
    after.fields.forEach(([name, value], index) => expect(value, String(name)).toBe(before.fields[index]![1]));
    expect(after.channels).toEqual(before.channels);
    after.channels.forEach(([name, channel], index) => expect(channel, name).toBe(before.channels[index]![1]));
    for (const method of GUARDED) {
      expect(Object.hasOwn(compiled, method), method).toBe(false);
      expect(compiled[method], method).toBe(CompiledStateGraph.prototype[method]);
    }
  });

  test("buildTempoGraph returns a TempoCompiledGraph, a CompiledStateGraph whose guarded methods are its class's own", () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain() });
    expect(graph).toBeInstanceOf(CompiledStateGraph);
    expect(graph).toBeInstanceOf(TempoCompiledGraph);
    expect(graph.name).toBe("Tempo");
    for (const method of GUARDED) {
      expect(Object.hasOwn(graph, method), method).toBe(false);
      expect(graph[method], method).toBe(TempoCompiledGraph.prototype[method]);
      expect(graph[method], method).not.toBe(CompiledStateGraph.prototype[method]);
    }
  });
});

describe("a withConfig copy is guarded the same way", () => {
  test("it is a TempoCompiledGraph with the same guard, and refuses what the graph refuses, leaving the thread as it was", async () => {
    const { graph, models } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
    const config = threadConfig("copy-thread", "alice");
    const copy = graph.withConfig({ tags: ["copy"] });
    expect(copy).not.toBe(graph);
    expect(copy).toBeInstanceOf(TempoCompiledGraph);
    expect((copy as TempoCompiledGraph).runGuard).toBe((graph as TempoCompiledGraph).runGuard);

    expect(await thrownBy(copy.invoke(message(" "), config))).toMatchObject({ code: "INVALID_INPUT" });
    expect(await thrownBy(copy.invoke(message("/nonsense"), config))).toMatchObject({ code: "INVALID_INPUT" });
    expect(models.chat.callCount).toBe(0);
    expect((await copy.getState(config)).createdAt).toBeUndefined();

    await copy.invoke(message("Add a note: call mom"), config);
    const before = await snapshot(copy, config);
    expect(before.values.pending).toMatchObject({ kind: "confirm_plan" });
    expect(
      await thrownBy(copy.invoke(message("Add a note: call dad"), threadConfig("copy-thread", "mallory"))),
    ).toMatchObject({ code: "THREAD_ACCESS_DENIED" });
    expect(await thrownBy(copy.updateState(config, { pending: null }))).toMatchObject({ code: "STATE_CHANGE_REFUSED" });
    expect(
      await thrownBy(
        copy.bulkUpdateState(config, [{ updates: [{ values: { phase: "chatting" }, asNode: "confirm" }] }]),
      ),
    ).toMatchObject({ code: "STATE_CHANGE_REFUSED" });
    expect(await snapshot(graph, config)).toEqual(before);
  });

  test("a copy whose own config names the thread and another user is refused that thread", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
    const config = threadConfig("owned-thread", "alice");
    await graph.invoke(message("Add a note: call mom"), config);
    const before = await snapshot(graph, config);

    const mallory = graph.withConfig(threadConfig("owned-thread", "mallory"));
    expect(await thrownBy(mallory.invoke(message("Add a note: mallory was here")))).toMatchObject({
      code: "THREAD_ACCESS_DENIED",
    });
    expect(await snapshot(graph, config)).toEqual(before);
  });

  test("a copy ends a thread (updateState as END): LangGraph's own bulkUpdateState call inside it is let through", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [plan] });
    const config = threadConfig("ended-thread", "alice");
    await graph.invoke(message("Add a note: call mom"), config);
    const copy = graph.withConfig({ tags: ["copy"] });

    await copy.updateState(config, null, END);
    const ended = await graph.getState(config);
    expect(ended.tasks.flatMap((task) => task.interrupts)).toEqual([]);
    expect(ended.values).toMatchObject({ phase: "chatting", pending: null, outcome: { kind: "dropped" } });
  });
});
