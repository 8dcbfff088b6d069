/**
 * Two clients answer the same write card at the same moment on the served path (the graph `langgraph.json` serves,
 * run as the LangGraph server runs it: its own checkpointer attached, the user in `langgraph_auth_user_id`), on PGlite
 * and PostgreSQL 15: one answer applies the card's writes, the other is refused with a typed error
 * (THREAD_BUSY: the thread was held by the first), nothing applies twice and the thread does not fork. The same
 * answer sent again once the first has finished (a second tab, a client's retry, addressed to the card by its
 * interrupt id) is refused as stale and written as a note: nothing applies again.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { isTempoError } from "../../errors/index.js";
import { postgresTargets } from "../support/postgres.js";
import { interruptsOf, resume, unpairedToolCalls } from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../support/applied-writes.js";
import { useServedGraph } from "../support/served-graph.js";

type Card = { action_request: { action: string }; action_requests: unknown[] };
const cardOf = (result: object) => (interruptsOf(result)[0]?.value as Card | undefined)?.action_request.action;

describe.each(postgresTargets())("on $kind Postgres", (target) => {
  const on = useServedGraph(() => target.start());

  test("two answers to one card at once: one applies it, the other gets THREAD_BUSY; a late repeat is stale", async () => {
    const user = `erin-${target.kind}`;
    const asServer = { configurable: { thread_id: `double-${target.kind}`, langgraph_auth_user_id: user } };
    const { graph } = on.served;
    await graph.invoke({ messages: [new HumanMessage("Arrange my review week")] }, asServer);
    const result = await graph.invoke(resume({ type: "accept", args: null }), asServer);
    expect(cardOf(result)).toBe("place");
    const interruptId = interruptsOf(result)[0]!.id!;
    const batch = writesOnCard((await graph.getState(asServer)).values);
    // As `useStream`'s respond sends it: the card's decisions, addressed by interrupt id.
    const answer = () => resume({ [interruptId]: { decisions: batch.map(() => ({ type: "approve" })) } });

    const settled = await Promise.allSettled([graph.invoke(answer(), asServer), graph.invoke(answer(), asServer)]);
    const refused = settled.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(settled.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(isTempoError(refused[0]!.reason) && refused[0]!.reason.code).toBe("THREAD_BUSY");
    const applied = async () => (await on.pool.query(APPLIED_WRITES_OF_USER_SQL, [user])).rowCount;
    expect(await applied()).toBe(batch.length);

    // Sent again after the first finished: refused as stale (the card is gone), said in the thread; nothing applies.
    await graph.invoke(answer(), asServer);
    expect(await applied()).toBe(batch.length);
    const state = await graph.getState(asServer);
    const messages = (state.values as { messages: BaseMessage[] }).messages;
    expect(String(messages.at(-1)!.content)).toMatch(/^I could not use that answer: /);
    expect(unpairedToolCalls(messages)).toEqual([]);

    // One linear history: no checkpoint has two children.
    const children = new Map<string, number>();
    for await (const snapshot of graph.getStateHistory(asServer)) {
      const parent = snapshot.parentConfig?.configurable?.checkpoint_id as string | undefined;
      if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
    }
    expect([...children.values()].filter((count) => count > 1)).toEqual([]);
  });
});
