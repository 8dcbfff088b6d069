/**
 * confirm: no model call (docs/design.md#confirm). Raises the confirmation card for
 * the plan or for a pending write tool with `interrupt()` — nothing before
 * it has side effects, since LangGraph re-runs the node on resume — and
 * applies the human's answer — one vocabulary, approve / edit / reject (with or without feedback), whatever shape
 * the resume came in (contracts/cards.ts reads them all):
 *
 *   plan:  approve → execute | edit → execute the edited plan (through the revision diff: done steps stay done)
 *          reject with feedback → back to planning | reject without, or a dismissal ("no", "cancel", "取消") → the task is dropped
 *   tool:  approve → execute applies it once | edit → applies the edited arguments
 *          reject → execute chooses again, told why (with feedback, the planner reviews the plan first)
 *   batch: each write decided on its own; the approved ones apply in order, once each; all rejected → as a rejected
 *          single write; a lone legacy answer naming the first write decides it alone, and the rest come back on the next card
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { showStatus } from "../../streaming/progress-ui.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { PLAN_STEPS_FIELD, type Card } from "../../contracts/cards.js";
import { parseTextValues, type CardAnswer } from "../../review/resume.js";
import { languageOf, say, type Language } from "../../contracts/language.js";
import { PlanStepDraftSchema, readPlanStepsText } from "../../contracts/plan.js";
import type { PlanStep, ProposedWrite, StepEnding, TempoState, TempoUpdate } from "../../kernel/state.js";
import { describeToolCall, findTool, readableText } from "../../tools/domain.js";
import { checkToolArguments } from "../../tools/runner.js";
import { emit, emitAssistantText } from "../../streaming/events.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { awaitHuman, isShortDismissal, rejectResume, withRefusalNoteRemoved } from "../../review/human-response.js";
import {
  batchInterrupt,
  planInterrupt,
  toolInterrupt,
  withRefusal,
  type StepPosition,
} from "../../review/interrupt-cards.js";
import { newId } from "../../kernel/ids.js";
import { answeredProposal } from "../../review/card-answers.js";
import { openProposal } from "../../kernel/proposal.js";
import { toolResultMessage } from "../../kernel/tool-results.js";
import { TempoError } from "../../errors/index.js";
import { approveWrites, declineTool, dropTask, resumeExecution, sendToPlanner } from "../../kernel/transitions.js";
import { executionStarted, recordEdits, revisePlan } from "../plan/revision.js";
import { droppedWritesText, loggedOutcomes, readWriteFacts } from "../../review/write-facts.js";
import { staleWorkflowUpdate } from "../shared/workflow-version.js";
import { assertThreadOwner } from "../../kernel/ownership.js";
import { ensureConfiguration } from "../../config/configuration.js";
import { argumentsSchema } from "../../tools/langchain-tools.js";
import { withPreferencesHeard } from "../preference-extraction.js";
import { planRejectionText, writeRejectionText } from "../../contracts/rejections.js";
import { now } from "../shared/messages.js";

/** Builds the confirm node. */
export function createConfirmNode(dependencies: NodeDependencies) {
  return async function confirm(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    return withRefusalNoteRemoved(state.pending, await answerCard(state, config));
  };

  /** Raises the pending plan or write card and applies its answer. */
  async function answerCard(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const pending = state.pending;
    if (!pending || pending.kind === "ask_user") return {};
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    assertThreadOwner(state.userId, userId);
    // The tools or the graph changed since the plan was made: replan instead of trusting it (no interrupt raised).
    const stale = staleWorkflowUpdate(state, dependencies.workflowVersion);
    if (stale) return stale;

    // Tempo's own words on the card in the user's language (contracts/language.ts).
    const language = languageOf(state.messages);
    // An answer that came as a plain user message is already in the conversation.
    const fromMessage = state.pendingAnswer !== null;
    if (pending.kind === "confirm_plan") {
      const answer = awaitHuman(
        withRefusal(planInterrupt(state.goal, state.planSteps, language), pending.refusal, language),
        state.pendingAnswer,
        readPlanAnswer,
        config,
      );
      // What a dropped task leaves is read only when the answer drops it (one log read per write).
      const leaves = async () =>
        readableText(
          dependencies.domain,
          userId,
          droppedWritesText(await readWriteFacts(state, dependencies.domain, dependencies.executionLog, threadId)),
          language,
        );
      return answerPlan(state, answer, fromMessage, config, leaves);
    }
    const { message: proposal, writes } = openProposal(state) ?? { writes: [] };
    if (!proposal || writes.length === 0) {
      // Only a state written around the run guard gets here: a card with no proposal in the conversation.
      throw new TempoError(
        "ILLEGAL_TRANSITION",
        "The write card names no proposal in the conversation, so there is nothing to confirm; nothing was changed.",
        { messageId: pending.messageId },
      );
    }
    const card = withRefusal(writeCard(writes, stepPosition(state), dependencies, language), pending.refusal, language);
    const answers = awaitHuman(
      card,
      state.pendingAnswer,
      (given) => given.map((answer, index) => readToolAnswer(answer, writes[index]!, dependencies)),
      config,
    );
    // Writes the execution log already holds (a run applied them, then died before its checkpoint recorded the
    // answer; a server restored an older checkpoint): whatever the answer, they stay, and are never asked about
    // again (docs/design.md#reconcile). Looked up once an answer is in: a card just raised has nothing logged.
    const logged = await loggedWrites(writes, dependencies, threadId);
    if (logged.length === writes.length) return reconcile(state, writes, pending.then, dependencies, config, threadId);
    const note = logged.length > 0 ? appliedNote(logged, "whatever the answer to the rest") : undefined;
    if (note) emitAssistantText(config, "confirm", note.id!, String(note.content));
    const decided: DecidedWrite[] = [];
    let later = 0;
    for (const [index, answer] of answers.entries()) {
      const write = writes[index]!;
      // Already applied: it stays, and execute answers it from the log (it is not applied again).
      const given = logged.includes(write) ? { answer: { type: "approve" as const } } : answer;
      if (given.answer.type === "later") {
        // Left undecided (a lone legacy answer named only the first write): execute raises it on the next card.
        await dependencies.approvals.hold(config.store, threadId, write, {
          summary: write.summary,
          reason: write.reason,
        });
        later += 1;
        continue;
      }
      const call = given.editedArguments ? { ...write, arguments: given.editedArguments } : write;
      // Only this answer path approves a write: execute applies nothing without the approval recorded here.
      if (given.answer.type === "approve" || given.answer.type === "edit")
        await dependencies.approvals.record(config.store, threadId, call);
      // What the chat says with an edited call names the edited change, not the proposal.
      const edited = given.editedArguments
        ? await describeToolCall(dependencies.domain, userId, write.name, given.editedArguments, language)
        : undefined;
      decided.push({ call, answer: given.answer, edited });
    }
    const answered = answerWrites(state, proposal, decided, later, pending.then, config, language);
    // A standing preference said in the feedback ("never on Monday") binds the rest of this task at once.
    const feedback = decided.flatMap(({ call, answer }) =>
      answer.type === "reject" && answer.message !== "" ? [{ text: answer.message, tool: call.name }] : [],
    );
    const heard = withPreferencesHeard(state.recalled, feedback, dependencies.domain, threadId, now());
    const update = heard ? { ...answered, recalled: heard } : answered;
    return note ? { ...update, messages: [note, ...((update.messages as BaseMessage[] | undefined) ?? [])] } : update;
  }
}

/** A write of the card once decided: the call as it applies (an edit's arguments), the answer, and an edit's description. */
interface DecidedWrite {
  call: ProposedWrite;
  answer: CardAnswer;
  edited?: string;
}

/** The writes of `writes` the execution log holds as run (completed) on this thread. */
async function loggedWrites(
  writes: readonly ProposedWrite[],
  dependencies: NodeDependencies,
  threadId: string,
): Promise<ProposedWrite[]> {
  const logged = await loggedOutcomes(
    writes.map((write) => write.id),
    dependencies.executionLog,
    threadId,
  );
  return writes.filter((write) => logged.has(write.id));
}

/** What the user is told about writes of a card that had already been applied. */
function appliedNote(logged: readonly ProposedWrite[], when: string): AIMessage {
  const names = logged.map((write) => write.summary || write.name).join("; ");
  return new AIMessage({
    id: newId("reconciled"),
    content: `${logged.length} change(s) on this card had already been applied before the interruption, so they stay ${when}: ${names}.`,
  });
}

/**
 * A write card whose every write the execution log already holds as applied (the run that applied them died before
 * its checkpoint saved the answer, or the server lost its recent checkpoints): its answer, whatever it is, is not
 * taken, and the card is not asked again. The thread moves on as if the card had been approved — execute answers
 * each write from the log, applying nothing twice — and the user is told what had been applied.
 */
async function reconcile(
  state: TempoState,
  writes: ProposedWrite[],
  then: StepEnding | undefined,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  threadId: string,
): Promise<TempoUpdate> {
  for (const write of writes) await dependencies.approvals.record(config.store, threadId, write);
  emit(config, { kind: "status", node: "confirm", text: "These changes were already applied; going on" });
  const note = appliedNote(writes, "and the card is not asked again");
  emitAssistantText(config, "confirm", note.id!, String(note.content));
  return {
    ...approveWrites(state, then ?? null),
    stepSetbacks: { ...state.stepSetbacks, rejections: 0 },
    messages: [note],
  };
}

type PlanAnswer = { answer: CardAnswer; editedPlan?: PlanStep[] };
/** The answer to one write; an edit carries its arguments, checked against the tool's schema. */
type ToolAnswer = { answer: CardAnswer; editedArguments?: Record<string, unknown> };

/** Where execution stands, for the write card: the current step and its position. */
function stepPosition(state: TempoState): StepPosition | null {
  const index = state.planSteps.findIndex((step) => step.id === state.currentStepId);
  return index === -1
    ? null
    : { index: index + 1, total: state.planSteps.length, content: state.planSteps[index]!.content };
}

/** Validates an answer to the plan card; an edit must carry a valid plan. */
function readPlanAnswer([answer]: CardAnswer[]): PlanAnswer {
  return answer!.type === "edit" ? { answer: answer!, editedPlan: editedPlan(answer!.args) } : { answer: answer! };
}

/** The card for pending writes: one write's card, or a batch card of several. */
function writeCard(
  tools: ProposedWrite[],
  step: StepPosition | null,
  dependencies: NodeDependencies,
  language: Language,
): Card {
  const schemas = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    const definition = findTool(dependencies.domain, tool.name);
    if (definition && !schemas.has(tool.name)) schemas.set(tool.name, argumentsSchema(definition.schema));
  }
  const [first, ...rest] = tools as [ProposedWrite, ...ProposedWrite[]];
  return rest.length === 0
    ? toolInterrupt(first, step, schemas.get(first.name), language)
    : batchInterrupt([first, ...rest], step, schemas, language);
}

/** Validates the answer to one write of a card; edited arguments must fit the tool's schema. */
function readToolAnswer(answer: CardAnswer, tool: ProposedWrite, dependencies: NodeDependencies): ToolAnswer {
  if (answer.type !== "edit") return { answer };
  const definition = findTool(dependencies.domain, tool.name);
  // Edit forms (Agent Inbox, Agent Chat UI) send every field as text ("5", "[1,2]"): the check reads such values as JSON.
  const checked = definition
    ? checkToolArguments(definition, answer.args)
    : { ok: false as const, problem: `unknown tool ${tool.name}` };
  if (!checked.ok)
    rejectResume(
      `The edited arguments do not fit ${tool.name}: ${checked.problem.replace(`invalid arguments for ${tool.name}: `, "")}.`,
      { expected: ["edit"] },
    );
  return { answer, editedArguments: checked.arguments };
}

async function answerPlan(
  state: TempoState,
  { answer, editedPlan }: PlanAnswer,
  fromMessage: boolean,
  config: LangGraphRunnableConfig,
  leaves: () => Promise<string>,
): Promise<TempoUpdate> {
  const cleared: TempoUpdate = { pending: null, pendingAnswer: null };
  if (answer.type === "approve" || answer.type === "edit") {
    emit(config, {
      kind: "status",
      node: "confirm",
      text: say(languageOf(state.messages), "Plan confirmed", "计划已确认"),
    });
    showStatus(config, state.messages, "Plan confirmed; working on it…", "计划已确认，正在执行…");
    const planSteps = editedPlan ? applyEdit(state, editedPlan) : state.planSteps;
    const edits: TempoUpdate = editedPlan
      ? {
          planEdits: recordEdits(state.planSteps, planSteps, state.planEdits),
          planRevision: executionStarted(state.planSteps) ? state.planRevision + 1 : state.planRevision,
        }
      : {};
    // Resume from the first unfinished step: a revised plan keeps its matching prefix done (docs/design.md#plan-revision).
    return { ...cleared, ...edits, ...resumeExecution(state, planSteps) };
  }
  const feedback = answer.type === "reject" ? answer.message : answer.type === "answer" ? answer.text : "";
  if (feedback === "" || isShortDismissal(feedback)) {
    // Ignore, "no", "cancel", "取消": the user does not want this task.
    emit(config, { kind: "status", node: "confirm", text: "Plan dropped" });
    const dropped = dropTask(state, "you declined the plan", await leaves());
    emitAssistantText(config, "confirm", dropped.messages.at(-1)!.id!, String(dropped.messages.at(-1)!.content));
    return { ...cleared, ...dropped };
  }
  emit(config, { kind: "status", node: "confirm", text: "Plan rejected; revising" });
  const note = fromMessage ? [] : [new HumanMessage({ id: newId("human"), content: planRejectionText(feedback) })];
  return {
    ...cleared,
    ...sendToPlanner(state, "revise"),
    messages: note,
    workspaceMessageIds: note.map((message) => message.id!),
  };
}

/** The edited plan through the revision diff: steps the user kept as they were keep their status and summary. */
function applyEdit(state: TempoState, edited: PlanStep[]): PlanStep[] {
  const drafts = edited.map((step) => ({ content: step.content, done_when: step.doneWhen }));
  // Before execution, an edit is a fresh plan; during it, a revision with its own step ids.
  return revisePlan(state.planSteps, drafts, executionStarted(state.planSteps) ? state.planRevision + 1 : 0).steps;
}

/**
 * The plan from an edit: its `steps` text (one step a line, what the card's edit box shows), or a `plan_steps` list
 * of {content, done_when} (or that list's JSON text), validated.
 */
function editedPlan(edited: Record<string, unknown>): PlanStep[] {
  const text = edited[PLAN_STEPS_FIELD];
  const listed = parseTextValues(edited).plan_steps;
  const drafts =
    typeof text === "string" && listed === undefined
      ? readPlanStepsText(text)
      : listed !== undefined
        ? PlanStepDraftSchema.array().min(1).safeParse(listed).data
        : undefined;
  if (!drafts) {
    rejectResume(
      `An "edit" of the plan needs its steps: args.args.${PLAN_STEPS_FIELD} as text, one step a line ("1. what to do — done when: how to tell"), or args.args.plan_steps: a non-empty list of {content, done_when}.`,
      { expected: ["edit"] },
    );
  }
  return drafts.map((step, index) => ({
    id: `step-${index + 1}`,
    content: step.content,
    doneWhen: step.done_when,
    status: "pending",
  }));
}

/** What the model reads for a write the user rejected. */
function rejectionResult(answer: CardAnswer): string {
  return writeRejectionText(answer.type === "reject" ? answer.message : "");
}

/**
 * Applies the answers to a write card, in the proposal itself: an edit rewrites its call in the proposal's message
 * (the same message id, so the conversation shows the call as it will apply), a rejection answers its call with a
 * tool message saying why (status error). With any write approved, execute applies the calls left unanswered, in
 * order, and the proposal's own ending (`then`) stands only when every write was approved unchanged. When every
 * write is rejected, execute chooses again knowing why; feedback may concern the plan itself, so the planner
 * reviews it first (a no-op revision resumes this step at once).
 */
function answerWrites(
  state: TempoState,
  proposal: AIMessage,
  decided: DecidedWrite[],
  later: number,
  then: StepEnding | undefined,
  config: LangGraphRunnableConfig,
  language: Language,
): TempoUpdate {
  const rejected = decided.filter(({ answer }) => answer.type === "reject");
  const rejections = rejected.map(({ call, answer }) => {
    const result = rejectionResult(answer);
    emit(config, { kind: "tool_result", node: "confirm", id: call.id, name: call.name, ok: false, content: result });
    return toolResultMessage(call, result, "declined");
  });
  const edits = decided.filter((write) => write.edited !== undefined);
  // With an edit or a rejection, the proposal says what will apply (the chat shows it; deliver names the decisions),
  // its edited calls as they will apply (calls answered on an earlier card stay as they were).
  const rewritten =
    edits.length === 0 && rejected.length === 0
      ? []
      : [
          new AIMessage({
            id: proposal.id,
            ...answeredProposal(
              proposal,
              edits.map(({ call, edited }) => ({ callId: call.id, text: edited! })),
              rejected.map(({ call, answer }) => ({
                callId: call.id,
                text: call.summary || call.name,
                feedback: answer.type === "reject" ? answer.message : "",
              })),
              decided.length - edits.length - rejected.length,
              language,
            ),
            tool_calls: (proposal.tool_calls ?? []).map((call) => {
              const edit = edits.find((write) => write.call.id === call.id);
              return edit
                ? { id: call.id, name: call.name, args: edit.call.arguments, type: "tool_call" as const }
                : call;
            }),
          }),
        ];
  const answered: TempoUpdate = {
    messages: [...rewritten, ...rejections],
    workspaceMessageIds: [...state.workspaceMessageIds, ...rejections.map((message) => message.id!)],
  };
  if (rejections.length < decided.length) {
    // An edit, a rejection or a write left for later changes what the proposal's ending was judged on: the model
    // decides after it instead.
    const unchanged = edits.length === 0 && rejections.length === 0 && later === 0;
    return {
      ...approveWrites(state, unchanged ? (then ?? null) : null),
      ...answered,
      stepSetbacks: { ...state.stepSetbacks, rejections: 0 },
    };
  }
  // Every decided write rejected, others left for later: execute raises the next card for them (the step goes on).
  if (later > 0) return { ...approveWrites(state, null), ...answered };
  const feedback = decided.some(({ answer }) => answer.type === "reject" && answer.message !== "");
  const next: TempoUpdate = feedback ? sendToPlanner(state, "revise") : declineTool(state);
  return {
    ...next,
    ...answered,
    pending: null,
    pendingAnswer: null,
    // Declined cards in a row count against the step (past the limit it fails: the user refuses what it needs).
    stepSetbacks: { ...state.stepSetbacks, rejections: state.stepSetbacks.rejections + 1 },
  };
}
