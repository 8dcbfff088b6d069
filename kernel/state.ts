/**
 * The one state schema of the Tempo graph (docs/design.md#the-state), in
 * three groups: the runtime state (what the workflow is doing), the
 * conversation context (what the models see), and memory recalled for this
 * invocation. Every field is documented; `TempoState` / `TempoUpdate` are the
 * exported types.
 */
import type { Preference } from "../contracts/preferences.js";
import type { BaseMessage } from "@langchain/core/messages";
import { Annotation, UntrackedValueChannel } from "@langchain/langgraph";
import { DEFAULT_MAX_ROUNDS } from "../config/configuration.js";
import type { CardResume } from "../contracts/cards.js";
import { DefaultNotStored, messagesChannel, planChannel, uiChannel, workspaceChannel } from "./channels.js";

/** Where the workflow is (docs/design.md#phases-and-transitions); `kernel/transitions.ts` is the only writer. */
export type Phase = "chatting" | "planning" | "waiting_confirm" | "executing" | "done";

/** How a task ended: every task ends in exactly one of these. */
export type TaskOutcome = "completed" | "partial" | "failed" | "dropped";

/** A task's outcome with the reason, as told to the user and recorded in memory. */
export interface TaskOutcomeRecord {
  kind: TaskOutcome;
  /** One sentence: why the task ended this way. */
  reason: string;
  /**
   * The domain's items the task was about that were still open when it ended, and why (deliver's report, from the
   * repository and the conversation); absent for a dropped task and for a domain without open items.
   */
  stillOpen?: Array<{ id: string; name: string; why: string }>;
}

export type { PlanStep, StepStatus } from "./plan-step.js";
import type { PlanStep } from "./plan-step.js";

/** A write tool call as it is proposed, approved and applied: its tool-call id (also the key that makes it apply once), tool and arguments. */
export interface WriteCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A write on a card: a tool call of the proposal's assistant message, with what the card says of it. */
export interface ProposedWrite extends WriteCall {
  /** One-line description of the change for the confirmation card. */
  summary: string;
  /** The model's reason for the call. */
  reason: string;
  /**
   * What the card shows in place of `arguments` when they are a record no person types (a candidate's write,
   * `DomainTool.cardArguments`): the record's name and when in words. The call keeps the record; this is shown only.
   */
  shown?: Record<string, string>;
}

/** The end a proposal gave its step: next_plan or done, why it is met, and for done the final answer (may be ""). */
export interface StepEnding {
  action: "next_plan" | "done";
  goalCheck: string;
  answer: string;
  /** Why the step ended without doing what it asks (the decision's `not_carried_out`); absent when it was carried out. */
  notCarriedOut?: string;
  /**
   * The week the proposal's writes would leave (`CardFrame.week`), when the domain tells one: the ending is taken only
   * when the stored week is that once they applied — not when another thread changed it meanwhile.
   */
  week?: string;
}

/**
 * What graph@2 saved for a write card's answered writes (`answeredWrites`): upgraded once (`kernel/migrations.ts`,
 * when execute runs) for a thread that stopped between the answer and the writes, and never written. Goes with graph@4.
 */
export interface LegacyAnsweredWrite {
  tool: WriteCall & { summary?: string; speak?: string; then?: StepEnding };
  approved: boolean;
  result?: string;
}

/**
 * What the graph waits on (docs/design.md#pending-interaction). A write card's writes are the tool calls of one
 * assistant message in the conversation (`messageId`), unanswered until the card is: the proposal itself, as
 * LangChain's human-in-the-loop middleware keeps it. The card holds only what the message does not: each write's
 * description by tool-call id, the model's reason, how the step ends once every write applies unchanged (`then`),
 * and what the card shows of a write whose arguments are a record (`shown`; absent on a card saved before it).
 */
export type PendingInteraction = (
  | { kind: "confirm_plan" }
  | {
      kind: "confirm_tool";
      messageId: string;
      summaries: Record<string, string>;
      reason: string;
      then?: StepEnding;
      /** By tool-call id, the shown arguments of a write whose arguments are a record (`ProposedWrite.shown`). */
      shown?: Record<string, Record<string, string>>;
    }
  | { kind: "ask_user"; question: string; askedBy: "plan" | "execute" }
) & {
  /** Why the last answer to this card was refused, when the served graph raised it again (its card says so first). */
  refusal?: string;
  /**
   * The id of the assistant message that told the user so (the chat's last message while the card waits): it is
   * replaced by the next refusal, and removed once the card is answered, so a proposal's calls and their answers
   * stay next to each other.
   */
  refusalNoteId?: string;
};

/** The domain's live state as a prompt shows it (`text`), and its preflight tool's structured result (`data`) for programs. */
export interface LiveState {
  text: string;
  data?: unknown;
}

/** The tool packs active in step `stepId`. */
export interface ActivePacks {
  stepId: string | null;
  packs: string[];
}

/**
 * What kind of change a plan asks for (seed 003's run modes): `first_full` arranges what is pending and then refines
 * by default; `global_reopt` re-arranges what is placed; `local_adjust` is the user's own move or swap, no more.
 */
export type RunMode = "first_full" | "global_reopt" | "local_adjust";

/**
 * How a refinement loop ended, or `running`; `passed` when the model took none of a listing's changes in as many turns
 * in a row as the loop allows rounds without a gain (it read or checked the week instead of choosing).
 */
export type OptimizationVerdict = "running" | "forced" | "stagnant" | "budget" | "passed";

/** The refinement loop of step `stepId` (`Refinement`, tools/domain.ts): its listings so far, its scores, its verdict. */
export interface Optimization {
  stepId: string | null;
  /** Candidate listings seen in the step. */
  rounds: number;
  /** The judge's score at the first listing, and the best since. */
  startScore: number;
  bestScore: number;
  /** The last listing's score (below `bestScore` when a change placed more at a cost to the score). */
  score?: number;
  /** Items left open at the first listing and at the last (`CandidateListing.open`), when the domain counts them. */
  startOpen?: number;
  open?: number;
  /** Listings in a row without a gain of the domain's `minGain` (or an item fewer left open). */
  stagnantRounds: number;
  verdict: OptimizationVerdict;
  /** How many changes the last listing offered (absent in a loop checkpointed before it was kept). */
  offered?: number;
  /** What no change can fix, as the last listing said (the task report gives it as the reason an item stays open). */
  forced?: string;
}

/**
 * Memory recalled at invocation start (the memory layer fills it; empty until then). It lives for the invocation: the
 * store holds it, recall reads it again when the next message arrives, and memorize empties it when the invocation
 * ends — so a checkpoint between turns holds no copy of the store (a task's cards in between keep it).
 */
export interface RecalledMemory {
  /** The user's durable TaskState rendered as text (docs/design.md#taskstate). */
  taskState: string;
  /** Long-term facts relevant to the message. */
  facts: string[];
  /** Similar past episodes. */
  episodes: string[];
  /** Summaries of earlier invocations in this thread. */
  conversation: string[];
  /**
   * The user's standing preferences (the whole profile, at most `MAX_PREFERENCES`): every stage prompt shows them, and
   * every tool run keeps to them through the domain's rules. Absent in a checkpoint made before preferences existed.
   */
  preferences?: Preference[];
}

/**
 * The scratchpad the model maintains across steps, with update tracking for the reminder (docs/design.md#memory-layers). It changes only when the model
 * updates it: the rounds since that update are counted from `roundsUsed` ({@link roundsSinceUpdate}), not stored.
 */
export interface WorkingMemory {
  content: string;
  /** The task's execute round (`roundsUsed`) in which the model last updated the scratchpad; 0 if never. */
  updatedInRound: number;
  /** ISO time of the last update, or null if never. */
  updatedAt: string | null;
}

/** The scratchpad as a fresh task starts with it. */
export function emptyWorkingMemory(): WorkingMemory {
  return { content: "", updatedInRound: 0, updatedAt: null };
}

/** Execute rounds since the model last updated its scratchpad (the working-memory reminder counts them). */
export function roundsSinceUpdate(state: Pick<TempoState, "workingMemory" | "roundsUsed">): number {
  return Math.max(0, state.roundsUsed - state.workingMemory.updatedInRound);
}

export type PlanMode = "draft" | "revise" | "replan";

/** A reply to a question the workflow asked. */
export interface UserReply {
  question: string;
  answer: string;
  askedBy: "plan" | "execute";
  at: string;
}

/**
 * A value for the current run only: nodes read and write it as any field, but it is not saved in checkpoints (a
 * resumed run starts from the default). For facts a checkpoint already holds, or that nothing reads back.
 */
function runOnly<T>(initial: () => T) {
  return () => new UntrackedValueChannel<T>({ guard: false, initialValueFactory: initial });
}

/** Replace-on-write channel with a default. */
function lastValue<T>(initial: () => T) {
  return Annotation<T>({ reducer: (_current, next) => next, default: initial });
}

export const TempoAnnotation = Annotation.Root({
  // ── Conversation context ──────────────────────────────────────────────
  /**
   * The conversation: user turns, assistant replies, and tool rounds (each assistant tool call followed by its tool
   * message). Stored as deltas (see `MESSAGES_SNAPSHOT_FREQUENCY` in `channels.ts`); nodes write only the messages they add or remove.
   */
  messages: messagesChannel,
  /** Ids of the messages that form the current stage's workspace (plan rounds, or the current step's tool rounds and corrections: docs/design.md#prompt-layout); a delta channel, stored as what each round appended (`workspaceChannel` in `channels.ts`). */
  workspaceMessageIds: workspaceChannel,
  /** The model's scratchpad with reminder tracking (docs/design.md#memory-layers). */
  workingMemory: lastValue<WorkingMemory>(emptyWorkingMemory),
  /**
   * The tool packs the execute model is offered in the current step (`ToolPack`, tools/domain.ts), as
   * `context_tools_add` / `context_tools_remove` left them; null, or another step's, means the domain's defaults.
   */
  activePacks: lastValue<ActivePacks | null>(() => null),
  /** The run mode of the current plan (`RunMode`), as the planner gave it; null when it gave none. */
  runMode: lastValue<RunMode | null>(() => null),
  /** The refinement loop of the current (or last) refinement step, checkpointed; null before any. */
  optimization: lastValue<Optimization | null>(() => null),

  // ── Runtime state ─────────────────────────────────────────────────────
  /** The user this thread belongs to, set on its first message; runs for another user are refused. */
  userId: lastValue<string>(() => ""),
  /** Where the workflow is. */
  phase: lastValue<Phase>(() => "chatting"),
  /** The task's goal: the user request that started planning. */
  goal: lastValue<string>(() => ""),
  /** The plan, in order (a delta channel: see `planChannel` in `channels.ts`). */
  planSteps: planChannel,
  /** Id of the step being executed, or null. */
  currentStepId: lastValue<string | null>(() => null),
  /** Execute model calls used in this task. */
  roundsUsed: lastValue<number>(() => 0),
  /** Execute round budget (model decisions; answering a card and applying its writes use none); when spent, the task goes to deliver. */
  maxRounds: lastValue<number>(() => DEFAULT_MAX_ROUNDS),
  /**
   * Why the planner runs: "draft" a new plan; "revise" the plan after feedback or a workflow-version
   * change (diff → invalidate → resume); "replan" after a finished step (docs/design.md#plan).
   * Set where a pass starts (a new task, `sendToPlanner`) and read only while planning; a pass that ends leaves it.
   */
  planMode: lastValue<PlanMode>(() => "draft"),
  /** How many times the plan was revised; makes the ids of revised steps unique. */
  planRevision: lastValue<number>(() => 0),
  /** The question asked and the answer given, for the planner, so a short reply is not mistaken for a new request (docs/design.md#questions). */
  resumeContext: lastValue<{ question: string; answer: string } | null>(() => null),
  /** The user's replies to questions in this task, as observations (docs/design.md#questions). */
  userReplies: lastValue<UserReply[]>(() => []),
  /** Planner calls since planning (or the last plan revision) started; bounded by maxPlanRounds. */
  planRoundsUsed: lastValue<number>(() => 0),
  /** Invalid model outputs in a row in the current stage (docs/design.md#correction-loop). */
  consecutiveCorrections: lastValue<number>(() => 0),
  /** What the graph waits on from the human, or null. */
  pending: lastValue<PendingInteraction | null>(() => null),
  /**
   * An answer to `pending` that arrived as a plain user message instead of a resume, as the resume it stands for
   * (chat translates it; a thread saved by graph@2 may hold a legacy HumanResponse, which the card contract still reads).
   */
  pendingAnswer: lastValue<CardResume | null>(() => null),
  /**
   * How the step ends once the approved writes apply (the proposal's `then`, kept by confirm when every write of the
   * card was approved unchanged; null otherwise): execute ends the step with no model turn.
   */
  stepEnding: lastValue<StepEnding | null>(() => null),
  /** graph@2's answered writes (see {@link LegacyAnsweredWrite}): read once by execute, written only empty. */
  answeredWrites: lastValue<LegacyAnsweredWrite[]>(() => []),
  /** How the last task ended, or null while none has ended (set by deliver's report, or by a drop). */
  outcome: lastValue<TaskOutcomeRecord | null>(() => null),
  /** Setbacks of the current step: failing tool results and declined writes in a row; past the limits the step fails. */
  stepSetbacks: lastValue<{ toolErrors: number; rejections: number }>(() => ({ toolErrors: 0, rejections: 0 })),
  /** What the user changed by editing the plan card (normalised step texts): a replan that undoes it is confirmed again. */
  planEdits: lastValue<{ added: string[]; removed: string[] }>(() => ({ added: [], removed: [] })),
  /**
   * The domain's live state, read at the start of each planning pass (draft, revise, replan) and reused by the
   * pass's later rounds in the same run. Not checkpointed: a pass that goes on in a later run (after a question)
   * reads it again, fresh.
   */
  liveState: runOnly<LiveState | null>(() => null),
  /**
   * The domain's open items when the task's plan was first drafted (see `ToolDomain.openItems`), with the other names
   * a request may call them by (a thread saved before they were kept has none).
   */
  openItemsAtStart: lastValue<Array<{ id: string; name: string; aliases?: readonly string[] }> | null>(() => null),
  /** Id of the message that started the current task; the task's own messages follow it. */
  taskStartMessageId: lastValue<string | null>(() => null),
  /**
   * True when the task's plan only reads (a question, answered without a card). Such a task changes nothing by
   * design; any other task that changed nothing did not complete (deliver's `unchangedOutcome`).
   */
  readOnlyPlan: lastValue<boolean>(() => false),
  /** The delivered summary of the last task. */
  finalAnswer: lastValue<string | null>(() => null),
  /**
   * The execute model's own final answer, given with the decision that finished the task (`done`'s answer): a
   * completed task is answered with it, without a deliver model call. Null when none was given.
   */
  closingWords: lastValue<string | null>(() => null),
  /** The last error the workflow recorded (a failed deliver model, an exhausted budget), or null. */
  lastError: lastValue<string | null>(() => null),
  /** Graph and tool-domain version this task was planned with ("graph@x/domain@y"). */
  workflowVersion: lastValue<string>(() => ""),

  // ── Memory recalled for this invocation ──────────────────────────────
  /** Id of the last message memorize has summarised; the next invocation's messages follow it. */
  memorizedUpTo: lastValue<string | null>(() => null),
  /**
   * Id of the last message history compression summarised into TaskState (docs/design.md#compression), or null. The
   * messages up to it stay in `messages` — what a person saw stays in what the client shows (issue 48 item 6) — and
   * the prompts read only the messages after it (`promptMessages`).
   */
  compressedUpTo: lastValue<string | null>(() => null),
  /**
   * What the memory layer recalled at invocation start. Empty again when the invocation ends (memorize), and not
   * stored while empty (`DefaultNotStored`): a turn saves no copy of the empty value.
   */
  recalled: () => new DefaultNotStored<RecalledMemory>(nothingRecalled),
  /**
   * What the clock's writes did at the start of this invocation (`ToolDomain.clock`: the schedule's window moved on to
   * the week of now — what went to history, what became missed), in the user's language; the invocation's answer
   * starts with it. Null when nothing was due. Recall sets it for every new message.
   */
  movedOn: lastValue<string | null>(() => null),
  /**
   * What a write card answered after its time left undone (its places passed, or its week: `review/outlived-cards.ts`),
   * in the user's language: said on the next card the task raises (a plan card, or the write card that proposes again)
   * and, when the task ends before one, in its answer. Cleared once a write card is answered, and by a new message.
   */
  outlivedCard: lastValue<string | null>(() => null),
  /**
   * The items an answer of this thread has told at risk (`ToolDomain.atRisk`), as they stood when last checked: a turn's
   * answer tells what became at risk since, once, and forgets what is no longer at risk.
   */
  atRiskTold: lastValue<string[]>(() => []),

  // ── Pictures for the chat client ──────────────────────────────────────
  /**
   * Generative UI components (issue 48: the week drawn beside a write card's proposal and beside the answer), each
   * with the id of the message it belongs to; Agent Chat UI renders them (`values.ui`), other clients carry them.
   * Written only through `nodes/shared/week-ui.ts`; the latest `UI_MESSAGES_KEPT` are kept. A delta channel: a
   * checkpoint stores the pushes of its step (`uiChannel` in `channels.ts`).
   */
  ui: uiChannel,
});

/** The recalled memory of no invocation (a new thread, a turn that ended, a cleared thread). */
export function nothingRecalled(): RecalledMemory {
  return { taskState: "", facts: [], episodes: [], conversation: [], preferences: [] };
}

export type TempoState = typeof TempoAnnotation.State;
export type TempoUpdate = typeof TempoAnnotation.Update;

/** The input the graph takes from a caller: new messages only. */
export const TempoInputAnnotation = Annotation.Root({ messages: messagesChannel });

/**
 * The messages the prompts read: those after `compressedUpTo` (the older ones were summarised into TaskState and are
 * kept for the client only); all of them when nothing was compressed or the mark is gone (a cleared thread).
 */
export function promptMessages(
  state: Pick<TempoState, "messages"> & { compressedUpTo?: string | null },
): BaseMessage[] {
  if (!state.compressedUpTo) return state.messages;
  const mark = state.messages.findIndex((message) => message.id === state.compressedUpTo);
  return mark === -1 ? state.messages : state.messages.slice(mark + 1);
}

/** Messages of the current stage workspace, in conversation order. */
export function workspaceMessages(state: Pick<TempoState, "messages" | "workspaceMessageIds">): BaseMessage[] {
  const ids = new Set(state.workspaceMessageIds);
  return state.messages.filter((message) => message.id !== undefined && ids.has(message.id));
}

/** The step currently executing, or undefined. */
export function currentStep(state: Pick<TempoState, "planSteps" | "currentStepId">): PlanStep | undefined {
  return state.planSteps.find((step) => step.id === state.currentStepId);
}

/**
 * What a run takes in `configurable` (declared so that LangGraph Studio and the server's
 * assistant schemas show it). Read through `ensureConfiguration`, which applies the defaults.
 */
export const TempoConfigurableAnnotation = Annotation.Root({
  /** Whose data the run sees (schedules, memory) and who owns the thread; default "local-user". */
  user_id: Annotation<string>,
  /** The execute round budget for the thread's next task; default 60. */
  max_rounds: Annotation<number>,
  /** The IANA time zone the stages are told "now" in; default the schedule window's, else UTC. */
  time_zone: Annotation<string>,
});
