/**
 * One conversation of the load probe: the arrange request (a plan card with the offline policy), then every card
 * approved until the task ends — the user's whole wait, timed.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { TempoError } from "../../errors/index.js";
import type { TempoGraph } from "../../server/tempo-graph.js";

/** What a load conversation asks. */
export const LOAD_REQUEST = "Help me arrange next week's review";

/** Cards approved at most before a conversation counts as not finished. */
const MAX_CARDS = 10;

/** How a conversation went: how long it took, and the error that ended it, if any. */
export interface ConversationOutcome {
  threadId: string;
  ms: number;
  /** Cards the user approved. */
  cards: number;
  /** CPU time (user + system) the worker spent on this conversation, in ms, when conversations ran one at a time. */
  cpuMs?: number;
  /** `CODE: message` of a TempoError, `Name: message` of anything else; absent when the task ended. */
  error?: string;
}

/** Sends the request and approves every card until the task ends. */
export async function conversation(graph: TempoGraph, threadId: string): Promise<ConversationOutcome> {
  const config = { configurable: { thread_id: threadId, user_id: `user-${threadId}` } };
  const started = performance.now();
  let cards = 0;
  try {
    let result: object = await graph.invoke({ messages: [new HumanMessage(LOAD_REQUEST)] }, config);
    while (((result as { __interrupt__?: unknown[] }).__interrupt__ ?? []).length > 0) {
      if (cards === MAX_CARDS) throw new Error(`still a card open after ${MAX_CARDS} approvals`);
      cards += 1;
      result = await graph.invoke(new Command({ resume: { type: "accept", args: null } }), config);
    }
    if (cards === 0) throw new Error("no card was raised");
    return { threadId, ms: performance.now() - started, cards };
  } catch (error) {
    const text =
      error instanceof TempoError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
    return { threadId, ms: performance.now() - started, cards, error: text };
  }
}
