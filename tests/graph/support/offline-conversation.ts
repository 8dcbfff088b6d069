/**
 * Drives whole conversations through the graph with the offline policy playing
 * every stage: a message, then each card answered in turn — each write of a
 * batch card on its own (accept unless an answer is scripted) — collecting the cards, the final answer and the
 * schedule afterwards.
 */
import type { ClientClock } from "../../../server/run-guard.js";
import { HumanMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { expect } from "vitest";
import { InMemoryStore, MemorySaver, type BaseStore } from "@langchain/langgraph";
import { applyPreferenceChange } from "../../../memory/preferences.js";
import { readSchedulePreferences } from "../../../tools/schedule/preferences.js";
import { buildTempoGraph } from "../../../server/tempo-graph.js";
import { ScheduleOfflinePolicy } from "../../../offline/schedule/policy.js";
import type { ExecutionLog } from "../../../tools/runner.js";
import {
  checkScheduleInvariants,
  createScheduleDomain,
  InMemoryScheduleRepository,
  placeTool,
  sampleWeek,
  type ScheduleState,
  type TaskItem,
} from "../../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../../support/scripted.js";

/** A card as the user saw it: its action and arguments. */
export interface SeenCard {
  action: string;
  args: Record<string, unknown>;
}

/** What a conversation ended with. */
export interface ConversationOutcome {
  /** Every action request of every card, in order (a batch card's writes one by one). */
  cards: SeenCard[];
  /** How many action requests each card held, card by card (a batch card holds several). */
  cardCounts: number[];
  /** What each action request of `cards` says to the person, in the same order (its markdown description). */
  descriptions: string[];
  finalAnswer: string | null;
  /** The assistant's messages, in order. */
  said: string[];
  /** Names of the tools called, in order. */
  toolCalls: string[];
  phase: string;
  planSteps: string[];
  schedule: ScheduleState;
}

/** The sample week's pending reviews, by id, in the week's order. */
export const SAMPLE_REVIEWS = [
  "review-limits",
  "derivative-drills",
  "matrix-review",
  "determinant-exercises",
  "vocabulary-list",
  "essay-draft",
  "linked-list-exercises",
  "binary-tree-review",
] as const;

/** The sample week's pending reviews but `ids`. */
export const reviewsExcept = (...ids: string[]): string[] => SAMPLE_REVIEWS.filter((id) => !ids.includes(id));

/** Where the sample week's tasks sit in the "half placed" week: id → [day, first slot]. */
export const HALF_PLACED: Readonly<Record<string, [number, number]>> = {
  "review-limits": [1, 5],
  "matrix-review": [2, 3],
  "vocabulary-list": [4, 1],
  "essay-draft": [6, 1],
};

/** Chinese names for the sample week's review tasks. */
export const CHINESE_NAMES: Readonly<Record<string, string>> = {
  "review-limits": "极限与连续复习",
  "derivative-drills": "导数练习",
  "matrix-review": "矩阵运算复习",
  "determinant-exercises": "行列式习题",
  "vocabulary-list": "第五单元单词表",
  "essay-draft": "英语作文草稿",
  "linked-list-exercises": "链表习题",
  "binary-tree-review": "二叉树复习",
};

/** The sample week with four reviews placed (HALF_PLACED), optionally with Chinese task names. */
export function halfPlacedWeek(options: { chinese?: boolean } = {}): ScheduleState {
  const week = sampleWeek();
  week.tasks = week.tasks.map((task) => {
    if (task.source !== "task_item") return task;
    const named: TaskItem = options.chinese ? { ...task, name: CHINESE_NAMES[task.id] ?? task.name } : task;
    const at = HALF_PLACED[task.id];
    return at
      ? { ...named, status: "placed", slots: [{ day: at[0], start: at[1], end: at[1] + task.duration - 1 }] }
      : named;
  });
  return week;
}

/**
 * The sample week with a crowded Monday — six review slots, five reviews back to back from 19:00 — and three reviews
 * later in the week (Thursday 16:00, Friday 19:00, Sunday 19:00), each placed by the place tool.
 */
export function crowdedMondayWeek(): ScheduleState {
  let week = sampleWeek();
  const places: Array<[string, number, number]> = [
    ["review-limits", 1, 5],
    ["determinant-exercises", 1, 9],
    ["vocabulary-list", 1, 10],
    ["binary-tree-review", 1, 11],
    ["derivative-drills", 1, 12],
    ["matrix-review", 4, 7],
    ["essay-draft", 5, 9],
    ["linked-list-exercises", 7, 9],
  ];
  for (const [id, day, start] of places) {
    const ran = placeTool.run(week, { task_id: id, day, slot_start: start });
    if (!ran.ok || !ran.state) throw new Error(`crowdedMondayWeek: ${ran.content}`);
    week = ran.state;
  }
  return week;
}

/**
 * The evening before the sample week (Sunday 10 March 2024, 20:00 in Shanghai): the default "now" of these
 * conversations, so the clock — a hard rule of the schedule — leaves the whole sample week ahead, as it is for a
 * student planning next week. A test that needs another moment passes its own.
 */
export const SAMPLE_WEEK_EVE = new Date("2024-03-10T20:00:00+08:00");

/** The offline policy, counting the model calls it answers (`calls`): what a run that should ask no model asked. */
export class CountingPolicy extends ScheduleOfflinePolicy {
  calls = 0;
  override async _generate(messages: BaseMessage[]) {
    this.calls += 1;
    return super._generate(messages);
  }
}

/**
 * A graph on the offline policy and an in-memory repository seeded with `week` for user "student" (its "now" from
 * `now`, in the window's time zone; by default {@link SAMPLE_WEEK_EVE}); with `store`, the graph has long-term memory (recall, memorize, preferences) —
 * without, it runs with none; `policy` stands in for the offline policy (a subclass that records the prompts).
 */
export async function offlineTempo(
  week: ScheduleState,
  now: () => Date = () => SAMPLE_WEEK_EVE,
  options: {
    store?: BaseStore;
    policy?: ScheduleOfflinePolicy;
    clientClock?: ClientClock;
    executionLog?: ExecutionLog;
    /** The memory stage's model (a scripted one): standing preferences are read by it rather than offline. */
    memory?: BaseChatModel;
  } = {},
) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", week);
  const domain = createScheduleDomain({ repository });
  const graph = buildTempoGraph({
    models: {
      default: options.policy ?? new ScheduleOfflinePolicy(),
      ...(options.memory ? { memory: options.memory } : {}),
    },
    domain,
    checkpointer: new MemorySaver(),
    now,
    ...(options.store ? { store: options.store } : {}),
    ...(options.clientClock ? { clientClock: options.clientClock } : {}),
    ...(options.executionLog ? { executionLog: options.executionLog } : {}),
  });
  return { graph, repository };
}

/**
 * An offline Tempo over `week` whose user said `said` before (its standing preferences read and stored as the memory
 * stores them), with the store that holds them.
 */
export async function tempoHolding(said: string, week: ScheduleState) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(week, undefined, { store });
  await applyPreferenceChange(store, "student", readSchedulePreferences(said), "stated", "2026-01-05T10:00:00.000Z");
  return { store, tempo };
}

/**
 * Sends `message`, answers up to 40 cards (scripted answers first, then accept; a question no answer is given for is
 * withdrawn: "never mind"), and reports the outcome; `configurable` joins the thread's configuration (`now`,
 * `time_zone`).
 */
export async function converse(
  tempo: Awaited<ReturnType<typeof offlineTempo>>,
  message: string,
  answers: Array<{ type: string; args: unknown }> | ((card: SeenCard) => { type: string; args: unknown }) = [],
  threadId = `thread-${Math.random().toString(36).slice(2)}`,
  userId = "student",
  configurable: Record<string, unknown> = {},
): Promise<ConversationOutcome> {
  const base = threadConfig(threadId, userId);
  const config = { ...base, configurable: { ...base.configurable, ...configurable } };
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(message)] }, config);
  const cards: SeenCard[] = [];
  const descriptions: string[] = [];
  // Scripted answers in order, or an answer chosen for each card as it comes.
  const queue = Array.isArray(answers) ? [...answers] : [];
  const answer = (card: SeenCard) =>
    (Array.isArray(answers) ? queue.shift() : answers(card)) ??
    (card.action === "ask_user" ? { type: "response", args: "never mind" } : { type: "accept", args: null });
  const cardCounts: number[] = [];
  for (let turn = 0; turn < 40 && interruptsOf(result).length > 0; turn += 1) {
    // A batch card holds several writes: each is one entry of `cards`, answered by the next scripted answer.
    const requests = (
      interruptsOf(result)[0]?.value as {
        action_requests: Array<{ name: string; args: Record<string, unknown>; description?: string }>;
      }
    ).action_requests;
    cards.push(...requests.map((request) => ({ action: request.name, args: request.args })));
    descriptions.push(...requests.map((request) => request.description ?? ""));
    cardCounts.push(requests.length);
    const given = requests.map((request) => answer({ action: request.name, args: request.args }));
    result = await tempo.graph.invoke(resume(given.length === 1 ? given[0] : given), config);
  }
  return {
    cards,
    cardCounts,
    descriptions,
    finalAnswer: result.finalAnswer,
    said: result.messages
      .filter((entry) => entry.getType() === "ai")
      .map((entry) => String(entry.content))
      .filter(Boolean),
    toolCalls: result.messages.flatMap((entry) => (entry as AIMessage).tool_calls ?? []).map((call) => call.name),
    phase: result.phase,
    planSteps: result.planSteps.map((step) => step.content),
    schedule: await tempo.repository.load(userId),
  };
}

/**
 * `request` said on the half-placed sample week (its Chinese names when the request is Chinese) at `now`, every card
 * accepted; it must have planned `step` alone and raised one batch card, and left a week that keeps every invariant.
 */
export async function oneBatchOnHalfPlacedWeek(
  request: string,
  now: () => Date,
  step: string,
): Promise<{ week: ScheduleState; outcome: ConversationOutcome }> {
  const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
  const outcome = await converse(await offlineTempo(week, now), request);
  expect(outcome.planSteps).toEqual([step]);
  expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  return { week, outcome };
}

/** Each placed review of `week`: id → [day, first slot, last slot]. */
export function placedRanges(week: ScheduleState): Map<string, [number, number, number]> {
  return new Map(
    week.tasks
      .filter((task) => task.source === "task_item" && task.status === "placed")
      .map((task) => [task.id, [task.slots![0]!.day, task.slots![0]!.start, task.slots![0]!.end]] as const),
  );
}

/** Where a task item sits now ("pending" when it has no place). */
export function placeOf(schedule: ScheduleState, taskId: string): string {
  const task = schedule.tasks.find((candidate) => candidate.id === taskId);
  const range = task?.slots?.[0];
  return range ? `day ${range.day} slots ${range.start}-${range.end}` : "pending";
}

/** Where every placed review sits, one entry a range: "matrix-review day 5 slots 9-10". */
export function reviewPlaces(schedule: ScheduleState): string[] {
  return schedule.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "placed"
      ? (task.slots ?? []).map((range) => `${task.id} day ${range.day} slots ${range.start}-${range.end}`)
      : [],
  );
}

/**
 * The stored week as the oracle of a clear of days: each review placed on one of `days` is `status` (skipped, or
 * pending again) after one card for each, every other review is as it was in `week`. How many changed (at least one).
 */
export function expectDaysCleared(
  week: ScheduleState,
  outcome: ConversationOutcome,
  days: readonly number[],
  status: "skipped" | "pending",
): number {
  let changed = 0;
  for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item")) {
    const now = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
    const named = task.status === "placed" && days.includes(task.slots![0]!.day);
    if (named) changed += 1;
    expect({ id: task.id, status: now.status }).toEqual({ id: task.id, status: named ? status : task.status });
    if (!named) expect({ id: task.id, slots: now.slots }).toEqual({ id: task.id, slots: task.slots });
  }
  expect(changed).toBeGreaterThan(0);
  expect(outcome.cards.slice(1).map((card) => card.action)).toEqual(
    Array.from({ length: changed }, () => (status === "skipped" ? "skip" : "unplace")),
  );
  return changed;
}
