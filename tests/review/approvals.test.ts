/**
 * Approvals in the run's store: what a card's answer decided is recorded, and read back before the writes apply, in
 * ONE store batch for the whole card — under LangGraph's `AsyncBatchedStore`, as a graph run sees its store — not a
 * round trip a write (issue 44.8).
 */
import { AsyncBatchedStore, InMemoryStore, type Operation } from "@langchain/langgraph";
import { afterEach, describe, expect, test } from "vitest";
import { TempoError } from "../../errors/index.js";
import type { WriteCall } from "../../kernel/state.js";
import { WriteApprovals } from "../../review/approvals.js";

/** An in-memory store that counts the batches it is given, wrapped as a graph run wraps its store. */
function countedStore() {
  const inner = new InMemoryStore();
  const batches: Operation[][] = [];
  const batch = inner.batch.bind(inner);
  inner.batch = ((operations: Operation[]) => {
    batches.push(operations);
    return batch(operations);
  }) as typeof inner.batch;
  const store = new AsyncBatchedStore(inner);
  store.start();
  return { store, batches };
}

const place = (index: number): WriteCall => ({
  id: `call-${index}`,
  name: "place",
  arguments: { task_id: `task-${index}`, day: 1, slot_start: index },
});

let running: AsyncBatchedStore | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe("write approvals", () => {
  test("a card of eight writes is recorded in one batch and its decisions read in one", async () => {
    const { store, batches } = countedStore();
    running = store;
    const approvals = new WriteApprovals();
    const writes = Array.from({ length: 8 }, (_, index) => place(index));
    await approvals.recordAnswers(store, "thread-1", writes.slice(0, 6), [
      { tool: writes[6]!, held: { summary: "Place task-6", reason: "the plan" } },
      { tool: writes[7]!, held: { summary: "Place task-7", reason: "the plan" } },
    ]);
    expect(batches.map((operations) => operations.length)).toEqual([8]);
    const decisions = await approvals.decisionsOf(store, "thread-1", writes);
    expect(batches.map((operations) => operations.length)).toEqual([8, 8]);
    expect(decisions).toEqual([
      ...writes.slice(0, 6).map(() => ({})),
      { held: { summary: "Place task-6", reason: "the plan" } },
      { held: { summary: "Place task-7", reason: "the plan" } },
    ]);
  });

  test("a write no answer decided (or decided with other arguments) refuses the card: the first such, in order", async () => {
    const { store } = countedStore();
    running = store;
    const approvals = new WriteApprovals();
    const [first, second, third] = [place(1), place(2), place(3)];
    await approvals.recordAnswers(store, "thread-2", [first!, second!]);
    const edited = { ...second!, arguments: { ...second!.arguments, day: 2 } };
    const refusal = await approvals.decisionsOf(store, "thread-2", [first!, third!, edited]).catch((error) => error);
    expect(refusal).toBeInstanceOf(TempoError);
    expect((refusal as TempoError).code).toBe("WRITE_NOT_APPROVED");
    expect((refusal as TempoError).message).toContain("call-3");
    // Another thread's approvals are not this one's.
    await expect(approvals.decisionsOf(store, "thread-3", [first!])).rejects.toThrow(/not approved/);
  });
});
