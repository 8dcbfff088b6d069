/**
 * Write cards already applied, settled before anyone reads them (issue 25, "Reconcile"). `langgraph dev` keeps its
 * threads and checkpoints in its own store, saved to disk 3 s after its last write; killed in between, it restarts on
 * an older checkpoint — a write card its last run answered and applied — while the execution log (Postgres) holds the
 * card's writes as applied. Such a card is never shown again: the first time a thread is read after the server
 * started (`GET /threads/{id}`, its `/state`, its `/history`), or a user first searches their threads (Agent Inbox
 * and Agent Chat UI list them with `POST /threads/search`), a card whose every write the log holds is answered by
 * a run made as the caller — confirm takes no answer for such a card, it reconciles it with the log (the thread moves
 * on as if approved, applies nothing twice, and tells the user what had been applied) — and only then is the read
 * answered. A stale card can only come from a start, so each thread is checked once per process, and each user's
 * interrupted threads once.
 */
import { randomUUID } from "node:crypto";
import { allLogged } from "../review/write-facts.js";
import { RECONCILING_RESUME } from "../review/write-answers.js";
import type { ExecutionLog } from "../tools/runner.js";
import { proposedWrites } from "../kernel/proposal.js";
import type { TempoState } from "../kernel/state.js";
import { credentialsOf, loopback, runToEnd, segmentsOf } from "./served-routes.js";
import { CARRY_ON_ONLY_KEY } from "../server/run-options.js";

/** How many threads (and users) a process remembers having checked; past it the oldest is forgotten (checked again). */
export const APPLIED_CARDS_LIMIT = 10_000;
/** How many of a user's interrupted threads one search checks, at most. */
const SEARCH_LIMIT = 100;

type ThreadState = {
  values?: {
    pending?: { kind?: string; messageId?: string; tools?: Array<{ id?: unknown }> } | null;
    messages?: unknown[];
  };
  next?: string[];
  tasks?: Array<{ interrupts?: unknown[]; error?: unknown }>;
  checkpoint?: { checkpoint_id?: string };
};

/**
 * True when a thread's state (as the server reads it) is a run that stopped part-way: work left (`next`), no card
 * open and no error recorded (a failed run is retried by "continue", not by a read).
 */
export function stoppedRun(state: ThreadState): boolean {
  const tasks = state.tasks ?? [];
  return (
    (state.next ?? []).length > 0 &&
    !tasks.some((task) => (task.interrupts ?? []).length > 0 || (task.error !== undefined && task.error !== null))
  );
}

/** The write-card tool-call ids of a thread's state, when it waits on a write card; else undefined. */
export function waitingWriteIds(state: ThreadState): string[] | undefined {
  const pending = state.values?.pending;
  if (pending?.kind !== "confirm_tool" || !(state.tasks ?? []).some((task) => (task.interrupts ?? []).length > 0))
    return undefined;
  // Today's card is its proposal's tool calls; a thread saved by graph@2 kept them in `pending.tools`.
  const values = { ...state.values, messages: state.values?.messages ?? [] } as Pick<
    TempoState,
    "pending" | "messages"
  >;
  const ids: unknown[] =
    pending.messageId !== undefined
      ? proposedWrites(values).map((write) => write.id)
      : (pending.tools ?? []).map((tool) => tool.id);
  return ids.length > 0 && ids.every((id): id is string => typeof id === "string") ? ids : undefined;
}

export class AppliedCards {
  /** Marks this class's own loopback requests, which are not checked again (a forged mark only skips the check). */
  readonly #mark = randomUUID();
  readonly #threads = new Map<string, Promise<void>>();
  readonly #users = new Map<string, Promise<void>>();
  /** Carry-ons of stopped runs under way, by caller and thread. */
  readonly #carryOns = new Map<string, Promise<void>>();

  /** `executionLog` resolves the served graph's log, or undefined when it has none (no DATABASE_URL). */
  constructor(
    private readonly executionLog: () => Promise<ExecutionLog | undefined>,
    private readonly limit = APPLIED_CARDS_LIMIT,
  ) {}

  /**
   * The headers of a loopback read that sees a thread as it stands, not settled first: a check made before a run
   * (auth/http-app.ts) — the run itself takes a card already applied to confirm, which reconciles it, and a
   * settling run's own check must not wait on that settle.
   */
  unsettledRead(): Record<string, string> {
    return { [MARK_HEADER]: this.#mark };
  }

  /** Settles the applied card a request is about to read, if any. Never fails the request: a failed check is logged. */
  async beforeRead(request: Request, identity: string): Promise<void> {
    if (request.headers.get(MARK_HEADER) === this.#mark) return;
    const path = segmentsOf(request);
    const [first, second, third] = path.map((segment) => segment.toLowerCase());
    const credentials = credentialsOf(request);
    if (first === "threads" && second === "search" && path.length === 2) {
      await once(this.#users, identity, { limit: this.limit }, () => this.#settleInterrupted(identity, credentials));
    } else if (
      first === "threads" &&
      second !== undefined &&
      (path.length === 2 || (path.length === 3 && (third === "state" || third === "history")))
    ) {
      if (request.method === "GET" || third === "history") {
        await this.#settle(identity, path[1]!, credentials);
        await this.#carryOn(identity, path[1]!, credentials);
      }
    }
  }

  /**
   * Carries on a stopped run of the thread before it is read (server/carry-on.ts): a thread the server does not show
   * busy (a dead worker's run is no longer running) whose latest checkpoint has work left and no card. The run is made
   * as the caller, carry-on only (`CARRY_ON_ONLY_KEY`: held, a thread no longer stopped is left as it is), through the
   * server's one run per thread and the graph's run guard, and read to its end, so the read shows its next card or its
   * answer. Checked on every read (a worker can die at any time), but one carry-on per thread and checkpoint at a time.
   */
  #carryOn(identity: string, threadId: string, credentials: Record<string, string>): Promise<void> {
    // Shared by the reads that ask at once, and forgotten when it ends: the next read checks again.
    return once(this.#carryOns, `${identity}\n${threadId}`, { what: "carrying on", remember: false }, async () => {
      const read = await this.#loopback(`/threads/${encodeURIComponent(threadId)}/state`, credentials);
      if (!read.ok || !stoppedRun((await read.json()) as ThreadState)) return;
      // A run in progress leaves the same state: only a thread the server does not show busy is carried on.
      const thread = await this.#loopback(`/threads/${encodeURIComponent(threadId)}`, credentials);
      if (!thread.ok || ((await thread.json()) as { status?: string }).status === "busy") return;
      const failed = await runToEnd(
        threadId,
        { input: null, config: { configurable: { [CARRY_ON_ONLY_KEY]: true } } },
        { ...credentials, [MARK_HEADER]: this.#mark },
      );
      console.warn(
        failed
          ? `[tempo] thread ${threadId}: carrying on its stopped run failed (${failed})`
          : `[tempo] thread ${threadId}: its last run had stopped part-way (a dead worker); carried on when it was read.`,
      );
    });
  }

  /** Settles the caller's interrupted threads (the first search of a user in this process). */
  async #settleInterrupted(identity: string, credentials: Record<string, string>): Promise<void> {
    const response = await this.#loopback("/threads/search", credentials, {
      status: "interrupted",
      limit: SEARCH_LIMIT,
    });
    if (!response.ok) return;
    const threads = (await response.json()) as Array<{ thread_id?: unknown }>;
    for (const thread of threads)
      if (typeof thread.thread_id === "string") await this.#settle(identity, thread.thread_id, credentials);
  }

  /** Checked once per caller and thread: another user's probe (refused) does not count as the owner's check. */
  #settle(identity: string, threadId: string, credentials: Record<string, string>): Promise<void> {
    return once(this.#threads, `${identity}\n${threadId}`, { limit: this.limit }, async () => {
      const read = await this.#loopback(`/threads/${encodeURIComponent(threadId)}/state`, credentials);
      // Not the caller's thread, or no state yet: nothing to settle (the read itself answers as it would).
      if (!read.ok) return;
      const state = (await read.json()) as ThreadState;
      const ids = waitingWriteIds(state);
      const log = ids ? await this.executionLog() : undefined;
      if (!ids || !log) return;
      if (!(await allLogged(ids, log, threadId))) return;
      // The answer is not taken: a card whose every write is logged is reconciled (review/write-answers.ts).
      const failed = await runToEnd(
        threadId,
        { command: { resume: RECONCILING_RESUME }, checkpoint_id: state.checkpoint?.checkpoint_id },
        { ...credentials, [MARK_HEADER]: this.#mark },
      );
      console.warn(
        failed
          ? `[tempo] thread ${threadId}: settling a card already applied failed (${failed})`
          : `[tempo] thread ${threadId}: a card whose ${ids.length} write(s) the execution log holds as applied was settled, not shown again.`,
      );
    });
  }

  #loopback(url: string, credentials: Record<string, string>, body?: unknown): Promise<Response> {
    const headers = {
      ...credentials,
      [MARK_HEADER]: this.#mark,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    };
    return loopback(
      url,
      body === undefined ? { method: "GET", headers } : { method: "POST", headers, body: JSON.stringify(body) },
    );
  }
}

/** The header that marks `AppliedCards`' own loopback requests. */
const MARK_HEADER = "x-tempo-settling";

/**
 * Runs `work` once per key: callers of a key in flight wait for the same run. A failure is logged, not thrown, and
 * forgotten, so the next read tries again (a database back from an outage settles the card then). What succeeded is
 * remembered (the `limit` newest keys), unless `remember` is false: then it is forgotten as soon as it ends.
 */
function once(
  runs: Map<string, Promise<void>>,
  key: string,
  {
    limit = Infinity,
    what = "checking for a card already applied",
    remember = true,
  }: { limit?: number; what?: string; remember?: boolean },
  work: () => Promise<void>,
): Promise<void> {
  const known = runs.get(key);
  if (known) return known;
  const running = work().then(
    () => {
      if (!remember) runs.delete(key);
    },
    (error: unknown) => {
      runs.delete(key);
      console.warn(`[tempo] ${what} ${key} failed: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  runs.set(key, running);
  if (runs.size > limit) runs.delete(runs.keys().next().value!);
  return running;
}
