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
 *          single write
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { parseTextValues, type Card, type CardAnswer } from "../../contracts/cards.js";
import { PlanStepDraftSchema } from "../../contracts/plan.js";
import type { AnsweredWrite, PendingTool, PlanStep, TempoState, TempoUpdate } from "../../kernel/state.js";
import { describeToolCall, findTool } from "../../tools/domain.js";
import { checkToolArguments } from "../../tools/runner.js";
import { emit, emitAssistantText } from "../../streaming/events.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { awaitHuman, isShortDismissal, rejectResume } from "./human-response.js";
import { batchInterrupt, planInterrupt, toolInterrupt, type StepPosition } from "./interrupt-cards.js";
import { newId } from "../../kernel/ids.js";
import { toolRoundOf } from "../shared/messages.js";
import { approveWrites, declineTool, dropTask, resumeExecution, sendToPlanner } from "../../kernel/transitions.js";
import { executionStarted, recordEdits, revisePlan } from "../plan/revision.js";
import { droppedWritesText, loggedOutcomes, readWriteFacts } from "../deliver/write-facts.js";
import { staleWorkflowUpdate } from "../shared/workflow-version.js";
import { assertThreadOwner } from "../../kernel/ownership.js";
import { ensureConfiguration } from "../../config/configuration.js";
import { argumentsSchema } from "../../tools/langchain-tools.js";

/** Builds the confirm node. */
export function createConfirmNode(dependencies: NodeDependencies) {
  return async function confirm(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const pending = state.pending;
    if (!pending || pending.kind === "ask_user") return {};
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    assertThreadOwner(state.userId, userId);
    // The tools or the graph changed since the plan was made: replan instead of trusting it (no interrupt raised).
    const stale = staleWorkflowUpdate(state, dependencies.workflowVersion);
    if (stale) return stale;

    // An answer that came as a plain user message is already in the conversation.
    const fromMessage = state.pendingAnswer !== null;
    if (pending.kind === "confirm_plan") {
      const answer = awaitHuman(planInterrupt(state.goal, state.planSteps), state.pendingAnswer, readPlanAnswer, config);
      // What a dropped task leaves is read only when the answer drops it (one log read per write).
      const leaves = async () => droppedWritesText(await readWriteFacts(state, dependencies.domain, dependencies.executionLog, threadId));
      return answerPlan(state, answer, fromMessage, config, leaves);
    }
    const tools = pending.tools;
    const card = writeCard(tools, stepPosition(state), dependencies);
    const answers = awaitHuman(card, state.pendingAnswer, (given) => given.map((answer, index) => readToolAnswer(answer, tools[index]!, dependencies)), config);
    // Writes the execution log already holds (a run applied them, then died before its checkpoint recorded the
    // answer; a server restored an older checkpoint): whatever the answer, they stay, and are never asked about
    // again (docs/design.md#reconcile). Looked up once an answer is in: a card just raised has nothing logged.
    const logged = await loggedWrites(tools, dependencies, threadId);
    if (logged.length === tools.length) return reconcile(state, tools, dependencies, config, threadId);
    const answered: AnsweredWrite[] = [];
    const note = logged.length > 0 ? appliedNote(logged, "whatever the answer to the rest") : undefined;
    if (note) emitAssistantText(config, "confirm", note.id!, String(note.content));
    for (const [index, answer] of answers.entries()) {
      const tool = tools[index]!;
      if (logged.includes(tool)) {
        // Already applied: it stays, and execute answers it from the log (it is not applied again).
        await dependencies.approvals.record(config.store, threadId, tool);
        answered.push({ tool, approved: true });
        continue;
      }
      // What the chat says with an edited call names the edited change, not the proposal.
      const summary = answer.editedArguments ? await describeToolCall(dependencies.domain, userId, tool.name, answer.editedArguments) : undefined;
      const shown = summary === undefined ? tool : { ...tool, summary, speak: `Applying your edit: ${summary}.` };
      // Only this answer path approves a write: execute applies nothing without the approval recorded here.
      const approved = approvedCall(shown, answer);
      if (approved) await dependencies.approvals.record(config.store, threadId, approved);
      answered.push(approved ? { tool: approved, approved: true } : { tool: shown, approved: false, result: rejectionResult(answer.answer) });
    }
    const update = answerWrites(state, answered, answers, config);
    return note ? { ...update, messages: [note, ...((update.messages as BaseMessage[] | undefined) ?? [])] } : update;
  };
}

/** The writes of `tools` the execution log holds as run (completed) on this thread. */
async function loggedWrites(tools: readonly PendingTool[], dependencies: NodeDependencies, threadId: string): Promise<PendingTool[]> {
  if (!dependencies.executionLog) return [];
  const logged = await loggedOutcomes(tools.map((tool) => tool.id), dependencies.executionLog, threadId);
  return tools.filter((tool) => logged.has(tool.id));
}

/** What the user is told about writes of a card that had already been applied. */
function appliedNote(logged: readonly PendingTool[], when: string): AIMessage {
  const names = logged.map((tool) => tool.summary || tool.name).join("; ");
  return new AIMessage({
    id: newId("reconciled"),
    content: `${logged.length} change(s) on this card had already been applied before the interruption, so they stay ${when}: ${names}.`,
  });
}

/**
 * A write card whose every write the execution log already holds as applied (the run that applied them died before
 * its checkpoint saved the answer, or the server lost its recent checkpoints): its answer, whatever it is, is not
 * taken, and the card is not asked again. The thread moves on as if the card had been approved — execute answers each write from the log, applying nothing twice — and
 * the user is told what had been applied.
 */
async function reconcile(state: TempoState, tools: PendingTool[], dependencies: NodeDependencies, config: LangGraphRunnableConfig, threadId: string): Promise<TempoUpdate> {
  for (const tool of tools) await dependencies.approvals.record(config.store, threadId, tool);
  emit(config, { kind: "status", node: "confirm", text: "These changes were already applied; going on" });
  const note = appliedNote(tools, "and the card is not asked again");
  emitAssistantText(config, "confirm", note.id!, String(note.content));
  return {
    ...approveWrites(state, tools.map((tool) => ({ tool, approved: true }))),
    stepSetbacks: { ...state.stepSetbacks, rejections: 0 },
    messages: [note],
  };
}

/** The answer to the plan card; an edit carries the edited plan, validated. */
type PlanAnswer = { answer: CardAnswer; editedPlan?: PlanStep[] };
/** The answer to one write; an edit carries its arguments, checked against the tool's schema. */
type ToolAnswer = { answer: CardAnswer; editedArguments?: Record<string, unknown> };

/** Where execution stands, for the write card: the current step and its position. */
function stepPosition(state: TempoState): StepPosition | null {
  const index = state.planSteps.findIndex((step) => step.id === state.currentStepId);
  return index === -1 ? null : { index: index + 1, total: state.planSteps.length, content: state.planSteps[index]!.content };
}

/** Validates an answer to the plan card; an edit must carry a valid plan. */
function readPlanAnswer([answer]: CardAnswer[]): PlanAnswer {
  return answer!.type === "edit" ? { answer: answer!, editedPlan: editedPlan(answer!.args) } : { answer: answer! };
}

/** The card for pending writes: one write's card, or a batch card of several. */
function writeCard(tools: PendingTool[], step: StepPosition | null, dependencies: NodeDependencies): Card {
  const schemas = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    const definition = findTool(dependencies.domain, tool.name);
    if (definition && !schemas.has(tool.name)) schemas.set(tool.name, argumentsSchema(definition.schema));
  }
  const [first, ...rest] = tools as [PendingTool, ...PendingTool[]];
  return rest.length === 0 ? toolInterrupt(first, step, schemas.get(first.name)) : batchInterrupt([first, ...rest], step, schemas);
}

/** Validates the answer to one write of a card; edited arguments must fit the tool's schema. */
function readToolAnswer(answer: CardAnswer, tool: PendingTool, dependencies: NodeDependencies): ToolAnswer {
  if (answer.type !== "edit") return { answer };
  const definition = findTool(dependencies.domain, tool.name);
  // Edit forms (Agent Inbox, Agent Chat UI) send every field as text ("5", "[1,2]"): the check reads such values as JSON.
  const checked = definition ? checkToolArguments(definition, answer.args) : { ok: false as const, problem: `unknown tool ${tool.name}` };
  if (!checked.ok) rejectResume(`The edited arguments do not fit ${tool.name}: ${checked.problem}.`, { expected: ["edit"] });
  return { answer, editedArguments: checked.arguments };
}

async function answerPlan(state: TempoState, { answer, editedPlan }: PlanAnswer, fromMessage: boolean, config: LangGraphRunnableConfig, leaves: () => Promise<string>): Promise<TempoUpdate> {
  const cleared: TempoUpdate = { pending: null, pendingAnswer: null };
  if (answer.type === "approve" || answer.type === "edit") {
    emit(config, { kind: "status", node: "confirm", text: "Plan confirmed" });
    const planSteps = editedPlan ? applyEdit(state, editedPlan) : state.planSteps;
    const edits: TempoUpdate = editedPlan
      ? { planEdits: recordEdits(state.planSteps, planSteps, state.planEdits), planRevision: executionStarted(state.planSteps) ? state.planRevision + 1 : state.planRevision }
      : {};
    // Resume from the first unfinished step: a revised plan keeps its matching prefix done (docs/design.md#plan-revision).
    return { ...cleared, ...edits, ...resumeExecution(state, planSteps) };
  }
  const feedback = answer.type === "reject" ? answer.message : answer.type === "answer" ? answer.text : "";
  if (feedback === "" || isShortDismissal(feedback)) {
    // Ignore, "no", "cancel", "取消": the user does not want this task.
    emit(config, { kind: "status", node: "confirm", text: "Plan dropped" });
    const dropped = dropTask(state, "you declined the plan", await leaves());
    emitAssistantText(config, "confirm", dropped.messages[0]!.id!, String(dropped.messages[0]!.content));
    return { ...cleared, ...dropped };
  }
  emit(config, { kind: "status", node: "confirm", text: "Plan rejected; revising" });
  const note = fromMessage ? [] : [new HumanMessage({ id: newId("human"), content: `I reject this plan. Feedback: ${feedback}` })];
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

/** The plan from an edit: its `plan_steps`, validated. */
function editedPlan(edited: Record<string, unknown>): PlanStep[] {
  const args = parseTextValues(edited);
  const steps = PlanStepDraftSchema.array().min(1).safeParse(args.plan_steps);
  if (!steps.success) {
    rejectResume('An "edit" of the plan needs args.args.plan_steps: a non-empty list of {content, done_when}.', { expected: ["edit"] });
  }
  return steps.data.map((step, index) => ({ id: `step-${index + 1}`, content: step.content, doneWhen: step.done_when, status: "pending" }));
}

/** What the model reads for a write the user rejected. */
function rejectionResult(answer: CardAnswer): string {
  const feedback = answer.type === "reject" ? answer.message : "";
  return feedback
    ? `Not applied: the user rejected this change. Their feedback: ${feedback}`
    : "Not applied: the user rejected this change without comment. Choose a different action.";
}

/**
 * Applies the answers to a write card. A card with any write approved goes to execute as `answeredWrites` — one
 * write or several, the same way (execute applies the approved ones in order and tells the model of the rejected
 * ones). When every write is rejected, the rejections are recorded as tool rounds at once, so
 * execute chooses again knowing why; feedback may concern the plan itself, so the planner reviews it first
 * (a no-op revision resumes this step at once).
 */
function answerWrites(state: TempoState, answered: AnsweredWrite[], answers: ToolAnswer[], config: LangGraphRunnableConfig): TempoUpdate {
  const approved = answered.filter((write) => write.approved);
  const cleared: TempoUpdate = { stepSetbacks: { ...state.stepSetbacks, rejections: 0 } };
  if (approved.length > 0) return { ...approveWrites(state, answered), ...cleared };
  const feedback = answers.some(({ answer }) => answer.type === "reject" && answer.message !== "");
  const next: TempoUpdate = feedback ? sendToPlanner(state, "revise") : declineTool(state);
  for (const { tool, result } of answered) emit(config, { kind: "tool_result", node: "confirm", id: tool.id, name: tool.name, ok: false, content: result! });
  const rounds = toolRoundOf(
    answered.map(({ tool, result }) => ({ call: { id: tool.id, name: tool.name, arguments: tool.arguments }, result: result!, outcome: "declined" as const })),
    answered[0]!.tool.speak,
  );
  return {
    ...next,
    pending: null,
    pendingAnswer: null,
    // Declined cards in a row count against the step (past the limit it fails: the user refuses what it needs).
    stepSetbacks: { ...state.stepSetbacks, rejections: state.stepSetbacks.rejections + 1 },
    messages: rounds,
    workspaceMessageIds: [...state.workspaceMessageIds, ...rounds.map((message) => message.id!)],
  };
}

/** The call an accept or an edit approves (null for a rejection). */
function approvedCall(tool: PendingTool, { answer, editedArguments }: ToolAnswer): PendingTool | null {
  if (answer.type === "approve") return tool;
  // An edit changes what the proposal's ending (`then`) was judged on: the model decides after it instead.
  if (answer.type === "edit") return { ...tool, arguments: editedArguments ?? tool.arguments, then: undefined };
  return null;
}
