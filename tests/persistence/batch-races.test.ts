/**
 * Races on the new write kinds' cards, on a real PostgreSQL 15 when installed (else the embedded one): two Tempo
 * processes (each its own pool, as two workers) on one database and one thread.
 *
 * - Two clients answer the same "clear tomorrow" card at once, with the same answer or with different ones: the
 *   writes of exactly one answer apply, each once — never both answers, never a mix — and the other is refused.
 * - An answer races a new message on the thread: the card's writes apply all (once each) or not at all.
 * - Two threads of one student answer their cards at once, their applies meeting inside their transactions: thread
 *   B puts a review on the Monday thread A's card clears. A's card still applies as it showed, but its step is not
 *   ended on the week it was judged on: Monday is listed again and the new review comes on a card of its own.
 *
 * With the thread lock (as `createTempo` builds workers) and without it (the checkpointer's one-resume-per-interrupt
 * claim underneath): without the lock both runs are held until each has read the thread (`GatedSaver`), so they meet.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { TempoPostgresSaver, type CheckpointRef } from "../../checkpoints/index.js";
import { isTempoError } from "../../errors/index.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { crowdedMondayWeek, halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { writesOnCard } from "../support/card-writes.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { unpairedToolCalls } from "../support/scripted.js";
import { appliedWrites } from "./exactly-once.js";
import {
  interruptsOf,
  openTempoOnDatabase,
  studentOf,
  studentThread,
  userMessage,
  type TempoOnDatabase,
  type TempoOnDatabaseOptions,
} from "./tempo-on-database.js";

const targets = postgresTargets();
const target = targets.find((candidate) => candidate.kind === "real") ?? targets[0]!;

const SUNDAY_EVENING = "2024-03-10T12:00:00.000Z"; // 20:00 in Shanghai
const approve = { type: "approve" };
const reject = { type: "reject", message: "keep it" };
/** The refusals a losing run may get, each typed. */
const REFUSALS = ["THREAD_BUSY", "ALREADY_RESUMED", "STALE_RESUME"];

/** Holds the first thread read of each armed run until `parties` runs have read: they then go on together. */
class Gate {
  private arrived = 0;
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  constructor(private readonly parties: number) {}
  async pass(): Promise<void> {
    this.arrived += 1;
    if (this.arrived === this.parties) this.open();
    await this.opened;
  }
}

let gate: Gate | undefined;
const gated = new WeakSet<object>();

/**
 * The task writes `saver` stores on `threadId` are held in storing until `release`, as a loaded machine holds them
 * (the checkpoint saved after a task waits for its writes); a step's write is let in with no grace, asked once the
 * saver has answered whether the step's checkpoint is stored (`asking`, then `answered`).
 */
interface HeldWrites {
  saver: TempoPostgresSaver;
  threadId: string;
  release: Promise<void>;
  asking?: string;
  answered: () => void;
}
let held: HeldWrites | undefined;

/** Tempo's saver whose `getTuple` waits at the armed gate, once per run (its config object); it holds `held`'s writes. */
class GatedSaver extends TempoPostgresSaver {
  private holdNext = false;

  override async getTuple(config: RunnableConfig) {
    const tuple = await super.getTuple(config);
    const run = config.configurable?.gate_key as object | undefined;
    if (gate && run && !gated.has(run)) {
      gated.add(run);
      await gate.pass();
    }
    return tuple;
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    // Taken by `_dumpWrites`, which `putWrites` calls before it first waits.
    this.holdNext = held?.saver === this && config.configurable?.thread_id === held.threadId;
    return super.putWrites(config, writes, taskId);
  }

  protected override async _dumpWrites(...args: Parameters<TempoPostgresSaver["_dumpWrites"]>) {
    const hold = this.holdNext && held ? held.release : undefined;
    this.holdNext = false;
    const rows = await super._dumpWrites(...args);
    await hold;
    return rows;
  }

  override awaitCheckpointSaved(ref: CheckpointRef, graceMs?: number) {
    if (!held || held.saver !== this) return super.awaitCheckpointSaved(ref, graceMs);
    held.asking = ref.checkpointId;
    return super.awaitCheckpointSaved(ref, 0);
  }
}

function config(threadId: string) {
  const base = studentThread(threadId);
  return { ...base, configurable: { ...base.configurable, now: SUNDAY_EVENING } };
}

interface Values {
  messages?: BaseMessage[];
  outcome?: { kind: string } | null;
}

describe(`${target.kind} postgres: races on a day's card`, () => {
  let server: TestPostgres | undefined;
  const pairs = new Map<string, [TempoOnDatabase, TempoOnDatabase]>();
  let threads = 0;

  const pair = (locked: boolean) => pairs.get(String(locked))!;

  beforeAll(async () => {
    server = await target.start();
    for (const locked of [true, false]) {
      const options: TempoOnDatabaseOptions = {
        writesPerCard: Number.POSITIVE_INFINITY,
        holdThreads: locked,
        refine: false,
        makeCheckpointer: async (database) => {
          const saver = new GatedSaver(database.pool);
          await saver.setup();
          return saver;
        },
      };
      pairs.set(String(locked), [
        await openTempoOnDatabase(server.url, options),
        await openTempoOnDatabase(server.url, options),
      ]);
    }
  });

  afterAll(async () => {
    for (const [a, b] of pairs.values()) await Promise.all([a.close(), b.close()]);
    await server?.stop();
  });

  /** A thread of a new student at its "clear tomorrow" card (five unplace writes): its id and the card's write ids. */
  async function atClearCard(tempo: TempoOnDatabase, week: () => ScheduleState = crowdedMondayWeek) {
    const threadId = `race-${(threads += 1)}`;
    await tempo.repository.seed(studentOf(threadId), week());
    await tempo.graph.invoke(userMessage("clear tomorrow"), config(threadId));
    await tempo.graph.invoke(new Command({ resume: { decisions: [approve] } }), config(threadId));
    const ids = writesOnCard((await tempo.graph.getState(config(threadId))).values).map((write) => write.id);
    return { threadId, ids };
  }

  /** Runs `runs` at once; without the lock they are first held until each has read the thread. */
  async function atOnce(locked: boolean, runs: Array<(key: object) => Promise<unknown>>) {
    gate = locked ? undefined : new Gate(runs.length);
    try {
      return await Promise.allSettled(runs.map((run) => run({})));
    } finally {
      gate = undefined;
    }
  }

  /** What breaks a thread's ending: a card left open, no outcome, a call unanswered, a forked history. */
  async function endingProblems(tempo: TempoOnDatabase, threadId: string): Promise<string[]> {
    const problems: string[] = [];
    const state = await tempo.graph.getState(config(threadId));
    const values = state.values as Values;
    if (state.tasks.some((task) => task.interrupts.length > 0)) problems.push("a card is still open");
    if (!values.outcome) problems.push("the task has no outcome");
    if (unpairedToolCalls(values.messages ?? []).length > 0) problems.push("a tool call is unanswered");
    const children = new Map<string, number>();
    for await (const snapshot of tempo.graph.getStateHistory(config(threadId))) {
      const parent = snapshot.parentConfig?.configurable?.checkpoint_id as string | undefined;
      if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
    }
    if ([...children.values()].some((count) => count > 1)) problems.push("the history forked");
    return problems;
  }

  function refusalProblems(settled: PromiseSettledResult<unknown>[]): string[] {
    return settled.flatMap((outcome) =>
      outcome.status === "rejected" && !(isTempoError(outcome.reason) && REFUSALS.includes(outcome.reason.code))
        ? [`a run failed untyped: ${String(outcome.reason)}`]
        : [],
    );
  }

  test.each([
    [true, "the same answer"],
    [true, "different answers"],
    [false, "the same answer"],
    [false, "different answers"],
  ] as const)("thread lock %s: two clients answer one card at once with %s", async (locked, kind) => {
    const [first, second] = pair(locked);
    const { threadId, ids } = await atClearCard(first);
    const answers =
      kind === "the same answer"
        ? [
            [approve, reject, approve, approve, reject],
            [approve, reject, approve, approve, reject],
          ]
        : [
            [approve, approve, reject, reject, reject],
            [reject, reject, approve, approve, approve],
          ];
    const settled = await atOnce(
      locked,
      [first, second].map(
        (tempo, index) => (key: object) =>
          tempo.graph.invoke(new Command({ resume: { decisions: answers[index] } }), {
            ...config(threadId),
            configurable: { ...config(threadId).configurable, gate_key: key },
          }),
      ),
    );
    expect(refusalProblems(settled)).toEqual([]);
    // Held until both had read the thread, the two met: one of them is refused.
    if (!locked) expect(settled.filter((outcome) => outcome.status === "rejected")).toHaveLength(1);
    const { completedPerCall, loggedApplied } = await appliedWrites(first, threadId);
    expect([...completedPerCall.values()].every((count) => count === 1)).toBe(true);
    const setOf = (answer: object[]) => ids.filter((_, index) => answer[index] === approve).sort();
    expect([setOf(answers[0]!), setOf(answers[1]!)].map((set) => set.join())).toContain(loggedApplied.join());
    // The week agrees: exactly the applied writes' reviews are off Monday.
    const week = await first.repository.load(studentOf(threadId));
    const pendingNow = week.tasks.filter(
      (task) => task.source === "task_item" && (task as TaskItem).status === "pending",
    );
    expect(pendingNow).toHaveLength(loggedApplied.length);
    expect(await endingProblems(first, threadId)).toEqual([]);
  });

  test("thread lock false: the losing answer's writes wait for its checkpoint's save, however long its writes take", async () => {
    // The first run wins the claim; the second's writes (which its checkpoint's save waits for) are held until the
    // first has ended and the second's step has asked to write — a loaded machine's slow statements. Its step must
    // wait for the save behind them and be refused, not take the checkpoint not saved yet for one never to be saved.
    const [first, second] = pair(false);
    const { threadId, ids } = await atClearCard(first);
    const answers = [
      [approve, approve, reject, reject, reject],
      [reject, reject, approve, approve, approve],
    ];
    let firstEnded!: () => void;
    const ended = new Promise<void>((resolve) => (firstEnded = resolve));
    let secondEnded!: () => void;
    const secondDone = new Promise<void>((resolve) => (secondEnded = resolve));
    let answered!: () => void;
    const asked = new Promise<void>((resolve) => (answered = resolve));
    held = {
      saver: second.checkpointer,
      threadId,
      // (Or once the second run has ended, so that a run refused early leaves nothing held.)
      release: Promise.race([Promise.all([ended, asked]), secondDone]).then(() => undefined),
      answered,
    };
    const pool = second.database.pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    // Whether the second run's checkpoint is stored, answered: released after that (and after the first run ended).
    (pool as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values] = args as [unknown, unknown[] | undefined];
      const result = query(...args);
      if (
        typeof text === "string" &&
        /^SELECT 1 FROM \S+\.checkpoints WHERE/.test(text) &&
        values?.[2] === held?.asking
      )
        void result.then(
          () => held?.answered(),
          () => held?.answered(),
        );
      return result;
    };
    try {
      const settled = await atOnce(
        false,
        [first, second].map((tempo, index) => (key: object) => {
          const run = tempo.graph.invoke(new Command({ resume: { decisions: answers[index] } }), {
            ...config(threadId),
            configurable: { ...config(threadId).configurable, gate_key: key },
          });
          void run.finally(index === 0 ? firstEnded : secondEnded).catch(() => undefined);
          return run;
        }),
      );
      expect(refusalProblems(settled)).toEqual([]);
      expect(settled.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
      const { completedPerCall, loggedApplied } = await appliedWrites(first, threadId);
      expect([...completedPerCall.values()].every((count) => count === 1)).toBe(true);
      // The first answer's writes, and none of the second's.
      expect(loggedApplied).toEqual([ids[0]!, ids[1]!].sort());
      expect(await endingProblems(first, threadId)).toEqual([]);
    } finally {
      held = undefined;
      (pool as { query: unknown }).query = query;
    }
  });

  test.each([true, false])("thread lock %s: an answer races a new message on the thread", async (locked) => {
    const [first, second] = pair(locked);
    const { threadId, ids } = await atClearCard(first);
    const withKey = (key: object) => ({
      ...config(threadId),
      configurable: { ...config(threadId).configurable, gate_key: key },
    });
    const settled = await atOnce(locked, [
      (key) => first.graph.invoke(new Command({ resume: { decisions: ids.map(() => approve) } }), withKey(key)),
      (key) => second.graph.invoke(userMessage("skip all my reviews today"), withKey(key)),
    ]);
    expect(refusalProblems(settled)).toEqual([]);
    const { completedPerCall, loggedApplied } = await appliedWrites(first, threadId);
    expect([...completedPerCall.values()].every((count) => count === 1)).toBe(true);
    // The card's writes: all of them, or none.
    const cardApplied = loggedApplied.filter((id) => ids.includes(id));
    expect([0, ids.length]).toContain(cardApplied.length);
    // Whatever the message started is answered to its end (its cards dismissed, a question withdrawn): nothing else
    // applies.
    for (let turn = 0; turn < 4; turn += 1) {
      const state = await first.graph.getState(config(threadId));
      const card = state.tasks.flatMap((task) => task.interrupts)[0]?.value as
        { action_requests: Array<{ name: string }> } | undefined;
      if (!card) break;
      const asked = card.action_requests[0]?.name === "ask_user";
      await first.graph.invoke(
        new Command({ resume: asked ? "never mind" : { decisions: card.action_requests.map(() => reject) } }),
        config(threadId),
      );
    }
    expect((await appliedWrites(first, threadId)).loggedApplied).toEqual(loggedApplied);
    expect(await endingProblems(first, threadId)).toEqual([]);
  });

  test("two threads of one student answer at once; B puts a review on the day A's card clears: A looks again", async () => {
    // One process, two threads, the applies meeting: A's has loaded the week before B's commits, and waits for it.
    let aLoaded!: () => void;
    const aReady = new Promise<void>((resolve) => (aLoaded = resolve));
    let bCommitted!: () => void;
    const bDone = new Promise<void>((resolve) => (bCommitted = resolve));
    const tempo = await openTempoOnDatabase(server!.url, {
      writesPerCard: Number.POSITIVE_INFINITY,
      holdThreads: true,
      refine: false,
      wrapExecutionLog: (log) => {
        const applyOnce = log.applyOnce!.bind(log);
        return Object.assign(Object.create(log) as typeof log, {
          applyOnce: async (...args: Parameters<typeof applyOnce>) => {
            const [entry, apply] = args;
            if (entry.tool === "unplace")
              return applyOnce(entry, async (client) => {
                aLoaded();
                await bDone;
                await apply(client);
              });
            if (entry.tool !== "place") return applyOnce(entry, apply);
            await aReady;
            try {
              return await applyOnce(entry, apply);
            } finally {
              bCommitted();
            }
          },
        });
      },
    });
    try {
      const { threadId: a } = await atClearCard(tempo, halfPlacedWeek);
      const b = `${a}-b`;
      // Thread B of the same student: the binary tree review put on Monday.
      const onB = { configurable: { ...config(a).configurable, thread_id: b } };
      await tempo.graph.invoke(userMessage("put the binary tree review on Monday"), onB);
      const bCard = await tempo.graph.invoke(new Command({ resume: { decisions: [approve] } }), onB);
      expect((interruptsOf(bCard)[0]?.value as { action_requests: Array<{ name: string }> }).action_requests).toEqual([
        expect.objectContaining({ name: "place" }),
      ]);
      const [onA] = await Promise.all([
        tempo.graph.invoke(new Command({ resume: { decisions: [approve] } }), config(a)),
        tempo.graph.invoke(new Command({ resume: { decisions: [approve] } }), onB),
      ]);
      const week = await tempo.repository.load(studentOf(a));
      const status = (id: string) => (week.tasks.find((task) => task.id === id) as TaskItem).status;
      expect([status("review-limits"), status("binary-tree-review")]).toEqual(["pending", "placed"]);
      // A's step is not ended on the week its card was judged on: Monday again, the new review on a card of its own.
      const next = (
        interruptsOf(onA)[0]?.value as { action_requests: Array<{ name: string; args: object }> } | undefined
      )?.action_requests;
      expect(next).toEqual([expect.objectContaining({ name: "unplace", args: { task_id: "binary-tree-review" } })]);
    } finally {
      await tempo.close();
    }
  });
});
