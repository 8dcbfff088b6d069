/**
 * What the Generative UI components of Agent Chat UI are given (issue 48): plain JSON, small enough to keep in the
 * thread's state. The week travels as runs (a day, a first and last slot, a name), not as the grid model's cells; the
 * component spreads them back over the day × slot grid. No React here: the server (`streaming/week-ui.ts`) builds
 * these and the components (`week.tsx`, `health.tsx`) draw them.
 */

/** What a proposal does to the review drawn in a run. */
export type WeekMark = "added" | "moved" | "swapped" | "removed";

/** One occupant of consecutive slots of one day. */
export interface WeekRun {
  /** Position of the day in `WeekViewProps.days` (0 = the first drawn). */
  day: number;
  /** First and last slot, 1-based, inclusive. */
  from: number;
  to: number;
  name: string;
  /** A review's task class colour (index into the palette). */
  colour?: number;
  /** What the proposal does here (on an arrival, a review's or an added event's; a departure is in `departures`). */
  mark?: WeekMark;
  /** A timetable entry nothing may move. */
  locked?: boolean;
  /**
   * The slot where an event's name is written when it is not its first: the first a review's name does not take (a
   * review sitting at a lecture's start). Where a name begins in every slot, the first, beside that name.
   */
  named?: number;
  /** A review marked done in this place (history, drawn with ✓). */
  done?: boolean;
}

/** The words the component writes, in the thread's language. */
export interface WeekLabels {
  free: string;
  now: string;
  pending: string;
  added: string;
  moved: string;
  swapped: string;
  removed: string;
}

/** Props of the `week` component. */
export interface WeekViewProps {
  /** "Proposed week" or "Your week". */
  title: string;
  /** "en" or "zh": the document language of the drawing. */
  language: string;
  /** The drawn days, first to last. */
  days: Array<{ label: string; date?: string; today?: boolean }>;
  /** One per slot: its clock time ("08:00–08:45") or its number in a window without times. */
  slots: string[];
  /** Task classes, in the order of their colours. */
  classes: Array<{ name: string; colour: number }>;
  /** The timetable. */
  events: WeekRun[];
  /** The placed reviews (after the proposal, when there is one). */
  reviews: WeekRun[];
  /** Where moved, swapped or removed reviews were before the proposal. */
  departures: WeekRun[];
  /** How many cells, day by day and slot by slot from the first, the clock has passed. */
  past?: number;
  /** The clock: the day position, the first slot not yet started (`slots.length + 1` once all have), the time. */
  now?: { day: number; slot: number; time: string };
  /** The proposal's changes as a person reads them ("Limits review: Fri 4 Dec 19:00 → Sat 5 Dec 09:00"). */
  changes: Array<{ mark: WeekMark; text: string }>;
  /** Reviews still without a place. */
  pending: string[];
  labels: WeekLabels;
}

/** One part of the health score: the points its issues cost, before and after. */
export interface HealthPart {
  label: string;
  before: number;
  after: number;
}

/** Props of the `health` component: the score and its parts, before → after a refinement. */
export interface HealthPanelProps {
  title: string;
  before: number;
  after: number;
  parts: HealthPart[];
}

/** The palette of task class colours, by colour index (wrapping). */
export const CLASS_COLOURS = ["#4f86c6", "#e07b39", "#5aa469", "#b05fc0", "#d1495b", "#c9a227", "#2a9d8f", "#7a6c5d"];

/** Props of the `status` component: the stage a task is at, in the user's language. */
export interface StatusProps {
  text: string;
  /** "en" or "zh". */
  language: string;
}
