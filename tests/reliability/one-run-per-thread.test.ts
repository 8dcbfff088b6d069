/**
 * One run per thread at a time (issue 12.2). Two runs that start from the same
 * checkpoint would fork the thread and silently lose one of them; the run
 * guard holds the thread for the whole run instead:
 *
 * - in one process (the default in-process lock): two messages at once end
 *   both in one linear history, or one is refused with THREAD_BUSY; a message
 *   that waited and then finds a card its sender never saw is refused; a
 *   double-clicked answer applies once; a message past `threadWaitMs` is
 *   refused and the thread goes on;
 * - across workers on one Postgres (`createThreadLock`: an advisory lock on a
 *   real server, the shared in-process lock on the embedded one): two graph
 *   instances on two pools get a message each at once — no fork;
 * - on a real server, a process holds every thread through ONE lock connection (issue 44.8: a connection per
 *   running run ran the server out of connections), and a lost lock connection is replaced, the threads the process
 *   still holds locked again.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { StateSnapshot } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { TempoError } from "../../errors/index.js";
import type { TempoState } from "../../kernel/state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { MemorySaver } from "@langchain/langgraph";
import { createNotesDomain } from "../support/notes-domain.js";
import { postgresTargets, realPostgresAvailable, startRealTestPostgres } from "../support/postgres.js";
import {
  interruptsOf,
  json,
  resume,
  scripted,
  scriptedGraph,
  threadConfig,
  unpairedToolCalls,
} from "../support/scripted.js";
import {
  openTempoOnDatabase,
  seedStudent,
  studentOf,
  studentThread,
  useTempoOnTarget,
} from "../persistence/tempo-on-database.js";
import { AsyncScriptedModel } from "./support/async-model.js";
import { createThreadLock } from "../../server/postgres-thread-lock.js";
import type { ThreadLock } from "../../server/thread-lock.js";
import { thrownBy } from "./support/thread-state.js";

const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const accept = resume({ type: "accept", args: null });
const chatReply = (reply: string) => json({ intent: "chat", reply, reason: "small talk" });
const plan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const addNote = json({
  speak: "Adding.",
  action: "confirm",
  reason: "asked",
  tool_call: { name: "add_note", arguments: { text: "call mom" } },
});

interface Graphish {
  getStateHistory(config: { configurable: Record<string, unknown> }): AsyncIterableIterator<StateSnapshot>;
}

/** Checkpoints with more than one child: each is a fork of the thread. */
async function forksOf(graph: Graphish, config: { configurable: Record<string, unknown> }): Promise<number> {
  const children = new Map<string, number>();
  for await (const snapshot of graph.getStateHistory(config)) {
    const parent = snapshot.parentConfig?.configurable?.checkpoint_id;
    if (typeof parent === "string") children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return [...children.values()].filter((count) => count > 1).length;
}

/** Outcome of a run: "ok", or the code of the TempoError it failed with. */
async function outcome(run: Promise<unknown>): Promise<string> {
  const error = await thrownBy(run);
  if (error === undefined) return "ok";
  if (error instanceof TempoError) return error.code;
  throw error;
}

/** Human messages of the thread's current state. */
async function humanTexts(
  graph: { getState(config: object): Promise<StateSnapshot> },
  config: object,
): Promise<string[]> {
  const values = (await graph.getState(config)).values as TempoState;
  return values.messages.filter((entry) => entry.getType() === "human").map((entry) => String(entry.content));
}

describe("in one process", () => {
  test("two messages at once on one thread: both end in one linear history", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [chatReply("Hello!"), chatReply("You're welcome.")],
    });
    const config = threadConfig("two-messages");
    const outcomes = await Promise.all([
      outcome(graph.invoke(message("hello"), config)),
      outcome(graph.invoke(message("thanks"), config)),
    ]);
    expect(outcomes).toEqual(["ok", "ok"]);
    expect((await humanTexts(graph, config)).sort()).toEqual(["hello", "thanks"]);
    expect(await forksOf(graph, config)).toBe(0);
    const values = (await graph.getState(config)).values as TempoState;
    expect(values.messages.map((entry) => entry.getType())).toEqual(["human", "ai", "human", "ai"]);
  });

  test("a message that waited and then finds a card its sender never saw is refused with THREAD_BUSY; the card stays open", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({ domain, plan: [plan] });
    const config = threadConfig("waited-for-card");
    const [first, second] = await Promise.all([
      outcome(graph.invoke(message("Add a note: call mom"), config)),
      outcome(graph.invoke(message("yes"), config)),
    ]);
    expect([first, second]).toEqual(["ok", "THREAD_BUSY"]);
    const state = await graph.getState(config);
    expect(
      state.tasks
        .flatMap((task) => task.interrupts)
        .map((interrupt) => (interrupt.value as { action_request: { action: string } }).action_request.action),
    ).toEqual(["confirm_plan"]);
    expect(await humanTexts(graph, config)).toEqual(["Add a note: call mom"]);
    expect(models.chat.callCount).toBe(1);
    expect(await forksOf(graph, config)).toBe(0);
  });

  test("an answer sent twice at once (a double click) applies once; the second gets THREAD_BUSY; no fork", async () => {
    const domain = createNotesDomain({ "user-1": ["buy milk"] });
    const { graph } = scriptedGraph({
      domain,
      plan: [plan],
      execute: [addNote, json({ action: "done", goal_check: "listed" })],
    });
    const config = threadConfig("double-click");
    await graph.invoke(message("Add a note: call mom"), config);
    await graph.invoke(accept, config);
    const outcomes = await Promise.all([outcome(graph.invoke(accept, config)), outcome(graph.invoke(accept, config))]);
    expect(outcomes.sort()).toEqual(["THREAD_BUSY", "ok"]);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
    const values = (await graph.getState(config)).values as TempoState;
    expect(values.phase).toBe("done");
    expect(unpairedToolCalls(values.messages)).toEqual([]);
    expect(await forksOf(graph, config)).toBe(0);
  });

  test("a message still waiting after threadWaitMs is refused with THREAD_BUSY; the running turn ends and the thread goes on", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const chat = new AsyncScriptedModel(async ({ index }) => {
      if (index === 0) await gate;
      return JSON.stringify({ intent: "chat", reply: `Reply ${index + 1}.`, reason: "small talk" });
    });
    const graph = buildTempoGraph({
      models: { default: chat },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
      settings: { threadWaitMs: 100 },
    });
    const config = threadConfig("wait-timeout");
    const slow = graph.invoke(message("first"), config);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await thrownBy(graph.invoke(message("second"), config));
    expect(refused).toMatchObject({ code: "THREAD_BUSY", message: expect.stringContaining("after waiting 100 ms") });
    open();
    await slow;
    expect(await humanTexts(graph, config)).toEqual(["first"]);
    const next = await graph.invoke(message("second"), config);
    expect(String(next.messages.at(-1)?.content)).toBe("Reply 2.");
    expect(await forksOf(graph, config)).toBe(0);
  });

  test("a stream left after its first chunk gives the thread back: the next message runs at once", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [chatReply("Hello!"), chatReply("Hi again.")],
      settings: { threadWaitMs: 0 },
    });
    const config = threadConfig("abandoned-stream");
    for await (const _chunk of await graph.stream(message("hello"), { ...config, streamMode: "values" })) break;
    // Left before the chat stage ran: the thread is free again. The next message first carries the stopped run on
    // ("hello" gets its reply), then is answered itself.
    const next = await graph.invoke(message("hello again"), config);
    expect(next.messages.filter((entry) => entry.getType() === "ai").map((entry) => String(entry.content))).toEqual([
      "Hello!",
      "Hi again.",
    ]);
    expect(await humanTexts(graph, config)).toEqual(["hello", "hello again"]);
    expect(await forksOf(graph, config)).toBe(0);
  });

  test("a resume on a busy thread never waits: THREAD_BUSY at once", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reached: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (reached = resolve));
    const execute = new AsyncScriptedModel(async () => {
      reached();
      await gate;
      return JSON.stringify({ action: "done", goal_check: "nothing to do" });
    });
    const graph = buildTempoGraph({
      models: {
        default: scripted([json({ intent: "task" })]),
        plan: scripted([plan]),
        execute,
        deliver: scripted(["Done."]),
      },
      domain: createNotesDomain(),
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig("resume-busy");
    await graph.invoke(message("Add a note"), config);
    const running = graph.invoke(accept, config);
    // The first resume holds the thread once its execute call is reached (it waits there until the gate opens).
    await holding;
    // Refused without waiting: asked with no wait (a message would wait threadWaitMs, 10 s by default), before the
    // first run has gone on.
    let settled = false;
    void running.finally(() => (settled = true));
    expect(await thrownBy(graph.invoke(accept, config))).toMatchObject({ code: "THREAD_BUSY", details: { waitMs: 0 } });
    expect(settled).toBe(false);
    open();
    expect((await running).phase).toBe("done");
    expect(interruptsOf(await graph.getState(config))).toEqual([]);
  });
});

describe.each(postgresTargets())("two workers on one $kind postgres", (target) => {
  const env = useTempoOnTarget(target);

  test("a message each on one thread at once: both in one linear history, or a typed refusal — never a fork", async () => {
    const workers = [
      await openTempoOnDatabase(env.server.url, { holdThreads: true }),
      await openTempoOnDatabase(env.server.url, { holdThreads: true }),
    ];
    try {
      for (let round = 0; round < 3; round += 1) {
        const threadId = `two-workers-${target.kind}-${round}`;
        await seedStudent(workers[0]!, threadId);
        const texts = ["hello", "thanks"];
        const outcomes = await Promise.all(
          workers.map((worker, index) => outcome(worker.graph.invoke(message(texts[index]!), studentThread(threadId)))),
        );
        const kept = await humanTexts(workers[0]!.graph, studentThread(threadId));
        for (const [index, result] of outcomes.entries()) {
          expect(["ok", "THREAD_BUSY"]).toContain(result);
          expect(kept.includes(texts[index]!)).toBe(result === "ok");
        }
        const forks = await workers[0]!.database.pool.query<{ count: string }>(
          // Two roots of a new thread are a fork too.
          `SELECT count(*) AS count FROM (SELECT 1 FROM checkpoints WHERE thread_id = $1
             GROUP BY checkpoint_ns, coalesce(parent_checkpoint_id, '') HAVING count(*) > 1) AS forked`,
          [threadId],
        );
        expect(Number(forks.rows[0]?.count)).toBe(0);
        expect(studentOf(threadId)).toBe((await workers[1]!.graph.getState(studentThread(threadId))).values.userId);
      }
    } finally {
      for (const worker of workers) await worker.close();
    }
  });

  test("the lock tells a run in progress in another worker from a run that stopped: holds() sees the other worker's lease", async () => {
    const workers = [await openTempoOnDatabase(env.server.url), await openTempoOnDatabase(env.server.url)];
    const [first, second] = workers.map((worker) => createThreadLock(worker.database)) as [ThreadLock, ThreadLock];
    try {
      const threadId = `holds-${target.kind}`;
      expect(await second.holds!(threadId)).toBe(false);
      const lease = await first.acquire(threadId, 0);
      // On the embedded server both workers share this process's lock; on a real server the advisory lock shows in pg_locks.
      expect(await second.holds!(threadId)).toBe(true);
      expect(await second.holds!(`${threadId}-other`)).toBe(false);
      await lease.release();
      expect(await second.holds!(threadId)).toBe(false);
    } finally {
      for (const worker of workers) await worker.close();
    }
  });
});

describe.runIf(realPostgresAvailable() || process.env.TEMPO_REQUIRE_REAL_POSTGRES === "1")(
  "the thread lock's connection on a real postgres",
  () => {
    const env = useTempoOnTarget({ kind: "real", start: startRealTestPostgres });

    /** Advisory locks held now, and by how many server sessions. */
    async function advisoryLocks(): Promise<{ locks: number; sessions: number }> {
      const result = await env.tempo.database.pool.query<{ locks: string; sessions: string }>(
        "SELECT count(*) AS locks, count(DISTINCT pid) AS sessions FROM pg_locks WHERE locktype = 'advisory' AND granted",
      );
      return { locks: Number(result.rows[0]?.locks), sessions: Number(result.rows[0]?.sessions) };
    }

    test("20 threads held at once by one process take one connection, not 20; another worker cannot take them until they are released", async () => {
      const other = await openTempoOnDatabase(env.server.url);
      const [mine, theirs] = [createThreadLock(env.tempo.database), createThreadLock(other.database)];
      try {
        const threads = Array.from({ length: 20 }, (_, index) => `one-connection-${index}`);
        const leases = await Promise.all(threads.map((threadId) => mine.acquire(threadId, 0)));
        expect(await advisoryLocks()).toEqual({ locks: 20, sessions: 1 });
        expect(await outcome(theirs.acquire(threads[7]!, 0))).toBe("THREAD_BUSY");
        await Promise.all(leases.map((lease) => lease.release()));
        expect(await advisoryLocks()).toEqual({ locks: 0, sessions: 0 });
        const taken = await theirs.acquire(threads[7]!, 0);
        await taken.release();
      } finally {
        await mine.close?.();
        await theirs.close?.();
        await other.close();
      }
    });

    test("a lost lock connection is replaced on next use, and the threads the process still holds are locked again", async () => {
      const other = await openTempoOnDatabase(env.server.url);
      const [mine, theirs] = [createThreadLock(env.tempo.database), createThreadLock(other.database)];
      try {
        const held = await mine.acquire("lost-connection-held", 0);
        const holder = await env.tempo.database.pool.query<{ pid: number }>(
          "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted",
        );
        // The server ends the lock connection (an administrator, a restart, a network cut): its locks go with it.
        await env.tempo.database.pool.query("SELECT pg_terminate_backend($1)", [holder.rows[0]!.pid]);
        const next = await mine.acquire("lost-connection-next", 0);
        expect(await advisoryLocks()).toEqual({ locks: 2, sessions: 1 });
        expect(await outcome(theirs.acquire("lost-connection-held", 0))).toBe("THREAD_BUSY");
        await held.release();
        await next.release();
        expect(await advisoryLocks()).toEqual({ locks: 0, sessions: 0 });
      } finally {
        await mine.close?.();
        await theirs.close?.();
        await other.close();
      }
    });
  },
);
