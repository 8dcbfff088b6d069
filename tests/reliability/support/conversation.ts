/**
 * Drives whole conversations through the compiled graph with scripted stage
 * models that play generated outputs, answers every interrupt, and checks
 * the state's invariants after every turn.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import type { HumanResponse } from "../../../review/resume.js";
import { isTempoError, type TempoErrorCode } from "../../../errors/index.js";
import { buildTempoGraph, type TempoGraph } from "../../../server/tempo-graph.js";
import type { TempoState } from "../../../kernel/state.js";
import { createNotesDomain, type NotesDomain } from "../../support/notes-domain.js";
import { interruptsOf, json, resume, threadConfig, unpairedToolCalls } from "../../support/scripted.js";
import type { CardAnswer, StageOutput } from "./stage-outputs.js";
import { writesOnCard } from "../../support/card-writes.js";
import { stageOfPrompt } from "../../../contracts/stage-tag.js";

export const PHASES = ["chatting", "planning", "waiting_confirm", "executing", "done"] as const;
export const STEP_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;

/** One call of a contract stage, in the order the graph made it. */
export interface StageCall {
  /** The stage called, or "retry" for the user's "try again" after a MODEL_OUTPUT_INVALID error. */
  stage: "plan" | "plan_deep" | "execute" | "retry";
  /** Whether the output given satisfies the contract. */
  valid: boolean;
  kind: string;
}

/** Text of a message. */
function textOf(message: BaseMessage | undefined): string {
  if (!message) return "";
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

/** The stage a prompt is for, from the system message's stage tag. */
export function promptStage(messages: BaseMessage[]): string {
  // The stage's own user message may follow a shared head (prompts/stage-messages.ts).
  return stageOfPrompt(messages);
}

/** Calls a stage model may receive in one conversation: far more than any conversation here makes. */
const QUEUED_CALLS = 200;

/**
 * A fake model for the plan or execute stage: it plays `outputs` in order, then `fallback` (always valid,
 * and leading to the end of the task), and records each call in `log`.
 */
export function playbookModel(
  outputs: readonly StageOutput[],
  fallback: (messages: BaseMessage[]) => StageOutput,
  log: StageCall[],
) {
  const model = fakeModel();
  let next = 0;
  for (let call = 0; call < QUEUED_CALLS; call += 1) {
    model.respond((messages: BaseMessage[]) => {
      const stage = promptStage(messages);
      const output = outputs[next] ?? fallback(messages);
      next += 1;
      log.push({
        stage: stage === "plan_deep" ? "plan_deep" : stage === "execute" ? "execute" : "plan",
        valid: output.valid,
        kind: output.kind,
      });
      return new AIMessage(output.text);
    });
  }
  return model;
}

/** The plan fallback: finish when replanning after a step, otherwise a one-step plan. */
export function planFallback(messages: BaseMessage[]): StageOutput {
  const replanning = textOf(messages.at(-1)).includes("Mode: replan");
  const decision = replanning
    ? { speak: "", action: "finish", reason: "fallback: the goal is met" }
    : {
        speak: "Plan.",
        action: "plan_done",
        reason: "fallback",
        plan_steps: [{ content: "Look at the notes", done_when: "the notes are known" }],
      };
  return { text: JSON.stringify(decision), valid: true, kind: "plan/fallback" };
}

/** The execute fallback: the task is done. */
export function executeFallback(): StageOutput {
  return {
    text: JSON.stringify({ speak: "", action: "done", reason: "fallback", goal_check: "fallback: nothing left to do" }),
    valid: true,
    kind: "execute/fallback",
  };
}

/** A graph on a MemorySaver whose plan and execute models play the given outputs. */
export function fuzzGraph(options: {
  plan: readonly StageOutput[];
  execute: readonly StageOutput[];
  domain?: NotesDomain;
}) {
  const domain = options.domain ?? createNotesDomain({ "user-1": ["buy milk", "call mom"] });
  const calls: StageCall[] = [];
  const chat = fakeModel();
  for (let call = 0; call < QUEUED_CALLS; call += 1)
    chat.respond(json({ intent: "task", reply: "", reason: "needs tools" }));
  const deliver = fakeModel();
  for (let call = 0; call < QUEUED_CALLS; call += 1) deliver.respond(new AIMessage("Summary."));
  const models = {
    default: chat,
    chat,
    plan: playbookModel(options.plan, planFallback, calls),
    execute: playbookModel(options.execute, executeFallback, calls),
    deliver,
  };
  const graph = buildTempoGraph({ models, domain, checkpointer: new MemorySaver() });
  return { graph, domain, calls };
}

/** Invariant problems of a state, [] when it is sound. */
export function stateProblems(state: TempoState, maxCorrections: number): string[] {
  const problems: string[] = [];
  if (!(PHASES as readonly string[]).includes(state.phase))
    problems.push(`phase "${String(state.phase)}" is not one of the five`);
  for (const step of state.planSteps) {
    if (!(STEP_STATUSES as readonly string[]).includes(step.status))
      problems.push(`step ${step.id} has status "${String(step.status)}"`);
  }
  const running = state.planSteps.filter((step) => step.status === "running");
  if (running.length > 1)
    problems.push(`${running.length} steps are running at once: ${running.map((step) => step.id).join(", ")}`);
  if (state.currentStepId !== null && !state.planSteps.some((step) => step.id === state.currentStepId))
    problems.push(`currentStepId ${state.currentStepId} is not a step of the plan`);
  const ids = state.planSteps.map((step) => step.id);
  if (new Set(ids).size !== ids.length) problems.push(`duplicate step ids: ${ids.join(", ")}`);
  problems.push(
    ...unpairedToolCalls(
      state.messages,
      writesOnCard(state).map((write) => write.id),
    ),
  );
  if (state.consecutiveCorrections < 0 || state.consecutiveCorrections >= maxCorrections)
    problems.push(`consecutiveCorrections is ${state.consecutiveCorrections}`);
  if (state.roundsUsed > state.maxRounds)
    problems.push(`roundsUsed ${state.roundsUsed} is past maxRounds ${state.maxRounds}`);
  if (state.pending?.kind === "confirm_tool" && writesOnCard(state).length === 0)
    problems.push("a write card waits with no proposal in the conversation");
  // The state machine (issue 13): a card waits in its phase, and a task at rest has ended in one of the four outcomes.
  if (state.pending && state.pending.kind !== "ask_user" && state.phase !== "waiting_confirm")
    problems.push(`a ${state.pending.kind} card waits in phase ${state.phase}`);
  if (state.pending?.kind === "ask_user" && state.phase !== "planning" && state.phase !== "executing")
    problems.push(`a question waits in phase ${state.phase}`);
  const atRest = !state.pending && (state.phase === "done" || state.phase === "chatting");
  if (atRest && state.goal !== "" && !["completed", "partial", "failed", "dropped"].includes(state.outcome?.kind ?? ""))
    problems.push(`the task "${state.goal}" rests in phase ${state.phase} without an outcome`);
  return problems;
}

/** How a conversation ended. */
export interface ConversationOutcome {
  /** "completed" (no interrupt left), "error" (a thrown error), "turns" (still interrupted after the turn limit). */
  end: "completed" | "error" | "turns";
  /** The thrown error, if any. */
  error?: unknown;
  /** Invariant problems seen after any turn, prefixed with the turn. */
  problems: string[];
  /** Tool-call ids of the write cards the test answered with accept or edit. */
  confirmedToolIds: string[];
  /** Interrupt kinds seen, in order. */
  cards: string[];
  /** The state after the last turn. */
  finalState: TempoState;
}

/** The HumanResponse for a card: ask_user cards always get a text answer. */
function answerFor(card: string, answer: CardAnswer, state: TempoState): HumanResponse {
  if (card === "ask_user") return { type: "response", args: "Any way you like." };
  if (answer === "response") return { type: "response", args: "Please do it differently." };
  if (answer === "ignore") return { type: "ignore", args: null };
  if (answer === "edit") {
    if (card === "confirm_plan") {
      return {
        type: "edit",
        args: { action: "confirm_plan", args: { plan_steps: [{ content: "Edited step", done_when: "edited" }] } },
      };
    }
    const tool = writesOnCard(state)[0];
    return { type: "edit", args: { action: card, args: tool?.arguments ?? {} } };
  }
  return { type: "accept", args: null };
}

/**
 * Sends `message` on a fresh thread, then answers each interrupt with the next of `answers` (accept when they run
 * out) for at most `maxTurns` turns. After a MODEL_OUTPUT_INVALID error it sends the retry phrase "try again"
 * (at most `retries` times; `onRetry` is told first). Checks the invariants after every turn, an error included.
 */
export async function runConversation(
  graph: TempoGraph,
  options: {
    threadId: string;
    message: string;
    answers: readonly CardAnswer[];
    maxTurns?: number;
    maxCorrections?: number;
    retries?: number;
    onRetry?: () => void;
  },
): Promise<ConversationOutcome> {
  const config = threadConfig(options.threadId);
  const maxCorrections = options.maxCorrections ?? 3;
  const problems: string[] = [];
  const confirmedToolIds: string[] = [];
  const cards: string[] = [];
  let retriesLeft = options.retries ?? 0;
  let answered = 0;
  const check = async (turn: number) => {
    const state = (await graph.getState(config)).values as TempoState;
    problems.push(...stateProblems(state, maxCorrections).map((problem) => `turn ${turn}: ${problem}`));
    return state;
  };

  let input: Parameters<TempoGraph["invoke"]>[0] = { messages: [new HumanMessage(options.message)] };
  for (let turn = 0; turn <= (options.maxTurns ?? 40); turn += 1) {
    let result: object;
    try {
      result = await graph.invoke(input, config);
    } catch (error) {
      const state = await check(turn);
      if (!(isTempoError(error) && error.code === "MODEL_OUTPUT_INVALID" && retriesLeft > 0)) {
        return { end: "error", error, problems, confirmedToolIds, cards, finalState: state };
      }
      retriesLeft -= 1;
      options.onRetry?.();
      input = { messages: [new HumanMessage("try again")] };
      continue;
    }
    const state = await check(turn);
    const interrupt = interruptsOf(result)[0];
    if (!interrupt) return { end: "completed", problems, confirmedToolIds, cards, finalState: state };
    const card = (interrupt.value as { action_request: { action: string } }).action_request.action;
    cards.push(card);
    const answer = answerFor(card, options.answers[answered] ?? "accept", state);
    answered += 1;
    if (state.pending?.kind === "confirm_tool" && (answer.type === "accept" || answer.type === "edit"))
      confirmedToolIds.push(writesOnCard(state)[0]!.id);
    input = resume(answer);
  }
  return { end: "turns", problems, confirmedToolIds, cards, finalState: await check(-1) };
}

/** The code of a TempoError, or a description of anything else that was thrown. */
export function errorCode(error: unknown): TempoErrorCode | `not a TempoError: ${string}` {
  if (isTempoError(error)) return error.code;
  return `not a TempoError: ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}`;
}

/**
 * Problems of the correction loop in the calls' order, [] when it behaved: `limit` invalid outputs in a row
 * (deep planning passes excluded: a failed deep pass keeps the quick plan) end the run with
 * MODEL_OUTPUT_INVALID, and never earlier or later. A "retry" entry marks the user's "try again" after such an
 * error, which starts the count afresh.
 */
export function correctionProblems(
  calls: readonly StageCall[],
  outcome: Pick<ConversationOutcome, "end" | "error">,
  limit: number,
): string[] {
  const segments: StageCall[][] = [[]];
  for (const call of calls) {
    if (call.stage === "retry") segments.push([]);
    else if (call.stage !== "plan_deep") segments.at(-1)!.push(call);
  }
  const problems: string[] = [];
  for (const [number, counted] of segments.entries()) {
    const last = number === segments.length - 1;
    let inARow = 0;
    for (const [index, call] of counted.entries()) {
      inARow = call.valid ? 0 : inARow + 1;
      if (inARow >= limit && index < counted.length - 1) {
        problems.push(
          `${limit} invalid outputs in a row by call ${index} but the graph called the model again (${counted
            .slice(index - limit + 1, index + 2)
            .map((entry) => entry.kind)
            .join(", ")})`,
        );
      }
    }
    const stopped =
      !last ||
      (outcome.end === "error" && isTempoError(outcome.error) && outcome.error.code === "MODEL_OUTPUT_INVALID");
    if (inARow >= limit && !stopped)
      problems.push(
        `the run ended with ${inARow} invalid outputs in a row but no MODEL_OUTPUT_INVALID (${errorCode(outcome.error)})`,
      );
    if (stopped && inARow < limit)
      problems.push(`MODEL_OUTPUT_INVALID after only ${inARow} invalid outputs in a row (attempt ${number + 1})`);
  }
  return problems;
}
