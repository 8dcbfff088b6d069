/** The writes of the card a thread waits on, read from its state values (a graph's snapshot, or the server's JSON). */
import { proposedWrites } from "../../kernel/proposal.js";
import type { ProposedWrite, TempoState } from "../../kernel/state.js";

/** The open write card's writes, in order; [] when the thread waits on none. */
export function writesOnCard(values: unknown): ProposedWrite[] {
  return proposedWrites(values as Pick<TempoState, "pending" | "messages">);
}
