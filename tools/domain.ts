/**
 * The tool-domain contract. The graph knows nothing about schedules: it takes
 * a `ToolDomain`, shows its tools to the model, runs read tools at once and
 * routes write tools through a human confirmation, then persists the change
 * through the domain.
 *
 * Tools are pure functions over the domain state: `run(state, args)` never
 * mutates `state`; a write returns the next state, and the runner persists the
 * difference through `persist`. The domain repository is the source of truth,
 * so the graph state (and its checkpoints) never holds a copy of the domain
 * data.
 */
import type { AppliedWrite } from "../contracts/applied-write.js";
import type { z } from "zod";
import type { Language } from "../contracts/language.js";
import type { Preference, PreferenceChange, PreferenceOrigin } from "../contracts/preferences.js";
import { normalizeStepText } from "../contracts/plan.js";

/**
 * The zod `.meta()` flag of an argument the code fills itself from what the user decided in the task (a domain's
 * `decisions.read`): a model may still send it, but is not shown it.
 */
export const KEPT_BY_CODE = { keptByCode: true } as const;

/** Read tools run as soon as the model asks; write tools always wait for a confirmation. */
export type ToolKind = "read" | "write";

/** A change a proposing tool offers (`DomainTool.proposes`): the real write calls it stands for, and what it does in words. */
export interface ProposedCandidate {
  /** Unique in its listing ("c1", "a1"). */
  id: string;
  writes: Array<{ name: string; arguments: Record<string, unknown> }>;
  summary: string;
}

/** The data of a proposing tool's result: the candidates `choose_candidate` picks from, valid until the next write. */
export interface CandidateListing {
  candidates: ProposedCandidate[];
  /** The domain's judge's score of the state the listing was made from (the refinement loop tracks it). */
  score?: number;
  /** What no candidate can fix, for people ("binary-tree-review (fits nowhere beside the others, proved)"). */
  forced?: string;
  /** Why the list is empty, when it is. */
  empty?: string;
  /** How many items the state still leaves open (the schedule's pending reviews): fewer than before is a gain. */
  open?: number;
}

/**
 * How a domain refines after a rough first pass (seed 003's active optimisation): a plan step that lists candidates
 * and has the model choose, round after round, until the code stops it — no gain of `minGain` for `stagnantRounds`
 * listings, `maxRounds` listings, or a listing with nothing left to choose (the rest is forced).
 */
export interface Refinement {
  /** The refinement step: inserted after the first step of a `first_full` plan that has none; a step of this text refines. */
  step: { content: string; doneWhen: string };
  /** The step in other languages (inserted for a user writing in one; a step of any of these texts refines too). */
  localized?: Partial<Record<Language, { content: string; doneWhen: string }>>;
  /** The packs a refinement step is limited to (the whitelist while optimising). */
  packs: readonly string[];
  /**
   * The listing the code makes itself in a refinement step, at its start and after each change applied (a read tool
   * whose data is a `CandidateListing` with a `score`): the model then only chooses. Without, the model lists.
   */
  list?: {
    tool: string;
    arguments: Record<string, unknown>;
    /**
     * A listing call's `args` kept to what the user decided in the task so far (`TaskDecisions`: what they edited,
     * rejected and said on the cards). Every listing of the step goes through it, the code's and the model's own,
     * so no candidate undoes a decision.
     */
    limits?: (task: TaskDecisions, args: Record<string, unknown>) => Record<string, unknown>;
  };
  maxRounds: number;
  stagnantRounds: number;
  minGain: number;
}

/**
 * A plan's closing check, made by the code (issue 49): a step of this text ("Verify the schedule"), reached when every
 * write of the task applied (none declined, none approved and left unapplied), is ended from the data the backend
 * holds, with no model call — the model would only confirm what the code already knows.
 */
export interface Verification<TState> {
  step: { content: string; doneWhen: string };
  /** The step in other languages (a step of any of these texts verifies too). */
  localized?: Partial<Record<Language, { content: string; doneWhen: string }>>;
  /**
   * The served domain whose open items it checks, where several are served (`tools/combined-domain.ts` sets it, as on
   * `OpenItem.domain`): the others' open items (a to-do) are not the step's to place.
   */
  domain?: string;
  /**
   * What the data shows: the step's summary (in the words the domain's offline policy and reports read) and the
   * answer's first line, in `language`, never claiming more than the data shows; `told`, the summary said in
   * `language` from the same data (without it, an answer tells the summary through `stepSummary`).
   */
  check(data: TState, language: Language): { summary: string; heading: string; told?: string };
  /**
   * Placing by hand: an arranging step whose writes were all of `tools` (they only place what is open,
   * `ToolDomain.openItems`), every one applied, is ended by the code once no open item fits as the data stands —
   * a model that placed by hand would only read the data back to confirm it.
   */
  placing?: {
    tools: readonly string[];
    /**
     * The ids of the open items that still fit somewhere as the data stands, nothing else moved: what ends a step
     * placed by hand only when none, and what an answer tells of an item still open (it could have been placed).
     */
    stillFit(data: TState): readonly string[];
    /**
     * Proposing tools whose card's writes are no placing by hand: a step that listed with one of them (the schedule's
     * `propose_reschedule`) is ended by the model, which says what its card did ("rescheduled: placed …"), never by
     * the code's check, whose summary names no place.
     */
    notByHand?: readonly string[];
  };
}

/** A write of the task as the user decided it on its card. */
export interface DecidedWrite {
  name: string;
  /** The arguments it was decided with (the edited ones, for an edit). */
  arguments: Record<string, unknown>;
  /** What came of it: applied, declined (rejected on its card), failed, held. */
  outcome: "applied" | "declined" | "failed" | "held";
  /** True when the user edited it on the card. */
  edited: boolean;
  /** What the user wrote when rejecting it ("" for none). */
  feedback: string;
}

/** What the user decided in the current task, for a refinement's listing (`Refinement.list.limits`). */
export interface TaskDecisions {
  /** The task's decided writes, oldest first. */
  writes: DecidedWrite[];
  /** True when the request asks to re-arrange what was placed before it (a `global_reopt` plan). */
  reopens: boolean;
}

/**
 * What the user decided on the task's cards, held for every call the task makes — the model's own `place` or search
 * as much as the refinement's listing (`ToolDomain.decisions`, issue 46): a read call's arguments kept to them (a
 * search that avoids a day the user called off), and a write that would undo one refused with the reason.
 */
export interface TaskDecisionRules<TState> {
  /** A read call's `args` kept to the task's decisions (unchanged for a tool they do not bear on). */
  read(task: TaskDecisions, tool: string, args: Record<string, unknown>): Record<string, unknown>;
  /**
   * Why the write `tool(args)`, tried on `state`, undoes a decision of the task ("Error: Friday is your day off (you
   * said so in this task …) …"), in words the model reads; undefined when it keeps to them.
   */
  write(state: TState, task: TaskDecisions, tool: string, args: Record<string, unknown>): string | undefined;
}

/** What one tool run gives back. */
export interface ToolRun<TState> {
  /** False when the call was rejected (bad arguments, conflict, unknown id); the state is then unchanged. */
  ok: boolean;
  /** Compact text for the model to read. */
  content: string;
  /** The next domain state, for a successful write only. */
  state?: TState;
  /**
   * What `content` says, as data — for programs, not the model: the tool message's `artifact.data`, which the
   * offline policies read instead of parsing `content` back (kernel/tool-results.ts). JSON-serialisable.
   */
  data?: unknown;
}

export type { AppliedWrite } from "../contracts/applied-write.js";

/** One tool of a domain. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default lets domains of any state share one list (a parameter in both positions)
export interface DomainTool<TState, TArgs = any> {
  /** snake_case name the model calls. */
  name: string;
  /** One paragraph for the model: what it does, when to use it. */
  description: string;
  /** Arguments schema; every field carries `.describe()`. */
  schema: z.ZodType<TArgs>;
  kind: ToolKind;
  /**
   * True for a read tool whose `data` is a `CandidateListing`: changes the backend proposes, which the model picks
   * by id with `choose_candidate` (seed 003: the backend decides, the model chooses).
   */
  proposes?: boolean;
  /**
   * For a write whose arguments are a record the backend kept, not something a model types (`restore_task`, the task
   * as `remove_task` recorded it): the proposing tool whose candidates carry it (`"propose_undo"`). It is offered to
   * no model — not bound, not in a brief or a pack's list, where its schema (a whole record) would be paid on every
   * request for nothing — and a model's own call of it is refused; `choose_candidate` applies it from the listing.
   */
  candidateOf?: string;
  /**
   * Required of a candidate's write (`candidateOf`): what its card shows a person in place of its arguments — the
   * record's name and when, in `language` ("event": "Calculus tutorial", "when": "Fri 11 Dec, 08:00–09:40, weekly") —
   * since both clients draw a card's arguments even where nothing can be edited, and a record is JSON no person reads.
   * Read on `state`, the week before the card's writes, when the write is proposed; the call itself keeps the record.
   */
  cardArguments?(state: TState, args: TArgs, language: Language): Record<string, string>;
  /** Pure: never mutates `state`. Arguments have already been validated by `schema`. */
  run(state: TState, args: TArgs): ToolRun<TState>;
  /**
   * Optional, for a tool whose work can be long (a search): `run`'s result, computed in slices that give the event
   * loop back between them, so other runs of the process go on meanwhile. The runner uses it when there is one.
   */
  runAsync?(state: TState, args: TArgs): Promise<ToolRun<TState>>;
}

/** A connection inside an open transaction (structurally a `pg` client): enough to run more statements in it. */
export interface TransactionClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * Options for applying a confirmed change. Exactly-once is the runner's (tools/runner.ts): it claims the write's
 * tool-call id in the execution log and applies the change in the same transaction, so a repository only applies
 * what it is given — it keeps no record of applied ids.
 */
export interface PersistOptions {
  /** The write's tool-call id (for a repository's own audit, if it keeps one). */
  applyId: string;
  /**
   * The transaction the runner opened (on the execution log's database, which is where Tempo keeps every domain's
   * tables): a repository that stores its data in Postgres applies the change through it and commits nothing
   * itself, so the change and the log entry that claims it commit together or not at all. Absent (a log in memory,
   * no log), the repository applies the change on its own.
   */
  client?: TransactionClient;
}

/** What a domain's write cards are read against (`ToolDomain.cardFrame`). */
export interface CardFrame<TState> {
  /** The frame a card of `call` is made in on `state` (kept with the card), or undefined when it bears on none. */
  of(state: TState, call: { name: string; arguments: Record<string, unknown> }): string | undefined;
  /** Why `call`, its card made in `frame`, would not do on `state` what its card showed; undefined when it would. */
  stale(state: TState, call: { name: string; arguments: Record<string, unknown> }, frame: string): string | undefined;
  /** `state` as seen in `frame` (the schedule's window dated as it was), to name a `tool` write as its card did. */
  seenIn(state: TState, tool: string, frame: string): TState;
  /**
   * Optional: why the whole of what a card of a `tool` write made in `frame` bears on is gone from `state` (the
   * schedule's window rolled on since: every day the card names is another date now), or undefined when it is not.
   * Such a card was answered after its time: none of it applies, and its task plans again (review/outlived-cards.ts).
   */
  moved?(state: TState, tool: string, frame: string): string | undefined;
  /**
   * Optional: the whole state as its cards bear on it (the schedule's window dates and where every task stands), as
   * one comparable text. A proposal that ends its step keeps the week its writes would leave; the ending is taken
   * only when the week is that once they applied, so a step judged done on a week another thread changed meanwhile
   * is looked at again (`StepEnding.week`).
   */
  week?(state: TState): string;
}

/** The writes a domain's clock makes due (`ToolDomain.clock`). */
export interface ClockWrites<TState> {
  /** The write due at `now` in `state`, as a call of one of the domain's write tools; undefined when none is. */
  due(state: TState, now: Date): { name: string; arguments: Record<string, unknown> } | undefined;
  /** What the clock's writes did (their tools' `data`, in order), in `language`, from the state after them. */
  told(after: TState, results: readonly unknown[], language: Language): string;
  /**
   * Optional: when `now` is earlier than what `state` has already recorded (a later clock marked or rolled it: the
   * user's machine clock went back), the words that say so in `language`, so no answer reads the past as the future
   * unsaid; undefined when the clock is not behind.
   */
  behind?(state: TState, now: Date, language: Language): string | undefined;
}

/** What a domain's `atRisk` found: the items at risk, and the words that tell them. */
export interface AtRiskNotice {
  ids: string[];
  text: string;
}

/** Something the domain's user may expect a task to take care of (e.g. a review task still to place). */
export interface OpenItem {
  id: string;
  name: string;
  /** The domain it belongs to, when several are served (`tools/combined-domain.ts` sets it). */
  domain?: string;
  /**
   * Other names people call it by (the sample week's Chinese names, `SAMPLE_ALIASES`): a request that uses one asks
   * for the item as its name would ("把二叉树复习安排在周日下午两点" asks for "Binary tree review").
   */
  aliases?: readonly string[];
  /**
   * True when the item could be closed as the data stands (`Verification.placing.stillFit`: a pending review that
   * fits somewhere free): why it is still open is then not that it cannot be, whatever a refusal on the way said.
   */
  fitsNow?: boolean;
}

/**
 * A group of a domain's tools that the agent brings into its context when a step needs it, and drops after (seed
 * 003's tool packs): the execute model is offered the tools of the active packs only, and can add or remove packs
 * (`context_tools_add` / `context_tools_remove`). Names are unique across the domains served ("schedule.read").
 */
export interface ToolPack {
  name: string;
  /** One line for the model: what the pack's tools are for. */
  description: string;
  /** The names of its tools; every tool of a domain is in exactly one pack. */
  tools: readonly string[];
  /**
   * Active when a step starts: always (`true`), only in a plan that writes (`"writing"`: a question's steps start
   * without them, so they cost a question nothing), or in the kinds of plan listed (`PlanUse`: an arranging step gets
   * the backend's candidates and not the hand-placing tools, a move gets those and not the candidates).
   */
  default?: boolean | "writing" | readonly PlanUse[];
}

/**
 * The kind of plan a step belongs to, for its default packs: a question (read-only), an arrangement (run mode
 * `first_full` or `global_reopt`: the backend proposes), or any other change (a move, a swap, a mark).
 */
export type PlanUse = "question" | "arranging" | "adjusting";

/** A tool domain the graph takes as a dependency. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default lets domains of any state share one list (a parameter in both positions)
export interface ToolDomain<TState = any> {
  /** Short name, e.g. "schedule". */
  name: string;
  /** Bumped whenever tools or their semantics change; a thread made with another version is replanned. */
  version: string;
  /** One or two sentences for the system prompt: what the domain is about. */
  description: string;
  tools: ReadonlyArray<DomainTool<TState>>;
  /** Its tools in packs (`ToolPack`); without, all of them are one pack, named as the domain, always active. */
  packs?: readonly ToolPack[];
  /** Optional: how the domain refines with its candidates (`Refinement`). */
  refinement?: Refinement;
  /** Optional: the check that ends a plan, made by the code (`Verification`). */
  verification?: Verification<TState>;
  /** Optional: the task's card decisions held for every call of the task (`TaskDecisionRules`). */
  decisions?: TaskDecisionRules<TState>;
  /**
   * A read tool run before planning so the planner sees live state instead of
   * trusting memory (docs/design.md#live-data-refresh).
   */
  preflight?: { tool: string; arguments: Record<string, unknown> };
  /**
   * Optional: a write call in words a person reads on its confirmation card (names, days, places), in the user's
   * language (`contracts/language.ts`; English when not given), or undefined to show the tool name and its arguments.
   */
  describeCall?(state: TState, tool: string, args: Record<string, unknown>, language?: Language): string | undefined;
  /**
   * Optional: text the domain's tools wrote for the model (ids, indices) in the words a person reads, in `language` —
   * names for ids, dates and clock times for places. Deliver passes the answer and the task report through it, so
   * what a person reads names things as the cards do. Without it the text is shown as it is.
   */
  readable?(state: TState, text: string, language: Language): string;
  /**
   * Optional: a refused call's reason, from the data the tool gave with its refusal (`ToolRun.data` of a failure), in
   * the words a person reads in `language`; undefined for data the domain does not say so (its text, through
   * `readable`, is told instead). The model reads the tool's text; a person is told this.
   */
  refusal?(state: TState, data: unknown, language: Language): string | undefined;
  /**
   * Optional: a step's summary — the tools', the closing check's or the domain's offline policy's words, kept in
   * English for what reads a task's account — in `language`, as far as the domain knows its words. An answer the code
   * composes (the closing check's, `nodes/execute/verification-step.ts`) tells each step's summary through it; without
   * it, a summary in another language than English is left out of such an answer.
   */
  stepSummary?(summary: string, language: Language): string;
  /**
   * Optional: where a task's applied writes left things, in one compact line in `language` ("Where things are now:
   * …"), from their tool results and the state now; undefined when there is nothing to list. Deliver adds it to the
   * answer of a task whose writes touched several items, or one whose place `answer` (the answer so far) does not
   * say (a single write's answer says it already; a scoped request's answer told by its steps does not).
   */
  changesLine?(state: TState, results: readonly string[], language: Language, answer?: string): string | undefined;
  /**
   * Optional: the items still open in `state` (e.g. pending review tasks). Deliver names the ones a task
   * was about that are still open, so an answer never claims more than happened.
   */
  openItems?(state: TState): OpenItem[];
  /**
   * Optional: the time zone the user's data lives in (the schedule window's), the zone of the "now" every stage prompt
   * carries — before the thread's configuration's (`configurable.time_zone`, for data without one). Asked on every stage call:
   * answer it without loading the whole state.
   */
  timeZone?(userId: string): Promise<string | undefined>;
  /**
   * Optional: `state` with the user's standing preferences (`contracts/preferences.ts`) folded in as user-level rules
   * its tools keep to — the search and the candidates never propose what they rule out, and a write onto it is
   * refused naming the preference. Never persisted: `persist` leaves them out. The runner calls it on every tool run
   * with the preferences recall loaded (`ToolRunContext.preferences`); pure, and `state` unchanged without any.
   */
  withPreferences?(state: TState, preferences: readonly Preference[]): TState;
  /**
   * Optional: what of `state` already in place the standing preferences folded into it rule out (a review placed before
   * they were said stays until it is moved), in `language`, with how to move it; undefined when nothing is. Memorize
   * asks it of the preferences a turn added, on the state with the run's clock folded in, and says what it gives.
   */
  placedAgainstPreferences?(state: TState, language: Language): string | undefined;
  /**
   * Optional: `state` with the moment the run takes as now folded in (issue 47): what it has started is out of reach —
   * the search and the candidates never propose it, a write onto it is refused with the reason. Never persisted. The
   * runner calls it on every tool run given a clock (`ToolRunContext.now`); pure.
   */
  withClock?(state: TState, now: Date): TState;
  /**
   * Optional: the writes the clock makes due (issue 47: the schedule's window moves on once its last day has passed).
   * At the start of an invocation the graph asks `due` on the fresh state and runs the call it gives through the
   * runner, without a card (the clock is no one's decision), until none is due; `told` says what they did.
   */
  clock?: ClockWrites<TState>;
  /**
   * Optional: what a write card is read against (the schedule's window, whose days its arguments number, and where the
   * reviews it names stood). Each write's frame is kept with its card when the card is made, and the write applies only
   * while `stale` finds nothing: approved after the week changed underneath it (rolled on by a check-in, a review
   * moved on another thread), it would do something else than its card showed, so it is refused with that reason and
   * nothing is applied.
   */
  cardFrame?: CardFrame<TState>;
  /**
   * Optional: `state` with the writes of the thread's last applied card folded in (`AppliedWrite`, oldest first), so a
   * tool can offer to undo them ("undo that"): the undo is a new card of ordinary writes, applied once like any write.
   * Never persisted. The runner calls it on every tool run given them (`ToolRunContext.lastChange`); pure.
   * `elsewhere`: the card's writes that another domain served beside this one made (`combineDomains`), so the domain
   * can say the last change was not its own rather than that there was none.
   */
  withLastChange?(state: TState, writes: readonly AppliedWrite[], elsewhere?: readonly AppliedWrite[]): TState;
  /**
   * Optional: what the time left cannot hold (issue 47 item 6: a deadline or an exam the user can no longer meet, as
   * the domain proves it), in `language`, with the change that recovers the most; undefined when nothing is at risk.
   * `ids` name the items at risk, so an answer tells each once. Given the state with the run's clock folded in.
   */
  atRisk?(state: TState, language: Language): AtRiskNotice | undefined;
  /**
   * Optional: the offline reader of standing preferences in what the user wrote (a message, or feedback on one of
   * this domain's cards): the ones to add, and the ones taken back. Used when no memory model is configured (and as
   * its fallback). A one-off wish ("Saturday instead") is no preference.
   */
  readPreferences?(text: string, origin: PreferenceOrigin): PreferenceChange;
  /**
   * True when `text`, sent as a message while the execute stage's question is open, is a request of its own rather than
   * an answer ("add a task …" while "which of Thursday's reviews?" waits): the task asking is dropped and the message
   * handled as a new one (nodes/chat.ts). Without it, every message then is the answer.
   */
  readsAsRequest?(text: string): boolean;
  /** Loads the user's current domain state from the repository. */
  load(userId: string): Promise<TState>;
  /** Persists `after` relative to `before` (a diff, all or nothing: through `options.client` when given). */
  persist(userId: string, before: TState, after: TState, options: PersistOptions): Promise<unknown>;
}

/** True when `content` is the text of the domain's refinement step (such a step runs the candidate loop). */
export function isRefinementStep(domain: Pick<ToolDomain, "refinement">, content: string): boolean {
  const refinement = domain.refinement;
  if (!refinement) return false;
  return [refinement.step, ...Object.values(refinement.localized ?? {})].some(
    (step) => step !== undefined && normalizeStepText(step.content) === normalizeStepText(content),
  );
}

/** True when `content` is the text of the domain's verification step (in any of its languages). */
export function isVerificationStep(domain: Pick<ToolDomain, "verification">, content: string): boolean {
  const verification = domain.verification;
  if (!verification) return false;
  return [verification.step, ...Object.values(verification.localized ?? {})].some(
    (step) => step !== undefined && normalizeStepText(step.content) === normalizeStepText(content),
  );
}

/** The open items `verification` checks: all of them, or with several domains served, its own domain's. */
export function verifiedItems(verification: Pick<Verification<unknown>, "domain">, items: OpenItem[]): OpenItem[] {
  const scope = verification.domain;
  return scope === undefined ? items : items.filter((item) => item.domain === scope);
}

/** Finds a tool by name, or undefined. */
export function findTool<TState>(domain: ToolDomain<TState>, name: string): DomainTool<TState> | undefined {
  return domain.tools.find((tool) => tool.name === name);
}

/**
 * A write call as its confirmation card names it — the one text cards, chat and the final answer use for it
 * (`ProposedWrite.summary`): the domain's description in the user's `language`, or the tool and its arguments.
 * `stored` gives the user's stored state when the caller already has it (a card's writes are described on one load).
 */
export async function describeToolCall<TState>(
  domain: ToolDomain<TState>,
  userId: string,
  tool: string,
  args: Record<string, unknown>,
  language: Language = "en",
  stored: () => Promise<TState> = () => domain.load(userId),
): Promise<string> {
  const fallback = `${tool} ${JSON.stringify(args)}`;
  if (!domain.describeCall) return fallback;
  return domain.describeCall(await stored(), tool, args, language) ?? fallback;
}

/** `text` the domain's tools wrote, in the words a person reads (`ToolDomain.readable`), or as it is for a domain without them. */
/**
 * A refused call's reason for a person, in `language`: from the refusal's data when the domain says it
 * (`ToolDomain.refusal`), else the tool's text through `readableText`.
 */
export async function refusalText<TState>(
  domain: ToolDomain<TState>,
  userId: string,
  text: string,
  data: unknown,
  language: Language,
): Promise<string> {
  if (domain.refusal && data !== undefined && userId !== "") {
    const said = domain.refusal(await domain.load(userId), data, language);
    if (said !== undefined) return said;
  }
  return readableText(domain, userId, text, language);
}

export async function readableText<TState>(
  domain: ToolDomain<TState>,
  userId: string,
  text: string,
  language: Language,
): Promise<string> {
  // No user (a thread saved before it had an owner): the text as it is.
  return domain.readable && userId !== "" ? domain.readable(await domain.load(userId), text, language) : text;
}

/** The domain's packs: its own, or one pack of all its tools named as the domain (active by default). */
export function packsOf(domain: ToolDomain): readonly ToolPack[] {
  return (
    domain.packs ?? [
      {
        name: domain.name,
        description: domain.description,
        tools: domain.tools.map((tool) => tool.name),
        default: true,
      },
    ]
  );
}

/**
 * The packs active when a step starts: of a plan that writes (`arranging`: one that arranges), or (`writing: false`)
 * of a question's.
 */
export function defaultPacks(domain: ToolDomain, options: { writing?: boolean; arranging?: boolean } = {}): string[] {
  const writing = options.writing ?? true;
  const use: PlanUse = !writing ? "question" : options.arranging ? "arranging" : "adjusting";
  return packsOf(domain)
    .filter(
      (pack) =>
        pack.default === true ||
        (writing && pack.default === "writing") ||
        (Array.isArray(pack.default) && pack.default.includes(use)),
    )
    .map((pack) => pack.name);
}

/** The uses a pack is active in by default, for people and planners ("" for none). */
export function packDefaultLabel(pack: ToolPack): string {
  if (pack.default === true) return " (default)";
  if (pack.default === "writing") return " (default when the plan writes)";
  if (Array.isArray(pack.default) && pack.default.length > 0) return ` (default in: ${pack.default.join(", ")})`;
  return "";
}

/** The pack holding the tool named `tool`, if any. */
export function packOfTool(domain: ToolDomain, tool: string): ToolPack | undefined {
  return packsOf(domain).find((pack) => pack.tools.includes(tool));
}

/** The domain's tools a model may be offered, in order: all but a candidate's writes (`DomainTool.candidateOf`). */
export function offeredTools<TState>(domain: ToolDomain<TState>): Array<DomainTool<TState>> {
  return domain.tools.filter((tool) => tool.candidateOf === undefined);
}

/** The tools a model is offered in the packs named, in the domain's order (a candidate's write is no model's). */
export function toolsInPacks<TState>(domain: ToolDomain<TState>, packs: readonly string[]): Array<DomainTool<TState>> {
  const names = new Set(
    packsOf(domain)
      .filter((pack) => packs.includes(pack.name))
      .flatMap((pack) => pack.tools),
  );
  return offeredTools(domain).filter((tool) => names.has(tool.name));
}

/** The tools of `pack` a model is told of (a candidate's write is applied from its listing, never named). */
export function offeredToolNames(domain: ToolDomain, pack: ToolPack): string[] {
  return pack.tools.filter((name) => findTool(domain, name)?.candidateOf === undefined);
}

/**
 * Problems with the domain's packs, as sentences (empty when none): a pack naming a tool the domain lacks, a tool in
 * no pack or in two, two packs of one name.
 */
export function packProblems(domain: ToolDomain): string[] {
  const problems: string[] = [];
  const packs = packsOf(domain);
  const names = new Set<string>();
  for (const pack of packs) {
    if (names.has(pack.name)) problems.push(`two packs are named "${pack.name}"`);
    names.add(pack.name);
    for (const tool of pack.tools)
      if (!findTool(domain, tool))
        problems.push(`pack "${pack.name}" names "${tool}", which the ${domain.name} domain has no tool of`);
  }
  for (const tool of domain.tools) {
    const holding = packs.filter((pack) => pack.tools.includes(tool.name)).length;
    if (holding !== 1) problems.push(`the tool "${tool.name}" is in ${holding} packs (each tool is in exactly one)`);
    if (tool.candidateOf !== undefined && findTool(domain, tool.candidateOf)?.proposes !== true)
      problems.push(
        `the tool "${tool.name}" is applied only as a candidate of "${tool.candidateOf}", which lists no candidates in the ${domain.name} domain`,
      );
    if (tool.candidateOf !== undefined && tool.cardArguments === undefined)
      problems.push(
        `the tool "${tool.name}" is applied only as a candidate of "${tool.candidateOf}" but has no cardArguments: its card would show its record`,
      );
  }
  return problems;
}
