/**
 * The offline policy: a deterministic `BaseChatModel` that honours the same
 * stage contracts as a real model, for the schedule domain, so the whole
 * graph runs with no network. It plans overview → place each pending task →
 * verify, and proposes real tool calls from what the tools returned (it reads
 * the tool results in the prompt with the parsers of `result-parsing.ts`).
 *
 * It reads only the prompt: the stage tag of the system message, the pinned
 * execution context, and the stage workspace (the real tool rounds of the
 * current step). Nothing is remembered between calls.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { parseFreeRuns, parsePendingTasks, parsePlacedResult } from "./result-parsing.js";

/** One tool round of the workspace: the call and its result. */
interface ToolRoundView {
  name: string;
  arguments: Record<string, unknown>;
  speak: string;
  result: string;
}

type StepKind = "overview" | "place" | "verify";

const GREETING = /^(hi|hello|hey|thanks|thank you|good (morning|evening|afternoon)|你好|您好|谢谢|早上好|晚上好)\b[\s!.,。！]*$/i;

export const OFFLINE_PLAN_STEPS = [
  { content: "Review the week: read the overview of free time and pending review tasks", done_when: "the pending review tasks and the free time are known" },
  { content: "Place each pending review task into a free slot that fits it", done_when: "no review task is left pending, or no free slot fits the rest" },
  { content: "Verify the schedule", done_when: "the overview shows how many review tasks are still pending" },
];

/** A deterministic stand-in for a chat model, driving the schedule domain through the stage contracts. */
export class ScheduleOfflinePolicy extends BaseChatModel {
  constructor() {
    super({});
  }

  static override lc_name(): string {
    return "ScheduleOfflinePolicy";
  }

  _llmType(): string {
    return "tempo-offline-policy";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const text = decide(messages);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

/** The policy's answer to a stage prompt. */
export function decide(messages: BaseMessage[]): string {
  const system = textOf(messages[0]);
  const stage = /<stage name="(\w+)">/.exec(system)?.[1] ?? "";
  switch (stage) {
    case "chat":
      return JSON.stringify(decideChat(messages));
    case "plan":
    case "plan_deep":
      return JSON.stringify(decidePlan(messages));
    case "execute":
      return JSON.stringify(decideExecute(messages));
    case "deliver":
      return decideDeliver(messages);
    default:
      return JSON.stringify({ speak: "", action: "continue", reason: `the offline policy has no rule for stage "${stage}"` });
  }
}

function decideChat(messages: BaseMessage[]) {
  const latest = section(textOf(messages.at(-1)), "instruction").replace(/^Latest user message:\s*/, "").trim();
  if (GREETING.test(latest)) {
    return { intent: "chat", reply: "Hello! I'm Tempo, running offline. Ask me to arrange your review sessions for next week.", reason: "a greeting" };
  }
  return { intent: "task", reply: "", reason: "anything that is not small talk is treated as a task" };
}

function decidePlan(messages: BaseMessage[]) {
  const revising = workspace(messages).some((message) => message.getType() === "human");
  return {
    speak: revising
      ? "I've taken your feedback into account. The offline policy keeps the same three phases; it will ask you before each change."
      : "Here is the plan: review the week, place each pending review task into a free slot, then verify.",
    action: "plan_done",
    reason: "the schedule domain's standard flow",
    complexity: "moderate",
    need_thinking: false,
    plan_steps: OFFLINE_PLAN_STEPS,
  };
}

function decideExecute(messages: BaseMessage[]) {
  const context = textOf(messages[1]);
  const step = /Current step \((\d+) of (\d+)\): (.*)/.exec(context);
  const kind = stepKind(step?.[3] ?? "", Number(step?.[1] ?? 1), Number(step?.[2] ?? 1));
  const rounds = toolRounds(workspace(messages));
  if (kind === "overview") return overviewStep(rounds, "next_plan");
  if (kind === "verify") return overviewStep(rounds, "done");
  return placeStep(rounds, section(textOf(messages.at(-1)), "scratchpad"));
}

/** Overview and verify: read the overview once, then finish the step citing the pending count. */
function overviewStep(rounds: ToolRoundView[], finish: "next_plan" | "done") {
  const overview = rounds.findLast((round) => round.name === "get_overview");
  if (!overview) {
    return { speak: "Reading the week's overview.", action: "continue", reason: "need free time and pending tasks", tool_call: { name: "get_overview", arguments: {} } };
  }
  const pending = /pending tasks \(([\d,]+)\)/.exec(overview.result)?.[1] ?? "0";
  const goalCheck = `get_overview reports ${pending} pending review task(s)`;
  const speak = finish === "done" ? (pending === "0" ? "Every review task has a place." : `${pending} review task(s) are still pending.`) : "";
  return { speak, action: finish, reason: "the step's condition is met", goal_check: goalCheck };
}

/**
 * Place: list the pending tasks, find a free run for the next one, propose place. Tasks the user
 * rejected, or that no free run fits, go on a skip list kept in the working memory (the scratchpad
 * survives the compression of older tool rounds); the pending list is re-read when its listing has
 * been compressed away.
 */
function placeStep(rounds: ToolRoundView[], scratchpad: string) {
  const skipped = new Set(skipListOf(scratchpad));
  const last = rounds.at(-1);

  // Remember a rejection, or a task no free run fits, before anything else.
  if (last?.name === "place" && last.result.startsWith("Not applied") && !skipped.has(String(last.arguments.task_id))) {
    return rememberSkip(scratchpad, String(last.arguments.task_id), "the user rejected its placement");
  }
  if (last?.name === "find_free") {
    const target = /free run for task (\S+)\./.exec(last.speak)?.[1];
    const duration = Number(last.arguments.min_length ?? 1);
    const runs = parseFreeRuns(last.result).filter((run) => run.length >= duration);
    if (target && runs.length === 0 && !skipped.has(target)) return rememberSkip(scratchpad, target, "no free run fits it");
  }

  const listingIndex = rounds.findLastIndex((round) => round.name === "list_tasks");
  if (listingIndex === -1) {
    return { speak: "Listing the review tasks.", action: "continue", reason: "need the pending tasks, and where the placed ones are", tool_call: { name: "list_tasks", arguments: { source: "task_item", limit: 100 } } };
  }
  const afterListing = rounds.slice(listingIndex + 1);
  const placedPerDay = new Map<number, number>();
  for (const match of rounds[listingIndex]!.result.matchAll(/^- placed task \S+ .* day (\d+) slots/gm)) {
    placedPerDay.set(Number(match[1]), (placedPerDay.get(Number(match[1])) ?? 0) + 1);
  }
  const handled = new Set(skipped);
  for (const round of afterListing) {
    if (round.name !== "place") continue;
    handled.add(String(round.arguments.task_id));
    const result = parsePlacedResult(round.result);
    if (result) placedPerDay.set(result.day, (placedPerDay.get(result.day) ?? 0) + 1);
  }
  const remaining = parsePendingTasks(rounds[listingIndex]!.result).filter((task) => !handled.has(task.id));

  if (last?.name === "find_free") {
    const target = /free run for task (\S+)\./.exec(last.speak)?.[1];
    const task = remaining.find((candidate) => candidate.id === target);
    const runs = task ? parseFreeRuns(last.result).filter((run) => run.length >= task.duration) : [];
    if (task && runs.length > 0) {
      // Spread the reviews: the day with the fewest placements so far, then the earliest run.
      const run = [...runs].sort((a, b) => (placedPerDay.get(a.day) ?? 0) - (placedPerDay.get(b.day) ?? 0) || a.day - b.day || a.start - b.start)[0]!;
      return {
        speak: `Placing task ${task.id} "${task.name}" on day ${run.day} slots ${run.start}-${run.start + task.duration - 1}.`,
        action: "confirm",
        reason: `a free run of ${run.length} slot(s) fits its duration of ${task.duration}`,
        tool_call: { name: "place", arguments: { task_id: task.id, day: run.day, slot_start: run.start } },
      };
    }
  }
  const next = remaining[0];
  if (!next) {
    return {
      speak: skipped.size ? `Every pending review task was placed or skipped (${[...skipped].join(", ")}).` : "Every pending review task has been placed.",
      action: "next_plan",
      reason: "no pending task is left to try",
      goal_check: `list_tasks leaves no pending task to place${skipped.size ? `; skipped: ${[...skipped].join(", ")}` : ""}`,
    };
  }
  return {
    speak: `Looking for a free run for task ${next.id}.`,
    action: "continue",
    reason: `it needs ${next.duration} consecutive slot(s)`,
    tool_call: { name: "find_free", arguments: { min_length: next.duration } },
  };
}

const SKIP_LINE = /^Skip tasks: (.*)$/m;

/** Task ids on the scratchpad's skip line. */
function skipListOf(scratchpad: string): string[] {
  return (SKIP_LINE.exec(scratchpad)?.[1] ?? "").split(",").map((id) => id.trim()).filter(Boolean);
}

/** Adds a task to the scratchpad's skip line through update_working_memory. */
function rememberSkip(scratchpad: string, taskId: string, why: string) {
  const ids = [...skipListOf(scratchpad), taskId];
  const line = `Skip tasks: ${ids.join(", ")}`;
  const content = SKIP_LINE.test(scratchpad) ? scratchpad.replace(SKIP_LINE, line) : [scratchpad.trim(), line].filter(Boolean).join("\n");
  return {
    speak: `Skipping task ${taskId}: ${why}.`,
    action: "continue",
    reason: "keep the skip list in working memory so it survives context compression",
    tool_call: { name: "update_working_memory", arguments: { content } },
  };
}

function decideDeliver(messages: BaseMessage[]): string {
  const state = section(textOf(messages.at(-1)), "stage_state");
  const steps = state.split("\n").filter((line) => /^\d+\. \[/.test(line));
  const done = steps.filter((line) => line.includes("[done]")).length;
  // The task's real outcome heads the stage state; anything short of "completed" is told as it is.
  const outcome = /^Outcome: (\w+)/m.exec(state)?.[1] ?? "completed";
  const arranged = outcome === "completed" && done === steps.length && steps.length > 0;
  const heading = arranged ? "Your review week is arranged." : `Finished ${done} of ${steps.length} steps (${outcome}).`;
  const stillPending = state.split("\n").filter((line) => line.startsWith("Still pending:"));
  return [heading, ...steps.map((line) => `- ${line.replace(/^\d+\. /, "")}`), ...stillPending].join("\n");
}

function stepKind(content: string, index: number, total: number): StepKind {
  const lower = content.toLowerCase();
  if (/verif|check/.test(lower)) return "verify";
  if (/place|arrange|schedule|put/.test(lower)) return "place";
  if (/overview|review the week|look|read/.test(lower)) return "overview";
  if (index === 1) return "overview";
  return index === total ? "verify" : "place";
}

/** The stage workspace: the real messages between the context message and the final instruction. */
function workspace(messages: BaseMessage[]): BaseMessage[] {
  return messages.slice(2, -1);
}

/** The workspace's tool rounds, in order. */
function toolRounds(messages: BaseMessage[]): ToolRoundView[] {
  const rounds: ToolRoundView[] = [];
  messages.forEach((message, index) => {
    const call = (message as AIMessage).tool_calls?.[0];
    const result = messages[index + 1];
    if (!call || !result || result.getType() !== "tool") return;
    rounds.push({ name: call.name, arguments: call.args, speak: textOf(message), result: textOf(result) });
  });
  return rounds;
}

function section(text: string, tag: string): string {
  return new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1] ?? "";
}

function textOf(message: BaseMessage | undefined): string {
  if (!message) return "";
  return typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? String(part.text) : "")).join("");
}
