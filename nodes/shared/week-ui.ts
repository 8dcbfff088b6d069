/**
 * The week drawn in Agent Chat UI (issue 48, Generative UI): the `week` component (`ui/week.tsx`) pushed into the
 * state's `ui` channel with the id of the assistant message it belongs to — a write card's proposal beside the message
 * that proposes the writes, the week as it is now beside the task's answer. The nodes call one function each; the
 * props are the grid model (`tools/schedule/week-grid.ts`) as runs and a few labels. A client that does not render
 * Generative UI (the terminal chat, Agent Inbox, `invoke`) just carries the channel.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { languageOf, say, type Language } from "../../contracts/language.js";
import type { NodeDependencies } from "./dependencies.js";
import type { ScheduleState, SlotRange } from "../../tools/schedule/state.js";
import { drawsProposal, weekGrid, type WeekGrid } from "../../tools/schedule/week-grid.js";
import type { HealthPanelProps, WeekLabels, WeekRun, WeekViewProps } from "../../ui/week-props.js";
import {
  analyzeHealth,
  type HealthIssueKind,
  type HealthPreferences,
  type HealthReport,
} from "../../tools/schedule/health.js";
import { endStatus, pushComponent, type UiView } from "../../streaming/progress-ui.js";
import { partOf, serves } from "../../tools/combined-domain.js";

/**
 * Pushes the proposal of a write card: the week as `writes` would leave it, what they add, move, swap and remove
 * marked, beside `proposal` (the assistant message whose tool calls the card decides). Placing writes always draw it;
 * any other schedule write (a removal, an import, an undo) when the grid shows what it changes. Nothing for another
 * domain's writes, or writes that no longer apply.
 */
export function pushWeekProposal(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  view: UiView,
  proposal: BaseMessage,
  writes: ReadonlyArray<{ name: string }>,
  tried: { before: unknown; after: unknown } | undefined,
): void {
  // The weeks the card's writes were tried on and leave (execute tried each before the card): nothing is read again.
  const week = tried && weekIn(dependencies, tried.before);
  if (!tried || !week || writes.length === 0) return;
  const language = languageOf(view.messages);
  const after = weekIn(dependencies, tried.after)!;
  const grid = weekGrid(week, { after, language, now: momentOf(dependencies, config) });
  if (!drawsProposal(grid, writes)) return;
  push(config, view, proposal, weekViewProps(grid, language, say(language, "Proposed week", "提议后的一周")));
}

/** The parts of the health score a person reads, and the issue kinds each part counts. */
const HEALTH_PARTS: ReadonlyArray<{ english: string; chinese: string; kinds: readonly HealthIssueKind[] }> = [
  { english: "rhythm", chinese: "节奏", kinds: ["heavy_day", "uneven", "back_to_back"] },
  { english: "tightness", chinese: "紧凑", kinds: ["no_buffer", "fragmented"] },
  { english: "profile", chinese: "偏好", kinds: ["off_profile", "off_strategy"] },
  { english: "feasibility", chinese: "可行", kinds: ["unplaced", "cannot_fit"] },
];

/**
 * Pushes the health panel beside a refinement's proposal (issue 48 item 2): the week's score and the points each part
 * costs, before → after the proposal's writes, judged as the listing judged them (its avoided days).
 */
export function pushHealthChange(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  messages: readonly BaseMessage[],
  proposal: BaseMessage,
  tried: { before: unknown; after: unknown } | undefined,
): void {
  const before = tried && weekIn(dependencies, tried.before);
  if (!tried || !before) return;
  const preferences = listingPreferences(messages, before);
  const [was, will] = [
    analyzeHealth(before, preferences),
    analyzeHealth(weekIn(dependencies, tried.after)!, preferences),
  ];
  const language = languageOf(messages);
  const cost = (report: HealthReport, kinds: readonly HealthIssueKind[]) =>
    Math.round(
      report.issues.filter((issue) => kinds.includes(issue.kind)).reduce((sum, issue) => sum + issue.penalty, 0) * 10,
    ) / 10;
  const props: HealthPanelProps = {
    title: say(language, "Week health", "一周健康度"),
    before: was.score,
    after: will.score,
    parts: HEALTH_PARTS.map((part) => ({
      label: say(language, part.english, part.chinese),
      before: cost(was, part.kinds),
      after: cost(will, part.kinds),
    })),
  };
  pushComponent(config, `health-${proposal.id}`, "health", props as unknown as Record<string, unknown>, proposal.id!);
}

/** The avoided days the step's latest listing was judged with (`propose_candidates`' avoid_days, avoid_weekdays). */
function listingPreferences(messages: readonly BaseMessage[], week: ScheduleState): HealthPreferences {
  const call = messages
    .flatMap((message) => (message as AIMessage).tool_calls ?? [])
    .findLast((entry) => entry.name === "propose_candidates");
  const args = (call?.args ?? {}) as { avoid_days?: number[]; avoid_weekdays?: number[] };
  const weekdays = args.avoid_weekdays ?? [];
  const avoidDays = [
    ...new Set([
      ...(args.avoid_days ?? []),
      ...week.window.days.filter((day) => weekdays.includes(day.dayOfWeek)).map((day) => day.dayIndex),
    ]),
  ];
  return avoidDays.length > 0 ? { avoidDays } : {};
}

/** Pushes the week as it is now beside the task's answer (`week`: the schedule already loaded, if it was). */
export async function pushWeekNow(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  view: UiView,
  answer: BaseMessage,
  week?: unknown,
): Promise<void> {
  const state = week !== undefined ? weekIn(dependencies, week) : await scheduleOf(dependencies, config);
  // With no week to draw, the answer still takes the place of the turn's progress line.
  if (!state) return endStatus(config, view);
  const language = languageOf(view.messages);
  const grid = weekGrid(state, { language, now: momentOf(dependencies, config) });
  push(config, view, answer, weekViewProps(grid, language, say(language, "Your week", "你的一周")));
}

/** The `week` component's props for `grid`: its cells as runs, the changes in words, the labels in `language`. */
export function weekViewProps(grid: WeekGrid, language: Language, title: string): WeekViewProps {
  const events: WeekRun[] = [];
  const reviews: WeekRun[] = [];
  grid.days.forEach((day, position) => {
    // A run is the slots one occupant fills one after another; it ends where the next one (or nothing) begins.
    let event: { id: string; run: WeekRun } | undefined;
    let review: { id: string; run: WeekRun } | undefined;
    day.cells.forEach((cell, index) => {
      const slot = index + 1;
      const found = cell.event;
      if (found && event?.id === found.id) {
        event.run.to = slot;
        if (cell.eventNamed) event.run.named = slot;
      } else if (!found) event = undefined;
      else {
        event = { id: found.id, run: { day: position, from: slot, to: slot, name: found.name } };
        if (found.locked) event.run.locked = true;
        // An event the proposal adds (an import, an undo's restore) is marked where it arrives, as a review is.
        const change = cell.change;
        if (change?.side === "to" && change.taskId === found.id) event.run.mark = change.kind;
        events.push(event.run);
      }
      const placed = cell.review;
      if (placed && review?.id === placed.id) review.run.to = slot;
      else if (!placed) review = undefined;
      else {
        review = {
          id: placed.id,
          run: { day: position, from: slot, to: slot, name: placed.name, colour: placed.colour },
        };
        if (placed.done) review.run.done = true;
        const change = cell.change;
        if (change?.side === "to" && change.taskId === placed.id) review.run.mark = change.kind;
        reviews.push(review.run);
      }
    });
  });
  const first = grid.days[0]?.dayIndex ?? 1;
  const departures: WeekRun[] = grid.changes
    .filter((change) => change.from !== undefined)
    .map((change) => ({
      day: change.from!.day - first,
      from: change.from!.start,
      to: change.from!.end,
      name: change.name,
      mark: change.kind,
    }));
  const where = (range: SlotRange | undefined) => (range ? placeText(grid, range) : "");
  const changes = grid.changes.map((change) => ({
    mark: change.kind,
    text:
      change.from && change.to
        ? `${change.name}: ${where(change.from)} → ${where(change.to)}`
        : `${change.name}: ${where(change.to ?? change.from)}`,
  }));
  const past = grid.days.flatMap((day) => day.cells).filter((cell) => cell.past).length;
  const now = grid.now;
  return {
    title,
    language,
    days: grid.days.map((day) => ({
      label: day.label,
      ...(day.date === undefined ? {} : { date: day.date }),
      ...(day.today ? { today: true } : {}),
    })),
    slots: grid.slots.map((slot) => (slot.start && slot.end ? `${slot.start}–${slot.end}` : String(slot.slot))),
    classes: grid.classes.map((entry) => ({ name: entry.name, colour: entry.colour })),
    events,
    reviews,
    departures,
    ...(past > 0 ? { past } : {}),
    // Past today's last slot too (slot: slotCount + 1): the line is drawn under it, as the terminal draws it.
    ...(now ? { now: { day: now.dayIndex - first, slot: now.slot, time: now.time } } : {}),
    changes,
    pending: [
      ...grid.pending.map((task) => task.name),
      ...grid.missed.map((task) => `${task.name}${say(language, " (missed)", "（错过）")}`),
    ],
    labels: labelsIn(language),
  };
}

/** "Fri 4 Dec 19:00–20:40" (or "Fri 4 Dec, slots 9–10" in a window without clock times). */
function placeText(grid: WeekGrid, range: SlotRange): string {
  const day = grid.days.find((entry) => entry.dayIndex === range.day)?.label ?? `day ${range.day}`;
  const start = grid.slots[range.start - 1]?.start;
  const end = grid.slots[range.end - 1]?.end;
  return start && end ? `${day} ${start}–${end}` : `${day}, ${range.start}–${range.end}`;
}

function labelsIn(language: Language): WeekLabels {
  return {
    free: say(language, "free", "空闲"),
    now: say(language, "now", "现在"),
    pending: say(language, "still without a place", "尚未安排"),
    added: say(language, "added", "新增"),
    moved: say(language, "moved", "移动"),
    swapped: say(language, "swapped", "互换"),
    removed: say(language, "removed", "移除"),
  };
}

function push(config: LangGraphRunnableConfig, view: UiView, message: BaseMessage, props: WeekViewProps): void {
  // The picture of the next card, or the answer's, takes the place of the turn's progress line.
  endStatus(config, view);
  pushComponent(config, `week-${message.id}`, "week", props as unknown as Record<string, unknown>, message.id!);
}

async function scheduleOf(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<ScheduleState | undefined> {
  if (!serves(dependencies.domain, "schedule")) return undefined;
  const { userId } = ensureConfiguration(config, dependencies.settings);
  return weekIn(dependencies, await dependencies.domain.load(userId));
}

/** The week in the served domain's `state`: the schedule's state, or its part when other domains are served beside it. */
function weekIn(dependencies: NodeDependencies, state: unknown): ScheduleState | undefined {
  return partOf(dependencies.domain, "schedule", state) as ScheduleState | undefined;
}

function momentOf(dependencies: NodeDependencies, config: LangGraphRunnableConfig): Date {
  return ensureConfiguration(config, dependencies.settings).now ?? dependencies.now?.() ?? new Date();
}
