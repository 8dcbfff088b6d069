/**
 * The offline policy's execute stage: one decision per visit for the current
 * step, from the step's text (parsed as a request) and the tool rounds of the
 * step in the prompt. Read steps call their read tool and finish with the
 * answer; write steps find the task(s) they name with list_tasks, propose
 * exactly that write, and finish with its result — or say plainly why not.
 * Each step kind is in a file of its own (`move-step.ts`, `swap-step.ts`, `mark-step.ts`, `unplace-step.ts`,
 * `look-steps.ts`, `list-steps.ts`, `arrange-step.ts`, …); finding the task a step names is `task-lookup.ts`, how a
 * write step ends `step-endings.ts`, where a move may go `move-places.ts`.
 */
import { formatCount } from "../../tools/schedule/format.js";
import { arrangeStep } from "./arrange-step.js";
import {
  addHabitStep,
  addLongTaskStep,
  isSessionsStep,
  noSessionsStep,
  addTaskStep,
  classRulesStep,
} from "./class-steps.js";
import { isRefineStep, refineStep } from "./refine-step.js";
import { clearDayStep } from "./clear-day-step.js";
import { shiftAllStep } from "./shift-all-step.js";
import { healthStep, leftBeforeStep, letGoStep, recoverStep, rescheduleStep, undoStep } from "./life-steps.js";
import { arrangedHeading, missedClause } from "../../tools/schedule/domain.js";
import { isLetGoStep, isRescheduleStep } from "./fixed-steps.js";
import { finish, read, type Decision, type Finish } from "../decisions.js";
import { liveOverviewOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import { currentStepOf, goalOf, questionAnswer, section, userLanguage, type PromptView } from "../prompt-reading.js";
import { finalAnswer } from "./replies.js";
import type { StepOutcome } from "../stage-state.js";
import { parseScheduleRequest, timedPlacement } from "../../tools/schedule/request-parsing.js";
import { datingOf, weekFactsOf } from "./week-facts.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { type Asked, listingOf, missedPlacement } from "./task-lookup.js";
import { moveStep } from "./move-step.js";
import { swapStep } from "./swap-step.js";
import { markStep } from "./mark-step.js";
import { removeEventStep, unplaceStep } from "./unplace-step.js";
import { dayStep, freeStep, nextStep } from "./look-steps.js";
import { explainStep, listStep } from "./list-steps.js";

/**
 * The execute stage's decision. A decision that ends the task (done, or a proposal with then=done) carries the
 * final answer the deliver stage would write for the task as it then stands, so a completed task needs no deliver
 * call.
 */
export function decideExecute(view: PromptView, writesPerCard = Number.POSITIVE_INFINITY): Decision {
  const decision = decideStep(sinceClosedCard(view), writesPerCard);
  const endsTask = decision.action === "done" || decision.then === "done";
  if (!endsTask || decision.answer) return decision;
  return { ...decision, answer: answerOf(view, String(decision.goal_check ?? "")) };
}

/**
 * The step as it is to be done now: after a card whose calls were closed unrun (`held`: answered after its time, its
 * places passed; the plan revised since), the step starts over on the week as it is — what it looked up and proposed
 * before was of the week as it was, and its refusals are no one's to read back ("Not run: …").
 */
function sinceClosedCard(view: PromptView): PromptView {
  return view.rounds.at(-1)?.outcome === "held" ? { ...view, rounds: [] } : view;
}

/**
 * The plan's lines with their status markers: the pinned plan ("Plan overview:" without statuses) marked from the
 * step context's "Progress:" line; else the step context's own marked overview (as the plan stage pins it).
 */
function markedOverview(pinnedPlan: string, context: string): string {
  const progress = /^Progress: (.*)$/m.exec(context)?.[1];
  const plain = /Plan overview:\n([\s\S]*?)(?:\n\n|$)/.exec(pinnedPlan)?.[1];
  if (progress === undefined || plain === undefined)
    return /Plan overview:\n([\s\S]*?)\n\nCurrent step/.exec(context)?.[1] ?? "";
  const statuses = new Map(
    progress.split(" · ").map((entry) => {
      const [number, ...marker] = entry.split(" ");
      return [number, marker.join(" ")] as const;
    }),
  );
  return plain
    .split("\n")
    .map((line) => {
      const marker = statuses.get(/^(\d+)\. /.exec(line)?.[1] ?? "");
      return marker && marker !== "pending" ? `${line} ${marker}` : line;
    })
    .join("\n");
}

/** The final answer of the task once the current step ends with `goalCheck` as its summary (every step before it as it ended). */
export function answerOf(view: PromptView, goalCheck: string): string {
  const context = section(view.context, "execution_context") || view.context;
  const overview = markedOverview(section(view.context, "plan"), context);
  const summaries = section(view.context, "done_step_summaries");
  const markers: Array<[string, string]> = [
    [" >> current", "current"],
    [" ✓ done", "done"],
    [" FAILED", "failed"],
    [" (skipped)", "skipped"],
  ];
  const lines = overview.split("\n").flatMap((line) => {
    const match = /^\d+\. (.*)$/.exec(line);
    if (!match) return [];
    let content = match[1] ?? "";
    let status = "pending";
    for (const [marker, name] of markers) {
      if (!content.endsWith(marker)) continue;
      content = content.slice(0, -marker.length);
      status = name;
      break;
    }
    return [{ content, status }];
  });
  // Each done step's summary: from its "- content: " line to the next step's.
  const starts = lines
    .map((line) => summaries.indexOf(`- ${line.content}: `))
    .filter((index) => index !== -1)
    .sort((a, b) => a - b);
  const summaryOf = (content: string) => {
    const start = summaries.indexOf(`- ${content}: `);
    if (start === -1) return "";
    const next = starts.find((index) => index > start) ?? summaries.length;
    return summaries.slice(start + content.length + 4, next).trim();
  };
  const steps: StepOutcome[] = lines.map((line) => {
    if (line.status === "current") return { status: "done", content: line.content, summary: goalCheck.trim() };
    // Steps never started are skipped when the task ends.
    return {
      status: line.status === "pending" ? "skipped" : line.status,
      content: line.content,
      summary: line.status === "done" ? summaryOf(line.content) : "",
    };
  });
  // The answer stands in for the deliver stage's only when the task completes: no item it was about left open.
  return finalAnswer({ goal: goalOf(view), steps, outcome: "completed", language: userLanguage(view) });
}

/** The decision for the current step. */
function decideStep(view: PromptView, writesPerCard: number): Decision {
  const step = currentStepOf(view);
  const end: Finish = step.index >= step.total ? "done" : "next_plan";
  const lower = step.content.toLowerCase();
  const language = userLanguage(view);
  if (/^(verify|check)\b|^核对/.test(lower)) return overviewStep(view, "done", language);
  if (/^review the week\b|\boverview\b/.test(lower)) return overviewStep(view, "next_plan", language);
  if (isRefineStep(step.content)) return refineStep(view, end, language);
  const facts = weekFactsOf(view);
  if (isRescheduleStep(step.content))
    return rescheduleStep(view.rounds, missedByEarlierStep(view), end, datingOf(facts), language);
  if (isLetGoStep(step.content))
    return letGoStep(view.rounds, missedByEarlierStep(view), end, datingOf(facts), language);
  const request = parseScheduleRequest(step.content);
  const asked: Asked = { answer: questionAnswer(view), language };
  switch (request.kind) {
    case "arrange":
      // One task at a clock time ("Place "binary tree review" on Sunday, Mar 17, at 14:00"): the slot that starts
      // then, or why not, as a move to that time (`moveStep` places a pending task).
      {
        const timed = timedPlacement(request);
        if (timed !== undefined)
          return moveStep(view.rounds, { kind: "move", task: timed, where: request.where }, facts, end, asked, true);
        // "Schedule the matrix review tomorrow" once it was missed: given a new place there, as its move would.
        const missed = missedPlacement(request, listingOf(view.rounds));
        if (missed !== undefined)
          return moveStep(view.rounds, { kind: "move", task: missed, where: request.where }, facts, end, asked, true);
      }
      // A long task's sessions step after its add did not apply: nothing to place, said, never asked about.
      return (
        (isSessionsStep(step.content) ? noSessionsStep(view, request.tasks, end, language) : undefined) ??
        arrangeStep(view, request, facts, end, writesPerCard)
      );
    case "move":
      return moveStep(view.rounds, request, facts, end, asked);
    case "swap":
      return swapStep(view.rounds, request, end, asked, facts);
    case "unplace":
      return unplaceStep(view.rounds, request, end, asked, facts);
    case "remove_event":
      return removeEventStep(view.rounds, request, facts, end, asked);
    case "free":
      return freeStep(view.rounds, request, facts, end, language);
    case "day":
      return dayStep(view.rounds, request, facts, end, language);
    case "next":
      return nextStep(view.rounds, facts, end, language);
    case "list":
      return listStep(view.rounds, request, facts, end, language);
    case "explain":
      return explainStep(view.rounds, request, end, asked, datingOf(facts));
    case "add_task":
      return addTaskStep(view, request, end, language);
    case "add_habit":
      return addHabitStep(view, request, end, language);
    case "add_long_task":
      return addLongTaskStep(view, request, end, language);
    case "class_rules":
      return classRulesStep(view, request, end, language);
    case "mark":
      return markStep(view.rounds, request, facts, end, asked);
    case "undo":
      return undoStep(view.rounds, end, datingOf(facts), language);
    case "recover":
      return recoverStep(view.rounds, end, datingOf(facts), language);
    case "health":
      return healthStep(view.rounds, facts, end, language);
    case "left_before":
      return leftBeforeStep(view.rounds, request.event, facts, end, language, request.when);
    case "clear_day":
      return clearDayStep(view.rounds, request, facts, end, language);
    case "shift_all":
      return shiftAllStep(view.rounds, request, facts, end, language);
    default:
      // A step the policy does not understand (edited by hand, say) is reported, never pretended done.
      return finish(
        end,
        say(
          language,
          `Offline, I can't carry out the step "${step.content}"; a model key unlocks free-form steps.`,
          `离线模式下我无法执行步骤“${step.content}”（配置模型密钥后可执行自由表述的步骤）。`,
        ),
        notCarriedOut(saySummary("en", "notUnderstood", { step: step.content })),
        "the step is not one the offline policy understands",
      );
  }
}

/**
 * The missed reviews a reschedule step is about: those an earlier step of the plan marked missed ("marked task <id>
 * missed"), none when the earlier steps marked none (the mark was declined, say); a reschedule step that opens its
 * plan is about every missed review (empty: the tool's default).
 */
function missedByEarlierStep(view: PromptView): string[] | undefined {
  if (currentStepOf(view).index <= 1) return [];
  const summaries = section(view.context, "done_step_summaries");
  const ids = [...summaries.matchAll(/marked task (\S+) missed\b/g)].map((match) => match[1]!);
  return ids.length > 0 ? ids : undefined;
}

/**
 * Overview and verify: the overview the prompt's live state holds (read fresh for this prompt), else read it once;
 * then finish the step citing the pending count.
 */
function overviewStep(view: PromptView, action: Finish, language: Language): Decision {
  // The live state's overview (read fresh for this prompt), else the step's own get_overview round: both as data.
  const overview =
    liveOverviewOf(view) ??
    toolDataOf(
      view.rounds.findLast((round) => round.name === "get_overview" && !round.summarised),
      "get_overview",
    );
  if (overview === undefined)
    return read(
      say(language, "Reading the week's overview.", "正在读取本周概览。"),
      "get_overview",
      {},
      "need free time and pending tasks",
    );
  const pending = formatCount(overview.pending);
  // An overview of a text without the line (an older server) has no count: none.
  const missed = overview.missed ?? 0;
  const speak =
    action === "done"
      ? missed > 0
        ? arrangedHeading(pending, language, missed)
        : pending === "0"
          ? say(language, "Every review task has a place.", "每个复习任务都安排好了。")
          : say(language, `${pending} review task(s) are still pending.`, `还有 ${pending} 个复习任务待安排。`)
      : "";
  // What the final answer says of the check: what the schedule shows, not the tool that read it.
  const named = (overview.missedTasks ?? []).map((task) => task.name);
  return finish(action, speak, `${saySummary("en", "verified", { pending })}${missedClause(missed, named)}`);
}
