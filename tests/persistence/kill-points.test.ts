/**
 * The kill-point sweep (issue 25), on a real PostgreSQL 15 when installed (required with
 * TEMPO_REQUIRE_REAL_POSTGRES=1): a worker process is SIGKILLed right after each checkpoint save (`put` /
 * `putWrites`) of four runs of the offline policy's arrange task (its eight placements on one card, unless said),
 * built without the schedule's refinement step (the arrangement's writes are what is swept; each save point of the
 * refinement's listing and card would add three threads):
 *
 * - the plan-card run: a fresh thread gets the arrange request and runs to the plan card;
 * - the plan-accept run: the plan card is answered accept and the run goes to the write card;
 * - the write-card run: the write card is answered accept and the run applies the eight writes and ends the task;
 * - the one-write-card run (one card per write): the first write card is answered accept, its write applies and the
 *   run stops at the next card.
 *
 * A dry (unkilled) child counts each run's saves first, so every save point K = 1..N is swept. After each kill a
 * fresh Tempo (its own pool and caches, not the one that set the thread up) makes one follow-up — a resume (accept
 * when a card is open, else `invoke(null)`), the message "continue", or the unrelated message "thanks" — then
 * accepts every card the user is shown until the thread ends. Every (run, K, follow-up) is its own thread. Each K is
 * swept with one follow-up, the three taken in turn (`TEMPO_FULL_SWEEPS=1`: each K with all three).
 *
 * Asserted for each: the thread is never left in limbo (after the follow-up it shows a card or has ended with an
 * answer); every write the user approved is applied exactly once (execution log and repository rows agree), none
 * lost, none applied unapproved, and a card is never shown again for writes already applied; the answer is true to
 * the repository (never "Nothing was changed" once writes were applied, no changes claimed when none was; a
 * dropped task names what was applied; a completed one has all eight applied). A resume, and "continue" (one of
 * Tempo's approval words), answer a card open after the kill: its writes count as approved; "thanks" approves nothing.
 * The findings of a run are collected over all its kill points and compared with none, so a failure lists every
 * kill point that breaks, with what the thread showed.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readRunPoint } from "../../server/stopped-run.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { inPool, runChild, type ChildArguments, type SaveKind } from "./child-runner.js";
import { appliedWrites, approvedWriteProblems } from "./exactly-once.js";
import {
  accept,
  ARRANGE_REQUEST,
  cardOf,
  interruptsOf,
  openTempoOnDatabase,
  seedStudent,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";
import { writesOnCard as cardWrites } from "../support/card-writes.js";
import { inShare } from "../support/sweep-share.js";

/** Real PostgreSQL 15 when installed (postgresTargets throws when it is required and missing), else the embedded one. */
const targets = postgresTargets();
const target = targets.find((candidate) => candidate.kind === "real") ?? targets[0]!;

/** Children (and their threads) swept at once: the machine has two cores. */
const CONCURRENCY = 2;

type RunName = "plan-card" | "plan-accept" | "write-card" | "one-write-card";
type FollowUp = "resume" | "continue" | "thanks";
const FOLLOW_UPS: FollowUp[] = ["resume", "continue", "thanks"];

/** Writes per card: all eight on one card (the offline policy's default), or one card per write. */
type CardSize = "all" | "one";

/** A swept run: how its thread is set up, what the child runs, and the card the unkilled run stops at (or none). */
interface SweptRun {
  cards: CardSize;
  /** Drives a seeded thread to where the run starts; returns the writes the run's answer approves. */
  setUp(tempo: TempoOnDatabase, threadId: string): Promise<string[]>;
  child: Pick<ChildArguments, "mode" | "untilNextCard">;
  endsAt: string | null;
}

const RUNS: Record<RunName, SweptRun> = {
  "plan-card": { cards: "all", setUp: async () => [], child: { mode: "arrange" }, endsAt: "confirm_plan" },
  "plan-accept": {
    cards: "all",
    setUp: async (tempo, threadId) => {
      expect(cardOf(await tempo.graph.invoke(userMessage(ARRANGE_REQUEST), studentThread(threadId)))).toBe(
        "confirm_plan",
      );
      return [];
    },
    child: { mode: "continue", untilNextCard: true },
    endsAt: "place",
  },
  "write-card": {
    cards: "all",
    setUp: atFirstWriteCard(8),
    child: { mode: "continue", untilNextCard: true },
    endsAt: null,
  },
  // One card per write: the answered card's write applies, then the next card is raised (a "thanks" there drops the
  // task with one write applied).
  "one-write-card": {
    cards: "one",
    setUp: atFirstWriteCard(1),
    child: { mode: "continue", untilNextCard: true },
    endsAt: "place",
  },
};

/** Sets a thread up at its first write card (the plan accepted), which holds `writes` writes: they are returned. */
function atFirstWriteCard(writes: number): SweptRun["setUp"] {
  return async (tempo, threadId) => {
    expect(cardOf(await tempo.graph.invoke(userMessage(ARRANGE_REQUEST), studentThread(threadId)))).toBe(
      "confirm_plan",
    );
    expect(cardOf(await tempo.graph.invoke(accept(), studentThread(threadId)))).toBe("place");
    const onCard = await writesOnCard(tempo, threadId);
    expect(onCard).toHaveLength(writes);
    return onCard;
  };
}

interface ThreadValues {
  messages?: BaseMessage[];
  pending?: { kind: string } | null;
  phase?: string;
  finalAnswer?: string | null;
  outcome?: { kind: string; reason: string } | null;
}

/** The ids of the writes on the thread's open write card (none when no write card is open). */
async function writesOnCard(tempo: TempoOnDatabase, threadId: string): Promise<string[]> {
  const values = (await tempo.graph.getState(studentThread(threadId))).values as ThreadValues;
  return cardWrites(values).map((write) => write.id);
}

/** Where the thread is, as the user would see it: a card, an ended task, or neither (limbo). */
async function standing(tempo: TempoOnDatabase, threadId: string) {
  const snapshot = await tempo.graph.getState(studentThread(threadId));
  const values = snapshot.values as ThreadValues;
  const point = await readRunPoint(tempo.checkpointer, snapshot);
  const card = snapshot.tasks.some((task) => task.interrupts.length > 0 && task.result === undefined);
  // Writes saved on the latest checkpoint but not yet in its values (a run that died before its next checkpoint).
  const tuple = await tempo.checkpointer.getTuple(snapshot.config);
  const pendingWrites = (tuple?.pendingWrites ?? []).map(([, channel]) => channel);
  const last = values.messages?.at(-1);
  const answered = Boolean(values.finalAnswer) || (values.messages ?? []).some((message) => message.getType() === "ai");
  const ended = point === "idle" && !card && Boolean(values.outcome) && answered;
  const describe = () =>
    `point=${point} next=[${snapshot.next.join(",")}] pendingWrites=[${pendingWrites.join(",")}] tasks=[${snapshot.tasks
      .map((task) => `${task.name}${task.interrupts.length ? "(card)" : ""}${task.error ? "(error)" : ""}`)
      .join(
        ",",
      )}] phase=${values.phase} pending=${values.pending?.kind ?? "none"} outcome=${values.outcome?.kind ?? "none"} last=${
      last ? `${last.getType()}: ${JSON.stringify(String(last.content).slice(0, 140))}` : "none"
    }`;
  return { snapshot, values, point, card, ended, describe };
}

function errorText(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  return `${code ? `${code}: ` : ""}${error instanceof Error ? error.message : String(error)}`.slice(0, 240);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/** The save points of a run, as TEMPO_TEST_KILL_AT values: every `put:K` and `putWrites:K` the dry run made. */
function killPoints(saves: SaveKind[]): string[] {
  const points: string[] = [];
  for (const kind of ["put", "putWrites"] as const) {
    const count = saves.filter((save) => save === kind).length;
    for (let k = 1; k <= count; k += 1) points.push(`${kind}:${k}`);
  }
  return points;
}

describe(`${target.kind} postgres: a worker killed after each checkpoint save`, () => {
  let server: TestPostgres | undefined;
  /**
   * Per card size: `setup` drives threads to where a swept run starts; `fresh` is the fresh process's Tempo, which
   * makes the follow-ups after a kill (never used to set a thread up).
   */
  const tempos = new Map<CardSize, { setup: TempoOnDatabase; fresh: TempoOnDatabase }>();
  const saves = new Map<RunName, SaveKind[]>();
  let threadCount = 0;

  const env = () => {
    if (!server) throw new Error("the test server has not started");
    return { server };
  };
  const tempoOf = (run: RunName) => {
    const pair = tempos.get(RUNS[run].cards);
    if (!pair) throw new Error("Tempo has not been opened on the test server");
    return pair;
  };

  /** A seeded thread set up for `run`, and the writes the run's answer approves. */
  async function threadFor(run: RunName, label: string): Promise<{ threadId: string; approved: string[] }> {
    const threadId = `${run}-${label}-${(threadCount += 1)}`;
    const { setup } = tempoOf(run);
    await seedStudent(setup, threadId);
    return { threadId, approved: await RUNS[run].setUp(setup, threadId) };
  }

  function childArgs(run: RunName, threadId: string): ChildArguments {
    return { url: env().server.url, threadId, oneCard: RUNS[run].cards === "all", refine: false, ...RUNS[run].child };
  }

  beforeAll(async () => {
    server = await target.start();
    for (const cards of ["all", "one"] as const) {
      // Without the refinement step (TempoOnDatabaseOptions.refine): the sweep is about the arrangement's writes.
      const options = {
        writesPerCard: cards === "all" ? Number.POSITIVE_INFINITY : 1,
        holdThreads: true,
        poolSize: 4,
        refine: false,
      };
      tempos.set(cards, {
        setup: await openTempoOnDatabase(server.url, options),
        fresh: await openTempoOnDatabase(server.url, options),
      });
    }
    // Dry runs: each run's saves, counted by an unkilled child, and the card it stops at.
    for (const run of Object.keys(RUNS) as RunName[]) {
      const { threadId } = await threadFor(run, "dry");
      const dry = await runChild({ ...childArgs(run, threadId), reportSaves: true });
      expect(dry.output, dry.stderr).toMatchObject({ ok: true, card: RUNS[run].endsAt });
      saves.set(run, dry.output?.saves ?? []);
    }
  });

  afterAll(async () => {
    for (const { setup, fresh } of tempos.values()) await Promise.all([fresh.close(), setup.close()]);
    await server?.stop();
  });

  /**
   * One kill point and follow-up on its own thread: the problems found, each a sentence naming the kill point (none
   * when the thread ends as it should).
   */
  async function sweepOne(run: RunName, killAt: string, followUp: FollowUp): Promise<string[]> {
    const { threadId, approved: approvedByRun } = await threadFor(run, `${killAt.replace(":", "")}-${followUp}`);
    const tempo = tempoOf(run).fresh;
    const config = studentThread(threadId);
    const approved = new Set(approvedByRun);
    const problems: string[] = [];
    const at = (text: string) => `${run} ${killAt} + ${followUp}: ${text}`;

    const killed = await runChild(childArgs(run, threadId), killAt);
    if (killed.signal !== "SIGKILL")
      return [at(`the child was not killed (exit ${killed.exitCode}, ${JSON.stringify(killed.output)})`)];
    const afterKill = await standing(tempo, threadId);
    const messagesBefore = new Set((afterKill.values.messages ?? []).map((message) => message.id));

    // The follow-up, from a process that did not set the thread up.
    let followUpError: unknown;
    try {
      // A resume accepts the card open on the thread, and so does "continue" (one of Tempo's approval words, sent
      // after the card was raised); "thanks" approves nothing.
      if (afterKill.card && followUp !== "thanks")
        for (const id of await writesOnCard(tempo, threadId)) approved.add(id);
      if (followUp === "resume") {
        await tempo.graph.invoke(afterKill.card ? accept() : null, config);
      } else {
        await tempo.graph.invoke(userMessage(followUp), config);
      }
    } catch (error) {
      followUpError = error;
    }
    const afterFollowUp = await standing(tempo, threadId);
    // A message not taken because the carried-on run stopped at a card its sender had not seen is fair (THREAD_BUSY),
    // as long as that card is shown.
    if (followUpError !== undefined && !(errorCode(followUpError) === "THREAD_BUSY" && afterFollowUp.card)) {
      problems.push(at(`the follow-up failed: ${errorText(followUpError)}; after the kill ${afterKill.describe()}`));
    }
    const limbo = !afterFollowUp.card && !afterFollowUp.ended;
    if (limbo) {
      problems.push(
        at(
          `limbo after the follow-up (no card, no ending): ${afterFollowUp.describe()}; after the kill ${afterKill.describe()}`,
        ),
      );
    }

    // The user accepts every card shown, to the end of the thread.
    for (let turn = 0; turn < 12; turn += 1) {
      const now = await standing(tempo, threadId);
      if (!now.card) break;
      const onCard = await writesOnCard(tempo, threadId);
      const applied = (await appliedWrites(tempo, threadId)).loggedApplied;
      const again = onCard.filter((id) => applied.includes(id));
      if (again.length > 0) problems.push(at(`a card was shown again for ${again.length} write(s) already applied`));
      for (const id of onCard) approved.add(id);
      try {
        const result = await tempo.graph.invoke(accept(), config);
        if (interruptsOf(result).length === 0 && !(await standing(tempo, threadId)).ended) {
          problems.push(at(`limbo after accepting a card: ${(await standing(tempo, threadId)).describe()}`));
          break;
        }
      } catch (error) {
        problems.push(at(`accepting the card shown failed: ${errorText(error)}; ${now.describe()}`));
        break;
      }
    }

    const end = await standing(tempo, threadId);
    // (A thread left in limbo by the follow-up and never shown a card since is reported once, above.)
    if (
      !end.ended &&
      !(
        limbo &&
        !end.card &&
        end.snapshot.config.configurable?.checkpoint_id === afterFollowUp.snapshot.config.configurable?.checkpoint_id
      )
    ) {
      problems.push(at(`the thread did not end: ${end.describe()}`));
    }
    for (const problem of await approvedWriteProblems(tempo, threadId, approved))
      problems.push(at(`${problem}; after the kill ${afterKill.describe()}; at the end ${end.describe()}`));

    // The answers are true to the repository.
    const rows = new Set((await appliedWrites(tempo, threadId)).loggedApplied).size;
    if (end.values.outcome?.kind === "completed" && rows !== 8) {
      problems.push(
        at(
          `the task ended completed with ${rows} of its 8 writes applied: ${JSON.stringify(end.values.finalAnswer?.slice(0, 200))}`,
        ),
      );
    }
    if (rows === 0 && /already applied|applied stay/i.test(end.values.finalAnswer ?? "")) {
      problems.push(
        at(
          `the answer claims changes though none is applied: ${JSON.stringify(end.values.finalAnswer?.slice(0, 200))}`,
        ),
      );
    }
    if (rows > 0) {
      const answers = (end.values.messages ?? [])
        .filter((message) => message.getType() === "ai" && !messagesBefore.has(message.id))
        .map((message) => String(message.content));
      for (const text of [...answers, end.values.finalAnswer ?? ""]) {
        if (/nothing was changed/i.test(text))
          problems.push(
            at(
              `an answer says nothing was changed though ${rows} write(s) are applied: ${JSON.stringify(text.slice(0, 200))}`,
            ),
          );
      }
      if (end.values.outcome?.kind === "dropped" && !new RegExp(`\\b${rows}\\b`).test(end.values.finalAnswer ?? "")) {
        problems.push(
          at(
            `the task was dropped with ${rows} write(s) applied and its answer does not name them: ${JSON.stringify(end.values.finalAnswer)}`,
          ),
        );
      }
    }
    return problems;
  }

  test.each(Object.keys(RUNS) as RunName[])(
    "the %s run killed after each put / putWrites, then resumed, 'continue' or 'thanks' from a fresh process: no limbo, approved writes once, true answers",
    async (run) => {
      const points = killPoints(saves.get(run) ?? []);
      expect(points.length).toBeGreaterThan(0);
      // Each kill point with one follow-up, taken in turn (each with all three under TEMPO_FULL_SWEEPS=1).
      const offset = Object.keys(RUNS).indexOf(run);
      const swept = points.flatMap((killAt, index) =>
        FOLLOW_UPS.filter((_, turn) => inShare(index + turn + offset, FOLLOW_UPS.length)).map(
          (followUp) => [killAt, followUp] as const,
        ),
      );
      // Every kill point is crashed, and every follow-up made after some of them.
      expect(new Set(swept.map(([killAt]) => killAt)).size).toBe(points.length);
      expect(new Set(swept.map(([, followUp]) => followUp)).size).toBe(Math.min(points.length, FOLLOW_UPS.length));
      const jobs = swept.map(
        ([killAt, followUp]) =>
          () =>
            sweepOne(run, killAt, followUp),
      );
      const problems = (await inPool(jobs, CONCURRENCY)).flat();
      expect(problems).toEqual([]);
    },
    // No timeout of its own: the suite's (vitest.config.ts) is for a loaded machine; a sweep here spawns a worker per
    // kill point and follow-up, 240 s was tripped at a load average near 9 on 2 cores.
  );
});
