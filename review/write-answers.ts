/**
 * The answer to a write card, whole: raising the card for the proposal's pending writes (one write's card, or a batch
 * card of several), reading each write's answer (an edit's arguments checked against its tool's schema), recording
 * the approvals execute applies from, and the proposal rewritten as it will apply — an edited call rewritten in place,
 * a rejected one answered with a tool message saying why. Writes the execution log already holds are reconciled, never
 * asked about again. The confirm node calls {@link answerWriteCard}; nothing else decides a write.
 *
 *   approve → execute applies it once | edit → applies the edited arguments
 *   reject → execute chooses again, told why (with feedback, the planner reviews the plan first)
 *   batch: each write decided on its own; the approved ones apply in order, once each; all rejected → as a rejected
 *          single write; a lone legacy answer naming the first write decides it alone, and the rest come back on the
 *          next card
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Language } from "../contracts/language.js";
import { writeRejectionText } from "../contracts/rejections.js";
import { TempoError } from "../errors/index.js";
import { newId } from "../kernel/ids.js";
import { openProposal } from "../kernel/proposal.js";
import type { PendingInteraction, ProposedWrite, StepEnding, TempoState, TempoUpdate } from "../kernel/state.js";
import { toolResultMessage } from "../kernel/tool-results.js";
import { approveWrites, declineTool, sendToPlanner } from "../kernel/transitions.js";
import { emit, emitAssistantText, emitStatus } from "../streaming/events.js";
import { showApplying } from "../streaming/progress-ui.js";
import { describeToolCall, findTool, readableText, type DomainTool, type ToolDomain } from "../tools/domain.js";
import { checkToolArguments, droppedArgumentKeys, stateForRun, type ExecutionLog } from "../tools/runner.js";
import type { HeldWrite, WriteApprovals } from "./approvals.js";
import { answeredProposal } from "./card-answers.js";
import { awaitHuman, isShortDismissal, namedKeys, rejectResume } from "./human-response.js";
import { withClockNote, withRefusal, writeCard, writeCardOutline } from "./interrupt-cards.js";
import { ACCEPT_EVERY_ACTION, type AnswerVerdict } from "./resume.js";
import { loggedOutcomes } from "./write-facts.js";
import {
  outlivedAnswer,
  outlivedCardNote,
  weekMovedUnder,
  writesPassedByClock,
  type OutlivedCard,
} from "./outlived-cards.js";
import { lastAppliedCard } from "../kernel/applied-writes.js";

/**
 * The resume that moves a card whose every write the execution log holds (`server/`/`auth/` settle such a card
 * before anyone reads it): its answer is not taken (see {@link answerWriteCard}), so any answer deciding every write
 * does; this one, the legacy accept echoing nothing, decides every write alike.
 */
export const RECONCILING_RESUME = ACCEPT_EVERY_ACTION;

/** The wait of a write card, as `state.pending` holds it. */
export type WriteCardWait = Extract<PendingInteraction, { kind: "confirm_tool" }>;

/** What answering a write card needs of the graph. */
export interface WriteAnswerDependencies {
  domain: ToolDomain;
  approvals: WriteApprovals;
  executionLog: ExecutionLog;
}

/** Feedback the user gave with a rejected write, for the standing preferences it may say. */
export interface WriteFeedback {
  text: string;
  tool: string;
}

/** A write of the card once decided: the call as it applies (an edit's arguments), the answer, and an edit's description. */
interface DecidedWrite {
  call: ProposedWrite;
  answer: AnswerVerdict;
  edited?: string;
}

/** The answer to one write; an edit carries its arguments, checked against the tool's schema. */
type ToolAnswer = { answer: AnswerVerdict; editedArguments?: Record<string, unknown> };

/**
 * Raises the write card for `state`'s pending writes (or takes the answer that came as a message) and applies its
 * answer: the state update, and the feedback given with rejections. Throws ILLEGAL_TRANSITION when the card names
 * no proposal in the conversation.
 */
export async function answerWriteCard(
  state: TempoState,
  pending: WriteCardWait,
  config: LangGraphRunnableConfig,
  dependencies: WriteAnswerDependencies,
  who: { userId: string; threadId: string; now?: Date },
  language: Language,
): Promise<{ update: TempoUpdate; feedback: WriteFeedback[]; weekGone?: boolean }> {
  const { userId, threadId } = who;
  const { message: proposal, writes } = openProposal(state) ?? { writes: [] };
  if (!proposal || writes.length === 0) {
    // Only a state written around the run guard gets here: a card with no proposal in the conversation.
    throw new TempoError(
      "ILLEGAL_TRANSITION",
      "The write card names no proposal in the conversation, so there is nothing to confirm; nothing was changed.",
      { messageId: pending.messageId },
    );
  }
  // The answer is read against the card's outline; the card itself is built only when it is raised.
  const tools = writes as [ProposedWrite, ...ProposedWrite[]];
  const card = {
    outline: writeCardOutline(tools, dependencies.domain),
    // A task that raised no plan card (a question's plan) says the clock's note on its write card instead.
    // So does the card that proposes again after one answered past its time (`outlivedCard`), with what the clock did.
    build: () =>
      withRefusal(
        withClockNote(writeCard(tools, state, dependencies.domain, language), writeCardNote(state, language)),
        pending.refusal,
        language,
      ),
  };
  const answers = awaitHuman(
    card,
    state.pendingAnswer,
    (given) => given.map((answer, index) => readToolAnswer(answer, writes[index]!, dependencies.domain)),
    config,
  );
  // Writes the execution log already holds (a run applied them, then died before its checkpoint recorded the
  // answer; a server restored an older checkpoint): whatever the answer, they stay, and are never asked about
  // again (docs/design.md#reconcile). Looked up once an answer is in: a card just raised has nothing logged.
  const logged = await loggedWrites(writes, dependencies.executionLog, threadId);
  if (logged.length === writes.length)
    return { update: await reconcile(state, writes, pending.then, dependencies, config, threadId), feedback: [] };
  const note = logged.length > 0 ? appliedNote(logged, "whatever the answer to the rest") : undefined;
  if (note) emitAssistantText(config, "confirm", note.id!, String(note.content));
  const decided: DecidedWrite[] = [];
  const held: Array<{ tool: ProposedWrite; held: HeldWrite }> = [];
  for (const [index, answer] of answers.entries()) {
    const write = writes[index]!;
    // Already applied: it stays, and execute answers it from the log (it is not applied again).
    const given: ToolAnswer = logged.includes(write) ? { answer: { verdict: "go" } } : answer;
    if (given.answer.verdict === "later") {
      // Left undecided (a lone legacy answer named only the first write): execute raises it on the next card.
      const shown = write.shown ? { shown: write.shown } : {};
      held.push({ tool: write, held: { summary: write.summary, reason: write.reason, ...shown } });
      continue;
    }
    const call = given.editedArguments ? { ...write, arguments: given.editedArguments } : write;
    // What the chat says with an edited call names the edited change, not the proposal.
    // Described on the week as the run sees it, the clock folded in, as the card's own writes are (execute).
    const edited = given.editedArguments
      ? await describeToolCall(dependencies.domain, userId, write.name, given.editedArguments, language, () =>
          stateForRun(dependencies.domain, { userId, now: who.now }),
        )
      : undefined;
    decided.push({ call, answer: given.answer, edited });
  }
  const approvedCalls = decided.filter(({ answer }) => answer.verdict === "go").map(({ call }) => call);
  // Answered after its time (its week gone or rolled on by another change, or places on it the clock has passed):
  // nothing of it is approved or applied, and the task plans again from now (review/outlived-cards.ts). Not for a card
  // partly applied already.
  const outlived =
    logged.length === 0 ? await outlivedCard(state, proposal, decided, dependencies.domain, who, language) : undefined;
  if (outlived) {
    const declined = new Map(
      decided.flatMap(({ call, answer }) => (answer.verdict === "decline" ? [[call.id, answer.feedback]] : [])),
    );
    const [english, chinese] =
      outlived.moved !== undefined && !outlived.weekGone
        ? ["The week moved on since the card was made; planning again", "卡片做出之后日程已移到另一周，重新安排"]
        : ["The card's time has passed; planning again", "卡片上的时间已经过去，重新安排"];
    emitStatus(config, "confirm", state.messages, english, chinese);
    const { update, said } = outlivedAnswer(state, writes, declined, outlived, language);
    if (said) emitAssistantText(config, "confirm", said.id!, String(said.content));
    return { update, feedback: feedbackOf(decided), weekGone: outlived.weekGone };
  }
  // Only this answer path approves a write: execute applies nothing without the approval recorded here.
  await dependencies.approvals.recordAnswers(config.store, threadId, approvedCalls, held);
  const answered = answerWrites(state, proposal, decided, held.length, pending.then, config, language);
  // "Applying 8 approved changes…" under the proposal until the next card or the answer (Agent Chat UI draws no
  // custom event). Pushed here, with the answer, not while the writes apply: a write's step must write nothing
  // before its result, or a run that dies mid-write leaves a half-written step behind.
  const approved = decided.filter(({ answer }) => answer.verdict !== "decline").map(({ call }) => call.id);
  if (approved.length > 0) showApplying(config, state.messages, approved);
  const feedback = feedbackOf(decided);
  // A card answered in its time: the note of one answered after its time has been said (on this card).
  const said: TempoUpdate = state.outlivedCard ? { ...answered, outlivedCard: null } : answered;
  const update = note ? { ...said, messages: [note, ...((said.messages as BaseMessage[] | undefined) ?? [])] } : said;
  return { update, feedback };
}

/** The feedback given with the rejections among `decided`. */
function feedbackOf(decided: readonly DecidedWrite[]): WriteFeedback[] {
  return decided.flatMap(({ call, answer }) =>
    answer.verdict === "decline" && answer.feedback !== "" ? [{ text: answer.feedback, tool: call.name }] : [],
  );
}

/**
 * What opens a write card: what the clock did at the start of the request for a question's plan (which raised no plan
 * card), and what a card answered after its time left undone, with what the clock did then, for the card that
 * proposes again; null for neither.
 */
function writeCardNote(state: TempoState, language: Language): string | null {
  const clock = state.readOnlyPlan || state.outlivedCard ? state.movedOn : null;
  const outlived = state.outlivedCard ? outlivedCardNote(state.outlivedCard, language) : null;
  return [clock, outlived].filter((part) => part).join("\n\n") || null;
}

/**
 * The card answered after its time, or undefined when it is not: its week is gone (the clock makes the window move on,
 * whatever the answer), or moved on under it (another change rolled the window on while it waited: `weekMovedUnder`),
 * or an approved write names a place the clock has passed since (`writesPassedByClock`). Its approved writes are named
 * as the card named them, an edited one as edited.
 */
async function outlivedCard(
  state: TempoState,
  proposal: AIMessage,
  decided: readonly DecidedWrite[],
  domain: ToolDomain,
  who: { userId: string; now?: Date },
  language: Language,
): Promise<OutlivedCard | undefined> {
  // Without a clock (a served Tempo always has one) the writes' own refusals stand, the card frame's among them.
  if (who.now === undefined) return undefined;
  const edited = new Set(decided.flatMap(({ call, edited }) => (edited === undefined ? [] : [call.id])));
  const approved = decided
    .filter(({ answer }) => answer.verdict === "go")
    .map(({ call, edited }) => (edited === undefined ? call : { ...call, summary: edited }));
  const stored = await domain.load(who.userId);
  const weekGone = domain.clock?.due(stored, who.now) !== undefined;
  const movedOn = weekMovedUnder(domain, proposal, approved, stored);
  if (weekGone || movedOn !== undefined) {
    const moved = movedOn === undefined ? {} : { moved: await readableText(domain, who.userId, movedOn, language) };
    return { approved, passed: [], weekGone, ...moved };
  }
  const passed = await writesPassedByClock(
    domain,
    proposal,
    approved,
    edited,
    { ...who, preferences: state.recalled.preferences ?? [], lastChange: lastAppliedCard(state.messages) },
    language,
  );
  return passed.length > 0 ? { approved, passed, weekGone } : undefined;
}

/** The writes of `writes` the execution log holds as run (completed) on this thread. */
async function loggedWrites(
  writes: readonly ProposedWrite[],
  log: ExecutionLog,
  threadId: string,
): Promise<ProposedWrite[]> {
  const logged = await loggedOutcomes(
    writes.map((write) => write.id),
    log,
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
  dependencies: WriteAnswerDependencies,
  config: LangGraphRunnableConfig,
  threadId: string,
): Promise<TempoUpdate> {
  await dependencies.approvals.recordAnswers(config.store, threadId, writes);
  emitStatus(
    config,
    "confirm",
    state.messages,
    "These changes were already applied; going on",
    "这些修改之前已经执行过，继续",
  );
  const note = appliedNote(writes, "and the card is not asked again");
  emitAssistantText(config, "confirm", note.id!, String(note.content));
  return {
    ...approveWrites(state, then ?? null),
    stepSetbacks: { ...state.stepSetbacks, rejections: 0 },
    messages: [note],
  };
}

/** Validates the answer to one write of a card; edited arguments must fit the tool's schema. */
function readToolAnswer(answer: AnswerVerdict, tool: ProposedWrite, domain: ToolDomain): ToolAnswer {
  // A dismissal typed as feedback ("cancel", "nvm", "取消") declines as a reject without feedback does.
  if (answer.verdict === "decline" && isShortDismissal(answer.feedback))
    return { answer: { verdict: "decline", feedback: "" } };
  if (answer.verdict !== "go" || answer.args === undefined) return { answer };
  const definition = findTool(domain, tool.name);
  // Edit forms (Agent Inbox, Agent Chat UI) send every field as text ("5", "[1,2]"): the check reads such values as JSON.
  const checked = definition
    ? checkToolArguments(definition, answer.args)
    : { ok: false as const, problem: `unknown tool ${tool.name}` };
  if (!checked.ok)
    rejectResume(
      `The edited arguments do not fit ${tool.name}: ${checked.problem.replace(`invalid arguments for ${tool.name}: `, "")}.`,
      { expected: ["edit"] },
    );
  // A key the tool does not take would be dropped without a word (its schema strips it): the edit would apply other
  // than it was sent. Refused, named, so the card stays open and nothing applies.
  const dropped = droppedArgumentKeys(answer.args, checked.arguments);
  if (dropped.length > 0) {
    const takes = argumentNames(definition!);
    rejectResume(
      `The edited arguments do not fit ${tool.name}: ${namedKeys(dropped)} ${dropped.length === 1 ? "is" : "are"} not ${dropped.length === 1 ? "an argument" : "arguments"} it takes${takes ? ` (it takes ${takes})` : ""}; nothing was applied. Edit only the card's own fields.`,
      { expected: ["edit"] },
    );
  }
  return { answer, editedArguments: checked.arguments };
}

/** The top-level argument names of a tool whose schema is an object ("text", "day, slot"), else "". */
function argumentNames(tool: DomainTool<unknown>): string {
  const shape = (tool.schema as { shape?: unknown }).shape;
  return shape !== null && typeof shape === "object" ? Object.keys(shape).join(", ") : "";
}

/** What the model reads for a write the user rejected. */
function rejectionResult(answer: AnswerVerdict): string {
  return writeRejectionText(answer.verdict === "decline" ? answer.feedback : "");
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
  const rejected = decided.filter(({ answer }) => answer.verdict === "decline");
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
                feedback: answer.verdict === "decline" ? answer.feedback : "",
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
  const feedback = decided.some(({ answer }) => answer.verdict === "decline" && answer.feedback !== "");
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
