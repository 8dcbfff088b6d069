/**
 * The run gate (issue 44.8): at most `maxRuns` runs of a process compute at once; the others wait their turn in FIFO
 * order rather than all asking the connection pool at once, and a run that waits longer than the gate allows is
 * refused with SERVER_BUSY before anything of it is written.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, test, vi } from "vitest";
import { RunGate } from "../../server/run-gate.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { AsyncScriptedModel } from "../reliability/support/async-model.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { threadConfig } from "../support/scripted.js";

const message = (text: string) => ({ messages: [new HumanMessage(text)] });

afterEach(() => {
  vi.useRealTimers();
});

describe("RunGate", () => {
  test("at most maxRuns hold a turn; the others get theirs in the order they asked as turns end", async () => {
    const gate = new RunGate(2, 60_000);
    const admitted: string[] = [];
    const ends = new Map<string, () => void>();
    const ask = (name: string) => gate.enter().then((end) => (admitted.push(name), ends.set(name, end)));
    const asked = ["a", "b", "c", "d", "e"].map(ask);
    await Promise.all(asked.slice(0, 2));
    expect(admitted).toEqual(["a", "b"]);
    expect([gate.active, gate.queued]).toEqual([2, 3]);
    ends.get("b")!();
    await asked[2];
    ends.get("a")!();
    ends.get("a")!(); // a turn given back twice counts once
    await asked[3];
    expect(admitted).toEqual(["a", "b", "c", "d"]);
    expect([gate.active, gate.queued]).toEqual([2, 1]);
    ends.get("c")!();
    await asked[4];
    for (const name of ["d", "e"]) ends.get(name)!();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run without a turn within waitMs gets SERVER_BUSY and leaves the queue; the runs behind it keep their order", async () => {
    vi.useFakeTimers();
    const gate = new RunGate(1, 5_000);
    const endFirst = await gate.enter();
    const late = thrownBy(gate.enter());
    await vi.advanceTimersByTimeAsync(3_000);
    const next = gate.enter();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await late).toMatchObject({
      code: "SERVER_BUSY",
      details: { maxRuns: 1, waitMs: 5_000, ahead: 0 },
      message: expect.stringContaining("nothing was written"),
    });
    expect(gate.queued).toBe(1);
    endFirst();
    const endNext = await next;
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    endNext();
    expect(gate.active).toBe(0);
  });
});

describe("the graph behind a run gate", () => {
  test("runs on many threads at once compute one at a time with a gate of 1, and every one ends", async () => {
    let computing = 0;
    let most = 0;
    const chat = new AsyncScriptedModel(async ({ index }) => {
      computing += 1;
      most = Math.max(most, computing);
      await new Promise((resolve) => setImmediate(resolve));
      computing -= 1;
      return JSON.stringify({ intent: "chat", reply: `Reply ${index + 1}.`, reason: "small talk" });
    });
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      runGate: new RunGate(1, 60_000),
    });
    const results = await Promise.all(
      ["one", "two", "three", "four"].map((threadId) => graph.invoke(message("hello"), threadConfig(threadId))),
    );
    expect(results.map((result) => result.messages.map((entry) => entry.getType()))).toEqual(
      Array.from({ length: 4 }, () => ["human", "ai"]),
    );
    expect(most).toBe(1);
  });

  test("a run that found no turn in time is refused with SERVER_BUSY and its thread is left as it was; the next run goes through", async () => {
    let open: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (open = resolve));
    const chat = new AsyncScriptedModel(async ({ index }) => {
      if (index === 0) await held;
      return JSON.stringify({ intent: "chat", reply: `Reply ${index + 1}.`, reason: "small talk" });
    });
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      runGate: new RunGate(1, 50),
    });
    const slow = graph.invoke(message("first"), threadConfig("slow"));
    const refused = await thrownBy(graph.invoke(message("second"), threadConfig("queued")));
    expect(refused).toMatchObject({ code: "SERVER_BUSY" });
    expect((await graph.getState(threadConfig("queued"))).values).toEqual({});
    open();
    await slow;
    const next = await graph.invoke(message("second"), threadConfig("queued"));
    expect(String(next.messages.at(-1)?.content)).toBe("Reply 2.");
  });
});
