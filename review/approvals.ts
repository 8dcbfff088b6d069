/**
 * Approvals of writes: the confirm node records the exact call (thread,
 * tool-call id, tool, arguments) a human accepted or edited on its card, and
 * execute applies a write only when that call's approval is on record. A
 * write call that reached the state any other way (state written around the
 * run guard) has no approval and applies nothing (WRITE_NOT_APPROVED).
 *
 * A write its card's answer left undecided (a lone legacy response naming a batch's first write decides it alone) is recorded
 * as held, with what its next card says of it: execute raises that card for it, and never applies it until a later
 * answer approves it.
 *
 * Approvals live outside the thread's state, where no state update reaches:
 * in the run's store when it has one (the LangGraph server's, Postgres with
 * `createTempo`), under `["tempo", "approvals", <thread>]` — a namespace the
 * served API's auth refuses to every client — so an approval survives a
 * restart between the answer and its write; without a store, in this graph's
 * memory.
 */
import type { BaseStore } from "@langchain/langgraph";
import { TempoError } from "../errors/index.js";
import type { WriteCall } from "../kernel/state.js";
import { namespaceLabel } from "../memory/namespaces.js";
import { canonicalJson } from "./canonical-json.js";

/** How many approvals a graph keeps in memory when it has no store (the oldest go first). */
const MEMORY_LIMIT = 10_000;

/** The approvals one built graph records and checks. */
export class WriteApprovals {
  readonly #memory = new Map<string, ApprovalRecord>();

  /**
   * Records what a card's answer decided on thread `threadId`, all at once (with a store, one batch: one statement in
   * Postgres, `memory/store.ts`, not a round trip a write): that a human approved each of `approved` (with these
   * arguments), and that each of `held` was left undecided — it waits for the next card, which shows it as `held` says.
   */
  async recordAnswers(
    store: BaseStore | undefined,
    threadId: string,
    approved: readonly WriteCall[],
    held: ReadonlyArray<{ tool: WriteCall; held: HeldWrite }> = [],
  ): Promise<void> {
    await Promise.all([
      ...approved.map((tool) => this.#put(store, threadId, tool.id, { call: describeCall(tool) })),
      ...held.map((entry) =>
        this.#put(store, threadId, entry.tool.id, { held: { ...entry.held, call: describeCall(entry.tool) } }),
      ),
    ]);
  }

  /**
   * What a human decided on exactly each of `tools` on thread `threadId`, read at once (one batch with a store):
   * approved (`{}`), or left for the next card (`{ held }`, what that card says of it). Throws WRITE_NOT_APPROVED for
   * the first of them, in order, that no answer decided.
   */
  async decisionsOf(
    store: BaseStore | undefined,
    threadId: string,
    tools: readonly WriteCall[],
  ): Promise<Array<{ held?: HeldWrite }>> {
    const recorded = await Promise.all(tools.map((tool) => this.#get(store, threadId, tool.id)));
    return tools.map((tool, index) => decisionIn(recorded[index], threadId, tool));
  }

  async #get(store: BaseStore | undefined, threadId: string, toolCallId: string): Promise<ApprovalRecord | undefined> {
    if (!store) return this.#memory.get(memoryKey(threadId, toolCallId));
    return (await store.get(approvalsNamespace(threadId), toolCallId))?.value as ApprovalRecord | undefined;
  }

  async #put(
    store: BaseStore | undefined,
    threadId: string,
    toolCallId: string,
    record: ApprovalRecord,
  ): Promise<void> {
    if (store) return store.put(approvalsNamespace(threadId), toolCallId, { ...record });
    this.#memory.delete(memoryKey(threadId, toolCallId));
    this.#memory.set(memoryKey(threadId, toolCallId), record);
    if (this.#memory.size > MEMORY_LIMIT) this.#memory.delete(this.#memory.keys().next().value!);
  }
}

/** The decision `recorded` holds on exactly `tool`: approved (`{}`) or held; WRITE_NOT_APPROVED for anything else. */
function decisionIn(recorded: ApprovalRecord | undefined, threadId: string, tool: WriteCall): { held?: HeldWrite } {
  const call = describeCall(tool);
  if (recorded?.held?.call === call) {
    const { summary, reason, shown } = recorded.held;
    return { held: { summary, reason, ...(shown ? { shown } : {}) } };
  }
  if (recorded?.call !== call) {
    throw new TempoError(
      "WRITE_NOT_APPROVED",
      `The write ${tool.name} (${tool.id}) was not approved on its card, so it was not applied; a write applies only after its card is answered. Nothing was changed.`,
      { threadId, toolCallId: tool.id },
    );
  }
  return {};
}

/** What a card shows of a write it waits on: its description, the model's reason, and its shown arguments if any. */
export interface HeldWrite {
  summary: string;
  reason: string;
  /** What the card shows in place of a record's arguments (`ProposedWrite.shown`). */
  shown?: Record<string, string>;
}

/** One write's record: approved (`call`), or held for the next card (`held`), each with the call as canonical JSON. */
interface ApprovalRecord {
  call?: string;
  held?: HeldWrite & { call: string };
}

/** The store namespace of a thread's approvals (outside every user's own `["tempo", "users", …]`). */
export function approvalsNamespace(threadId: string): string[] {
  return ["tempo", "approvals", namespaceLabel(threadId)];
}

function memoryKey(threadId: string, toolCallId: string): string {
  return JSON.stringify([threadId, toolCallId]);
}

/** The call as canonical JSON (keys sorted), so a stored copy compares equal whatever its key order. */
function describeCall(tool: WriteCall): string {
  return canonicalJson({ name: tool.name, arguments: tool.arguments });
}
