/**
 * The refinement loop (seed 003's active optimisation, `Refinement` in tools/domain.ts): in a refinement step the
 * code lists the candidates (`Refinement.list`; the model may list again) and the model chooses, round after round;
 * the code — not the model — ends the step when a listing
 * has nothing left to choose (what is left is forced), when `stagnantRounds` listings in a row gained less than
 * `minGain`, or after `maxRounds` listings. The loop's state (`Optimization`) is checkpointed and shown in
 * ExecutionState. While refining, the step is limited to the domain's whitelisted packs.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { writeRejectionFeedback } from "../../contracts/rejections.js";
import type { Language, Params } from "../../contracts/language.js";
import { sayRefinement, type RefinementKey } from "../../contracts/refinement-words.js";
import type { Optimization, PlanStep, TempoState } from "../../kernel/state.js";
import { callOutcomeOf } from "../../kernel/tool-results.js";
import {
  isRefinementStep,
  packOfTool,
  type CandidateListing,
  type DecidedWrite,
  type Refinement,
  type TaskDecisions,
  type ToolDomain,
} from "../../tools/domain.js";
import { editedCallIds } from "../../review/card-answers.js";
import { callArguments } from "../../kernel/call-records.js";

/**
 * The domain's refinement when the current step is its refinement step, else undefined. Given the task's messages,
 * its listing's arguments carry what the user decided in the task (`withTaskLimits`).
 */
export function refinementOf(
  state: Pick<TempoState, "planSteps" | "currentStepId"> &
    Partial<Pick<TempoState, "messages" | "taskStartMessageId" | "runMode">>,
  domain: Pick<ToolDomain, "refinement">,
): Refinement | undefined {
  const step: PlanStep | undefined = state.planSteps.find((candidate) => candidate.id === state.currentStepId);
  const refinement = step && isRefinementStep(domain, step.content) ? domain.refinement : undefined;
  if (!refinement?.list?.limits || !state.messages) return refinement;
  const task = { messages: state.messages, taskStartMessageId: state.taskStartMessageId ?? null };
  return {
    ...refinement,
    list: {
      ...refinement.list,
      arguments: withTaskLimits(
        { ...task, runMode: state.runMode ?? null },
        refinement.list,
        refinement.list.arguments,
      ),
    },
  };
}

/** Why `tool` may not run in a refinement step (its pack is not whitelisted), or undefined when it may. */
export function outsideWhitelist(domain: ToolDomain, refinement: Refinement, tool: string): string | undefined {
  const pack = packOfTool(domain, tool);
  if (!pack || refinement.packs.includes(pack.name)) return undefined;
  return `Error: while refining, only the tools of ${refinement.packs.join(", ")} are offered: list candidates and choose one (choose_candidate) instead of calling ${tool}. Nothing was changed.`;
}

/** The loop after one more listing in step `stepId`: counts, scores and the verdict (`running` while it goes on). */
export function afterListing(
  previous: Optimization | null,
  stepId: string | null,
  listing: CandidateListing,
  refinement: Refinement,
): Optimization {
  const score = listing.score ?? previous?.bestScore ?? 0;
  const fresh = !previous || previous.stepId !== stepId;
  const rounds = fresh ? 1 : previous.rounds + 1;
  const startScore = fresh ? score : previous.startScore;
  const startOpen = fresh ? listing.open : previous.startOpen;
  // An item fewer left open (a review placed) is a gain whatever the score says of it.
  const fewerOpen = !fresh && listing.open !== undefined && previous.open !== undefined && listing.open < previous.open;
  const gained = !fresh && (score >= previous.bestScore + refinement.minGain || fewerOpen);
  const bestScore = fresh ? score : Math.max(previous.bestScore, score);
  const stagnantRounds = fresh || gained ? 0 : previous.stagnantRounds + 1;
  const verdict =
    listing.candidates.length === 0
      ? "forced"
      : stagnantRounds >= refinement.stagnantRounds
        ? "stagnant"
        : rounds >= refinement.maxRounds
          ? "budget"
          : "running";
  return {
    stepId,
    rounds,
    startScore,
    bestScore,
    stagnantRounds,
    verdict,
    score,
    offered: listing.candidates.length,
    ...(startOpen !== undefined ? { startOpen } : {}),
    ...(listing.open !== undefined ? { open: listing.open } : {}),
    ...(listing.forced ? { forced: listing.forced } : {}),
  };
}

/** How many items the loop closed (placed), by its first and last listings; 0 when the domain counts none. */
function closedBy(optimization: Optimization): number {
  const { startOpen, open } = optimization;
  return startOpen !== undefined && open !== undefined ? Math.max(0, startOpen - open) : 0;
}

/**
 * The step's summary once the loop ended: what it gained and why it stopped (what is forced, named by id); for a
 * person's status line (`audience`), what is forced said in general, and in Chinese for a Chinese-speaking user (the
 * step's summary, which the offline policy reads, stays English). Said from the refinement's phrases
 * (`contracts/refinement-words.ts`), which a domain reads the English back against.
 */
export function refinementSummary(
  optimization: Optimization,
  refinement: Refinement,
  language: Language = "en",
  audience: "model" | "person" = "model",
): string {
  const say = (key: RefinementKey, params: Params = {}) => sayRefinement(language, key, params);
  const why =
    optimization.verdict === "running"
      ? ""
      : say(optimization.verdict, {
          gain: refinement.minGain,
          rounds: optimization.verdict === "budget" ? refinement.maxRounds : refinement.stagnantRounds,
          turns: refinement.stagnantRounds,
        });
  // The model reads what is forced by id; a person's status line (and a Chinese one) says it in general.
  const forced = !optimization.forced
    ? ""
    : audience === "model" && language === "en"
      ? `${say("forcedNamed")}${optimization.forced}`
      : say("forcedInGeneral");
  const from = optimization.startScore;
  const closed = closedBy(optimization);
  const head =
    closed > 0
      ? say("refinedPlaced", {
          rounds: optimization.rounds,
          placed: closed,
          from,
          to: optimization.score ?? optimization.bestScore,
        })
      : // Changes were listed and the model passed them over: the week could be better, and the summary does not say otherwise.
        optimization.verdict === "passed" && optimization.bestScore <= from
        ? optimization.offered === undefined
          ? say("notRefinedAny", { from })
          : say("notRefined", { from, offered: optimization.offered })
        : // Nothing gained (a week already as good as single changes make it): said as such, not as a refinement.
          optimization.bestScore <= from
          ? say("nothingToRefine", { from })
          : say("refined", { rounds: optimization.rounds, from, to: optimization.bestScore });
  return `${head}${why}${forced}`;
}

/**
 * `args` of a call of the refinement's listing tool kept to what the user decided in the task (unchanged without
 * `Refinement.list.limits`): the code's own listing, and one the model makes itself while refining — no listing of
 * the step offers to undo an edit, a rejection or a day the user called off, nor (unless the request re-arranges the
 * week) to move what was placed before the request.
 */
export function withTaskLimits(
  state: Pick<TempoState, "messages" | "taskStartMessageId" | "runMode">,
  list: NonNullable<Refinement["list"]>,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return list.limits ? list.limits(taskDecisionsOf(state), args) : args;
}

/** What the user decided in the current task (from its first message on): its cards' writes, and whether it reopens. */
export function taskDecisionsOf(state: Pick<TempoState, "messages" | "taskStartMessageId" | "runMode">): TaskDecisions {
  const start = state.messages.findIndex((message) => message.id === state.taskStartMessageId);
  const task = start === -1 ? state.messages : state.messages.slice(start);
  return { writes: decidedWrites(task), reopens: state.runMode === "global_reopt" };
}

/** The writes among `messages` a card decided, oldest first: each call with its outcome, edit and feedback. */
export function decidedWrites(messages: readonly BaseMessage[]): DecidedWrite[] {
  const results = new Map<string, ToolMessage>();
  for (const message of messages)
    if (message.getType() === "tool") results.set((message as ToolMessage).tool_call_id, message as ToolMessage);
  return messages.flatMap((message) => {
    if (message.getType() !== "ai") return [];
    const edited = new Set(editedCallIds(message));
    return ((message as AIMessage).tool_calls ?? []).flatMap((call): DecidedWrite[] => {
      const result = call.id ? results.get(call.id) : undefined;
      const outcome = result ? callOutcomeOf(result) : undefined;
      if (outcome !== "applied" && outcome !== "declined" && outcome !== "failed" && outcome !== "held") return [];
      const text = typeof result!.content === "string" ? result!.content : "";
      return [
        {
          name: call.name,
          arguments: callArguments(message, call),
          outcome,
          edited: edited.has(call.id!),
          feedback: outcome === "declined" ? writeRejectionFeedback(text) : "",
        },
      ];
    });
  });
}
