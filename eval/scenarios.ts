/**
 * The eval's fixed scenarios: a week, one request, and a scripted user who answers every card. Generated weeks with
 * and without task classes and rules, the sample week's arrangement, a move, a swap, a read, a rejection with
 * feedback ("Friday is my day off") and Chinese requests. Each scenario may name what its final week must show
 * (`check`): the move landed on Thursday, nothing newly placed on the day off, a read changed nothing.
 */
import { ConfigurationError } from "../errors/index.js";
import { approveDecision, rejectDecision, type Decision } from "../review/resume.js";
import { generateSchedule, sampleWeek, type ScheduleState } from "../tools/schedule/index.js";
import { halfPlacedWeek } from "../tests/graph/support/offline-conversation.js";
import { ruleWeek } from "../tests/support/rule-weeks.js";

/** An action request of a card, as the user sees it. */
export interface CardRequest {
  name: string;
  args: Record<string, unknown>;
}

/** The scripted user's answer to one action request: a v1 decision (built by review/resume.ts), or a question's text. */
export type UserAnswer = Decision | string;

/** What a scenario asks. "arrange": placed is judged against the exact maximum; "write" and "read" are not. */
export type ScenarioKind = "arrange" | "write" | "read";

export interface Scenario {
  name: string;
  /** One line for the report. */
  description: string;
  kind: ScenarioKind;
  message: string;
  week: () => ScheduleState;
  /** The scripted user: the answer to each action request of each card (default: approve; a question: "Yes"). */
  answer?: (request: CardRequest) => UserAnswer;
  /** What the final week must show, as problems (empty when it does). */
  check?: (before: ScheduleState, after: ScheduleState) => string[];
  /** Model calls the offline policy needs (measured through the double): the basis of the time estimate. */
  expectedCalls: number;
}

/** A task item's first slot range as "day D slot S", or "pending". */
export function placeOf(week: ScheduleState, taskId: string): string {
  const task = week.tasks.find((candidate) => candidate.id === taskId);
  const range = task?.slots?.[0];
  return range ? `day ${range.day} slot ${range.start}` : "pending";
}

/** Task items whose place differs between two weeks. */
export function movedTasks(before: ScheduleState, after: ScheduleState): string[] {
  return after.tasks
    .filter(
      (task) =>
        task.source === "task_item" &&
        JSON.stringify(task.slots ?? []) !==
          JSON.stringify(before.tasks.find((old) => old.id === task.id)?.slots ?? []),
    )
    .map((task) => task.id);
}

const FRIDAY = 5;
const DAY_OFF = "Friday is my day off";

/**
 * A write landing on Friday is rejected with the day-off feedback — a place or move to it, or a batch move any of whose
 * moves goes there (as a person reading the card would); everything else approved.
 */
function rejectFriday(request: CardRequest): UserAnswer {
  const moves = Array.isArray(request.args.moves) ? (request.args.moves as Array<{ day?: unknown }>) : [];
  const toFriday = request.args.day === FRIDAY || moves.some((move) => move.day === FRIDAY);
  return toFriday ? rejectDecision(DAY_OFF) : approveDecision();
}

/** Nothing newly placed or moved onto Friday. */
function nothingNewOnFriday(before: ScheduleState, after: ScheduleState): string[] {
  return movedTasks(before, after)
    .filter((id) => after.tasks.find((task) => task.id === id)?.slots?.some((range) => range.day === FRIDAY))
    .map((id) => `${id} was placed on Friday, the day the user called off`);
}

const unchanged = (before: ScheduleState, after: ScheduleState) =>
  movedTasks(before, after).map((id) => `${id} changed although the request only read the week`);

const landedOn = (taskId: string, day: number) => (_before: ScheduleState, after: ScheduleState) =>
  placeOf(after, taskId).startsWith(`day ${day} `)
    ? []
    : [`${taskId} is at ${placeOf(after, taskId)}, not on day ${day}`];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "demo",
    description: "the sample week (dated, classes with excluded days), arranged",
    kind: "arrange",
    message: "Help me arrange next week's review sessions.",
    week: sampleWeek,
    expectedCalls: 4,
  },
  {
    name: "generated",
    description: "a generated tight week (3 days × 8 slots, 14 tasks), arranged",
    kind: "arrange",
    message: "arrange my reviews",
    week: () => generateSchedule({ days: 3, slotsPerDay: 8, taskCount: 14, seed: 2001 }),
    expectedCalls: 4,
  },
  {
    name: "generated-rules",
    description: "a generated week with class rules, deadlines, buffers, hosts and locked events, arranged",
    kind: "arrange",
    message: "arrange my reviews",
    // Seed 5 has no standing preferences: those come from the memory store, which the eval runs without.
    week: () => ruleWeek(5),
    expectedCalls: 4,
  },
  {
    name: "move",
    description: "the half-placed sample week: one review moved",
    kind: "write",
    message: "Move my matrix review to Thursday",
    week: () => halfPlacedWeek(),
    check: landedOn("matrix-review", 4),
    expectedCalls: 5,
  },
  {
    name: "swap",
    description: "the half-placed sample week: two reviews swapped",
    kind: "write",
    message: "Swap review-limits and matrix-review",
    week: () => halfPlacedWeek(),
    check: (before, after) =>
      placeOf(after, "review-limits") === placeOf(before, "matrix-review") ||
      placeOf(after, "matrix-review") === placeOf(before, "review-limits")
        ? []
        : ["review-limits and matrix-review were not swapped"],
    expectedCalls: 4,
  },
  {
    name: "read",
    description: "the half-placed sample week: a question, nothing to change",
    kind: "read",
    message: "When am I free on Saturday afternoon?",
    week: () => halfPlacedWeek(),
    check: unchanged,
    expectedCalls: 4,
  },
  {
    name: "day-off",
    description: 'arranged, every write on Friday rejected with "Friday is my day off"',
    kind: "arrange",
    message: "arrange my reviews into free slots",
    week: () => halfPlacedWeek(),
    answer: rejectFriday,
    check: nothingNewOnFriday,
    expectedCalls: 9,
  },
  {
    name: "chinese-arrange",
    description: "the half-placed week with Chinese names, arranged on a Chinese request",
    kind: "arrange",
    message: "帮我安排复习",
    week: () => halfPlacedWeek({ chinese: true }),
    expectedCalls: 4,
  },
  {
    name: "chinese-move",
    description: "the half-placed week with Chinese names, a review moved on a Chinese request",
    kind: "write",
    message: "把矩阵运算复习移到周四",
    week: () => halfPlacedWeek({ chinese: true }),
    check: landedOn("matrix-review", 4),
    expectedCalls: 5,
  },
];

/** The scenarios named in `names` (all when empty); an unknown name is a ConfigurationError listing the known ones. */
export function pickScenarios(names: readonly string[]): Scenario[] {
  if (names.length === 0) return [...SCENARIOS];
  return names.map((name) => {
    const found = SCENARIOS.find((scenario) => scenario.name === name);
    if (!found)
      throw new ConfigurationError(
        `unknown scenario "${name}"; the scenarios are: ${SCENARIOS.map((each) => each.name).join(", ")}`,
      );
    return found;
  });
}
