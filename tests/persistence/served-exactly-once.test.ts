/**
 * Exactly-once on the served path: the graph `langgraph.json` serves
 * (`server/served.ts` → `createServedGraph`) with DATABASE_URL set uses the
 * Postgres schedule repository and execution log. Run the way the LangGraph
 * server runs it (its own checkpointer attached, the authenticated user in
 * `langgraph_auth_user_id`), a crash between a confirmed write and the
 * checkpoint that records it, followed by the client trying again, applies the
 * write once.
 */
import { HumanMessage } from "@langchain/core/messages";
import { expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import { startEmbeddedTestPostgres } from "../support/postgres.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { interruptsOf, resume } from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../support/applied-writes.js";
import { useServedGraph } from "../support/served-graph.js";

const THREAD = "served-thread";
const asServer = { configurable: { thread_id: THREAD, langgraph_auth_user_id: "alice" } };
const accept = () => resume({ type: "accept", args: null });
type Card = { action_request: { action: string } };
const cardOf = (result: object) =>
  (result as { __interrupt__?: Array<{ value: Card }> }).__interrupt__?.[0]?.value?.action_request.action;

const on = useServedGraph(startEmbeddedTestPostgres);

test("the on.served graph with DATABASE_URL keeps schedules and the execution log in Postgres", () => {
  expect(on.served.dependencies.executionLog).toBeDefined();
  expect((on.served.dependencies.domains.get("schedule")?.repository as object).constructor.name).not.toBe(
    "InMemoryScheduleRepository",
  );
});

test("a crash after the write and before its checkpoint, then trying again, applies the write once", async () => {
  const { graph, dependencies } = on.served;
  let result: object = await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, asServer);
  expect(cardOf(result)).toBe("confirm_plan");
  result = await graph.invoke(accept(), asServer);
  // The week's placements on one batch card: its first write is the one the crash hits.
  expect(cardOf(result)).toBe("place");
  const batch = interruptsOf(result)[0]!.value as { action_requests: unknown[] };
  const firstCall = writesOnCard((await graph.getState(asServer)).values)[0]!.id;

  // The first write commits (with its log entry: the log's claim), then the process "dies" before the node's result
  // is saved.
  const claiming = dependencies.executionLog! as {
    applyOnce?: NonNullable<typeof dependencies.executionLog>["applyOnce"];
  };
  const applyOnce = claiming.applyOnce!;
  let crashed = false;
  claiming.applyOnce = async (...args) => {
    const claimed = await applyOnce(...args);
    if (!crashed) {
      crashed = true;
      throw new Error("simulated crash after the write committed");
    }
    return claimed;
  };
  expect(await thrownBy(graph.invoke(accept(), asServer))).toMatchObject({
    message: "simulated crash after the write committed",
  });

  // The client repeats its answer: the run stopped mid-way after the answer was recorded, so the repeat carries
  // that run on (the answer is not applied again): the first write is answered from the log, the rest of the
  // batch applies, and the refinement step (on by default after arranging) finds nothing to change in the polished
  // placements: the task ends.
  result = await graph.invoke(accept(), asServer);
  expect(cardOf(result)).toBeUndefined();
  expect((result as { phase?: string }).phase).toBe("done");

  const log = await readExecutionLog(on.pool, THREAD);
  const writes = log.filter((entry) => entry.kind === "write");
  const first = writes.filter((entry) => entry.toolCallId === firstCall);
  // The thrown "crash" also leaves a failed entry (a killed process would not); what counts: one apply, then a replay.
  expect(first.map((entry) => `${entry.status}/${entry.applied ? "applied" : "not-applied"}`)).toEqual([
    "completed/applied",
    "failed/not-applied",
    "replayed/not-applied",
  ]);
  const others = writes.filter((entry) => entry.toolCallId !== firstCall);
  expect(others.map((entry) => `${entry.tool} ${entry.status}/${entry.applied ? "applied" : "not-applied"}`)).toEqual(
    Array(batch.action_requests.length - 1).fill("place completed/applied"),
  );
  expect(new Set(writes.map((entry) => entry.toolCallId)).size).toBe(batch.action_requests.length);
  expect(writes.every((entry) => entry.userId === "alice")).toBe(true);
  expect((await on.pool.query(APPLIED_WRITES_OF_USER_SQL, ["alice"])).rowCount).toBe(batch.action_requests.length);
  const messages = ((await graph.getState(asServer)).values as { messages: Array<{ tool_call_id?: string }> }).messages;
  expect(messages.filter((message) => message.tool_call_id === firstCall)).toHaveLength(1);
});
