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

  /** Records that a human approved `tool` (with these arguments) on thread `threadId`. */
  async record(store: BaseStore | undefined, threadId: string, tool: WriteCall): Promise<void> {
    await this.#put(store, threadId, tool.id, { call: describeCall(tool) });
  }

  /** Records that `tool`'s card left it undecided: it waits for the next card, which shows it as `held` says. */
  async hold(store: BaseStore | undefined, threadId: string, tool: WriteCall, held: HeldWrite): Promise<void> {
    await this.#put(store, threadId, tool.id, { held: { ...held, call: describeCall(tool) } });
  }

  /**
   * What a human decided on exactly `tool` on thread `threadId`, in one read: approved (`{}`), or left for the next card
   * (`{ held }`, what that card says of it). Throws WRITE_NOT_APPROVED for any other call.
   */
  async decisionOf(store: BaseStore | undefined, threadId: string, tool: WriteCall): Promise<{ held?: HeldWrite }> {
    const recorded = await this.#get(store, threadId, tool.id);
    const call = describeCall(tool);
    if (recorded?.held?.call === call)
      return { held: { summary: recorded.held.summary, reason: recorded.held.reason } };
    if (recorded?.call !== call) {
      throw new TempoError(
        "WRITE_NOT_APPROVED",
        `The write ${tool.name} (${tool.id}) was not approved on its card, so it was not applied; a write applies only after its card is answered. Nothing was changed.`,
        { threadId, toolCallId: tool.id },
      );
    }
    return {};
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

/** What a card shows of a write it waits on: its description and the model's reason. */
export interface HeldWrite {
  summary: string;
  reason: string;
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
