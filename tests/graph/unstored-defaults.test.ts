/**
 * What a small-talk turn leaves out of its checkpoints (issue 48): the recalled memory while it is empty again
 * (`DefaultNotStored`), and LangGraph's second copy of a new message's input, a write of the checkpoint before
 * (`inputSavedOnce`). A checkpoint that stored either (saved before) reads as it did.
 */
import { HumanMessage } from "@langchain/core/messages";
import { EmptyChannelError, InMemoryStore, MemorySaver, START } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { describe, expect, test } from "vitest";
import { DefaultNotStored } from "../../kernel/channels.js";
import { nothingRecalled, type RecalledMemory } from "../../kernel/state.js";
import { inputSavedOnce } from "../../server/input-saver.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";

const recalledSomething: RecalledMemory = { ...nothingRecalled(), conversation: ["We talked about the week."] };

describe("DefaultNotStored", () => {
  test("saves no value while it holds its default, and reads its default back from a checkpoint without one", () => {
    const channel = new DefaultNotStored<RecalledMemory>(nothingRecalled).fromCheckpoint(undefined);
    expect(channel.get()).toEqual(nothingRecalled());
    expect(() => channel.checkpoint()).toThrow(EmptyChannelError);
    channel.update([recalledSomething]);
    expect(channel.checkpoint()).toEqual(recalledSomething);
    channel.update([nothingRecalled()]);
    expect(() => channel.checkpoint()).toThrow(EmptyChannelError);
  });

  test("a checkpoint that stored a value, the default included (saved before), reads it as stored", () => {
    const empty = new DefaultNotStored<RecalledMemory>(nothingRecalled);
    expect(empty.fromCheckpoint(nothingRecalled()).get()).toEqual(nothingRecalled());
    expect(empty.fromCheckpoint(recalledSomething).get()).toEqual(recalledSomething);
    expect(empty.fromCheckpoint(recalledSomething)).toBeInstanceOf(DefaultNotStored);
  });
});

describe("a thread's checkpoints on any saver", () => {
  test("a finished small-talk turn stores no recalled memory; a card waiting mid-task keeps what the turn recalled", async () => {
    const checkpointer = new MemorySaver();
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", sampleWeek());
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository }),
      checkpointer,
      store: new InMemoryStore(),
    });
    const config = { configurable: { thread_id: "unstored-defaults", user_id: "student" } };
    const head = async () => (await checkpointer.getTuple(config))!.checkpoint.channel_values;
    for (const text of ["hello", "thanks"]) await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    expect(await head()).not.toHaveProperty("recalled");
    expect((await graph.getState(config)).values.recalled).toEqual(nothingRecalled());

    // A task stopped at its plan card: the turn's recalled memory (the thread's earlier turns) is saved for its answer.
    await graph.invoke({ messages: [new HumanMessage("Help me arrange next week's review")] }, config);
    const waiting = (await head()).recalled as RecalledMemory;
    expect(waiting.conversation.length).toBeGreaterThan(0);
    expect((await graph.getState(config)).values.recalled).toEqual(waiting);
  });
});

describe("inputSavedOnce", () => {
  test("leaves out the writes of the input channel and passes every other write and call through", async () => {
    const checkpointer = new MemorySaver();
    const stored: Array<[string, PendingWrite[], string]> = [];
    const saver = Object.assign(checkpointer, {
      putWrites: async (config: unknown, writes: PendingWrite[], taskId: string) => {
        stored.push([
          String((config as { configurable: { checkpoint_id: string } }).configurable.checkpoint_id),
          writes,
          taskId,
        ]);
      },
    });
    const lent = inputSavedOnce(saver);
    const config = { configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c" } };
    await lent.putWrites(config, [[START, { messages: [] }]], "input");
    await lent.putWrites(
      config,
      [
        [START, { messages: [] }],
        ["messages", []],
      ],
      "task",
    );
    expect(stored).toEqual([["c", [["messages", []]], "task"]]);
    expect(lent.getNextVersion(undefined)).toBe(checkpointer.getNextVersion(undefined));
  });
});
