/**
 * A run gives its thread back with the error it ended with (`ThreadLease.release(failure)`), so a lock held on a
 * database that stopped answering is let go without asking that database again (`PostgresThreadLock`; on a real
 * frozen server in tests/reliability/database-bounds.test.ts): the run's error reaches its caller within the
 * database's bound, not one bound later. A run that ends well gives it back with none.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { DatabaseTimeoutError } from "../../errors/index.js";
import { createTempoBuilder } from "../../graphs/tempo.js";
import { TempoCompiledGraph } from "../../server/run-guard.js";
import { databaseGoneQuiet, type ThreadLease, type ThreadLock } from "../../server/thread-lock.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, scripted, threadConfig } from "../support/scripted.js";

/** A lock that records what each run gave its thread back with. */
class RecordingLock implements ThreadLock {
  readonly released: unknown[] = [];
  async acquire(): Promise<ThreadLease> {
    return {
      waited: false,
      carryingOn: async () => undefined,
      release: async (failure?: unknown) => void this.released.push(failure),
    };
  }
}

/** The guarded graph whose chat model answers `replies`, holding threads with `lock`. */
function graphWith(replies: Parameters<typeof scripted>[0], lock: ThreadLock) {
  const domain = createNotesDomain();
  const compiled = createTempoBuilder({ models: { default: scripted(replies) }, domain }).compile({
    checkpointer: new MemorySaver(),
    name: "Tempo",
  });
  return TempoCompiledGraph.from(compiled, {
    settings: DEFAULT_WORKFLOW_SETTINGS,
    domain,
    executionLog: new MemoryExecutionLog(),
    threadLock: lock,
  });
}

test("a run that failed because the database did not answer gives its thread back with that error; a run that ended, with none", async () => {
  const lock = new RecordingLock();
  const quiet = new DatabaseTimeoutError(
    "The database did not answer within the query timeout (TEMPO_DB_QUERY_TIMEOUT).",
  );
  const failing = graphWith([quiet], lock);
  expect(
    await thrownBy(failing.invoke({ messages: [new HumanMessage("hello")] }, threadConfig("release-failed"))),
  ).toBe(quiet);
  expect(lock.released).toEqual([quiet]);
  expect(databaseGoneQuiet(lock.released[0])).toBe(true);

  const answering = graphWith([json({ intent: "chat", reply: "Hello!", reason: "greeting" })], lock);
  await answering.invoke({ messages: [new HumanMessage("hello")] }, threadConfig("release-ended"));
  expect(lock.released).toEqual([quiet, undefined]);
});
