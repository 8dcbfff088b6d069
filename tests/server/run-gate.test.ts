/**
 * The run gate (issue 44.8): at most `maxRuns` runs of a process compute at once; the others wait their turn in FIFO
 * order rather than all asking the connection pool at once, and a run that waits longer than the gate allows is
 * refused with SERVER_BUSY before anything of it is written.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, test, vi } from "vitest";
import { RunGate, RunSeat } from "../../server/run-gate.js";
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

describe("RunGate between users", () => {
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  /** Asks the gate for a turn for each of `names` as `user`; `admitted` lists them as they get one. */
  const asker = (gate: RunGate) => {
    const admitted: string[] = [];
    const ends = new Map<string, () => void>();
    const ask = (user: string, name: string) =>
      gate.enter(user).then((end) => {
        admitted.push(name);
        ends.set(name, end);
      });
    return { admitted, ends, ask };
  };

  test("one user's burst on many threads takes at most their share of turns: another user's run is admitted at once", async () => {
    const gate = new RunGate(4, 60_000, 2);
    const { admitted, ends, ask } = asker(gate);
    const burst = ["a1", "a2", "a3", "a4", "a5", "a6"].map((name) => ask("alice", name));
    await settled();
    expect(admitted).toEqual(["a1", "a2"]);
    expect([gate.active, gate.queued, gate.activeOf("alice")]).toEqual([2, 4, 2]);
    // Bob's run finds a turn free though four of Alice's wait: it waits behind none of them.
    await ask("bob", "b1");
    expect(admitted).toEqual(["a1", "a2", "b1"]);
    expect([gate.active, gate.queued]).toEqual([3, 4]);
    // Alice's runs go on two at a time as hers end, never past her cap.
    for (const name of ["a1", "a2", "a3", "a4"]) {
      ends.get(name)!();
      await settled();
      expect(gate.activeOf("alice")).toBe(2);
    }
    ends.get("b1")!();
    await Promise.all(burst);
    expect(admitted).toEqual(["a1", "a2", "b1", "a3", "a4", "a5", "a6"]);
    for (const name of ["a5", "a6"]) ends.get(name)!();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("among the runs waiting, a second user's is admitted before the first user's next (the least busy user first, round-robin among equals)", async () => {
    // No cap per user (the whole gate each): only the order of the waiting runs is at stake.
    const gate = new RunGate(2, 60_000);
    const { admitted, ends, ask } = asker(gate);
    const asked = ["a1", "a2", "a3", "a4", "a5"].map((name) => ask("alice", name));
    await settled();
    const bobs = ["b1", "b2"].map((name) => ask("bob", name));
    const carol = ask("carol", "c1");
    await settled();
    expect(admitted).toEqual(["a1", "a2"]);
    // Each turn given back (the runs end in the order they were admitted) goes to the waiting user computing the
    // fewest runs, the first of them in round-robin order: Bob's first before Alice's third, and Carol's before her
    // fourth; a user served goes to the back of the order.
    for (let ended = 0; ended < 7; ended += 1) {
      ends.get(admitted[ended]!)!();
      await settled();
    }
    await Promise.all([...asked, ...bobs, carol]);
    expect(admitted).toEqual(["a1", "a2", "b1", "a3", "c1", "b2", "a4", "a5"]);
    ends.get("a5")!();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run coming back from its model waits only for its own user's turns, ahead of that user's new runs, and is never refused", async () => {
    vi.useFakeTimers();
    const gate = new RunGate(3, 5_000, 1);
    const seat = new RunSeat(gate, await gate.enter("alice"), "alice");
    let answer: () => void = () => undefined;
    const model = new Promise<void>((resolve) => (answer = resolve));
    const coming = seat.without(() => model.then(() => "answer"));
    // Away on its model, the run holds no turn: Alice's next run takes her one turn; a third of hers waits.
    const second = await gate.enter("alice");
    let thirdAdmitted = false;
    const third = thrownBy(gate.enter("alice").then((end) => ((thirdAdmitted = true), end)));
    answer();
    // Back from its model, the run waits for Alice's turn (Bob's run still gets one of the free ones at once) —
    // for longer than a new run may wait, without SERVER_BUSY.
    const bob = await gate.enter("bob");
    await vi.advanceTimersByTimeAsync(4_000);
    expect([gate.active, gate.queued, gate.activeOf("alice")]).toEqual([2, 2, 1]);
    // Alice's turn is given back: it goes to the run already started, not to her new run that asked first.
    second();
    expect(await coming).toBe("answer");
    expect([thirdAdmitted, gate.activeOf("alice")]).toEqual([false, 1]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await third).toMatchObject({
      code: "SERVER_BUSY",
      details: { maxRuns: 3, maxRunsPerUser: 1 },
      message: expect.stringContaining("runs of this user at once"),
    });
    seat.end();
    bob();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run whose overlapping model calls come back while its user is at the cap goes on once a turn of that user's is free, and leaks none", async () => {
    const gate = new RunGate(2, 60_000, 1);
    const seat = new RunSeat(gate, await gate.enter("alice"), "alice");
    const calls = [0, 1].map(() => {
      let answer: (text: string) => void = () => undefined;
      const reply = new Promise<string>((resolve) => (answer = resolve));
      return { reply, answer };
    });
    const waits = calls.map((call) => seat.without(() => call.reply));
    const other = await gate.enter("alice");
    calls[0]!.answer("first");
    await settled();
    expect([gate.active, gate.queued]).toEqual([1, 1]);
    other();
    expect(await waits[0]).toBe("first");
    // The run holds Alice's one turn again; its other call coming back asks for none.
    calls[1]!.answer("second");
    expect(await waits[1]).toBe("second");
    expect([gate.active, gate.queued, gate.activeOf("alice")]).toEqual([1, 0, 1]);
    seat.end();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });
});

describe("the graph behind a run gate", () => {
  test("with a gate of 1, runs on two threads both reach their model call at once (no turn held while waiting on it), and both end", async () => {
    const gate = new RunGate(1, 60_000);
    let open: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (open = resolve));
    let waiting = 0;
    let bothWaiting: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (bothWaiting = resolve));
    const chat = new AsyncScriptedModel(async ({ index }) => {
      waiting += 1;
      if (waiting === 2) bothWaiting();
      await held;
      return JSON.stringify({ intent: "chat", reply: `Reply ${index + 1}.`, reason: "small talk" });
    });
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      runGate: gate,
    });
    const runs = ["one", "two"].map((threadId) => graph.invoke(message("hello"), threadConfig(threadId)));
    await reached;
    // Both runs wait on their model, neither holds a turn, none queues for one.
    expect([waiting, gate.active, gate.queued]).toEqual([2, 0, 0]);
    open();
    const results = await Promise.all(runs);
    expect(results.map((result) => result.messages.map((entry) => entry.getType()))).toEqual([
      ["human", "ai"],
      ["human", "ai"],
    ]);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run coming back from its model wait queues for a turn and goes on only once it gets one", async () => {
    const gate = new RunGate(1, 60_000);
    let open: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (open = resolve));
    let called: () => void = () => undefined;
    const calledModel = new Promise<void>((resolve) => (called = resolve));
    const chat = new AsyncScriptedModel(async () => {
      called();
      await held;
      return JSON.stringify({ intent: "chat", reply: "Reply 1.", reason: "small talk" });
    });
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      runGate: gate,
    });
    let ended = false;
    const run = graph.invoke(message("hello"), threadConfig("back")).then((result) => ((ended = true), result));
    await calledModel;
    // Another run computes meanwhile: it holds the only turn.
    const otherTurn = await gate.enter();
    open();
    while (gate.queued === 0) await new Promise((resolve) => setImmediate(resolve));
    // The model answered, but the run waits in the queue without going on.
    for (let tick = 0; tick < 20; tick += 1) await new Promise((resolve) => setImmediate(resolve));
    expect([ended, gate.active, gate.queued]).toEqual([false, 1, 1]);
    otherTurn();
    const result = await run;
    expect(String(result.messages.at(-1)?.content)).toBe("Reply 1.");
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run coming back from its model is never refused for its wait in the queue: SERVER_BUSY only comes before a run starts", async () => {
    vi.useFakeTimers();
    const gate = new RunGate(1, 5_000);
    const seat = new RunSeat(gate, await gate.enter());
    let answer: () => void = () => undefined;
    const model = new Promise<void>((resolve) => (answer = resolve));
    const coming = seat.without(() => model.then(() => "answer"));
    // The seat gave its turn back for the model wait: another run gets it at once.
    const other = await gate.enter();
    answer();
    await vi.advanceTimersByTimeAsync(60_000);
    expect([gate.active, gate.queued]).toEqual([1, 1]);
    other();
    expect(await coming).toBe("answer");
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    seat.end();
    seat.end();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run that found no turn in time is refused with SERVER_BUSY and its thread is left as it was; the next run goes through", async () => {
    const chat = new AsyncScriptedModel(({ index }) =>
      JSON.stringify({ intent: "chat", reply: `Reply ${index + 1}.`, reason: "small talk" }),
    );
    const gate = new RunGate(1, 50);
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      runGate: gate,
    });
    // Another run computes (a run waiting on its model holds no turn): it holds the only turn.
    const busy = await gate.enter();
    const refused = await thrownBy(graph.invoke(message("first"), threadConfig("queued")));
    expect(refused).toMatchObject({ code: "SERVER_BUSY" });
    expect((await graph.getState(threadConfig("queued"))).values).toEqual({});
    busy();
    const next = await graph.invoke(message("second"), threadConfig("queued"));
    expect(String(next.messages.at(-1)?.content)).toBe("Reply 1.");
  });
});

describe("RunSeat with overlapping model calls in one run", () => {
  /** A model call the test answers (or fails) when it chooses. */
  const modelCall = () => {
    let answer: (text: string) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    const reply = new Promise<string>((resolve, reject) => ((answer = resolve), (fail = reject)));
    return { reply, answer, fail };
  };
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  test("two calls at once give the turn back once and take it back once; the run holds one seat, and none after it ends", async () => {
    const gate = new RunGate(1, 60_000);
    const seat = new RunSeat(gate, await gate.enter());
    const [first, second] = [modelCall(), modelCall()];
    const waits = [seat.without(() => first.reply), seat.without(() => second.reply)];
    // Both away: the run holds no turn, and another run takes the only one.
    expect([gate.active, gate.queued]).toEqual([0, 0]);
    const other = await gate.enter();
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    // Both come back while the other run computes: ONE turn asked for the run, not one a call.
    first.answer("first");
    second.fail(new Error("model down"));
    await settled();
    expect([gate.active, gate.queued]).toEqual([1, 1]);
    other();
    const outcomes = await Promise.allSettled(waits);
    expect(
      outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : String(outcome.reason))),
    ).toEqual(["first", "Error: model down"]);
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    seat.end();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a call that comes back while the other is away takes the turn again; the run keeps it until the other returns", async () => {
    const gate = new RunGate(1, 60_000);
    const seat = new RunSeat(gate, await gate.enter());
    const [first, second, third] = [modelCall(), modelCall(), modelCall()];
    const firstWait = seat.without(() => first.reply);
    const secondWait = seat.without(() => second.reply);
    first.answer("first");
    expect(await firstWait).toBe("first");
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    // A call started meanwhile (the seat is held): no turn is given back twice, none taken twice.
    const thirdWait = seat.without(() => third.reply);
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    second.answer("second");
    third.answer("third");
    expect(await Promise.all([secondWait, thirdWait])).toEqual(["second", "third"]);
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    // Another run waits for this one's seat, and gets it when the run ends.
    const other = gate.enter();
    await settled();
    expect([gate.active, gate.queued]).toEqual([1, 1]);
    seat.end();
    (await other)();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  test("a run that ends while its calls are away, or coming back, leaks no turn", async () => {
    const gate = new RunGate(1, 60_000);
    const seat = new RunSeat(gate, await gate.enter());
    const [first, second] = [modelCall(), modelCall()];
    const waits = [seat.without(() => first.reply), seat.without(() => second.reply)];
    const other = await gate.enter();
    first.answer("first");
    await settled();
    expect([gate.active, gate.queued]).toEqual([1, 1]);
    // The run is stopped while one call waits for its turn back and the other is still away.
    seat.end();
    other();
    second.answer("second");
    expect(await Promise.all(waits)).toEqual(["first", "second"]);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });
});
