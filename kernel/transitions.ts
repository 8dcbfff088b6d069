/**
 * The workflow as one state machine. Every phase change of a thread is one
 * of the named events below; `TRANSITIONS` says, for every phase and every
 * event, the phase it leads to — or `null` when the event cannot happen in
 * that phase (asking for it is a bug: `ILLEGAL_TRANSITION`). Nodes never
 * write `phase`: they call the typed update builders of this module, each of
 * which looks its event up in the table. The routers (`routing.ts`) are
 * derived from the same table: after a node, a pending interaction goes to
 * the node that raises it, otherwise the phase's serving node
 * (`PHASE_NODE`); the destinations each node may reach are the phases its
 * events lead to (`NODE_EVENTS`).
 *
 * | phase ↓ event →  | reply    | start_task | plan_round | revise   | replan   | await_confirmation | ask       | answer    | resume_execution | finish_step | fail_step | drop_task | finish_task | deliver | end_thread | clear    |
 * | ---------------- | -------- | ---------- | ---------- | -------- | -------- | ------------------ | --------- | --------- | ---------------- | ----------- | --------- | --------- | ----------- | ------- | ---------- | -------- |
 * | chatting         | chatting | planning   | —          | —        | —        | —                  | —         | —         | —                | —           | —         | —         | —           | —       | chatting   | chatting |
 * | planning         | —        | —          | planning   | planning | —        | waiting_confirm    | planning  | planning  | executing        | —           | —         | chatting  | done        | —       | chatting   | chatting |
 * | waiting_confirm  | —        | —          | —          | planning | —        | —                  | —         | —         | executing        | —           | —         | chatting  | —           | —       | chatting   | chatting |
 * | executing        | —        | —          | —          | planning | planning | waiting_confirm    | executing | executing | executing        | executing   | executing | chatting  | done        | —       | chatting   | chatting |
 * | done             | chatting | planning   | —          | —        | —        | —                  | —         | —         | —                | —           | —         | —         | —           | done    | done       | chatting |
 *
 * Every task ends in one of four outcomes: `finish_task` → deliver, which
 * judges it completed / partial / failed from the facts; or `drop_task`
 * (dropped: the user declined the plan, a client ended the thread, or the
 * user moved on from a task that had stopped).
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { TempoError } from "../errors/index.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import type { Language } from "../contracts/language.js";
import { isProgressLine } from "../contracts/message-text.js";
import { newId } from "./ids.js";
import { closeOpenCalls } from "./proposal.js";
import {
  emptyWorkingMemory,
  nothingRecalled,
  type PendingInteraction,
  type StepEnding,
  type Phase,
  type PlanMode,
  type PlanStep,
  type TaskOutcomeRecord,
  type TempoState,
  type TempoUpdate,
} from "./state.js";

export const PHASES: readonly Phase[] = ["chatting", "planning", "waiting_confirm", "executing", "done"];

export const WORKFLOW_EVENTS = [
  /** The chat stage answered directly; no task. */
  "reply",
  /** A new task: planning starts from a clean slate. */
  "start_task",
  /** The planner needs another round (or retries after a failed run). */
  "plan_round",
  /** Send the plan back to the planner for revision (feedback, changed tools). */
  "revise",
  /** After a finished step, the planner reviews the remaining steps. */
  "replan",
  /** A plan card or a write card waits for the user. */
  "await_confirmation",
  /** A question waits for the user. */
  "ask",
  /** The user answered the question; back to the stage that asked. */
  "answer",
  /** Run the first unfinished step (after a confirmation, a replan, a retry). */
  "resume_execution",
  /** The current step is done, with its summary. */
  "finish_step",
  /** The current step failed, with its reason. */
  "fail_step",
  /** The task ends as dropped. */
  "drop_task",
  /** The task ends as completed, partial or failed; deliver tells it. */
  "finish_task",
  /** The answer for the ended task was given. */
  "deliver",
  /** A client ended the thread (`updateState(…, END)`, Agent Inbox's "Mark as resolved"). */
  "end_thread",
  /** `/clear`: the thread and its task are wiped. */
  "clear",
] as const;
export type WorkflowEvent = (typeof WORKFLOW_EVENTS)[number];

/** One row per event: the phase each phase leads to; a phase left out cannot take the event. */
const ROWS: Record<WorkflowEvent, Partial<Record<Phase, Phase>>> = {
  reply: { chatting: "chatting", done: "chatting" },
  start_task: { chatting: "planning", done: "planning" },
  plan_round: { planning: "planning" },
  revise: { planning: "planning", waiting_confirm: "planning", executing: "planning" },
  replan: { executing: "planning" },
  await_confirmation: { planning: "waiting_confirm", executing: "waiting_confirm" },
  ask: { planning: "planning", executing: "executing" },
  answer: { planning: "planning", executing: "executing" },
  resume_execution: { planning: "executing", waiting_confirm: "executing", executing: "executing" },
  finish_step: { executing: "executing" },
  fail_step: { executing: "executing" },
  drop_task: { planning: "chatting", waiting_confirm: "chatting", executing: "chatting" },
  finish_task: { planning: "done", executing: "done" },
  deliver: { done: "done" },
  end_thread: {
    chatting: "chatting",
    planning: "chatting",
    waiting_confirm: "chatting",
    executing: "chatting",
    done: "done",
  },
  clear: {
    chatting: "chatting",
    planning: "chatting",
    waiting_confirm: "chatting",
    executing: "chatting",
    done: "chatting",
  },
};

/** The whole table, phase × event → next phase, or null where the event cannot happen. */
export const TRANSITIONS: Readonly<Record<Phase, Readonly<Record<WorkflowEvent, Phase | null>>>> = Object.fromEntries(
  PHASES.map((phase) => [
    phase,
    Object.fromEntries(WORKFLOW_EVENTS.map((event) => [event, ROWS[event][phase] ?? null])),
  ]),
) as Record<Phase, Record<WorkflowEvent, Phase | null>>;

/** The phase `event` leads to from `phase`; throws ILLEGAL_TRANSITION where the table has none. */
export function nextPhase(phase: Phase, event: WorkflowEvent): Phase {
  const next = TRANSITIONS[phase]?.[event];
  if (!next) {
    throw new TempoError(
      "ILLEGAL_TRANSITION",
      `The workflow cannot take "${event}" in phase "${phase}". This is a bug in Tempo; the thread is kept at its last checkpoint.`,
      { phase, event },
    );
  }
  return next;
}

/** True when the phase is inside a task (a plan is being made, confirmed or run). */
export function taskInProgress(phase: Phase): boolean {
  return phase === "planning" || phase === "waiting_confirm" || phase === "executing";
}

type Builder = Pick<TempoState, "phase">;

// ── Task start and chat ─────────────────────────────────────────────────

/** Runtime fields of a task, cleared: nothing of one task leaks into the next. */
export const CLEARED_TASK = {
  goal: "",
  planMode: "draft",
  planRevision: 0,
  resumeContext: null,
  userReplies: [],
  planSteps: [],
  currentStepId: null,
  roundsUsed: 0,
  planRoundsUsed: 0,
  consecutiveCorrections: 0,
  pending: null,
  pendingAnswer: null,
  stepEnding: null,
  answeredWrites: [],
  finalAnswer: null,
  closingWords: null,
  lastError: null,
  outcome: null,
  workspaceMessageIds: [],
  workingMemory: emptyWorkingMemory(),
  stepSetbacks: { toolErrors: 0, rejections: 0 },
  planEdits: { added: [], removed: [] },
  liveState: null,
  openItemsAtStart: null,
  taskStartMessageId: null,
  readOnlyPlan: false,
} satisfies TempoUpdate;

/** start task: a clean slate (working memory, corrections, rounds, workspace, outcome), then planning. */
export function startTask(
  state: Builder & Pick<TempoState, "messages">,
  task: { goal: string; maxRounds: number; workflowVersion: string },
): TempoUpdate {
  return {
    ...CLEARED_TASK,
    phase: nextPhase(state.phase, "start_task"),
    goal: boundedGoal(task.goal),
    maxRounds: task.maxRounds,
    workflowVersion: task.workflowVersion,
    // The request that starts it, not a turn's progress line after it (Agent Chat UI's opener, which the next turn
    // removes: a start marked on it would be lost, and the task's facts read from the whole thread).
    taskStartMessageId: state.messages.findLast((message) => !isProgressLine(message))?.id ?? null,
  };
}

/** Longest goal a task keeps, in characters: the goal is repeated in every stage's prompt and in the task's answer. */
export const MAX_GOAL_CHARACTERS = 1_000;

/**
 * The task's goal: the request as the user wrote it, a calendar file in it named by name and size, never its text
 * (contracts/attached-calendar.ts: the goal is shown on cards, in /state and kept in memory; the file travels only
 * with its request), up to {@link MAX_GOAL_CHARACTERS}; a longer message (a pasted document) keeps its beginning and
 * says how much more the message holds — the whole message stays in the conversation, where each prompt's budget
 * bounds it.
 */
export function boundedGoal(request: string): string {
  const text = withoutCalendarText(request);
  if (text.length <= MAX_GOAL_CHARACTERS) return text;
  const kept = text.slice(0, MAX_GOAL_CHARACTERS).replace(/[\ud800-\udbff]$/, "");
  return `${kept.trimEnd()} […${text.length - kept.length} more characters in your message]`;
}

/** reply: the chat stage answered without a task. */
export function reply(state: Builder, message: AIMessage): TempoUpdate {
  return { messages: [message], phase: nextPhase(state.phase, "reply") };
}

/** clear: `/clear` wipes the task (a task in progress is dropped with it). */
export function clearThread(state: Builder): TempoUpdate {
  const outcome: TaskOutcomeRecord | null = taskInProgress(state.phase)
    ? { kind: "dropped", reason: "the conversation was cleared with /clear" }
    : null;
  return {
    ...CLEARED_TASK,
    outcome,
    recalled: nothingRecalled(),
    phase: nextPhase(state.phase, "clear"),
  };
}

// ── Planning ─────────────────────────────────────────────────────────────

/**
 * send to planner: "draft" continues the current planning pass with another round; "revise" and
 * "replan" start a new pass (fresh live state, rounds counted from zero).
 */
export function sendToPlanner(state: Builder, mode: PlanMode): TempoUpdate {
  if (mode === "draft") return { phase: nextPhase(state.phase, "plan_round") };
  return { phase: nextPhase(state.phase, mode), planMode: mode, planRoundsUsed: 0 };
}

/**
 * revise, closing a card: the tool messages `closed` answer its calls (none of them runs), nothing of it waits or is
 * approved any more, and the task goes back to planning — a plan made on tools that changed since, a write card
 * answered after its time.
 */
export function reviseClosingCard(
  state: Builder & Pick<TempoState, "workspaceMessageIds">,
  closed: readonly BaseMessage[],
): TempoUpdate {
  return {
    ...sendToPlanner(state, "revise"),
    pending: null,
    pendingAnswer: null,
    answeredWrites: [],
    stepEnding: null,
    ...(closed.length > 0
      ? {
          messages: [...closed],
          workspaceMessageIds: [...state.workspaceMessageIds, ...closed.map((message) => message.id!)],
        }
      : {}),
  };
}

/** await confirmation: a plan card or a write card waits for the user. */
export function awaitConfirmation(
  state: Builder,
  pending: Extract<PendingInteraction, { kind: "confirm_plan" | "confirm_tool" }>,
): TempoUpdate {
  return { phase: nextPhase(state.phase, "await_confirmation"), pending };
}

/** ask: a question waits for the user; the stage that asked gets the answer. */
export function ask(state: Builder, question: string, askedBy: "plan" | "execute"): TempoUpdate {
  return { phase: nextPhase(state.phase, "ask"), pending: { kind: "ask_user", question, askedBy } };
}

/** answer: the question is answered; back to the stage that asked. */
export function answerQuestion(state: Builder): TempoUpdate {
  return { phase: nextPhase(state.phase, "answer"), pending: null, pendingAnswer: null };
}

// ── Execution ────────────────────────────────────────────────────────────

type ExecutionState = Builder & Pick<TempoState, "planSteps" | "currentStepId">;

/**
 * resume execution: run the first unfinished step of `planSteps`. Resuming the step that was already
 * current keeps its workspace (its tool rounds and the feedback in them); a new step starts with an
 * empty workspace and no setbacks. With no step left, the task finishes.
 */
export function resumeExecution(
  state: ExecutionState & Pick<TempoState, "goal" | "lastError">,
  planSteps: PlanStep[],
): TempoUpdate {
  const index = planSteps.findIndex((step) => step.status === "pending" || step.status === "running");
  const step = planSteps[index];
  const phase = nextPhase(state.phase, "resume_execution");
  if (!step) return finishTask({ ...state, phase }, planSteps);
  const running = planSteps.map((candidate, position) =>
    position === index ? { ...candidate, status: "running" as const } : candidate,
  );
  if (step.id === state.currentStepId) return { phase, planSteps: running, currentStepId: step.id };
  return {
    phase,
    planSteps: running,
    currentStepId: step.id,
    workspaceMessageIds: [],
    consecutiveCorrections: 0,
    stepSetbacks: { toolErrors: 0, rejections: 0 },
  };
}

/**
 * finish step: the current step is done with `summary` — not carried out, with why, when `notCarriedOut` says so;
 * the caller goes on (next step, replan, finish).
 */
export function finishStep(
  state: ExecutionState,
  summary: string,
  notCarriedOut?: string,
): TempoUpdate & { planSteps: PlanStep[] } {
  const outcome = notCarriedOut?.trim()
    ? { outcome: { kind: "not_carried_out" as const, reason: notCarriedOut.trim() } }
    : {};
  const planSteps = state.planSteps.map((step) =>
    step.id === state.currentStepId ? { ...step, status: "done" as const, summary, ...outcome } : step,
  );
  return {
    phase: nextPhase(state.phase, "finish_step"),
    planSteps,
    currentStepId: null,
    workspaceMessageIds: [],
    stepSetbacks: { toolErrors: 0, rejections: 0 },
  };
}

/** fail step: the current step failed, with `reason`; the task then finishes with what was done. */
export function failStep(state: ExecutionState & Pick<TempoState, "goal" | "lastError">, reason: string): TempoUpdate {
  const planSteps = state.planSteps.map((step) =>
    step.id === state.currentStepId ? { ...step, status: "failed" as const, reason } : step,
  );
  const failed = { ...state, phase: nextPhase(state.phase, "fail_step"), planSteps };
  return finishTask(failed, planSteps);
}

// ── Endings ──────────────────────────────────────────────────────────────

/**
 * finish task: the task ended; deliver judges how (completed, partial or failed: `buildTaskReport`, from the steps,
 * the repository and the log) and tells it. Until then the outcome stays unset (the task started with none).
 */
export function finishTask(
  state: Builder & Pick<TempoState, "lastError">,
  planSteps: PlanStep[],
  lastError: string | null = state.lastError,
): TempoUpdate {
  const ended = planSteps.map((step) => (step.status === "running" ? { ...step, status: "pending" as const } : step));
  return {
    phase: nextPhase(state.phase, "finish_task"),
    planSteps: ended,
    currentStepId: null,
    workspaceMessageIds: [],
    pending: null,
    pendingAnswer: null,
    lastError,
  };
}

/** deliver: the answer for the ended task, with its outcome (judged once, by deliver's report). */
export function deliver(
  state: Builder,
  answer: AIMessage,
  outcome: TaskOutcomeRecord,
  lastError: string | null,
): TempoUpdate {
  return {
    phase: nextPhase(state.phase, "deliver"),
    messages: [answer],
    finalAnswer: String(answer.content),
    outcome,
    lastError,
    currentStepId: null,
    pending: null,
    pendingAnswer: null,
    workspaceMessageIds: [],
  };
}

/** The message that answers a task (deliver, drop); `id` keeps the id its text was streamed under. */
export function answerMessage(text: string, id?: string): AIMessage {
  return new AIMessage({ id: id ?? newId("answer"), content: text });
}

/** Why a task is dropped, as its answer says it (the outcome keeps the English). */
const DROP_REASONS = {
  declined: { en: "you declined the plan", zh: "你没有接受计划" },
  withdrawn: { en: "you withdrew it when asked", zh: "你在回答问题时撤回了它" },
  movedOn: { en: "it had stopped and you moved on to a new message", zh: "它已中断，你发来了新的消息" },
  superseded: {
    en: "you sent a new request while its question was open; that request comes next",
    zh: "在它的问题还没回答时你发来了新的请求，接下来处理新的请求",
  },
  ended: { en: "the thread was ended from the client", zh: "对话已在客户端结束" },
} as const satisfies Record<string, Record<Language, string>>;
export type DropReason = keyof typeof DROP_REASONS;

/**
 * drop task: the task ends as dropped (phase back to chatting, nothing pending) with a short answer saying
 * so; `leaves` says what the task leaves behind, from the facts (`droppedWritesText`: the changes applied, the
 * approved ones not applied, or "Nothing was changed."), the last of its messages. Calls the task leaves open (its
 * card's) are answered first.
 */
export function dropTask(
  state: Builder & Pick<TempoState, "goal" | "planSteps" | "messages" | "workspaceMessageIds">,
  why: DropReason,
  leaves: string,
  language: Language = "en",
): Omit<TempoUpdate, "messages"> & { messages: [...BaseMessage[], AIMessage] } {
  const reason = DROP_REASONS[why].en;
  const told = DROP_REASONS[why][language];
  const text =
    language === "zh" ? `已放弃"${state.goal}"（${told}）。${leaves}` : `Dropped "${state.goal}" (${told}). ${leaves}`;
  const answer = answerMessage(text);
  return {
    phase: nextPhase(state.phase, "drop_task"),
    messages: [...closeOpenCalls(state, `the task was dropped (${reason})`), answer],
    planSteps: state.planSteps.map((step) =>
      step.status === "running" ? { ...step, status: "pending" as const } : step,
    ),
    currentStepId: null,
    pending: null,
    pendingAnswer: null,
    workspaceMessageIds: [],
    outcome: { kind: "dropped", reason },
    finalAnswer: text,
  };
}

/** end thread: a client ended the thread; a task in progress is dropped and no card stays pending. */
export function endThread(
  state: Builder & Pick<TempoState, "goal" | "planSteps" | "messages" | "workspaceMessageIds">,
  leaves: string,
  language: Language = "en",
): TempoUpdate {
  if (!taskInProgress(state.phase))
    return { phase: nextPhase(state.phase, "end_thread"), pending: null, pendingAnswer: null };
  const dropped = dropTask(state, "ended", leaves, language);
  return { ...dropped, phase: nextPhase(state.phase, "end_thread") };
}

/** Retry after a run that stopped (a model error): the stage that stopped runs again. */
export function retryStage(state: Builder): TempoUpdate {
  const event: WorkflowEvent = state.phase === "planning" ? "plan_round" : "resume_execution";
  return { phase: nextPhase(state.phase, event), consecutiveCorrections: 0, lastError: null };
}

/** A write the user declined without feedback: back to execute, which chooses again. */
export function declineTool(state: Builder): TempoUpdate {
  return { phase: nextPhase(state.phase, "resume_execution"), pending: null, pendingAnswer: null };
}

/**
 * A write card (one write or a batch) answered with at least one write approved: execute applies the approved calls
 * — the proposal's calls left unanswered — in order, then ends the step by `stepEnding` when it is set.
 */
export function approveWrites(state: Builder, stepEnding: StepEnding | null): TempoUpdate {
  return { phase: nextPhase(state.phase, "resume_execution"), pending: null, pendingAnswer: null, stepEnding };
}
