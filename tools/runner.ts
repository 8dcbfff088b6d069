/**
 * Runs a domain tool for the graph: validates arguments against the tool's
 * schema, loads the user's domain state, runs the pure tool, and persists a
 * write's change through the domain — exactly once per tool-call id, with its
 * execution log entry in the same transaction when the log and the
 * repository share a Postgres database.
 */
import { argumentIssueOf, type InvalidArguments } from "./argument-issues.js";
import type { AppliedWrite, DomainTool, ToolDomain, TransactionClient } from "./domain.js";
import { findTool } from "./domain.js";
import { fromJsonText } from "../contracts/json-extraction.js";
import type { Preference } from "../contracts/preferences.js";
import { unstorableTextIn } from "../contracts/storable-text.js";
import { TempoError } from "../errors/index.js";

/** One tool call as the model made it. */
export interface ToolInvocation {
  /** Tool-call id; the idempotency key for writes. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** What a tool call gave back: the tool message's content, and whether a write changed the repository. */
export interface ToolOutcome {
  ok: boolean;
  content: string;
  /** For writes: whether this call changed the repository (false when already applied or failed). */
  applied: boolean;
  /** The tool's structured result (`ToolRun.data`), when it gave one; a write answered from the log has none. */
  data?: unknown;
}

/** Who and where a tool call runs for. */
export interface ToolRunContext {
  userId: string;
  threadId: string;
  /** The plan step the call belongs to, or null. */
  stepId: string | null;
  /** The user's standing preferences (recalled for the invocation): the domain's `withPreferences` folds them into the state the tool runs on. */
  preferences?: readonly Preference[];
  /**
   * The moment the run takes as now (`configurable.now`, else the graph's clock): the domain's `withClock` folds it into
   * the state the tool runs on, so no write lands in the past (issue 47). Absent (a bare tool call), nothing is past.
   */
  now?: Date;
  /**
   * The writes of the thread's last applied card, oldest first (`kernel/applied-writes.ts`): the domain's
   * `withLastChange` folds them into the state the tool runs on, so a tool can offer to undo them. Absent, none.
   */
  lastChange?: readonly AppliedWrite[];
}

/**
 * The append-only record of tool calls (docs/design.md#execution-log). The
 * runner writes every call to it. Before a write runs, the runner asks it:
 * a write whose tool-call id already has a completed entry is not run again,
 * and the recorded outcome is returned.
 */
export interface ExecutionLog {
  /** The recorded outcome of a completed call with this tool-call id (in this thread, when given), if any. */
  completed(toolCallId: string, threadId?: string): Promise<ToolOutcome | undefined>;
  /**
   * Optional: `completed` for many calls of thread `threadId` at once (one round trip on Postgres): the recorded
   * outcome of each of `toolCallIds` the log holds as completed; the others are absent.
   */
  completedMany?(toolCallIds: readonly string[], threadId: string): Promise<Map<string, ToolOutcome>>;
  /** Appends one entry. */
  append(entry: ExecutionLogEntry): Promise<void>;
  /**
   * Optional, and what makes a write exactly-once: claims the write — records `entry` (its completed entry) unless
   * the log already holds a completed entry for its tool-call id on its thread — and, when claimed, runs `apply`
   * in the same transaction (the Postgres log passes its transaction's `client`, where every domain's tables live),
   * so the change and its entry commit together or not at all. Resolves false, having applied nothing, when the
   * write was already claimed (by another run, maybe at the same moment); `apply`'s error rolls the claim back.
   */
  applyOnce?(entry: ExecutionLogEntry, apply: (client?: TransactionClient) => Promise<void>): Promise<boolean>;
  /**
   * Optional: called before a confirmed write runs (or is answered from the record). Resolves when this run may
   * go on; rejects — e.g. with a `TempoError` coded `ALREADY_RESUMED` — when another run resumed the thread first.
   */
  admitWrite?(context: ToolRunContext, call: ToolInvocation): Promise<void>;
}

/** How an entry came about. */
export type ExecutionLogStatus =
  /** The tool ran (for a write: applied, or refused by the tool). */
  | "completed"
  /** The call was not run again: its recorded outcome was returned (a resume after a crash). */
  | "replayed"
  /** The tool or its repository threw; nothing is recorded as done, so a retry runs it again. */
  | "failed";

/** One entry of the execution log. */
export interface ExecutionLogEntry {
  threadId: string;
  userId: string;
  stepId: string | null;
  toolCallId: string;
  tool: string;
  kind: "read" | "write" | "unknown";
  arguments: Record<string, unknown>;
  result: string;
  ok: boolean;
  applied: boolean;
  startedAt: Date;
  finishedAt: Date;
  /** Default "completed". */
  status?: ExecutionLogStatus;
}

/** The parsed arguments of a call, or a readable problem with them. */
export type ArgumentCheck =
  { ok: true; arguments: Record<string, unknown> } | { ok: false; problem: string; data: InvalidArguments };

/**
 * Validates `args` against the tool's schema and returns the parsed arguments or a readable problem. Text Postgres
 * cannot store (a NUL, an unpaired surrogate), in any value or key however nested, is refused first, for every tool
 * of every domain: such a write would pass its trial and its card and fail only when applied.
 */
export function checkToolArguments(tool: DomainTool<unknown>, args: unknown): ArgumentCheck {
  const unstorable = unstorableTextIn(args);
  if (unstorable)
    return {
      ok: false,
      problem: `invalid arguments for ${tool.name}: ${unstorableProblem(unstorable)}`,
      data: { invalidArguments: { tool: tool.name, issues: [{ field: unstorable.where, problem: "not_usable" }] } },
    };
  let result = tool.schema.safeParse(args ?? {});
  if (!result.success) {
    // Numbers, booleans and lists given as text (`"day": "3"`, as models and card edit forms send them) read as JSON —
    // only the fields the schema refused, so a text field holding digits stays text.
    const coerced = withTextValuesRead(
      args,
      new Set(result.error.issues.map((issue) => issue.path[0]).filter((key) => typeof key === "string")),
    );
    const retried = coerced === undefined ? undefined : tool.schema.safeParse(coerced);
    // Failed again: its problems are the ones to tell (a "3" the retry read as 3 is not one of them).
    if (retried) result = retried;
  }
  if (result.success) return { ok: true, arguments: result.data as Record<string, unknown> };
  // Each problem names the value given (an edit form sends text: "expected number, received string" alone does not say which).
  const issues = result.error.issues.slice(0, 4);
  const problems = issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join(".") : "(arguments)";
      const given = givenValue(args, issue.path);
      // "day: expected a number, got "someday"" — the wrong type said with the value, as a person typed it.
      if (issue.code === "invalid_type" && given)
        return `${field}: expected a ${String((issue as { expected?: unknown }).expected)}, got ${given}`;
      return `${field}: ${issue.message}${given ? ` (given: ${given})` : ""}`;
    })
    .join("; ");
  return {
    ok: false,
    problem: `invalid arguments for ${tool.name}: ${problems}`,
    // What a person is told, from data (the text above is the model's).
    data: {
      invalidArguments: {
        tool: tool.name,
        issues: issues.map((issue) => argumentIssueOf(issue, givenValue(args, issue.path))),
      },
    },
  };
}

/**
 * The keys of `given` that the parsed arguments (`parsed`, what `checkToolArguments` returned for them) do not keep,
 * each by its path ("pinned", "moves[1].note"): a tool's zod object drops a key it does not know. A value given as
 * JSON text (as edit forms send lists and objects) is read as JSON first. Walked along `parsed`, whose shape the
 * schema bounds.
 */
export function droppedArgumentKeys(given: unknown, parsed: unknown, path = ""): string[] {
  if (parsed === null || typeof parsed !== "object") return [];
  const value = typeof given === "string" ? fromJsonText(given) : given;
  if (value === null || typeof value !== "object" || Array.isArray(value) !== Array.isArray(parsed)) return [];
  if (Array.isArray(parsed)) {
    const items = value as unknown[];
    return parsed.flatMap((item, index) => droppedArgumentKeys(items[index], item, `${path}[${index}]`));
  }
  const kept = parsed as Record<string, unknown>;
  return Object.entries(value).flatMap(([key, item]) => {
    const at = path === "" ? key : `${path}.${key}`;
    return Object.hasOwn(kept, key) ? droppedArgumentKeys(item, kept[key], at) : [at];
  });
}

/** A tool argument's unstorable text as the model reads it: where, what, and what to do. */
export function unstorableProblem(found: { where: string; problem: string }): string {
  return `${found.where}: holds ${found.problem}, which cannot be stored; call again with the text without it`;
}

/** The value at `path` of `args` as JSON (`"someday"`), cut to 40 characters; "" when there is none. */
function givenValue(args: unknown, path: ReadonlyArray<PropertyKey>): string {
  let value: unknown = args;
  for (const key of path)
    value = value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  if (value === undefined || path.length === 0) return "";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** `args` with the text values of `keys` read as JSON (`fromJsonText`), or undefined when that changes none of them. */
function withTextValuesRead(args: unknown, keys: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const given = args as Record<string, unknown>;
  const read = Object.fromEntries(
    [...keys].filter((key) => key in given).map((key) => [key, fromJsonText(given[key])]),
  );
  return Object.entries(read).some(([key, value]) => value !== given[key]) ? { ...given, ...read } : undefined;
}

/**
 * The user's domain state as a tool runs on it: loaded, with the standing preferences recall loaded
 * (`ToolRunContext.preferences`) folded in as rules by the domain's `withPreferences` — never persisted. `load` gives
 * the stored state when the caller loads it for other uses too (one load a round).
 */
export async function stateForRun(
  domain: ToolDomain,
  context: Pick<ToolRunContext, "userId" | "preferences" | "now" | "lastChange">,
  load: () => Promise<unknown> = () => domain.load(context.userId),
): Promise<unknown> {
  const loaded = await load();
  const ruled =
    context.preferences?.length && domain.withPreferences
      ? domain.withPreferences(loaded, context.preferences)
      : loaded;
  const clocked = context.now && domain.withClock ? domain.withClock(ruled, context.now) : ruled;
  return context.lastChange?.length && domain.withLastChange
    ? domain.withLastChange(clocked, context.lastChange)
    : clocked;
}

/** A tool-call result for a tool the domain does not have. */
export function unknownToolOutcome(domain: ToolDomain, name: string): ToolOutcome {
  const names = domain.tools.map((tool) => tool.name).join(", ");
  return { ok: false, applied: false, content: `Error: unknown tool "${name}". Available tools: ${names}.` };
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  /**
   * What the log answered for this call when the caller looked up a batch of writes at once (`completedMany`, one
   * round trip for a card's writes, issue 44.8) in this step: its recorded outcome, or null for none. The write's own
   * look-up is then skipped. A write completed since the batch was read is still applied once: its claim finds the
   * completed entry, and the write is answered from the record.
   */
  recorded?: ToolOutcome | null;
  /**
   * The frame the write's card was made in (`ToolDomain.cardFrame`: the schedule's window). The write applies only on
   * a state still in it, checked on every attempt's fresh load; on one whose frame moved it is refused with the
   * domain's reason and nothing is applied.
   */
  frame?: string;
}

/**
 * Runs one tool call; never throws for bad calls (they become error results), only for repository and log failures
 * (and for `admitWrite`'s refusal).
 *
 * A write runs at most once per tool-call id, for every domain alike: the log is asked first (a completed call returns
 * its recorded result, so a resume after a crash gets the same tool message); then the log claims the write — its
 * completed entry — and the domain persists the change in the same transaction (`ExecutionLog.applyOnce`), so there
 * is no moment where the change is applied but not recorded, and a second run claiming the same write applies
 * nothing. Repositories keep no record of applied ids.
 */
export async function runTool(
  domain: ToolDomain,
  context: ToolRunContext,
  call: ToolInvocation,
  log?: ExecutionLog,
  options: RunToolOptions = {},
): Promise<ToolOutcome> {
  const startedAt = new Date();
  const tool = findTool(domain, call.name);
  const entry = (outcome: ToolOutcome, status: ExecutionLogStatus): ExecutionLogEntry => ({
    threadId: context.threadId,
    userId: context.userId,
    stepId: context.stepId,
    toolCallId: call.id,
    tool: call.name,
    kind: tool?.kind ?? "unknown",
    arguments: call.arguments,
    result: outcome.content,
    ok: outcome.ok,
    applied: outcome.applied,
    startedAt,
    finishedAt: new Date(),
    status,
  });

  // A write the log holds as completed is answered from the record, and the answer logged as a replay. `known`: what
  // the caller's batch look-up found (`RunToolOptions.recorded`); a replay after a lost claim always reads afresh.
  const replay = async (known?: ToolOutcome | null): Promise<ToolOutcome | undefined> => {
    const recorded = known === undefined ? await log?.completed(call.id, context.threadId) : (known ?? undefined);
    if (!recorded) return undefined;
    const replayed: ToolOutcome = { ok: recorded.ok, content: recorded.content, applied: false };
    await log!.append(entry(replayed, "replayed"));
    return replayed;
  };
  if (tool?.kind === "write" && log) {
    await log.admitWrite?.(context, call);
    const replayed = await replay(options.recorded);
    if (replayed) return replayed;
  }

  let outcome: ToolOutcome;
  let status: "completed" | "claimed" | "replayed";
  try {
    ({ outcome, status } = await runToolOnce(
      domain,
      context,
      call,
      log?.applyOnce ? (applied, apply) => log.applyOnce!(entry(applied, "completed"), apply) : undefined,
      options.frame,
    ));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await log
      ?.append(entry({ ok: false, applied: false, content: `Error: ${message}` }, "failed"))
      .catch(() => undefined);
    throw error;
  }
  // Claimed by another run (maybe at the same moment): this one only replays it — one completed entry per write.
  if (status === "replayed") return (await replay()) ?? outcome;
  if (status === "claimed" || !log) return outcome;
  // A log that cannot claim (no `applyOnce`): the entry follows the change. A second completed entry is refused by
  // the log (one per write): the other run completed it at the same moment.
  const lost = await log.append(entry(outcome, "completed")).then(
    () => false,
    async (error: unknown) => {
      if (tool?.kind === "write" && (await log.completed(call.id, context.threadId))) return true;
      throw error;
    },
  );
  if (lost) return (await replay())!;
  return outcome;
}

/**
 * The recorded result of an approved write that was not applied because its run was cancelled (the LangGraph server's
 * cancel, Agent Chat UI's stop, a multitask `interrupt` / `rollback`) before it: said to the model and the user, and
 * what the execution log holds for it, so no later run applies it.
 */
export const CANCELLED_WRITE_RESULT = "Not applied: the run was cancelled before this change was made.";

/** True for a recorded outcome that is a write's cancellation ({@link recordCancelledWrite}). */
export function isCancelledWrite(outcome: Pick<ToolOutcome, "applied" | "content"> | null | undefined): boolean {
  return outcome?.applied === false && outcome.content === CANCELLED_WRITE_RESULT;
}

/**
 * Records that the approved write `call` will not apply: its run was cancelled before it. The record is the write's
 * completed entry, claimed as a write claims it (`applyOnce`, applying nothing), so a later run — the one that carries
 * the thread on, in any process — answers it from the log and never applies it; a run that claimed it first keeps its
 * claim. Resolves the outcome the log now holds for the call (the cancellation, or the other run's).
 */
export async function recordCancelledWrite(
  context: ToolRunContext,
  call: ToolInvocation,
  log: ExecutionLog,
): Promise<ToolOutcome> {
  const at = new Date();
  const cancelled: ToolOutcome = { ok: false, applied: false, content: CANCELLED_WRITE_RESULT };
  const entry: ExecutionLogEntry = {
    threadId: context.threadId,
    userId: context.userId,
    stepId: context.stepId,
    toolCallId: call.id,
    tool: call.name,
    kind: "write",
    arguments: call.arguments,
    result: cancelled.content,
    ok: false,
    applied: false,
    startedAt: at,
    finishedAt: at,
    status: "completed",
  };
  const claimed = log.applyOnce
    ? await log.applyOnce(entry, async () => undefined)
    : !(await log.completed(call.id, context.threadId)) &&
      (await log.append(entry).then(
        () => true,
        () => false,
      ));
  return claimed ? cancelled : ((await log.completed(call.id, context.threadId)) ?? cancelled);
}

/**
 * Runs the tool once and says what became of it: `completed` (to record), `claimed` (a write applied and its entry
 * committed with it, through `claim`), or `replayed` (the write was claimed already: nothing applied).
 */
/**
 * How many times a confirmed write is run on a fresh load of the user's state when its change conflicts with what is
 * stored. Another write of the same user (an approval on another thread) can commit between this one's load and its
 * apply: the first claims `todo-5`, the second finds it taken. The second then runs again on the state as it now is —
 * as it would have, applied a moment later — and gets `todo-6`; a change the tool now refuses ends as that refusal.
 * Each attempt's claim rolls back with its conflict, so the write still applies once.
 */
export const MAX_APPLY_ATTEMPTS = 5;

/** True for a domain's refusal of a change that no longer fits the stored state (nothing of it was applied). */
function isConflict(error: unknown): boolean {
  return error instanceof TempoError && (error.code === "DOMAIN_CONFLICT" || error.code === "SCHEDULE_CONFLICT");
}

/** The claim a write applies under: `applyOnce` of the log, given the write's completed entry. */
type Claim = (applied: ToolOutcome, apply: (client?: TransactionClient) => Promise<void>) => Promise<boolean>;

async function runToolOnce(
  domain: ToolDomain,
  context: Pick<ToolRunContext, "userId" | "preferences" | "now" | "lastChange">,
  call: ToolInvocation,
  claim?: Claim,
  frame?: string,
): Promise<{ outcome: ToolOutcome; status: "completed" | "claimed" | "replayed" }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runToolAttempt(domain, context, call, claim, frame);
    } catch (error) {
      // Another write of the user committed first: run again on the state as it is now (see MAX_APPLY_ATTEMPTS).
      if (!isConflict(error) || attempt >= MAX_APPLY_ATTEMPTS) throw error;
    }
  }
}

/** One run of the tool on a fresh load of the user's state (`runToolOnce`). */
async function runToolAttempt(
  domain: ToolDomain,
  context: Pick<ToolRunContext, "userId" | "preferences" | "now" | "lastChange">,
  call: ToolInvocation,
  claim?: Claim,
  frame?: string,
): Promise<{ outcome: ToolOutcome; status: "completed" | "claimed" | "replayed" }> {
  const completed = (outcome: ToolOutcome) => ({ outcome, status: "completed" as const });
  const tool = findTool(domain, call.name);
  if (!tool) return completed(unknownToolOutcome(domain, call.name));
  const checked = checkToolArguments(tool, call.arguments);
  if (!checked.ok)
    return completed({ ok: false, applied: false, content: `Error: ${checked.problem}`, data: checked.data });
  const { userId } = context;
  // The user's standing preferences and the clock ride on the state as rules; `persist` never stores them.
  const before = await stateForRun(domain, context);
  // A write approved on a card made in another frame (the week rolled on since) would not do what its card showed.
  if (tool.kind === "write" && frame !== undefined && domain.cardFrame) {
    const stale = domain.cardFrame.stale(before, { name: call.name, arguments: checked.arguments }, frame);
    if (stale !== undefined) return completed({ ok: false, applied: false, content: `Error: ${stale}` });
  }
  const run = tool.runAsync ? await tool.runAsync(before, checked.arguments) : tool.run(before, checked.arguments);
  const data = run.data === undefined ? {} : { data: run.data };
  if (tool.kind === "read" || !run.ok || run.state === undefined)
    return completed({ ok: run.ok, content: run.content, applied: false, ...data });
  const applied: ToolOutcome = { ok: true, applied: true, content: run.content, ...data };
  const after = run.state;
  const persist = async (client?: TransactionClient) => {
    await domain.persist(userId, before, after, { applyId: call.id, ...(client ? { client } : {}) });
  };
  if (!claim) {
    await persist();
    return completed(applied);
  }
  if (!(await claim(applied, persist))) {
    return {
      outcome: {
        ok: true,
        applied: false,
        content: `${run.content} (this change had already been applied; nothing was applied twice)`,
      },
      status: "replayed",
    };
  }
  return { outcome: applied, status: "claimed" };
}
