/**
 * `npx tsx bench/term-expansion.ts`: what a recurring timetable costs (issue 47, "Speed"), in one run. The CPU time
 * (`process.cpuUsage`, user + system; the median of several rounds, the two kinds of work in turn so a change of the
 * machine's load falls on both alike, after one warm-up) of
 *
 * - the sample: `propose_arrangement` on today's one-week sample (`sampleWeek`);
 * - the term: 30 weekly series (five weekdays × six slot times, until the term's end) expanded into a 16-week window
 *   (112 days), then a week of that term shown (the series expanded into it) and arranged with the sample's reviews.
 *
 * The term's cost as a ratio to the sample's, against the goal (≤ 2×). Exits non-zero when the goal is missed.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addDays } from "../contracts/clock.js";
import { datedWindow } from "../tools/schedule/calendar.js";
import { expandSeries } from "../tools/schedule/event-series.js";
import {
  proposeArrangementTool,
  sampleWeek,
  type ScheduleListing,
  type ScheduleState,
} from "../tools/schedule/index.js";
import type { EventTask, ScheduleWindow } from "../tools/schedule/state.js";
import { goalMissed } from "./support/goal.js";

/** The goal: expanding the term and arranging a week in it costs at most this many times arranging the sample. */
export const GOAL_RATIO = 2;

/** Weeks of the term, and weekly series in its timetable. */
export const TERM_WEEKS = 16;
export const SERIES_COUNT = 30;

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The term's timetable: `SERIES_COUNT` weekly lectures, one slot long, on the weekdays of the sample's window. */
export function termSeries(week: ScheduleState): EventTask[] {
  const window = week.window;
  const firstDate = window.days[0]!.date!;
  const until = addDays(firstDate, TERM_WEEKS * 7 - 1);
  const times = window.slotTimes!;
  return Array.from({ length: SERIES_COUNT }, (_, index) => {
    const weekday = (index % 5) + 1;
    const slot = 2 * Math.floor(index / 5);
    return {
      id: `lecture-${index + 1}`,
      name: `Lecture ${index + 1}`,
      source: "event",
      slots: [],
      canEmbed: false,
      locked: false,
      embeds: [],
      series: {
        rule: { freq: "weekly", interval: 1, byDay: [weekday], until },
        firstDate: addDays(firstDate, weekday - 1),
        start: times[slot]!.start,
        end: times[slot]!.end,
        timeZone: window.timeZone!,
        cancelled: [],
        moved: [],
      },
    };
  });
}

/** `lectures` expanded into `window`: each with its slots there. */
function expanded(lectures: readonly EventTask[], window: ScheduleWindow): EventTask[] {
  return lectures.map((lecture) => ({ ...lecture, slots: expandSeries(lecture.series!, window).slots }));
}

/** The term's work once: expand it over 16 weeks, show its first week, and arrange the sample's reviews there. */
export function termWork(week: ScheduleState, lectures: readonly EventTask[]): { occurrences: number; placed: number } {
  const window = week.window;
  const term = datedWindow({
    firstDate: window.days[0]!.date!,
    days: TERM_WEEKS * 7,
    timeZone: window.timeZone!,
    slotTimes: window.slotTimes!,
  });
  const occurrences = expanded(lectures, term).reduce((sum, lecture) => sum + lecture.slots.length, 0);
  const shown: ScheduleState = {
    ...week,
    tasks: [
      ...expanded(lectures, window),
      ...week.tasks.filter((task) => task.source === "task_item").map((task) => ({ ...task })),
    ],
  };
  const listing = proposeArrangementTool.run(shown, {}).data as ScheduleListing;
  return { occurrences, placed: listing.candidates[0]?.places?.length ?? 0 };
}

/** The sample's work once: arrange its one week. */
export function sampleWork(week: ScheduleState): number {
  const listing = proposeArrangementTool.run(week, {}).data as ScheduleListing;
  return listing.candidates[0]?.places?.length ?? 0;
}

/** Both kinds of work, `rounds` times in turn after a warm-up: each one's median CPU ms and what it gave. */
export function measure(rounds: number) {
  const week = sampleWeek();
  const lectures = termSeries(week);
  sampleWork(week);
  termWork(week, lectures);
  const sampleMs: number[] = [];
  const termMs: number[] = [];
  let samplePlaced = 0;
  let term = { occurrences: 0, placed: 0 };
  for (let round = 0; round < rounds; round += 1) {
    let before = process.cpuUsage();
    samplePlaced = sampleWork(week);
    sampleMs.push(cpuMs(process.cpuUsage(before)));
    before = process.cpuUsage();
    term = termWork(week, lectures);
    termMs.push(cpuMs(process.cpuUsage(before)));
  }
  const sample = median(sampleMs);
  const termCost = median(termMs);
  return { sampleMs: sample, termMs: termCost, ratio: termCost / sample, samplePlaced, ...term };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = measure(9);
  const met = result.ratio <= GOAL_RATIO;
  console.log(
    `# Term expansion (issue 47): ${SERIES_COUNT} weekly series over ${TERM_WEEKS} weeks, CPU ms, median of 9`,
  );
  console.log("");
  console.log("| work | CPU ms | placed | ratio to the sample |");
  console.log("|---|---|---|---|");
  console.log(`| arrange the one-week sample | ${result.sampleMs.toFixed(1)} | ${result.samplePlaced} | 1.00 |`);
  console.log(
    `| expand the term (${result.occurrences} occurrences) + arrange a week in it | ${result.termMs.toFixed(1)} | ${result.placed} | **${result.ratio.toFixed(2)}** |`,
  );
  console.log("");
  console.log(`Goal: ≤ ${GOAL_RATIO}× the sample — ${met ? "met" : "NOT met"}.`);
  if (!met) goalMissed();
}
