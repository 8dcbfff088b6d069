/**
 * What the eval measures of one scenario, from the week before and after and the model requests the recording proxy
 * saw: placed reviews against the exact maximum (the placement search), hard-rule problems of the final week (the
 * rules functions the write tools use), an honest ending, and per stage model calls, prompt / completion tokens,
 * cached tokens and latency.
 *
 * Tokens: the server's `usage` when it returns one; otherwise counted with o200k on the request body
 * (`promptSize` of bench/model-calls.ts) and on the answer's text and tool calls. Cached tokens: the server's
 * `usage.prompt_tokens_details.cached_tokens` where returned. Prefix share: per request, the longest prefix of its
 * rendered prompt (tools and response format first, then each message's role, content and tool calls: the order a
 * provider renders them in) byte-identical to an earlier request's of the same task, in o200k tokens, over all
 * its prompt tokens — what a provider's prompt cache could reuse.
 */
import { promptSize } from "../bench/model-calls.js";
import { TempoError } from "../errors/index.js";
import { tiktokenCounter } from "../memory/tokens.js";
import {
  checkScheduleInvariants,
  type ScheduleState,
  type ScheduleTask,
  type TaskItem,
  unplaceTool,
} from "../tools/schedule/index.js";
import { searchInputOf, searchPlacements } from "../tools/schedule/placement-search.js";
import {
  bufferProblem,
  placementRuleProblem,
  ruleBookOf,
  withRules,
  type SlotOccupants,
} from "../tools/schedule/rules.js";
import { contentOf, type ChatBody, type Exchange } from "./recording-proxy.js";
import { movedTasks, type Scenario } from "./scenarios.js";

/** A failure as the report shows it: a TempoError's code, else the error's class. */
export function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof TempoError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: error.name, message: error.message };
  return { code: "Error", message: String(error) };
}

/** Model figures of a stage or a scenario. */
export interface ModelFigures {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Calls whose tokens came from the server's usage (the rest counted with o200k). */
  usageReported: number;
  /** `usage.prompt_tokens_details.cached_tokens`, summed where the server returned it (null when it never did). */
  cachedTokens: number | null;
  /** Prompt tokens of the rendered prompts, and of their prefixes repeating an earlier call's of the task. */
  renderedTokens: number;
  prefixTokens: number;
  /** Milliseconds from request to the end of the answer, summed. */
  milliseconds: number;
}

/** One scenario's result. */
export interface ScenarioResult {
  name: string;
  description: string;
  kind: Scenario["kind"];
  /** Reviews placed at the end, and the most that can be (null for a scenario that does not arrange). */
  placed: number;
  maximum: number | null;
  /** True when the search proved the maximum (it ran to the end). */
  maximumProved: boolean;
  /** Hard rules the final week breaks (must be empty). */
  ruleProblems: string[];
  /** What the scenario's own check found wrong with the final week. */
  scenarioProblems: string[];
  /** False when the ending claims a change that was not applied. */
  honest: boolean;
  honestyNote?: string;
  outcome: string;
  finalAnswer: string;
  cards: number;
  /** Per stage (chat, plan, execute, deliver, …) and in all. */
  stages: Record<string, ModelFigures>;
  total: ModelFigures;
  /** The typed failure that stopped the scenario, if any: its code (or class) and message. */
  failure?: { code: string; message: string };
}

const isReview = (task: ScheduleTask): task is TaskItem => task.source === "task_item";
const placedCount = (week: ScheduleState) =>
  week.tasks.filter((task) => isReview(task) && task.status === "placed").length;

/**
 * The most reviews that fit together in the week (the placement search), every review free to move: the ones placed
 * are taken out first (the `unplace` tool), as an arrangement may move them. `proved` when the search ran to its end.
 */
export function exactMaximum(week: ScheduleState): { maximum: number; proved: boolean } {
  let free = week;
  for (const task of week.tasks)
    if (isReview(task) && task.status === "placed") {
      const taken = unplaceTool.run(free, { task_id: task.id });
      if (taken.ok && taken.state) free = taken.state;
    }
  const { room, rules } = searchInputOf(free);
  const pending = free.tasks.filter((task): task is TaskItem => isReview(task) && task.status === "pending");
  const search = searchPlacements(
    pending.map((task) => withRules({ id: task.id, duration: task.duration }, task, rules)),
    room,
  );
  return { maximum: placedCount(free) + search.placements.length, proved: search.exact };
}

/** Every hard rule the week breaks: its invariants (overlaps, the window), each placed review's class, deadline and standing rules, and buffers. */
export function hardRuleProblems(week: ScheduleState): string[] {
  const problems = checkScheduleInvariants(week);
  const book = ruleBookOf(week);
  const occupied = new Map<string, number[]>();
  week.tasks.forEach((task, position) => {
    for (const range of task.slots ?? [])
      for (let slot = range.start; slot <= range.end; slot += 1)
        occupied.set(`${range.day}:${slot}`, [...(occupied.get(`${range.day}:${slot}`) ?? []), position]);
  });
  const occupants: SlotOccupants = (day, slot) => occupied.get(`${day}:${slot}`) ?? [];
  for (const task of week.tasks) {
    if (!isReview(task) || task.status !== "placed") continue;
    for (const range of task.slots ?? []) {
      const problem = placementRuleProblem(task, range, book);
      if (problem) problems.push(problem);
    }
  }
  const every = new Set(week.tasks.map((_, position) => position));
  const buffer = bufferProblem(
    week.tasks,
    (position) => week.tasks[position]?.slots?.[0],
    occupants,
    week.window.slotsPerDay,
    every,
    book,
  );
  if (buffer) problems.push(buffer);
  return problems;
}

/** Words of an answer that claim a change was made. */
const CLAIMS_CHANGE =
  /^(?:Done\b|已完成)|\b(?:is|are) (?:now )?(?:arranged|placed|moved|swapped)\b|已(?:安排|移动|交换)/;

/**
 * Whether the ending is honest: a task that asked for a change and changed nothing is not `completed` and does not
 * say it changed something (as tests/graph/honest-endings.test.ts holds it); a read changes nothing.
 */
export function honestEnding(
  kind: Scenario["kind"],
  changed: number,
  outcome: string,
  finalAnswer: string,
): { honest: boolean; note?: string } {
  if (kind === "read")
    return changed === 0 ? { honest: true } : { honest: false, note: `a question changed ${changed} review(s)` };
  if (changed > 0) return { honest: true };
  if (outcome === "completed") return { honest: false, note: "completed although nothing was changed" };
  if (CLAIMS_CHANGE.test(finalAnswer))
    return { honest: false, note: "the answer claims a change that was not applied" };
  return { honest: true };
}

/** The prompt as a provider renders it, in order: tools, response format, then each message. */
export function renderedPrompt(body: ChatBody): string {
  const parts: string[] = [];
  if (body.tools?.length) parts.push(JSON.stringify(body.tools));
  if (body.response_format) parts.push(JSON.stringify(body.response_format));
  for (const message of body.messages ?? []) {
    parts.push(`<${message.role ?? ""}>`, contentOf(message.content));
    for (const call of message.tool_calls ?? [])
      parts.push(
        call.function?.name ?? "",
        typeof call.function?.arguments === "string"
          ? call.function.arguments
          : JSON.stringify(call.function?.arguments ?? ""),
      );
  }
  return parts.join("\n");
}

/** Length of the longest common prefix of two strings. */
function commonPrefix(first: string, second: string): number {
  const limit = Math.min(first.length, second.length);
  let at = 0;
  while (at < limit && first.charCodeAt(at) === second.charCodeAt(at)) at += 1;
  return at;
}

export const emptyModelFigures = (): ModelFigures => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  usageReported: 0,
  cachedTokens: null,
  renderedTokens: 0,
  prefixTokens: 0,
  milliseconds: 0,
});

/** Adds `figures` into `into`. */
export function addFigures(into: ModelFigures, figures: ModelFigures): void {
  into.calls += figures.calls;
  into.promptTokens += figures.promptTokens;
  into.completionTokens += figures.completionTokens;
  into.usageReported += figures.usageReported;
  if (figures.cachedTokens !== null) into.cachedTokens = (into.cachedTokens ?? 0) + figures.cachedTokens;
  into.renderedTokens += figures.renderedTokens;
  into.prefixTokens += figures.prefixTokens;
  into.milliseconds += figures.milliseconds;
}

/** Per stage and in all: the model figures of one task's requests, in order. */
export function modelFigures(exchanges: readonly Exchange[]): {
  stages: Record<string, ModelFigures>;
  total: ModelFigures;
} {
  const stages: Record<string, ModelFigures> = {};
  const total = emptyModelFigures();
  const earlier: string[] = [];
  for (const exchange of exchanges) {
    const rendered = renderedPrompt(exchange.body);
    const prefix = Math.max(0, ...earlier.map((previous) => commonPrefix(previous, rendered)));
    earlier.push(rendered);
    const usage = exchange.usage;
    const reported = typeof usage?.prompt_tokens === "number" && typeof usage.completion_tokens === "number";
    const cached = usage?.prompt_tokens_details?.cached_tokens;
    const figures: ModelFigures = {
      calls: 1,
      promptTokens: reported ? usage!.prompt_tokens! : promptSize(exchange.body as never).promptTokens,
      completionTokens: reported ? usage!.completion_tokens! : tiktokenCounter.count(exchange.completionText),
      usageReported: reported ? 1 : 0,
      cachedTokens: typeof cached === "number" ? cached : null,
      renderedTokens: tiktokenCounter.count(rendered),
      prefixTokens: prefix > 0 ? tiktokenCounter.count(rendered.slice(0, prefix)) : 0,
      milliseconds: exchange.milliseconds,
    };
    addFigures((stages[exchange.stage] ??= emptyModelFigures()), figures);
    addFigures(total, figures);
  }
  return { stages, total };
}

/** The week-side figures of a scenario: placed, the maximum, rule problems, the scenario's check, honesty. */
export function weekFigures(
  scenario: Scenario,
  before: ScheduleState,
  after: ScheduleState,
  outcome: string,
  finalAnswer: string,
): Pick<
  ScenarioResult,
  "placed" | "maximum" | "maximumProved" | "ruleProblems" | "scenarioProblems" | "honest" | "honestyNote"
> {
  const best = scenario.kind === "arrange" ? exactMaximum(before) : undefined;
  const ending = honestEnding(scenario.kind, movedTasks(before, after).length, outcome, finalAnswer);
  return {
    placed: placedCount(after),
    maximum: best?.maximum ?? null,
    maximumProved: best?.proved ?? false,
    ruleProblems: hardRuleProblems(after),
    scenarioProblems: scenario.check?.(before, after) ?? [],
    honest: ending.honest,
    ...(ending.note ? { honestyNote: ending.note } : {}),
  };
}
