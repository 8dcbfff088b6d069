/**
 * One user approving two cards at once, on two threads (issue 44.3). Both writes were tried on the same list, so
 * both were shown adding `todo-5`; the one that commits second finds `todo-5` taken. It must still apply — as it
 * would a moment later, the runner runs it again on the list as it now is (`todo-6`) — and its thread must say it
 * applied, never "approved but will not be applied". The schedule's task writes, whose ids come from names, do the
 * same. The two applies are made to meet inside their transactions (each has loaded the state before either
 * commits), so the race happens every time; each write still applies once, with one completed log entry. On real
 * PostgreSQL 15 only: the embedded server serves one connection at a time, so two open transactions cannot meet.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import type { ToolDomain } from "../../tools/domain.js";
import { runTool } from "../../tools/runner.js";
import {
  createScheduleDomain,
  PostgresScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import type { TodoRepository } from "../../tools/todo/repository.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { openDomainsOnDatabase, type DomainsOnDatabase } from "./domains-on-database.js";
import { accept, cardOf, interruptsOf, userMessage } from "./tempo-on-database.js";

/**
 * `domain`, whose first `parties` applies wait for each other inside their transactions before applying: every one of
 * them has loaded the state before any commits. Later applies (a write run again) go straight through.
 */
function meetingAtApply<TState>(domain: ToolDomain<TState>, parties = 2): ToolDomain<TState> {
  const waiting: Array<() => void> = [];
  let met = false;
  return {
    ...domain,
    persist: async (...args) => {
      if (!met) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length < parties) return;
          met = true;
          for (const release of waiting) release();
        });
      }
      return domain.persist(...args);
    },
  };
}

/**
 * `domain`, whose first two applies meet as `meetingAtApply`'s do (both loaded before either commits), then go in a set
 * order: the one whose result `first` picks applies (and holds the store's lock to its commit) before the other is let
 * go, which then finds the stored week changed and runs again on it. Later applies go straight through.
 */
function inOrderAtApply<TState>(domain: ToolDomain<TState>, first: (after: TState) => boolean): ToolDomain<TState> {
  let arrived = 0;
  let bothArrived!: () => void;
  const met = new Promise<void>((resolve) => (bothArrived = resolve));
  let firstApplied!: () => void;
  const firstDone = new Promise<void>((resolve) => (firstApplied = resolve));
  return {
    ...domain,
    persist: async (userId, before, after, options) => {
      if (arrived >= 2) return domain.persist(userId, before, after, options);
      arrived += 1;
      if (arrived === 2) bothArrived();
      await met;
      if (!first(after)) {
        await firstDone;
        return domain.persist(userId, before, after, options);
      }
      try {
        return await domain.persist(userId, before, after, options);
      } finally {
        firstApplied();
      }
    },
  };
}

const USER = "student-two-cards";

function threadOf(threadId: string): RunnableConfig {
  return { configurable: { thread_id: threadId, user_id: USER } };
}

for (const target of postgresTargets().filter((each) => each.kind === "real")) {
  describe(`${target.kind} postgres: one user approves two cards at once`, () => {
    let server: TestPostgres | undefined;
    let tempo: DomainsOnDatabase | undefined;
    beforeAll(async () => {
      server = await target.start();
      tempo = await openDomainsOnDatabase(server.url, {
        domains: "todo",
        wrapDomain: (domain) => meetingAtApply(domain),
      });
    });
    afterAll(async () => {
      await tempo?.close();
      await server?.stop();
    });

    /** Sends `request` on `threadId` and accepts the plan: returns with the write card open. */
    async function toWriteCard(threadId: string, request: string): Promise<object> {
      let result: object = await tempo!.graph.invoke(userMessage(request), threadOf(threadId));
      for (let turn = 0; turn < 5 && cardOf(result) === "confirm_plan"; turn += 1)
        result = await tempo!.graph.invoke(accept(), threadOf(threadId));
      return result;
    }

    /** Accepts every card of the thread to its end. */
    async function approveToEnd(threadId: string): Promise<object> {
      let result: object = await tempo!.graph.invoke(accept(), threadOf(threadId));
      for (let turn = 0; turn < 10 && interruptsOf(result).length > 0; turn += 1)
        result = await tempo!.graph.invoke(accept(), threadOf(threadId));
      return result;
    }

    test("two to-do additions proposed as todo-5 on two threads both apply, and both threads say so", async () => {
      // Both cards are made before either is answered: each was tried on the sample list of four items.
      expect(cardOf(await toWriteCard("two-cards-a", 'Add "Call the bursar" to my to-do list'))).toBe("add_todo");
      expect(cardOf(await toWriteCard("two-cards-b", 'Add "Renew the bus pass" to my to-do list'))).toBe("add_todo");

      const [first, second] = await Promise.all([approveToEnd("two-cards-a"), approveToEnd("two-cards-b")]);
      expect(first).toMatchObject({ phase: "done", finalAnswer: 'Done: added the to-do "Call the bursar".' });
      expect(second).toMatchObject({ phase: "done", finalAnswer: 'Done: added the to-do "Renew the bus pass".' });

      const items = (await tempo!.repositoryOf<TodoRepository>("todo").load(USER)).items;
      expect(
        items
          .slice(4)
          .map((item) => item.title)
          .sort(),
      ).toEqual(["Call the bursar", "Renew the bus pass"]);
      expect(
        items
          .slice(4)
          .map((item) => item.id)
          .sort(),
      ).toEqual(["todo-5", "todo-6"]);
      // One completed, applied entry per thread: each write applied once.
      for (const threadId of ["two-cards-a", "two-cards-b"]) {
        const writes = (await readExecutionLog(tempo!.database.pool, threadId)).filter(
          (entry) => entry.kind === "write" && entry.status === "completed",
        );
        expect(writes.map((entry) => [entry.tool, entry.applied])).toEqual([["add_todo", true]]);
      }
    });

    test("two schedule tasks of one name added at once on two threads both apply, under two ids", async () => {
      const repository = new PostgresScheduleRepository(tempo!.database.pool);
      await repository.seed(USER, sampleWeek());
      const domain = meetingAtApply(createScheduleDomain({ repository }));
      const call = (id: string) => ({
        id,
        name: "add_task",
        arguments: { name: "Problem set 4", class_id: "calculus", duration: 2 },
      });
      const [first, second] = await Promise.all([
        runTool(domain, { userId: USER, threadId: "tasks-a", stepId: null }, call("call-task-a"), tempo!.executionLog),
        runTool(domain, { userId: USER, threadId: "tasks-b", stepId: null }, call("call-task-b"), tempo!.executionLog),
      ]);
      expect([first.applied, second.applied]).toEqual([true, true]);
      const added = (await repository.load(USER)).tasks
        .filter((task) => task.name === "Problem set 4")
        .map((task) => task.id);
      expect(added.sort()).toEqual(["problem-set-4", "problem-set-4-2"]);
    });

    test("one event removed on two threads at once: removed once, the other told it is gone, nothing else lost", async () => {
      const user = `${USER}-events`;
      const repository = new PostgresScheduleRepository(tempo!.database.pool);
      const week = sampleWeek();
      await repository.seed(user, week);
      const domain = meetingAtApply(createScheduleDomain({ repository }));
      const call = (id: string) => ({ id, name: "remove_event", arguments: { event_id: "fri-physics-lab" } });
      const outcomes = await Promise.all(
        ["events-a", "events-b"].map((threadId, index) =>
          runTool(domain, { userId: user, threadId, stepId: null }, call(`call-event-${index}`), tempo!.executionLog),
        ),
      );
      expect(outcomes.map((outcome) => outcome.applied).sort()).toEqual([false, true]);
      const refused = outcomes.find((outcome) => !outcome.applied)!;
      expect(refused.content).toMatch(/no event with id "fri-physics-lab"/);
      const stored = await repository.load(user);
      expect(stored.tasks.map((task) => task.id)).toEqual(
        week.tasks.map((task) => task.id).filter((id) => id !== "fri-physics-lab"),
      );
    });

    test("two reviews placed in one free slot on two threads at once: one applies, the other is refused clearly", async () => {
      const user = `${USER}-same-slot`;
      const repository = new PostgresScheduleRepository(tempo!.database.pool);
      await repository.seed(user, sampleWeek());
      const domain = meetingAtApply(createScheduleDomain({ repository }));
      const place = (id: string, taskId: string) => ({
        id,
        name: "place",
        arguments: { task_id: taskId, day: 1, slot_start: 12 },
      });
      const outcomes = await Promise.all(
        [
          ["slot-a", "derivative-drills"],
          ["slot-b", "determinant-exercises"],
        ].map(([threadId, taskId]) =>
          runTool(
            domain,
            { userId: user, threadId: threadId!, stepId: null },
            place(`call-${threadId}`, taskId!),
            tempo!.executionLog,
          ),
        ),
      );
      // The write that commits second runs again on the week as it now is, and is refused, naming what holds the slot.
      expect(outcomes.map((outcome) => outcome.applied).sort()).toEqual([false, true]);
      const winner = outcomes[0]!.applied ? "derivative-drills" : "determinant-exercises";
      const loser = winner === "derivative-drills" ? "determinant-exercises" : "derivative-drills";
      expect(outcomes.find((outcome) => !outcome.applied)!.content).toMatch(
        new RegExp(`^error: cannot place task ${loser} .* overlaps task ${winner} `),
      );
      // The winner's placement stands; the refused review is still unplaced.
      const stored = await repository.load(user);
      const slotsOf = (id: string) =>
        (stored.tasks.find((task) => task.id === id) as { slots?: unknown[] }).slots ?? [];
      expect(slotsOf(winner)).toEqual([{ day: 1, start: 12, end: 12 }]);
      expect(slotsOf(loser)).toEqual([]);
    });

    test.each([
      ["the removal", true],
      ["the placement", false],
    ] as const)(
      "a study hall removed while a review is placed inside it, %s committing first: never a guest without its host",
      async (_, removalFirst) => {
        const user = `${USER}-hall-${removalFirst ? "removal" : "placement"}`;
        const repository = new PostgresScheduleRepository(tempo!.database.pool);
        await repository.seed(user, sampleWeek());
        const removes = (after: ScheduleState) => !after.tasks.some((task) => task.id === "mon-study-hall");
        const domain = inOrderAtApply(createScheduleDomain({ repository }), (after) => removes(after) === removalFirst);
        const [removal, placing] = await Promise.all([
          runTool(
            domain,
            { userId: user, threadId: "hall-a", stepId: null },
            { id: `call-hall-remove-${user}`, name: "remove_event", arguments: { event_id: "mon-study-hall" } },
            tempo!.executionLog,
          ),
          runTool(
            domain,
            { userId: user, threadId: "hall-b", stepId: null },
            {
              id: `call-hall-place-${user}`,
              name: "place",
              arguments: { task_id: "vocabulary-list", day: 1, slot_start: 9 },
            },
            tempo!.executionLog,
          ),
        ]);
        // The placement lands on Monday 19:00 either way; the hall goes only when it was removed first.
        expect(placing.applied).toBe(true);
        const stored = await repository.load(user);
        const review = stored.tasks.find((task) => task.id === "vocabulary-list")!;
        expect(review.slots).toEqual([{ day: 1, start: 9, end: 9 }]);
        const hall = stored.tasks.find((task) => task.id === "mon-study-hall");
        expect(removal.applied).toBe(removalFirst);
        if (removalFirst) {
          expect(hall).toBeUndefined();
          expect(review.source === "task_item" && review.embeddedIn).toBeUndefined();
        } else {
          expect(removal.content).toMatch(/holds vocabulary-list; move them out first; nothing was removed/);
          expect(hall?.source === "event" && hall.embeds).toEqual(["vocabulary-list"]);
          expect(review.source === "task_item" && review.embeddedIn).toBe("mon-study-hall");
        }
      },
    );
  });
}
