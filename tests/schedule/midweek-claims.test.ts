/**
 * Every claim the schedule makes, held against the brute-force oracle (tests/support/schedule-oracle.ts, which shares
 * no code with the search and reads the clock itself) with the clock part-way through the week: Wednesday 14:00,
 * Friday 22:00, Sunday 23:30 (tests/support/midweek-weeks.ts). The past is fixed there: reviews placed before the
 * clock are done (they keep their place and buffer), missed (their place freed, still to place) or left where they
 * started; a review or two is due before the clock's day; the user keeps a day free, studies only in the evening or
 * prefers the mornings (soft); a timetable imported from a calendar file; the window rolled on to the clock's day.
 *
 * Where a text says "proved", "cannot fit", "fits nowhere", "forced", "at risk", "deadline passed", or how many fit,
 * it is checked:
 * - the search places the oracle's most with its priority profile, and a review it leaves out as proved cannot join;
 * - `propose_arrangement` places the oracle's most; "(proved)" and "fits nowhere beside the others, proved" hold over
 *   every arrangement of the reviews still ahead, "moving them may make room" only where one places more, "deadline
 *   passed" only where the clock is past the deadline by the written rule;
 * - the health judge: "N … review(s) fit" is the oracle's most (missed ones among those to place) and they fit
 *   together, each review it says cannot fit "(proved)" cannot join them, "(deadline passed)" only when it has;
 * - at risk: the most of the reviews due that fit is the oracle's, every one at risk cannot join the others, "no free
 *   time before its deadline" means no place on its own, and a review whose deadline has not passed and that no best
 *   arrangement holds is reported; a recovery places the oracle's most with the reviews not yet started taken up,
 *   and "recovers none" or "only trades one review due for another" holds by the oracle's figures;
 * - `propose_reschedule` places the oracle's most of the missed reviews, and each reason it gives for one left out
 *   holds (no place on its own, none beside the others, its deadline passed);
 * - soft preferences (a preferred part, a strategy) never cost a placement: the arrangement places as many as the
 *   oracle with them taken out.
 */
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { atRiskOf, atRiskText } from "../../tools/schedule/at-risk.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { forcedText } from "../../tools/schedule/candidates.js";
import { analyzeHealth, formatHealth } from "../../tools/schedule/health.js";
import { searchInputOf, searchPlacements, type SearchResult } from "../../tools/schedule/placement-search.js";
import { isFixedByClock, ruleBookOf, withRules } from "../../tools/schedule/rules.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { NO_PLACE_BEFORE, proposeReschedule } from "../../tools/schedule/tools/reschedule.js";
import { healthClaimsAgainst } from "../support/health-claims.js";
import { livedWeek, MOMENTS, type LivedKind } from "../support/midweek-weeks.js";
import { reopened } from "../support/rule-weeks.js";
import { oracle } from "../support/schedule-oracle.js";

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");

/** `week` with its missed reviews without a place made pending: what the oracle takes as still to place. */
function missedAsPending(week: ScheduleState): ScheduleState {
  return {
    ...week,
    tasks: week.tasks.map((task) =>
      task.source === "task_item" && task.status === "missed" && !task.slots?.length
        ? { ...task, status: "pending" as const }
        : task,
    ),
  };
}

/** The search as `propose_arrangement` runs it on a whole week: every pending review under its rules. */
function search(week: ScheduleState): SearchResult {
  const { room, dayLoad, rules } = searchInputOf(week);
  const tasks = pendingOf(week).map((task) => withRules({ id: task.id, duration: task.duration }, task, rules));
  return searchPlacements(tasks, room, { dayLoad });
}

/** `week` without its soft preferences: classes' preferred parts and strategies, the standing preferred part. */
function withoutSoft(week: ScheduleState): ScheduleState {
  return {
    ...week,
    categories: week.categories.map(({ preferredParts: _parts, strategy: _strategy, ...category }) => category),
    standing: (week.standing ?? []).filter((rule) => rule.kind !== "part_of_day"),
  };
}

/**
 * True when the deadline of `task` has passed by `week`'s clock, read from the written rule, not the code's: "due
 * before day d" has passed once day d has begun (its date is today or earlier), "due before an event" once the
 * event's first slot has started (at or after its start time, in the window's time zone).
 */
function deadlineGone(week: ScheduleState, task: TaskItem): boolean {
  const due = task.dueBefore;
  const { window } = week;
  if (!due || week.now === undefined || window.timeZone === undefined) return false;
  const [today, time] = new Intl.DateTimeFormat("sv-SE", {
    timeZone: window.timeZone,
    dateStyle: "short",
    timeStyle: "short",
    hourCycle: "h23",
  })
    .format(new Date(week.now))
    .split(" ") as [string, string];
  const dateOf = (day: number) => {
    const last = window.days.at(-1)!.date!;
    if (day <= window.totalDays) return window.days[day - 1]!.date!;
    return new Date(Date.parse(`${last}T00:00:00Z`) + (day - window.totalDays) * 86_400_000).toISOString().slice(0, 10);
  };
  if ("day" in due) return dateOf(due.day) <= today;
  const event = week.tasks.find((each) => each.id === due.eventId);
  const first = [...(event?.slots ?? [])].sort((a, b) => a.day - b.day || a.start - b.start)[0];
  if (!first) return false;
  const date = dateOf(first.day);
  return date < today || (date === today && window.slotTimes![first.start - 1]!.start <= time);
}

/** The most of `ids` the oracle's `answer` fits together (every subset tried). */
function mostOf(answer: ReturnType<typeof oracle>, ids: readonly string[]): number {
  let most = 0;
  for (let set = 0; set < 1 << ids.length; set += 1) {
    const chosen = ids.filter((_, index) => set & (1 << index));
    if (chosen.length > most && answer.fitsTogether(chosen)) most = chosen.length;
  }
  return most;
}

/** What met in the weeks checked: each kind of claim, so an idle generator fails. */
const met = new Map<string, number>();
const meet = (kind: string, count = 1) => met.set(kind, (met.get(kind) ?? 0) + count);

/**
 * What the search (`searchOf`, the real one by default) claims on `week` that the oracle shows false: it places the
 * oracle's most with its priority profile, keeps every rule, and each review it leaves out as proved cannot join —
 * and the soft preferences cost nothing: without them the oracle fits no more.
 */
function searchClaims(week: ScheduleState, searchOf: (week: ScheduleState) => SearchResult = search): string[] {
  const problems: string[] = [];
  const answer = oracle(week);
  const searched = searchOf(week);
  const placed = searched.placements.map((entry) => entry.id);
  const rank = new Map(
    pendingOf(week).map((task) => [task.id, ["high", "normal", "low"].indexOf(task.priority ?? "normal")]),
  );
  const profile = [0, 0, 0];
  for (const id of placed) profile[rank.get(id)!]! += 1;
  if (!searched.exact) problems.push(`the search stopped at ${searched.stop}`);
  if (placed.length !== answer.most) problems.push(`the search places ${placed.length}, the oracle ${answer.most}`);
  if (profile.join("/") !== answer.profile.join("/"))
    problems.push(`priority profile ${profile.join("/")}, the oracle's ${answer.profile.join("/")}`);
  if (!answer.fitsTogether(placed)) problems.push("the search's placements break a rule");
  for (const id of answer.ids)
    if (searched.exact && !placed.includes(id) && answer.fitsTogether([...placed, id]))
      problems.push(`the search leaves ${id} out as proved, yet it fits beside the others`);
  const soft = week.categories.some((category) => category.preferredParts || category.strategy);
  if (soft || week.standing?.some((rule) => rule.kind === "part_of_day")) {
    meet("soft preferences");
    const plain = oracle(withoutSoft(week)).most;
    if (placed.length !== plain)
      problems.push(`the search places ${placed.length}, without soft preferences ${plain} fit`);
  }
  return problems;
}

/** What `propose_arrangement` claims on `week` that the oracle shows false, one line each. */
function arrangementClaims(week: ScheduleState): string[] {
  const problems: string[] = [];
  const answer = oracle(week);
  const listing = proposeArrangement(week);
  const card = listing.candidates[0];
  const onCard = (card?.places ?? []).map((place) => place.id);
  if (onCard.length !== answer.most) problems.push(`the card places ${onCard.length}, the oracle ${answer.most}`);
  const after = card ? applyWrites(week, card.writes) : week;
  if (!after) return [...problems, "the card does not apply"];
  const byId = (id: string) => week.tasks.find((task) => task.id === id) as TaskItem;
  for (const { id, why } of listing.left ?? [])
    if (why === "its deadline has passed" && !deadlineGone(week, byId(id)))
      problems.push(`${id} left out as "its deadline has passed", yet it has not`);
  const overdue = /(\d+) cannot fit \(deadline passed\)/.exec(card?.summary ?? "");
  if (overdue) meet("arrangement: deadline passed");
  if (overdue && (listing.left ?? []).filter((entry) => deadlineGone(week, byId(entry.id))).length < Number(overdue[1]))
    problems.push(`"${overdue[0]}", yet fewer deadlines have passed`);
  // Over every arrangement of the reviews still ahead (the placed ones not started taken up): the most that fit.
  const open = reopened(after);
  if (pendingOf(open).length <= 12) {
    const ahead = oracle(open);
    const placedAfter = new Set(
      after.tasks.flatMap((task) => (task.source === "task_item" && task.status === "placed" ? [task.id] : [])),
    );
    const standing = ahead.ids.filter((id) => placedAfter.has(id)).length;
    const summary = card?.summary ?? "";
    if (/cannot fit \(proved\)/.test(summary)) meet("arrangement: cannot fit (proved)");
    if (summary.includes("moving them may make room")) meet("arrangement: moving them may make room");
    if (/cannot fit \(proved\)/.test(summary) && ahead.most > standing)
      problems.push(`"${summary}", yet ${ahead.most} fit where ${standing} stand`);
    if (summary.includes("moving them may make room") && ahead.most <= standing)
      problems.push(`"${summary}", yet no arrangement fits more than the ${standing} standing`);
    for (const [, id] of (listing.forced ?? "").matchAll(/(\S+) \(fits nowhere beside the others, proved\)/g))
      if (ahead.most > standing || answer.fitsTogether([...onCard, id!]))
        problems.push(`${id} named forced (${listing.forced}), yet moving or placing fits it`);
    for (const [, id] of (listing.forced ?? "").matchAll(/(\S+) \(deadline passed\)/g))
      if (!deadlineGone(week, byId(id!))) problems.push(`${id} named forced, deadline passed, yet it has not`);
  }
  // Soft preferences cost nothing: without them, the oracle places no more than the card.
  const plain = oracle(withoutSoft(week)).most;
  if (onCard.length !== plain) problems.push(`the card places ${onCard.length}, without soft preferences ${plain} fit`);
  return problems;
}

/** What the health judge claims on `week` (feasibility, forced, the words) that the oracle shows false. */
function healthClaims(week: ScheduleState): string[] {
  const problems: string[] = [];
  const toPlace = missedAsPending(week);
  const answer = oracle(toPlace);
  const report = analyzeHealth(week);
  const text = formatHealth(report);
  const byId = (id: string) => toPlace.tasks.find((task) => task.id === id) as TaskItem;
  const claims = healthClaimsAgainst(report, answer, (id) => deadlineGone(week, byId(id)));
  problems.push(...claims.problems);
  if (report.feasibility.missed) meet("health: missed reviews to place");
  for (const issue of report.issues)
    if (issue.kind === "cannot_fit")
      meet(issue.message.endsWith("(deadline passed)") ? "health: deadline passed" : "health: cannot fit (proved)");
  if (text.includes("(proved)") && !report.feasibility.proved) problems.push("the text says proved, the report not");
  const forced = forcedText(report, week) ?? "";
  for (const [, id] of forced.matchAll(/(\S+) \(deadline passed\)/g))
    if (!deadlineGone(week, byId(id!))) problems.push(`${id} forced as past its deadline, yet it is not`);
  // Forced, by the listing's words, exactly when no arrangement of the reviews still ahead (the placed ones not started
  // taken up, the missed ones among those to place) fits more than stand with the ones that fit now.
  const open = reopened(toPlace);
  const roomless = report.issues.flatMap((issue) =>
    issue.kind === "cannot_fit" && issue.forced ? issue.tasks.filter((id) => !deadlineGone(week, byId(id))) : [],
  );
  if (roomless.length > 0 && pendingOf(open).length <= 12) {
    const ahead = oracle(open);
    const standing = ahead.ids.filter((id) => byId(id).status === "placed").length + report.feasibility.placeable;
    const named = roomless.filter((id) => forced.includes(`${id} (fits nowhere beside the others, proved)`));
    meet("forced: named", named.length);
    meet("forced: not named", roomless.length - named.length);
    if (named.length > 0 && ahead.most > standing)
      problems.push(`${named.join(",")} named forced, yet ${ahead.most} fit where ${standing} stand`);
    if (named.length < roomless.length && ahead.most <= standing)
      problems.push(
        `${roomless.filter((id) => !named.includes(id)).join(",")} not named forced, yet no arrangement fits more`,
      );
    // The report the model reads says "(forced)" (no change can fix it) of no review that fits once others move.
    if (ahead.most > standing && /\(forced\): \d+ \w+ review\(s\) cannot fit: .*proved/.test(text))
      problems.push(`the report the model reads tags as forced reviews that fit once others move: ${text}`);
  }
  return problems;
}

/** What the at-risk report claims on `week` that the oracle shows false (reviews due with room for the oracle). */
function atRiskClaims(week: ScheduleState): string[] {
  const toPlace = missedAsPending(week);
  const answer = oracle(toPlace);
  const due = pendingOf(toPlace).filter((task) => task.dueBefore !== undefined && !deadlineGone(week, task));
  if (due.length === 0 || due.length > 10) return [];
  const ids = due.map((task) => task.id);
  const report = atRiskOf(week);
  const text = atRiskText(report, "en") ?? "";
  if (report.unproved.length > 0) return [`unproved: ${report.unproved.map((task) => task.id).join(",")}`];
  const problems: string[] = [];
  meet(report.atRisk.length > 0 ? "at risk: reported" : "at risk: none");
  const most = mostOf(answer, ids);
  const risked = new Set(report.atRisk.map((task) => task.id));
  for (const id of risked) if (!ids.includes(id)) problems.push(`${id} at risk, yet not a review due ahead`);
  if (report.due !== ids.length) problems.push(`${report.due} reviews due said, ${ids.length} ahead`);
  if (report.atRisk.length > 0 && report.most !== most) problems.push(`"at most ${report.most}", the oracle ${most}`);
  const safe = ids.filter((id) => !risked.has(id) && (answer.alone.get(id) ?? []).length > 0);
  if (!answer.fitsTogether(safe)) problems.push(`the reviews not at risk (${safe.join(",")}) do not fit together`);
  if (safe.length !== most) problems.push(`${safe.length} due reviews not at risk fit, the oracle fits ${most}`);
  for (const id of risked)
    if (answer.fitsTogether([...safe, id])) problems.push(`${id} at risk, yet it fits beside the others`);
  for (const task of report.atRisk) {
    const places = answer.alone.get(task.id) ?? [];
    if (task.alone && places.length > 0)
      problems.push(`${task.id}: no free time before its deadline, yet ${places[0]}`);
    if (!text.includes(`${task.name} (due before ${task.due})`)) problems.push(`${task.id} is not named in the words`);
  }
  // What moving the reviews not yet started does: the recovery places the oracle's most of those due with them taken
  // up, or "recovers none" / "only trades" holds by the oracle's figures (the placed ones due counted too).
  const open = reopened(toPlace);
  if (report.atRisk.length === 0 || pendingOf(open).length > 12) return problems;
  const opened = oracle(open);
  const placedDue = pendingOf(open)
    .filter((task) => task.dueBefore !== undefined && !ids.includes(task.id) && !deadlineGone(week, task))
    .map((task) => task.id);
  const moving = mostOf(opened, ids);
  const net = mostOf(opened, [...ids, ...placedDue]);
  if (report.recovery) {
    meet("at risk: a recovery");
    if (!applyWrites(week, report.recovery.writes)) problems.push("the recovery does not apply");
    if (report.recovery.recovers.length !== moving)
      problems.push(`the recovery places ${report.recovery.recovers.length} due, the oracle ${moving} moving`);
    if (net <= most + placedDue.length) problems.push("a recovery is offered, yet no arrangement meets more deadlines");
  } else if (report.noneProved !== false) {
    meet("at risk: none recovered");
    if (net > most + placedDue.length)
      problems.push(`"recovers none", yet moving meets ${net - placedDue.length - most} more`);
    if (moving > most && !(report.trades && text.includes("only trades one review due for another")))
      problems.push(`"recovers none", yet moving places ${moving} of those due, not ${most}`);
  }
  return problems;
}

/**
 * What `propose_reschedule` claims of the missed reviews on `week`: it places the oracle's most of them (the placed
 * reviews where they are), and says of each it leaves out what holds — no place on its own before its deadline or the
 * window's end, no arrangement placing more beside the others, or its deadline passed.
 */
function rescheduleClaims(week: ScheduleState): string[] {
  const missed = week.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "missed" && !task.slots?.length,
  );
  if (missed.length === 0) return [];
  const ids = missed.map((task) => task.id);
  const alone: ScheduleState = {
    ...week,
    tasks: week.tasks.flatMap((task): ScheduleState["tasks"] =>
      task.source !== "task_item"
        ? [task]
        : ids.includes(task.id)
          ? [{ ...task, status: "pending" as const }]
          : task.status === "pending"
            ? []
            : [task],
    ),
  };
  const answer = oracle(alone);
  const listing = proposeReschedule(week, ids);
  const writes = listing.candidates[0]?.writes ?? [];
  const placed = writes.map((write) => String(write.arguments.task_id));
  const problems: string[] = [];
  meet("reschedule: missed reviews");
  if (writes.length > 0 && !applyWrites(week, writes)) problems.push("the reschedule does not apply");
  if (placed.length !== answer.most) problems.push(`the reschedule places ${placed.length}, the oracle ${answer.most}`);
  for (const { id, why } of listing.unplaced) {
    const task = missed.find((each) => each.id === id)!;
    const places = answer.alone.get(id) ?? [];
    if (why === NO_PLACE_BEFORE.passed) {
      if (!deadlineGone(week, task)) problems.push(`${id}: "${why}", yet its deadline has not passed`);
    } else if (why === NO_PLACE_BEFORE.deadline || why === NO_PLACE_BEFORE.window) {
      if (places.length > 0) problems.push(`${id}: "${why}", yet it fits at ${places[0]}`);
    } else if (why === NO_PLACE_BEFORE.beside) {
      if (places.length === 0 || answer.fitsTogether([...placed, id])) problems.push(`${id}: "${why}", yet it fits`);
    } else problems.push(`${id}: an unknown reason "${why}"`);
  }
  return problems;
}

/** The rule weeks' kinds asked for: an hour nothing goes after too (tests/support/rule-weeks.ts). */
const LATE = { late: true } as const;
/** A week's hour nothing goes after, if it holds one. */
const lateOf = (week: ScheduleState) => (week.standing ?? []).find((rule) => rule.kind === "not_after_hour");

/** The weeks of `kind`: each moment, `count` seeds that give a week (with the kinds asked for). */
function weeksOf(kind: LivedKind, count: number): Array<{ name: string; week: ScheduleState }> {
  const weeks: Array<{ name: string; week: ScheduleState }> = [];
  for (const moment of MOMENTS)
    for (let seed = 1, found = 0; found < count; seed += 1) {
      const week = livedWeek(seed, moment, kind, LATE);
      if (!week || pendingOf(missedAsPending(week)).length > 12) continue;
      found += 1;
      weeks.push({ name: `${kind} week ${seed} at ${moment.name}`, week });
    }
  return weeks;
}

/** Every claim of every week in `weeks` the oracle shows false, named by its week. */
function falseClaims(weeks: ReturnType<typeof weeksOf>): string[] {
  return weeks.flatMap(({ name, week }) =>
    [
      ...searchClaims(week),
      ...arrangementClaims(week),
      ...healthClaims(week),
      ...atRiskClaims(week),
      ...rescheduleClaims(week),
    ].map((problem) => `${name}: ${problem}`),
  );
}

/** What `weeks` hold: done and missed reviews, the past fixed, lectures of a series, deadlines passed. */
function contents(
  weeks: ReturnType<typeof weeksOf>,
): Record<"done" | "missed" | "fixed" | "placed" | "series" | "passed", number> {
  const count = (test: (task: ScheduleState["tasks"][number], week: ScheduleState) => boolean) =>
    weeks.reduce((sum, { week }) => sum + week.tasks.filter((task) => test(task, week)).length, 0);
  return {
    done: count((task) => task.source === "task_item" && task.status === "done"),
    missed: count((task) => task.source === "task_item" && task.status === "missed"),
    fixed: count(
      (task, week) => task.source === "task_item" && task.status === "placed" && isFixedByClock(task, ruleBookOf(week)),
    ),
    placed: count((task) => task.source === "task_item" && task.status === "placed"),
    series: count((task) => task.source === "event" && task.series !== undefined),
    passed: count((task, week) => task.source === "task_item" && task.status === "pending" && deadlineGone(week, task)),
  };
}

const MIDWEEK = weeksOf("midweek", 40);

describe("the schedule's claims against the oracle, the clock part-way through the week", () => {
  test("360 weeks half over: the search places the oracle's most, proves what it leaves out, soft preferences cost nothing", () => {
    const weeks = weeksOf("midweek", 120);
    const problems = weeks.flatMap(({ name, week }) => searchClaims(week).map((problem) => `${name}: ${problem}`));
    expect(problems).toEqual([]);
    expect(weeks.length).toBe(360);
  });

  test("weeks half over: the arrangement, the health judge and at risk say only what holds", () => {
    met.clear();
    expect(falseClaims(MIDWEEK)).toEqual([]);
    // Every kind of claim, and of week, was met (an idle generator fails here).
    for (const kind of [
      "arrangement: cannot fit (proved)",
      "arrangement: deadline passed",
      "health: deadline passed",
      "health: cannot fit (proved)",
      "health: missed reviews to place",
      "forced: named",
      "at risk: reported",
      "at risk: none",
      "at risk: a recovery",
      "at risk: none recovered",
      "reschedule: missed reviews",
      "soft preferences",
    ])
      expect({ kind, met: (met.get(kind) ?? 0) > 3 }).toEqual({ kind, met: true });
    const held = contents(MIDWEEK);
    expect(Math.min(held.done, held.missed, held.fixed, held.passed)).toBeGreaterThan(10);
    // Weeks with an hour nothing goes after, on every day and on one weekday, were among them.
    const late = MIDWEEK.flatMap(({ week }) => lateOf(week) ?? []);
    const scoped = late.filter((rule) => "days" in rule && rule.days).length;
    expect(Math.min(scoped, late.length - scoped)).toBeGreaterThan(10);
  });

  test("weeks with a timetable imported at the clock (its past left out)", () => {
    const weeks = weeksOf("imported", 6);
    expect(falseClaims(weeks)).toEqual([]);
    expect(contents(weeks).series).toBeGreaterThan(10);
  });

  test("the window rolled on to the clock's day: lectures carried by their series, the reviews on the days kept placed", () => {
    const weeks = weeksOf("rolled", 6);
    expect(falseClaims(weeks)).toEqual([]);
    const held = contents(weeks);
    expect(held.series).toBeGreaterThan(10);
    expect(Math.min(held.done + held.missed, held.placed)).toBeGreaterThan(5);
  });

  test("named weeks that were told false before (regressions)", () => {
    // Wednesday 14:00, an exam at 15:00: its reviews were "deadline passed" (dadb34b).
    // Wednesday 14:00 and Friday 22:00, missed reviews that fit nowhere: no review named forced (f5d6097).
    for (const [seed, moment] of [
      [76, 0],
      [112, 0],
      [17, 0],
      [59, 0],
      [6, 1],
    ] as const) {
      const week = livedWeek(seed, MOMENTS[moment]!)!;
      expect({ seed, problems: falseClaims([{ name: `week ${seed}`, week }]) }).toEqual({ seed, problems: [] });
    }
  });
});

describe("the checks fail on a search or a report that breaks a rule (mutation)", () => {
  test("a search that ignores the clock fails on weeks half over", () => {
    const ignoresClock = (week: ScheduleState) => {
      const { room, dayLoad, rules } = searchInputOf(week);
      const tasks = pendingOf(week).map((task) => withRules({ id: task.id, duration: task.duration }, task, rules));
      return searchPlacements(tasks, { ...room, opens: 0 }, { dayLoad });
    };
    expect(MIDWEEK.filter(({ week }) => searchClaims(week, ignoresClock).length > 0).length).toBeGreaterThan(5);
  });

  test("a search that drops the hour nothing goes after fails on weeks half over", () => {
    const dropsLate = (week: ScheduleState) =>
      search({ ...week, standing: (week.standing ?? []).filter((rule) => rule.kind !== "not_after_hour") });
    const late = MIDWEEK.filter(({ week }) => lateOf(week) !== undefined);
    expect(late.filter(({ week }) => searchClaims(week, dropsLate).length > 0).length).toBeGreaterThan(2);
  });

  test("a search that takes a soft preference as hard (a preferred part as 'only') fails", () => {
    const hardened = (week: ScheduleState) =>
      search({
        ...week,
        standing: (week.standing ?? []).map((rule) =>
          rule.kind === "part_of_day" ? { ...rule, kind: "only_part_of_day" as const } : rule,
        ),
      });
    expect(MIDWEEK.filter(({ week }) => searchClaims(week, hardened).length > 0).length).toBeGreaterThan(2);
  });
});
