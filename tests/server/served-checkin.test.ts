/**
 * The daily check-in on the served path (issue 47 item 6), on the real `langgraph dev` with TEMPO_AUTH_JWT_SECRET and
 * DATABASE_URL (a Postgres started here, the schedules on it): `npm run checkin -- --server <url>` with the student's
 * token sends the check-in as runs through `@langchain/langgraph-sdk` — the LangGraph server Tempo pins serves no
 * crons, so an OS scheduler runs the command each morning.
 *
 * - the run lands on the student's own check-in thread of the day (owned by her, tagged with the day, unseen by
 *   another user), the window rolls on by the clock, and the missed reviews' card waits — not answered by the
 *   check-in, which approves only the plan its own request raised;
 * - a second check-in that day finds that card and sends nothing; another user's check-in is on a thread of his own;
 * - the student's Accept through the SDK then applies the reschedule: the missed reviews are placed where the card said.
 */
import { describe, expect, test } from "vitest";
import { parseChatArguments } from "../../cli/arguments.js";
import {
  CHECKIN_DAY_KEY,
  dayThreadId,
  runServedCheckin,
  serverArgument,
  servedCheckinCommand,
} from "../../cli/checkin-served.js";
import { localClock } from "../../contracts/clock.js";
import { PostgresScheduleRepository } from "../../tools/schedule/postgres-repository.js";
import type { TaskItem } from "../../tools/schedule/index.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { writesOnCard } from "../support/card-writes.js";
import { startEmbeddedTestPostgres } from "../support/postgres.js";
import { clientWith, refusal, signToken, useServedOnPostgres } from "../support/served-users.js";

const SECRET = "served-checkin-test-secret-0123456789abcdef";
/** Monday 18 March 2024, 07:00 in Shanghai: the sample week (11–17 March) has passed. */
const MONDAY = "2024-03-18T07:00:00+08:00";
const ZONE = "Asia/Shanghai";

// The check-in replays a Monday of 2024 (`--now`): a server takes a client's clock only when told to.
const served = useServedOnPostgres(SECRET, startEmbeddedTestPostgres, { TEMPO_CLIENT_CLOCK: "on" });

/** The actions of the card a thread waits on. */
const waitingOnCard = (state: { tasks?: Array<{ interrupts: Array<{ value?: unknown }> }> }) =>
  (state.tasks ?? [])
    .flatMap((task) => task.interrupts)
    .flatMap(
      (interrupt) =>
        (interrupt.value as { action_requests?: Array<{ name: string }> } | undefined)?.action_requests ?? [],
    )
    .map((request) => request.name);

const items = (tasks: ReadonlyArray<{ source: string }>) =>
  new Map(
    tasks.filter((task): task is TaskItem => task.source === "task_item").map((task) => [task.id, task] as const),
  );

test("the check-in lands on the student's thread of the day, the card waits for her, and her Accept applies it", async () => {
  const repository = new PostgresScheduleRepository(served.pool);
  await repository.seed("ana", halfPlacedWeek());
  const token = await signToken(SECRET, "ana");
  const ana = clientWith(served.server, { authorization: `Bearer ${token}` });
  const bob = clientWith(served.server, { authorization: `Bearer ${await signToken(SECRET, "bob")}` });

  // The command an OS scheduler runs: the token from TEMPO_TOKEN, the clock from --now.
  let printed = "";
  const first = await servedCheckinCommand(
    served.server.apiUrl,
    parseChatArguments(["--now", MONDAY]),
    { TEMPO_TOKEN: token },
    (text) => (printed += text),
  );
  const day = localClock(new Date(MONDAY), Intl.DateTimeFormat().resolvedOptions().timeZone).date;
  const thread = await ana.threads.get(first.threadId);
  expect(thread.metadata, served.server.output().slice(-3000)).toMatchObject({ owner: "ana", [CHECKIN_DAY_KEY]: day });
  expect(await refusal(bob.threads.get(first.threadId))).toBe(404);

  // The clock rolled the week on, and the missed reviews' card waits: the check-in answered only its own plan.
  expect((await repository.load("ana")).window.days[0]?.date).toBe("2024-03-18");
  expect(first.movedOn).toMatch(/^A new week: the window moved on by 7 day\(s\)/);
  expect(first.movedOn).toMatch(/now missed: .*Vocabulary list unit 5 \(Thu 14 Mar\)/);
  expect(first.waiting).toEqual(["place", "place", "place"]);
  expect(printed).toContain(`A card waits on thread ${first.threadId} (place, place, place)`);
  const waiting = await ana.threads.getState(first.threadId);
  expect(waiting.tasks.flatMap((task) => task.interrupts)).toHaveLength(1);
  const proposed = writesOnCard(waiting.values);
  expect(proposed.map((write) => write.name)).toEqual(["place", "place", "place"]);
  const missed = items((await repository.load("ana")).tasks);
  for (const write of proposed) expect(missed.get(String(write.arguments.task_id))?.status).toBe("missed");

  // The second check-in of the day finds the card and sends nothing; Bob's is on a thread of his own.
  const again = await runServedCheckin(ana, { now: new Date("2024-03-18T07:10:00+08:00") });
  expect(again).toEqual(first);
  expect((await ana.threads.getState(first.threadId)).checkpoint.checkpoint_id).toBe(waiting.checkpoint.checkpoint_id);
  const bobs = await runServedCheckin(bob, { now: new Date(MONDAY), timeZone: ZONE });
  expect(bobs.threadId).not.toBe(first.threadId);
  expect((await bob.threads.get(bobs.threadId)).metadata).toMatchObject({
    owner: "bob",
    [CHECKIN_DAY_KEY]: "2024-03-18",
  });

  // Ana's Accept, as her client sends it, applies the reschedule: each missed review placed where the card said.
  await ana.runs.wait(first.threadId, "tempo", { command: { resume: { type: "accept", args: null } } });
  const after = items((await repository.load("ana")).tasks);
  for (const write of proposed) {
    const task = after.get(String(write.arguments.task_id));
    expect(task?.status).toBe("placed");
    expect(task?.slots?.[0]).toMatchObject({ day: write.arguments.day, start: write.arguments.slot_start });
  }
});

test("two check-ins of one day at once (the cron and a hand run) share one thread and both end well", async () => {
  const repository = new PostgresScheduleRepository(served.pool);
  await repository.seed("cleo", halfPlacedWeek());
  const token = await signToken(SECRET, "cleo");
  const cleo = clientWith(served.server, { authorization: `Bearer ${token}` });
  const printed = ["", ""];
  const both = await Promise.all(
    printed.map((_, index) =>
      servedCheckinCommand(
        served.server.apiUrl,
        parseChatArguments(["--now", MONDAY]),
        { TEMPO_TOKEN: token },
        (text) => (printed[index] += text),
      ),
    ),
  );
  // One thread of the day, the one its id names, with the check-in's request sent once; its card waits there.
  const day = localClock(new Date(MONDAY), Intl.DateTimeFormat().resolvedOptions().timeZone).date;
  expect(both[0]!.threadId).toBe(dayThreadId("cleo", day));
  expect(both[1]!.threadId).toBe(both[0]!.threadId);
  expect(await cleo.threads.search({ metadata: { [CHECKIN_DAY_KEY]: day } })).toHaveLength(1);
  const state = await cleo.threads.getState(both[0]!.threadId);
  const requests = ((state.values as { messages?: Array<{ type?: string }> }).messages ?? []).filter(
    (message) => message.type === "human",
  );
  expect(requests).toHaveLength(1);
  expect(waitingOnCard(state)).toEqual(["place", "place", "place"]);
  // Each says where the card waits: one names it, the other (refused while the first ran) that it will wait there.
  for (const text of printed) expect(text).toMatch(new RegExp(`thread ${both[0]!.threadId}`));
  expect((await repository.load("cleo")).window.days[0]?.date).toBe("2024-03-18");
});

describe("the served check-in's command line", () => {
  test("--server is taken out; --user and --week do not apply to a served schedule", async () => {
    expect(serverArgument(["--server", "http://localhost:2024", "--now", MONDAY])).toEqual({
      server: "http://localhost:2024",
      rest: ["--now", MONDAY],
    });
    expect(serverArgument(["--server=http://h:1"]).server).toBe("http://h:1");
    expect(serverArgument(["--user", "ana"])).toEqual({ rest: ["--user", "ana"] });
    expect(() => serverArgument(["--server"])).toThrow(/--server needs the served Tempo's URL/);
    await expect(servedCheckinCommand("http://127.0.0.1:9", parseChatArguments(["--user", "ana"]))).rejects.toThrow(
      /--user does not apply with --server/,
    );
    await expect(
      servedCheckinCommand("http://127.0.0.1:9", parseChatArguments(["--week", "examples/week.json"])),
    ).rejects.toThrow(/--week does not apply with --server/);
  });
});
