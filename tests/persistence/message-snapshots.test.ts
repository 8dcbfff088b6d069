/**
 * The message list's whole copies (issue 48): with a fixed cadence each copy held the whole list, so the bytes a turn
 * stored grew with the thread (a task turn 63.7 KiB over 30 turns, 79.5 over 200). The copies now come further apart
 * as the list grows (`GrowingSnapshotChannel`): the messages they hold stay within a few times the messages written.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { isDeltaSnapshot } from "@langchain/langgraph-checkpoint";
import { describe, expect, test } from "vitest";
import { MESSAGES_PER_SNAPSHOT_WRITE, MESSAGES_SNAPSHOT_FREQUENCY, messagesChannel } from "../../kernel/channels.js";

const State = Annotation.Root({ messages: messagesChannel, steps: Annotation<number> });

/** A graph whose one node writes a message pair a step until `steps` steps have run: one write a superstep. */
function talkingGraph(saver: MemorySaver) {
  return new StateGraph(State)
    .addNode("talk", (state) => ({
      messages: [new HumanMessage(`question ${state.steps}`), new AIMessage(`answer ${state.steps}`)],
      steps: state.steps - 1,
    }))
    .addEdge(START, "talk")
    .addConditionalEdges("talk", (state) => (state.steps > 0 ? "talk" : END))
    .compile({ checkpointer: saver });
}

/** The messages held by every whole copy of the list the saver stored, and how many copies. */
async function copies(saver: MemorySaver, threadId: string) {
  let messages = 0;
  let count = 0;
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    const value = tuple.checkpoint.channel_values.messages;
    if (!isDeltaSnapshot(value)) continue;
    count += 1;
    messages += (value.value as BaseMessage[]).length;
  }
  return { messages, count };
}

describe("the message list's whole copies", () => {
  test("a long thread's copies hold a bounded multiple of the messages written, and the thread reads back whole", async () => {
    const saver = new MemorySaver();
    const graph = talkingGraph(saver);
    const config = { configurable: { thread_id: "long" }, recursionLimit: 2_000 };
    const steps = 300;
    await graph.invoke({ messages: [], steps }, config);
    const written = 2 * steps;
    const stored = await copies(saver, "long");
    // A copy after each `MESSAGES_SNAPSHOT_FREQUENCY` writes would hold 50 + 100 + … + 300 pairs: 1,050 pairs, 3.5
    // times what was written, and more the longer the thread. Growing with the list, each copy of n messages follows
    // n / 4 writes (n / 2 new messages here): copies of 100, 200 and 400 messages, about 1.2 times.
    expect(stored.count).toBeGreaterThan(0);
    expect(stored.messages).toBeLessThan(2 * written);
    // A new process reads the thread back: the copy, then the writes since replayed.
    const reread = talkingGraph(saver);
    const state = await reread.getState(config);
    const messages = state.values.messages as BaseMessage[];
    expect(messages).toHaveLength(written);
    expect(messages.at(-1)!.content).toBe("answer 1");
    expect(messages[0]!.content).toBe(`question ${steps}`);
  });

  test("a short list is copied at the base cadence; a long one after a quarter of its length in writes", () => {
    const channel = messagesChannel();
    const short = channel.fromCheckpoint(Array.from({ length: 10 }, (_, index) => new AIMessage(`m${index}`)));
    expect(short.snapshotFrequency).toBe(MESSAGES_SNAPSHOT_FREQUENCY);
    const long = channel.fromCheckpoint(Array.from({ length: 1_000 }, (_, index) => new AIMessage(`m${index}`)));
    expect(long.snapshotFrequency).toBe(1_000 / MESSAGES_PER_SNAPSHOT_WRITE);
    long.update([[new AIMessage("one more")]]);
    expect(long.snapshotFrequency).toBe(Math.ceil(1_001 / MESSAGES_PER_SNAPSHOT_WRITE));
    // Compiled graphs compare channels of the same key: two of the same cadence are equal whatever they hold.
    expect(long.equals(short)).toBe(true);
  });
});
