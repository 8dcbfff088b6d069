/**
 * A resume runs from the thread's head only while that is still the checkpoint its answer was checked against
 * (`server/head-checked-saver.ts`): a head that moves between the run checks and the run's start — another answer's
 * run, an end of the thread — refuses the run (ALREADY_RESUMED) before it writes anything, where it would otherwise
 * answer whatever the thread waits on by then. The run reads the head instead of addressing the checked checkpoint,
 * so LangGraph saves it without a whole copy of the message list.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, type CheckpointTuple } from "@langchain/langgraph";
import { uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, test } from "vitest";
import { headCheckedSaver } from "../../server/head-checked-saver.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { accept, cardOf, studentOf, studentThread, userMessage } from "../persistence/tempo-on-database.js";

/**
 * A MemorySaver where another run goes on from the head at the worst moment, once armed: when the run itself first
 * reads the thread's head (a read carrying the run's `user_id`, which the run checks' reads do not), a copy of the
 * head is saved on top of it first, as another answer's run would have.
 */
class MovedUnderTheRun extends MemorySaver {
  armed = false;

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const configurable = (config.configurable ?? {}) as Record<string, unknown>;
    if (this.armed && configurable.user_id !== undefined && !configurable.checkpoint_id) {
      this.armed = false;
      const head = (await super.getTuple({ configurable: { thread_id: configurable.thread_id } }))!;
      await this.put(
        head.config,
        { ...head.checkpoint, id: uuid6(-1) },
        { ...head.metadata!, source: "loop", step: head.metadata!.step + 1 },
      );
    }
    return super.getTuple(config);
  }
}

/** The thread's checkpoints, newest first. */
async function checkpointsOf(saver: MemorySaver, threadId: string): Promise<CheckpointTuple[]> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) tuples.push(tuple);
  return tuples;
}

describe("a resume runs from the head it was checked against", () => {
  test("the answer to a plan card whose thread moved on after the checks is refused, and nothing is written", async () => {
    const saver = new MovedUnderTheRun();
    const repository = new InMemoryScheduleRepository();
    const threadId = "moved-head";
    await repository.seed(studentOf(threadId), sampleWeek());
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy({ writesPerCard: 1 }) },
      domain: createScheduleDomain({ repository }),
      checkpointer: saver,
    });
    const config = studentThread(threadId);
    expect(cardOf(await graph.invoke(userMessage("Help me arrange next week's review"), config))).toBe("confirm_plan");

    saver.armed = true;
    await expect(graph.invoke(accept(), config)).rejects.toMatchObject({ code: "ALREADY_RESUMED" });
    // The copy the other "run" saved is the head; the refused run saved nothing after it.
    const saved = await checkpointsOf(saver, threadId);
    const [head, checked] = saved.map((tuple) => tuple.checkpoint.id);
    expect((await graph.getState(config)).config.configurable?.checkpoint_id).toBe(head);
    const children = saved.filter((tuple) => tuple.parentConfig?.configurable?.checkpoint_id === checked);
    expect(children.map((tuple) => tuple.checkpoint.id)).toEqual([head]);
    expect(saved.find((tuple) => tuple.checkpoint.id === head)?.pendingWrites).toEqual([]);
    expect(await repository.load(studentOf(threadId))).toEqual(sampleWeek());
  });

  test("the saver refuses a head other than the checked one on its first head read, and passes everything else through", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    const first = await saver.put(config, emptyCheckpointOf(uuid6(-1)), { source: "input", step: -1, parents: {} });
    const firstId = String(first.configurable?.checkpoint_id);
    await saver.put(first, emptyCheckpointOf(uuid6(-1)), { source: "loop", step: 0, parents: {} });

    const stale = headCheckedSaver(saver, firstId);
    // An addressed read is not the head's.
    expect(
      (await stale.getTuple({ configurable: { ...config.configurable, checkpoint_id: firstId } }))?.checkpoint.id,
    ).toBe(firstId);
    await expect(stale.getTuple(config)).rejects.toMatchObject({
      code: "ALREADY_RESUMED",
      details: { threadId: "t", interruptedCheckpointId: firstId },
    });
    // Only the first head read is checked; every other call reaches the saver.
    expect(await stale.getTuple(config)).toBeDefined();
    expect(stale.getNextVersion(1)).toBe(saver.getNextVersion(1));
    expect(stale).toBeInstanceOf(MemorySaver);

    const head = String((await saver.getTuple(config))?.checkpoint.id);
    expect((await headCheckedSaver(saver, head).getTuple(config))?.checkpoint.id).toBe(head);
  });
});

function emptyCheckpointOf(id: string) {
  return { v: 4, id, ts: new Date(0).toISOString(), channel_values: {}, channel_versions: {}, versions_seen: {} };
}
