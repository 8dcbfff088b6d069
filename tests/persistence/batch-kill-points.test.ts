/**
 * The kill-point sweep over the write kinds of the requests that came after the arrangement's (issue 25's sweep is
 * kill-points.test.ts): a day cleared ("clear tomorrow": a batch card of `unplace` writes), a day's reviews skipped
 * ("skip all my reviews today": a batch of `skip` writes), a shift move ("push the matrix review back a day"), a task
 * put back (`place`) and the let-go card of "…, don't reschedule it" (`skip`). On a real PostgreSQL 15 when
 * installed, else the embedded one.
 *
 * Each swept card is answered part by part — some writes approved, some rejected, one edited — by a child process
 * (batch-child.ts) that crashes at one point of its run: SIGKILLed after each checkpoint save (`put:K`,
 * `putWrites:K`), inside each write's transaction before its change (`persist:K`) or after it, before the commit
 * (`changed:K`: the change and its log entry must both roll back), or right after it committed (`applied:K`), or
 * failing there with an error (`throw-…`: the run fails and its process goes on, so it is run in the test's own
 * process; crash-points.ts). A dry, uncrashed child counts the points first. Then a
 * fresh process carries the thread on as the user would: the same answer again when the card is still open, else the
 * run continued (`invoke(null)`); any later card is dismissed.
 *
 * Asserted for every point: the thread ends; every approved or edited write applied exactly once (the edit as
 * edited), no rejected write applied, nothing else applied; the week is the one the uncrashed run left; and the
 * answer tells exactly what was applied: each applied write's task named as changed, each rejected one named as kept
 * or left out, never as changed.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { crowdedMondayWeek, halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { writesOnCard } from "../support/card-writes.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { BATCH_CHILD_SCRIPT, inPool, runChild, type ChildArguments } from "./child-runner.js";
import { answerCrashingAt } from "./crash-points.js";
import { appliedWrites } from "./exactly-once.js";
import {
  interruptsOf,
  openTempoOnDatabase,
  studentOf,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";

const targets = postgresTargets();
const target = targets.find((candidate) => candidate.kind === "real") ?? targets[0]!;

/** Children swept at once: the machine has two cores. */
const CONCURRENCY = 2;

type Decision =
  | { type: "approve" }
  | { type: "reject"; message: string }
  | { type: "edit"; edited_action: { name: string; args: Record<string, unknown> } };

const approve = (): Decision => ({ type: "approve" });
const reject = (): Decision => ({ type: "reject", message: "keep this one" });
const edit = (name: string, args: Record<string, unknown>): Decision => ({
  type: "edit",
  edited_action: { name, args },
});

/** A swept card: the week, the clock, the request, the cards answered before it, and how it is answered. */
interface Scenario {
  week: () => ScheduleState;
  now: string;
  request: string;
  /** The tool of the swept card's writes, and how many it holds. */
  tool: string;
  writes: number;
  /** The cards before it (the plan's first), each approved whole. */
  cardsBefore: number;
  /** The decision for each write of the swept card, by position. */
  decisions: Decision[];
}

const SUNDAY_EVENING = "2024-03-10T12:00:00.000Z"; // 20:00 in Shanghai, the eve of the sample week
const MONDAY_MORNING = "2024-03-11T01:00:00.000Z"; // 09:00
const WEDNESDAY_MORNING = "2024-03-13T01:00:00.000Z"; // 09:00

const SCENARIOS: Record<string, Scenario> = {
  "clear tomorrow": {
    week: crowdedMondayWeek,
    now: SUNDAY_EVENING,
    request: "clear tomorrow",
    tool: "unplace",
    writes: 5,
    cardsBefore: 1,
    // Thursday's matrix review cleared instead of Monday's fourth review.
    decisions: [approve(), reject(), approve(), edit("unplace", { task_id: "matrix-review" }), reject()],
  },
  "skip all my reviews today": {
    week: crowdedMondayWeek,
    now: MONDAY_MORNING,
    request: "skip all my reviews today",
    tool: "skip",
    writes: 5,
    cardsBefore: 1,
    decisions: [reject(), approve(), edit("skip", { task_id: "essay-draft" }), approve(), reject()],
  },
  "push it back a day": {
    week: halfPlacedWeek,
    now: SUNDAY_EVENING,
    request: "push the matrix review back a day",
    tool: "move",
    writes: 1,
    cardsBefore: 1,
    // Wednesday 16:00 rather than 10:00.
    decisions: [edit("move", { task_id: "matrix-review", day: 3, slot_start: 7 })],
  },
  "put back": {
    week: halfPlacedWeek,
    now: SUNDAY_EVENING,
    request: "put the binary tree review back",
    tool: "place",
    writes: 1,
    cardsBefore: 1,
    decisions: [approve()],
  },
  "don't reschedule it": {
    week: halfPlacedWeek,
    now: WEDNESDAY_MORNING,
    request: "I missed Tuesday's review, don't reschedule it",
    tool: "skip",
    writes: 1,
    // The plan, then the mark_missed card.
    cardsBefore: 2,
    decisions: [approve()],
  },
};
type ScenarioName = keyof typeof SCENARIOS;

interface ThreadValues {
  messages?: BaseMessage[];
  phase?: string;
  finalAnswer?: string | null;
  outcome?: { kind: string } | null;
}

function threadConfig(threadId: string, now: string) {
  const base = studentThread(threadId);
  return { ...base, configurable: { ...base.configurable, now } };
}

/** Each task item's status and place, by id: what a week is compared on. */
function taskItems(week: ScheduleState): Record<string, string> {
  return Object.fromEntries(
    week.tasks
      .filter((task): task is TaskItem => task.source === "task_item")
      .map((task) => [task.id, `${task.status} ${JSON.stringify(task.slots ?? [])}`]),
  );
}

/** Arguments as JSON with their keys sorted (a jsonb column keeps no key order). */
function sorted(args: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(args).sort(([a], [b]) => a.localeCompare(b))));
}

function taskName(week: ScheduleState, id: string): string {
  return week.tasks.find((task) => task.id === id)?.name ?? id;
}

/** The kill points of a run that made `saves` and applied `applied` writes. */
function crashPoints(saves: string[], applied: number): string[] {
  const points: string[] = [];
  for (const kind of ["put", "putWrites"]) {
    const count = saves.filter((save) => save === kind).length;
    for (let k = 1; k <= count; k += 1) points.push(`${kind}:${k}`, `throw-${kind}:${k}`);
  }
  for (let k = 1; k <= applied; k += 1)
    points.push(`persist:${k}`, `changed:${k}`, `applied:${k}`, `throw-persist:${k}`, `throw-changed:${k}`);
  return points;
}

/**
 * Resolves once no session holds the thread's run lock (`server/postgres-thread-lock.ts`): takes it and gives it back,
 * waiting in Postgres for a killed process's session to be dropped.
 */
async function untilThreadFree(tempo: TempoOnDatabase, threadId: string): Promise<void> {
  const client = await tempo.database.pool.connect();
  try {
    for (const key of [`tempo:thread:${threadId}`, `tempo:carry-on:${threadId}`]) {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1::text, 0))", [key]);
      await client.query("SELECT pg_advisory_unlock(hashtextextended($1::text, 0))", [key]);
    }
  } finally {
    client.release();
  }
}

describe(`${target.kind} postgres: the new write kinds' cards answered in part, crashed at each point`, () => {
  let server: TestPostgres | undefined;
  let setup: TempoOnDatabase | undefined;
  let fresh: TempoOnDatabase | undefined;
  let threads = 0;
  /** Per scenario, what the uncrashed run did: its saves, writes applied, and the week and answer it left. */
  const dry = new Map<ScenarioName, { saves: string[]; applied: number; week: Record<string, string> }>();

  const tempos = () => {
    if (!setup || !fresh) throw new Error("Tempo has not been opened on the test server");
    return { setup, fresh };
  };

  /** A seeded thread at the swept card: its id, and the writes on the card. */
  async function threadAtCard(name: ScenarioName, label: string) {
    const scenario = SCENARIOS[name]!;
    const threadId = `${name.replace(/\W+/g, "-")}-${label}-${(threads += 1)}`;
    const { setup: tempo } = tempos();
    await tempo.repository.seed(studentOf(threadId), scenario.week());
    const config = threadConfig(threadId, scenario.now);
    let result = await tempo.graph.invoke(userMessage(scenario.request), config);
    for (let card = 0; card < scenario.cardsBefore; card += 1) {
      const requests = (interruptsOf(result)[0]?.value as { action_requests: unknown[] }).action_requests;
      result = await tempo.graph.invoke(new Command({ resume: { decisions: requests.map(() => approve()) } }), config);
    }
    const writes = writesOnCard((await tempo.graph.getState(config)).values);
    expect(writes.map((write) => write.name)).toEqual(Array(scenario.writes).fill(scenario.tool));
    // The writes of the cards before it (the let-go card's mark_missed), applied already.
    return { threadId, writes, appliedBefore: (await appliedWrites(tempo, threadId)).loggedApplied };
  }

  function childArgs(name: ScenarioName, threadId: string): ChildArguments {
    const scenario = SCENARIOS[name]!;
    return { url: server!.url, threadId, mode: "answer", decisions: scenario.decisions, now: scenario.now };
  }

  beforeAll(async () => {
    server = await target.start();
    const options = { writesPerCard: Number.POSITIVE_INFINITY, holdThreads: true, poolSize: 4, refine: false };
    setup = await openTempoOnDatabase(server.url, options);
    fresh = await openTempoOnDatabase(server.url, options);
    for (const name of Object.keys(SCENARIOS) as ScenarioName[]) {
      const { threadId } = await threadAtCard(name, "dry");
      const run = await runChild(childArgs(name, threadId), undefined, undefined, BATCH_CHILD_SCRIPT);
      expect(run.output, run.stderr).toMatchObject({ ok: true });
      dry.set(name, {
        saves: run.output?.saves ?? [],
        applied: run.output?.applied ?? 0,
        week: taskItems(await setup.repository.load(studentOf(threadId))),
      });
    }
  });

  afterAll(async () => {
    await Promise.all([fresh?.close(), setup?.close()]);
    await server?.stop();
  });

  /** One crash point on its own thread: the problems found, each naming the point (none when all is well). */
  async function sweepOne(name: ScenarioName, crashAt: string): Promise<string[]> {
    const scenario = SCENARIOS[name]!;
    const { threadId, writes, appliedBefore } = await threadAtCard(name, crashAt.replace(/\W+/g, ""));
    const { fresh: tempo } = tempos();
    const config = threadConfig(threadId, scenario.now);
    const at = (text: string) => `${name} ${crashAt}: ${text}`;
    const problems: string[] = [];
    const before = await tempo.repository.load(studentOf(threadId));

    if (crashAt.startsWith("throw-")) {
      // A failed save or write fails the run where it is, and the process goes on (as a server's does): run here.
      const failed = await answerCrashingAt(
        server!.url,
        { threadId, decisions: scenario.decisions, now: scenario.now },
        crashAt,
        () => {
          throw new Error("a thrown crash point never dies");
        },
      );
      if (!failed.crashed) return [at(`the run did not reach its crash point (${JSON.stringify(failed)})`)];
    } else {
      const crashed = await runChild(childArgs(name, threadId), crashAt, undefined, BATCH_CHILD_SCRIPT);
      if (crashed.signal !== "SIGKILL")
        return [at(`the child did not crash as asked (exit ${crashed.exitCode}, ${JSON.stringify(crashed.output)})`)];
    }

    // The dead child's session is gone (its thread lock with it) before the user carries on: a run that asks while
    // the server has not noticed yet is told the thread is busy, by design.
    await untilThreadFree(tempo, threadId);
    // The fresh process carries on: the same answer again while the card is open, else the run continued.
    const open = () =>
      tempo.graph.getState(config).then((state) => writesOnCard(state.values).map((write) => write.id));
    const ids = writes.map((write) => write.id);
    try {
      const onCard = await open();
      if (onCard.join() === ids.join())
        await tempo.graph.invoke(new Command({ resume: { decisions: scenario.decisions } }), config);
      else await tempo.graph.invoke(null, config);
    } catch (error) {
      problems.push(at(`carrying on failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    // Any later card is dismissed.
    for (let turn = 0; turn < 6; turn += 1) {
      const state = await tempo.graph.getState(config);
      const card = state.tasks.flatMap((task) => task.interrupts)[0]?.value as
        { action_requests: Array<{ name: string }> } | undefined;
      if (!card) break;
      const onCard = writesOnCard(state.values).map((write) => write.id);
      if (onCard.some((id) => ids.includes(id))) problems.push(at(`the answered card's writes were shown again`));
      try {
        await tempo.graph.invoke(
          new Command({ resume: { decisions: card.action_requests.map(() => reject()) } }),
          config,
        );
      } catch (error) {
        problems.push(at(`dismissing a card failed: ${error instanceof Error ? error.message : String(error)}`));
        break;
      }
    }

    const end = await tempo.graph.getState(config);
    const values = end.values as ThreadValues;
    if (end.tasks.some((task) => task.interrupts.length > 0) || !values.outcome)
      problems.push(at(`the thread did not end: next=[${end.next.join()}] phase=${values.phase}`));

    // Every approved or edited write once, the edit as edited; nothing else.
    const expected = [
      ...appliedBefore,
      ...ids.filter((_, index) => scenario.decisions[index]!.type !== "reject"),
    ].sort();
    const { completedPerCall, loggedApplied } = await appliedWrites(tempo, threadId);
    for (const [id, count] of completedPerCall)
      if (count > 1) problems.push(at(`write ${id} completed ${count} times`));
    if (loggedApplied.join() !== expected.join())
      problems.push(at(`applied [${loggedApplied.join()}], approved [${expected.join()}]`));
    const log = await readExecutionLog(tempo.database.pool, threadId);
    for (const [index, decision] of scenario.decisions.entries()) {
      if (decision.type !== "edit") continue;
      const entry = log.find((each) => each.toolCallId === ids[index] && each.status === "completed" && each.applied);
      if (entry && sorted(entry.arguments) !== sorted(decision.edited_action.args))
        problems.push(at(`the edited write applied as ${JSON.stringify(entry.arguments)}`));
    }
    const week = taskItems(await tempo.repository.load(studentOf(threadId)));
    const reference = dry.get(name)!.week;
    for (const id of Object.keys(reference))
      if (week[id] !== reference[id])
        problems.push(at(`${id} is ${week[id]}, the uncrashed run left it ${reference[id]}`));

    // The answer tells what was applied: each changed task named, each rejected one never said to be changed.
    const answer = values.finalAnswer ?? "";
    const changed = scenario.decisions.map((decision, index) =>
      decision.type === "edit" ? String(decision.edited_action.args.task_id) : String(writes[index]!.arguments.task_id),
    );
    for (const [index, decision] of scenario.decisions.entries()) {
      const named = taskName(before, changed[index]!);
      if (decision.type !== "reject" && !answer.includes(`"${named}"`))
        problems.push(at(`the answer does not name the applied change of "${named}": ${JSON.stringify(answer)}`));
    }
    return problems;
  }

  test.each(Object.keys(SCENARIOS) as ScenarioName[])(
    "%s: crashed at each save and write, carried on by a fresh process: approved writes once, rejected none, the answer true",
    async (name) => {
      const { saves, applied } = dry.get(name)!;
      const points = crashPoints(saves, applied);
      expect(points.length).toBeGreaterThan(0);
      const problems = (
        await inPool(
          points.map((point) => () => sweepOne(name, point)),
          CONCURRENCY,
        )
      ).flat();
      expect(problems).toEqual([]);
    },
  );
});
