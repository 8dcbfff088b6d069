/**
 * An answer only answers a card its sender could have seen (docs/design.md#unseen-answers). A card becomes visible
 * no earlier than the checkpoint it waits at was made (LangGraph stamps each checkpoint's `ts` when it creates it,
 * before the node that raises the card runs), so a run created at or before that moment was sent without its sender
 * having seen the card: a message taken as the answer, or an anonymous resume (`{ type: "accept" }`, a plain "yes"),
 * is refused there instead of approving what nobody saw. A resume bound to the card (by interrupt id or `card_id`)
 * names what it answers and is checked by `assertResumeIsCurrent` instead.
 *
 * When a run was created: the LangGraph server names each run with a UUIDv7 when it accepts the request (the
 * `runId` its worker runs the graph with), whose first 48 bits are that moment in ms — so a run that waited in the
 * server's queue (`multitask_strategy: "enqueue"`) still dates from its request. A programmatic call dates from
 * when it reached the run guard.
 */
import type { StateSnapshot } from "@langchain/langgraph";

const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The ms timestamp of a UUIDv7, or undefined for anything else. */
export function uuid7Time(id: unknown): number | undefined {
  if (typeof id !== "string") return undefined;
  const match = UUID_V7.exec(id);
  return match ? Number.parseInt(`${match[1]}${match[2]}`, 16) : undefined;
}

/** When the run was created: its UUIDv7 run id's time (the server's request time), else `admittedAt`. */
export function runCreatedAt(runId: unknown, admittedAt: number): number {
  return uuid7Time(runId) ?? admittedAt;
}

/**
 * True when an answer created at `createdAt` cannot have seen the card of `snapshot`: created before the card's
 * checkpoint, the earliest the card was raised. Strictly before: a caller in the same process may answer within the
 * millisecond the card's checkpoint was made.
 */
export function sentBeforeCard(createdAt: number, snapshot: Pick<StateSnapshot, "createdAt">): boolean {
  const raised = snapshot.createdAt ? Date.parse(snapshot.createdAt) : Number.NaN;
  return !Number.isNaN(raised) && createdAt < raised;
}
