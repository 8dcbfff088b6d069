/**
 * `choose_candidate` (seed 003: the backend decides, the model chooses): the model picks, by id, one of the
 * changes a proposing tool listed (`DomainTool.proposes`, its data a `CandidateListing`), and the candidate's real
 * write calls go to the batch card exactly as if the model had written them. A listing is valid until a write
 * applies after it: the latest listing of the step answers, an id from an earlier one or from no listing is a
 * clear error back to the model, and `"none"` chooses nothing.
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { z } from "zod";
import { callOutcomeOf, toolResultData } from "../../kernel/tool-results.js";
import { CHOOSE_CANDIDATE } from "../../kernel/applied-writes.js";
import {
  findTool,
  type CandidateListing,
  type DomainTool,
  type ProposedCandidate,
  type ToolDomain,
} from "../../tools/domain.js";
import { workspaceMessages, type TempoState } from "../../kernel/state.js";
import { newToolCallId, type RoundCall } from "../shared/messages.js";

/** The control decision's name (the kernel reads a card chosen with it back: `kernel/applied-writes.ts`). */
export { CHOOSE_CANDIDATE };

/** Its arguments, as the model sends them. */
export const chooseCandidateSchema = z.object({
  id: z.string().trim().min(1).describe('A candidate id ("a1", "c1") or "none".'),
});

/** How the model is told of it (bound in native mode, listed in the JSON-mode brief). */
export const CHOOSE_CANDIDATE_TOOL = {
  name: CHOOSE_CANDIDATE,
  description: "Chooses a candidate of the latest propose_* list by id: its writes go to the card as they are.",
  schema: chooseCandidateSchema,
};

/** True when one of `tools` lists candidates (so `choose_candidate` is offered with them). */
export function offersCandidates(domain: Pick<ToolDomain, "tools">): boolean {
  return domain.tools.some((tool) => tool.proposes === true);
}

/** What choosing gave: the candidate, none, or the reason it cannot be chosen. */
export type Choice =
  { kind: "chosen"; candidate: ProposedCandidate } | { kind: "none" } | { kind: "error"; message: string };

/** A candidate listing among a step's messages: where it is, what it lists, the tool that listed it. */
export interface ListingAt {
  index: number;
  listing: CandidateListing;
  tool: string;
}

/** Every candidate listing among `messages` (tool results whose data lists candidates), oldest first. */
export function listingsIn(messages: readonly BaseMessage[]): ListingAt[] {
  return messages.flatMap((message, index) => {
    const data = toolResultData(message) as Partial<CandidateListing> | undefined;
    return data && Array.isArray(data.candidates)
      ? [{ index, listing: data as CandidateListing, tool: (message as ToolMessage).name ?? "the listing" }]
      : [];
  });
}

/** True when a change applied after the listing at `latest` (its candidates are stale). */
function changedSince(messages: readonly BaseMessage[], latest: ListingAt): boolean {
  return messages.slice(latest.index + 1).some((message) => callOutcomeOf(message) === "applied");
}

/** The latest listing of `messages` while no change applied after it, else undefined. */
export function currentListing(messages: readonly BaseMessage[]): CandidateListing | undefined {
  const latest = listingsIn(messages).at(-1);
  return latest && !changedSince(messages, latest) ? latest.listing : undefined;
}

/** Reads `args` against the step's messages (oldest first): the latest listing, unless a write applied after it. */
export function chooseCandidate(args: unknown, messages: readonly BaseMessage[]): Choice {
  const parsed = chooseCandidateSchema.safeParse(args);
  if (!parsed.success)
    return {
      kind: "error",
      message: `Error: invalid arguments for ${CHOOSE_CANDIDATE}: id: give the id of a candidate, or "none".`,
    };
  const id = parsed.data.id;
  if (id.toLowerCase() === "none") return { kind: "none" };
  const listings = listingsIn(messages);
  const latest = listings.at(-1);
  if (!latest)
    return {
      kind: "error",
      message: `Error: no candidates were listed in this step; call propose_arrangement or propose_candidates first, then choose by id.`,
    };
  const offered = latest.listing.candidates.map((candidate) => candidate.id);
  if (changedSince(messages, latest))
    return {
      kind: "error",
      message: `Error: the candidates ${offered.join(", ") || "listed"} are stale: a change applied since ${latest.tool} listed them. Call ${latest.tool} again and choose from the new list.`,
    };
  const candidate = latest.listing.candidates.find((entry) => entry.id === id);
  if (candidate) return { kind: "chosen", candidate };
  const earlier = listings.slice(0, -1).some((entry) => entry.listing.candidates.some((old) => old.id === id));
  const offer = offered.length > 0 ? `the latest listing offers ${offered.join(", ")}` : "the latest listing is empty";
  return {
    kind: "error",
    message: `Error: ${earlier ? `candidate "${id}" is from an earlier listing` : `no candidate "${id}"`}; ${offer}, or "none". Nothing was changed.`,
  };
}

/** A candidate chosen from the backend's listing: its writes go to the card as if the model had written them. */
export async function runChosenCandidate(
  call: RoundCall,
  state: TempoState,
  domain: ToolDomain,
  {
    record,
    proposeWrite,
  }: {
    record: (call: RoundCall, ok: boolean, content: string) => void;
    proposeWrite: (call: RoundCall, tool: DomainTool<unknown>) => Promise<void>;
  },
): Promise<void> {
  const choice = chooseCandidate(call.arguments, workspaceMessages(state));
  if (choice.kind === "error") return record(call, false, choice.message);
  if (choice.kind === "none") return record(call, true, "no candidate chosen");
  const { candidate } = choice;
  record(
    call,
    true,
    `chose ${candidate.id}: ${candidate.summary} (${candidate.writes.length} change(s) go to the card)`,
  );
  for (const write of candidate.writes) {
    const tool = findTool(domain, write.name);
    const writeCall = { id: newToolCallId(), name: write.name, arguments: write.arguments };
    if (tool?.kind === "write") await proposeWrite(writeCall, tool);
    else
      record(
        writeCall,
        false,
        `Error: candidate ${candidate.id} names "${write.name}", which is not a write tool of this domain. Nothing was changed.`,
      );
  }
}
