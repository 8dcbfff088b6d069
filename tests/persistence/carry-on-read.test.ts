/**
 * A thread whose worker died is carried on when it is next READ (issue 44, item 9), on a real PostgreSQL 15 when
 * installed: a child worker is SIGKILLed mid-execute (the write card's run: after its first write committed, and
 * after each checkpoint save), then another process only reads the thread — `recoverThread`, what `Tempo.recover` and
 * the terminal chat call when a thread is opened. Before the read the thread's ExecutionState says `stopped`; while
 * the read carries it on, `resuming`; after it, the thread is at its next card or has its answer, every approved write
 * applied once, and a second read carries nothing on. The terminal chat opening such a thread (`npm start -- --thread`,
 * `/resume`) carries it on the same way.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LineReader } from "../../cli/line-reader.js";
import { ChatSession } from "../../cli/session.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { carryOnStoppedRun, hasStoppedRun, recoverThread } from "../../server/carry-on.js";
import { readExecutionState } from "../../server/execution-state.js";
import { readRunPoint } from "../../server/stopped-run.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { writesOnCard } from "../support/card-writes.js";
import { runChild, type ChildArguments } from "./child-runner.js";
import { approvedWriteProblems } from "./exactly-once.js";
import {
  accept,
  ARRANGE_REQUEST,
  cardOf,
  openTempoOnDatabase,
  seedStudent,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";

const targets = postgresTargets();
const target = targets.find((candidate) => candidate.kind === "real") ?? targets[0]!;

/** Tempo as the tests build it: every write on one card, no refinement step (the arrangement's writes are the subject). */
const OPTIONS = { writesPerCard: Number.POSITIVE_INFINITY, holdThreads: true, poolSize: 4, refine: false };

interface ThreadValues {
  finalAnswer?: string | null;
  outcome?: { kind: string } | null;
}

describe(`${target.kind} postgres: a thread whose worker died is carried on when it is read`, () => {
  let server: TestPostgres | undefined;
  /** Sets threads up to the write card; the child then answers it and is killed. */
  let setup: TempoOnDatabase;
  /** Another process's reader: it only reads (recovers) the thread. */
  let reader: TempoOnDatabase;
  /** A third one, watching the thread's ExecutionState while the reader carries it on. */
  let watcher: TempoOnDatabase;
  let threads = 0;

  beforeAll(async () => {
    server = await target.start();
    setup = await openTempoOnDatabase(server.url, OPTIONS);
    reader = await openTempoOnDatabase(server.url, OPTIONS);
    watcher = await openTempoOnDatabase(server.url, OPTIONS);
  });

  afterAll(async () => {
    await Promise.all([setup?.close(), reader?.close(), watcher?.close()]);
    await server?.stop();
  });

  /** A seeded thread at its write card (the plan accepted): its id and the eight writes on the card. */
  async function atWriteCard(label: string): Promise<{ threadId: string; approved: Set<string> }> {
    const threadId = `carry-on-${label}-${(threads += 1)}`;
    await seedStudent(setup, threadId);
    expect(cardOf(await setup.graph.invoke(userMessage(ARRANGE_REQUEST), studentThread(threadId)))).toBe(
      "confirm_plan",
    );
    expect(cardOf(await setup.graph.invoke(accept(), studentThread(threadId)))).toBe("place");
    const approved = writesOnCard((await setup.graph.getState(studentThread(threadId))).values as never).map(
      (write) => write.id,
    );
    expect(approved).toHaveLength(8);
    return { threadId, approved: new Set(approved) };
  }

  /** The child answers the write card (accept) and is killed at `killAt`. */
  async function killedMidExecute(threadId: string, killAt: string) {
    const args: ChildArguments = {
      url: server!.url,
      threadId,
      mode: "continue",
      untilNextCard: true,
      oneCard: true,
      refine: false,
    };
    return runChild(args, killAt);
  }

  test("killed right after its first write committed: stopped until read, resuming while read, then ended with its answer, each write once", async () => {
    const { threadId, approved } = await atWriteCard("after-persist");
    const config = studentThread(threadId);
    const killed = await killedMidExecute(threadId, "after-persist");
    expect(killed.signal, killed.stderr).toBe("SIGKILL");

    // Nobody writes: the thread sits with no card, no run, no outcome — and says so.
    expect(await readRunPoint(reader.checkpointer, await reader.graph.getState(config))).toBe("stopped");
    expect((await readExecutionState(watcher.graph, config)).status).toBe("stopped");
    expect(await hasStoppedRun(reader.graph, config)).toBe(true);

    // The read carries it on; the watcher (a third process's view) sees it resuming meanwhile.
    const stream = await carryOnStoppedRun(reader.graph, config);
    expect(stream).toBeDefined();
    const seen = new Set<string>();
    for await (const _ of stream!) seen.add((await readExecutionState(watcher.graph, config)).status);
    expect(seen).toContain("resuming");

    const after = await readExecutionState(watcher.graph, config);
    expect(after.status).toBe("completed");
    expect(after.finalAnswer).toBeTruthy();
    expect(await approvedWriteProblems(reader, threadId, approved)).toEqual([]);

    // Read again: nothing left to carry on, nothing run.
    const head = (await reader.graph.getState(config)).config.configurable?.checkpoint_id;
    const again = await recoverThread(reader.graph, config);
    expect(again.carriedOn).toBe(false);
    expect((await reader.graph.getState(config)).config.configurable?.checkpoint_id).toBe(head);
  });

  test("the terminal chat opening a thread whose worker died (--thread, or /resume) carries it on, says it is resuming, and nothing is applied twice", async () => {
    const opened = await atWriteCard("chat-open");
    const resumed = await atWriteCard("chat-resume");
    for (const { threadId } of [opened, resumed])
      expect((await killedMidExecute(threadId, "after-persist")).signal).toBe("SIGKILL");
    const directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-carry-on-"));
    /** A chat of the thread's student, on `threadId`, typing `lines` and nothing else; what it printed. */
    const chat = async (student: string, threadId: string, lines: string[]) => {
      let output = "";
      const stdin = new PassThrough();
      const input = new LineReader(
        createInterface({ input: stdin, terminal: false }),
        true,
        (text) => (output += text),
      );
      stdin.end(lines.map((line) => `${line}\n`).join(""));
      const registry = new ThreadRegistry(path.join(directory, "threads.json"));
      const userId = String(studentThread(student).configurable?.user_id);
      await new ChatSession({
        graph: reader.graph,
        userId,
        threadId,
        registry,
        input,
        write: (text) => (output += text),
      }).run();
      return { output, userId };
    };
    try {
      // Only reads: the thread is opened (npm start -- --thread), or switched to (/resume); no message, no answer.
      const open = await chat(opened.threadId, opened.threadId, []);
      expect(open.output).toContain(`Thread ${opened.threadId}: resuming — its last run stopped part-way`);
      expect(open.output).toContain(`Thread ${opened.threadId} (user ${open.userId}): completed`);
      const resume = await chat(resumed.threadId, "a-fresh-thread", [`/resume ${resumed.threadId}`]);
      expect(resume.output).toContain(`Thread ${resumed.threadId}: resuming — its last run stopped part-way`);
      expect(resume.output).toContain(`Resumed thread ${resumed.threadId} (user ${resume.userId}): completed`);
      for (const { threadId, approved } of [opened, resumed]) {
        expect((await readExecutionState(watcher.graph, studentThread(threadId))).status).toBe("completed");
        expect(await approvedWriteProblems(reader, threadId, approved)).toEqual([]);
      }
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  test("killed after each checkpoint save of the write card's run: every thread left stopped is carried on by a read alone, to its answer, each approved write once", async () => {
    const dry = await atWriteCard("dry");
    const counted = await runChild({
      url: server!.url,
      threadId: dry.threadId,
      mode: "continue",
      untilNextCard: true,
      oneCard: true,
      refine: false,
      reportSaves: true,
    });
    expect(counted.output, counted.stderr).toMatchObject({ ok: true });
    const puts = (counted.output?.saves ?? []).filter((save) => save === "put").length;
    expect(puts).toBeGreaterThan(1);

    const problems: string[] = [];
    let stoppedThreads = 0;
    for (let k = 1; k <= puts; k += 1) {
      const { threadId, approved } = await atWriteCard(`put${k}`);
      const config = studentThread(threadId);
      const at = (text: string) => `put:${k}: ${text}`;
      const killed = await killedMidExecute(threadId, `put:${k}`);
      if (killed.signal !== "SIGKILL") {
        problems.push(at(`the child was not killed (${JSON.stringify(killed.output)})`));
        continue;
      }
      // Only a thread left in limbo is this test's subject (a kill after the last save leaves it ended).
      if (!(await hasStoppedRun(reader.graph, config))) continue;
      stoppedThreads += 1;
      const before = await readExecutionState(watcher.graph, config);
      if (before.status !== "stopped")
        problems.push(at(`ExecutionState read ${before.status} before the read, not stopped`));
      const recovery = await recoverThread(reader.graph, config);
      const values = (await reader.graph.getState(config)).values as ThreadValues;
      const card = (await reader.graph.getState(config)).tasks.some((task) => task.interrupts.length > 0);
      if (!recovery.carriedOn) problems.push(at("the read carried nothing on"));
      if (!card && !(values.outcome && values.finalAnswer))
        problems.push(at(`after the read: no card and no answer (${recovery.state.status})`));
      for (const problem of await approvedWriteProblems(reader, threadId, approved)) problems.push(at(problem));
    }
    expect(problems).toEqual([]);
    // The sweep met limbo (the kill points between the answer's first step and its end).
    expect(stoppedThreads).toBeGreaterThan(0);
  });
});
