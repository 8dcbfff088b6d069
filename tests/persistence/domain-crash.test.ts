/**
 * Exactly-once for every served domain, across a crash: Tempo serving `schedule,todo` from their plug-ins (the runner
 * claims each write in the execution log, in the transaction where the domain applies it), a worker process killed
 * during the first confirmed write — inside its transaction before the change, or right after it committed — and a
 * fresh process continuing the thread. A to-do write is then applied once (one item, one completed log entry), and
 * so is each of the schedule's eight placements (the refinement after them finds nothing to change); the answer
 * tells what happened.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import type { ScheduleRepository } from "../../tools/schedule/repository.js";
import type { TodoRepository } from "../../tools/todo/repository.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { DOMAINS_CHILD_SCRIPT, runChild, type ChildResult } from "./child-runner.js";
import { openDomainsOnDatabase, type DomainsOnDatabase } from "./domains-on-database.js";
import { ARRANGE_REQUEST, studentOf, studentThread } from "./tempo-on-database.js";

const TODO_REQUEST = 'Add "Call the bursar about the fee waiver" to my to-do list';

for (const target of postgresTargets()) {
  describe(`${target.kind} postgres: a worker killed during a confirmed write, schedule and todo served together`, () => {
    let server: TestPostgres | undefined;
    let tempo: DomainsOnDatabase | undefined;
    beforeAll(async () => {
      server = await target.start();
      tempo = await openDomainsOnDatabase(server.url, { domains: "schedule,todo" });
    });
    afterAll(async () => {
      await tempo?.close();
      await server?.stop();
    });

    /** Starts the request in one process (to its write card), kills the next one at `killAt`, continues in a third. */
    async function crashAndContinue(
      threadId: string,
      request: string,
      killAt: string,
    ): Promise<{ started: ChildResult; killed: ChildResult; continued: ChildResult }> {
      const url = server!.url;
      const started = await runChild(
        { url, threadId, mode: "start", request },
        undefined,
        600_000,
        DOMAINS_CHILD_SCRIPT,
      );
      const killed = await runChild({ url, threadId, mode: "continue" }, killAt, 600_000, DOMAINS_CHILD_SCRIPT);
      const continued = await runChild({ url, threadId, mode: "continue" }, undefined, 600_000, DOMAINS_CHILD_SCRIPT);
      return { started, killed, continued };
    }

    /** The thread's completed write entries, per tool-call id: [tool, how many, applied]. */
    async function completedWrites(threadId: string) {
      const log = await readExecutionLog(tempo!.database.pool, threadId);
      const writes = log.filter((entry) => entry.kind === "write" && entry.status === "completed");
      const perCall = new Map<string, number>();
      for (const entry of writes) perCall.set(entry.toolCallId, (perCall.get(entry.toolCallId) ?? 0) + 1);
      return { writes, perCall };
    }

    for (const killAt of ["before-persist", "after-persist"]) {
      test(`a to-do write killed ${killAt} is applied exactly once after the thread continues`, async () => {
        const threadId = `todo-crash-${killAt}`;
        const { started, killed, continued } = await crashAndContinue(threadId, TODO_REQUEST, killAt);
        expect(started.output, started.stderr).toMatchObject({ ok: true, card: "add_todo" });
        expect(killed.signal, killed.stderr).toBe("SIGKILL");
        expect(continued.output, continued.stderr).toMatchObject({ ok: true, phase: "done" });

        const list = await tempo!.repositoryOf<TodoRepository>("todo").load(studentOf(threadId));
        expect(list.items.filter((item) => item.title === "Call the bursar about the fee waiver")).toEqual([
          { id: "todo-5", title: "Call the bursar about the fee waiver", done: false },
        ]);
        const { writes, perCall } = await completedWrites(threadId);
        expect(writes.map((entry) => [entry.tool, entry.applied])).toEqual([["add_todo", true]]);
        expect([...perCall.values()]).toEqual([1]);
        // The schedule was not touched by a to-do write.
        const week = await tempo!.repositoryOf<ScheduleRepository>("schedule").load(studentOf(threadId));
        expect(week.tasks.filter((task) => task.source === "task_item" && task.status === "placed")).toEqual([]);

        const state = await tempo!.graph.getState(studentThread(threadId));
        expect(state.values.finalAnswer).toBe('Done: added the to-do "Call the bursar about the fee waiver".');
      });
    }

    test("the schedule's batch of placements killed after its first write committed is applied once each", async () => {
      const threadId = "schedule-crash-after-persist";
      const { started, killed, continued } = await crashAndContinue(threadId, ARRANGE_REQUEST, "after-persist");
      expect(started.output, started.stderr).toMatchObject({ ok: true, card: "place" });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      expect(continued.output, continued.stderr).toMatchObject({ ok: true, phase: "done" });

      const { writes, perCall } = await completedWrites(threadId);
      // The continuing process accepts every card: the batch's eight placements (the refinement then changes nothing).
      expect(writes.filter((entry) => entry.applied).map((entry) => entry.tool)).toEqual(Array(8).fill("place"));
      expect([...perCall.values()].every((count) => count === 1)).toBe(true);
      const week = await tempo!.repositoryOf<ScheduleRepository>("schedule").load(studentOf(threadId));
      expect(week.tasks.filter((task) => task.source === "task_item").map((task) => task.status)).toEqual(
        Array(8).fill("placed"),
      );
      // The to-do list was not touched by the schedule's writes.
      expect((await tempo!.repositoryOf<TodoRepository>("todo").load(studentOf(threadId))).items).toHaveLength(4);
    });
  });
}
