/**
 * The window moves on by the clock (issue 47 item 3): the first request after the window's last day shows the week
 * of now. Pure decisions over a schedule and a moment — how far the window is behind the clock, the roll that is due,
 * and what a roll did told in a person's words — so that the graph (at the start of an invocation) and the daily
 * check-in (`cli/checkin.ts`) roll the same way, through the `roll_window` tool and its one-write-per-call guard.
 *
 * The window moves by whole weeks (by its own length when shorter than a week), so every weekday stays the weekday it
 * was and today lands in its first week; a gap longer than the window is crossed in several rolls, each one write.
 */
import { daysBetween, localClock } from "../../contracts/clock.js";
import type { Language } from "../../contracts/language.js";
import { TempoError } from "../../errors/index.js";
import { instantOf } from "./event-series.js";
import { formatDate } from "./state.js";
import type { ScheduleState, ScheduleWindow, TaskItem } from "./state.js";

/** The farthest the clock may be past the window's last day for the window to follow it (a year of weekly rolls). */
export const MAX_CLOCK_GAP_DAYS = 366;

/** The clock is too far past the window to roll it by the clock (its stored schedule is left as it is). */
export class ClockGapError extends TempoError {
  constructor(message: string, details: Record<string, unknown>) {
    super("INVALID_INPUT", message, details);
    this.name = "ClockGapError";
  }
}

/**
 * The days the window must move on so that `moment`'s date (in the window's time zone) lies in it, in whole weeks;
 * 0 while its last day has not passed, or for a window without dates or a time zone (it has no clock). Throws a
 * `ClockGapError` when the clock is more than `MAX_CLOCK_GAP_DAYS` past the last day.
 */
export function daysBehindClock(window: Pick<ScheduleWindow, "days" | "timeZone" | "totalDays">, moment: Date): number {
  const first = window.days[0]?.date;
  const last = window.days.at(-1)?.date;
  if (first === undefined || last === undefined || window.timeZone === undefined || Number.isNaN(moment.getTime()))
    return 0;
  const today = localClock(moment, window.timeZone).date;
  if (today <= last) return 0;
  const gap = daysBetween(last, today);
  if (gap > MAX_CLOCK_GAP_DAYS)
    throw new ClockGapError(
      `The clock says ${today}, ${gap} days after the window's last day ${last}: more than the ${MAX_CLOCK_GAP_DAYS} days the window follows the clock. The schedule was left as it is; load a week of now (npm start -- --week <file>).`,
      { today, last, gap },
    );
  const step = rollStep(window);
  return Math.floor(daysBetween(first, today) / step) * step;
}

/** The unit a window moves by the clock: a week, or the window's length when shorter. */
function rollStep(window: Pick<ScheduleWindow, "totalDays">): number {
  return Math.min(7, window.totalDays);
}

/**
 * The roll the clock makes due now, as the `roll_window` call that makes it — the whole gap in one roll, so that a
 * habit carries on across weeks the clock passed whole (a roll by at most the window's length left such a week with
 * no occurrences, and the next roll took the habit for ended); a whole number of steps, at most
 * `MAX_ROLL_DAYS` (the next call makes the rest) — or undefined when the window is in time.
 */
export function rollDueByClock(
  state: Pick<ScheduleState, "window">,
  moment: Date,
): { name: "roll_window"; arguments: { days: number } } | undefined {
  const behind = daysBehindClock(state.window, moment);
  if (behind === 0) return undefined;
  const step = rollStep(state.window);
  const most = Math.max(Math.floor(state.window.totalDays / step), Math.floor(MAX_ROLL_DAYS / step)) * step;
  return { name: "roll_window", arguments: { days: Math.min(behind, most) } };
}

/** The most days one `roll_window` call moves on by (its argument's bound). */
export const MAX_ROLL_DAYS = 366;

/**
 * When `moment` is earlier than what the schedule has already recorded — a review marked done, missed or skipped at a
 * later moment, made missed (by a later clock's roll) at a place that has not started yet by `moment`, or the window
 * moved on by a roll at a later clock (`ScheduleWindow.rolledAt`: the days it settled as past) — the clock
 * went back: a machine's clock set wrong, or a fixed one. Nothing is rolled back or unmarked: what was recorded was
 * true at its own clock. The words say so, with the latest moment recorded in the window's time zone, so a "missed" is never
 * read unsaid as a claim about a time still ahead; undefined when the clock is not behind, or the window has no time
 * zone.
 */
export function clockBehindText(
  state: Pick<ScheduleState, "window" | "tasks">,
  moment: Date,
  language: Language,
): string | undefined {
  const { timeZone, slotTimes } = state.window;
  if (timeZone === undefined || Number.isNaN(moment.getTime())) return undefined;
  // Compared as instants to the minute (as a person reads a clock), never as wall-clock text: on the night the clocks
  // go back an hour, 01:10 after the change comes after 01:30 before it.
  let latest: number | undefined;
  for (const task of state.tasks) {
    if (task.source !== "task_item") continue;
    const marked = task.markedAt === undefined ? Number.NaN : Date.parse(task.markedAt);
    if (!Number.isNaN(marked)) latest = Math.max(latest ?? marked, marked);
    const was = task.status === "missed" ? task.was : undefined;
    if (was?.date !== undefined) {
      const start = instantOf(was.date, slotTimes?.[was.start - 1]?.start ?? "00:00", timeZone).getTime();
      latest = Math.max(latest ?? start, start);
    }
  }
  const minute = (ms: number) => Math.floor(ms / 60_000);
  // The roll's clock counts too: a roll that settled nothing, or one made later than every review it settled (a review
  // missed on Saturday morning, the roll on the next Wednesday) — the latest moment recorded is named.
  const rolled = recordedClock(state.window);
  if (rolled !== undefined) latest = Math.max(latest ?? rolled, rolled);
  if (latest === undefined || minute(latest) <= minute(moment.getTime())) return undefined;
  const now = localClock(moment, timeZone);
  const { date, time } = localClock(new Date(latest), timeZone);
  return language === "zh"
    ? `你的时钟显示 ${formatDate(now.date, "zh")} ${now.time}，早于日程已经记录到的时间（${formatDate(date, "zh")} ${time}）：之前记下的完成、错过和跳过保持不变，日程也不会往回退。如果电脑的时钟不对，请先校准。`
    : `Your clock says ${formatDate(now.date)}, ${now.time}, earlier than what your schedule has already recorded (${formatDate(date)}, ${time}): what was marked done, missed or skipped stays as it was, and the week does not move back. If your computer's clock is wrong, please set it right.`;
}

/** The clock of the window's last roll, in ms (undefined before any roll with a clock). */
function recordedClock(window: Pick<ScheduleWindow, "rolledAt">): number | undefined {
  const at = window.rolledAt === undefined ? Number.NaN : Date.parse(window.rolledAt);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The clock the schedule's rules keep to at `moment`: `moment`, or the clock of the window's last roll when `moment`
 * is earlier (a machine's clock set back): the days the roll settled as past are not offered, nor written into, again.
 */
export function clockNotBefore(window: Pick<ScheduleWindow, "rolledAt">, moment: Date): Date {
  const rolled = recordedClock(window);
  return rolled !== undefined && rolled > moment.getTime() ? new Date(rolled) : moment;
}

/** What one roll did (`RollWindowData` of the `roll_window` tool): task ids by what became of them. */
export interface RolledIds {
  days: number;
  history: readonly string[];
  missed: readonly string[];
  removed: readonly string[];
  /** The names of the events that left with the old days (a roll stored before this has none). */
  left?: readonly string[];
}

/**
 * What the clock's rolls did, in the user's language, for the answer of the request that made them: the window's new
 * span, the reviews moved to history (done, with when) and those that became missed (with where they were planned),
 * by name, and the one-off events that left with the old days (never silently); `after` is the schedule after the last
 * roll.
 */
export function movedOnText(after: ScheduleState, rolls: readonly RolledIds[], language: Language): string {
  const zh = language === "zh";
  const first = after.window.days[0]?.date;
  const last = after.window.days.at(-1)?.date;
  const byId = new Map(after.tasks.map((task) => [task.id, task]));
  const named = (ids: readonly string[]) =>
    ids.map((id) => {
      const task = byId.get(id) as TaskItem | undefined;
      const when = task?.was?.date === undefined ? "" : ` (${formatDate(task.was.date, language)})`;
      return `${task?.name ?? id}${when}`;
    });
  const history = named(rolls.flatMap((roll) => roll.history));
  const missed = named(rolls.flatMap((roll) => roll.missed));
  const left = [...new Set(rolls.flatMap((roll) => roll.left ?? []))];
  const days = rolls.reduce((sum, roll) => sum + roll.days, 0);
  const span = first && last ? `${formatDate(first, language)} – ${formatDate(last, language)}` : "";
  const separator = zh ? "、" : "; ";
  if (zh)
    return [
      `新的一周：日程窗口向后移动了 ${days} 天，现在是 ${span}。`,
      history.length > 0 ? `已完成并记入历史：${history.join(separator)}。` : "没有已完成的复习需要记入历史。",
      missed.length > 0 ? `时间已过而没有标记完成，记为错过：${missed.join(separator)}。` : "没有复习被记为错过。",
      left.length > 0 ? `随旧的日子移出的单次日程（不重复，新的一周里没有）：${left.join(separator)}。` : "",
    ].join("");
  return [
    `A new week: the window moved on by ${days} day(s) and now runs ${span}.`,
    history.length > 0 ? `Moved to history as done: ${history.join(separator)}.` : "No done review to move to history.",
    missed.length > 0
      ? `Passed without being marked done, now missed: ${missed.join(separator)}.`
      : "No review became missed.",
    ...(left.length > 0
      ? [`Left with the old days (one-off events, not repeated in the new week): ${left.join(separator)}.`]
      : []),
  ].join(" ");
}
