/** Types of rule-proof.mjs (plain JavaScript, for the calendar reader's worker). */

/** A recurrence rule as ical.js parses it (`ICAL.Recur`): the parts the proof reads. */
export interface ParsedRule {
  freq?: string;
  interval?: number;
  /** 1 = SU … 7 = SA, as ical.js numbers weekdays. */
  wkst?: number;
  /** The BY… parts by their upper-case names (`BYDAY`, `BYMONTHDAY`, …). */
  parts?: Record<string, Array<string | number>>;
}

/** Whether ical.js only filters a rule's dates by `part` (compares each as written), rather than picking days by it. */
export function filtersOnly(freq: string, part: string): boolean;

/** Whether `rule`, from the date `start`, gives no occurrence at all (proved over a 400-year Gregorian cycle). */
export function neverOccurs(rule: ParsedRule, start: { year: number; month: number; day: number }): boolean;

/** The civil date of a day number (days since 1970-01-01), with what a rule's BY… parts ask of it. */
export function dayFacts(dayNumber: number, weekStart: number, weekCache: Map<number, number> | undefined): unknown;

/** Whether a day (its `dayFacts`) can hold an occurrence of a rule with these BY… parts: a superset of ical.js's days. */
export function dayFilter(parts: ParsedRule["parts"], freq: string): (facts: unknown) => boolean;
