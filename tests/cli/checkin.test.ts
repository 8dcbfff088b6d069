/**
 * The daily check-in (`npm run checkin`, issue 47 item 6): on the first day after the window's last one it rolls the
 * week on by the clock, says what moved to history and what became missed, and leaves the missed reviews' card waiting
 * on the day's check-in thread (its own plan goes ahead); a second check-in that day finds that card and asks nothing
 * twice. A deadline the free time left is proved not to hold is told, with the change that recovers the most.
 */
import { describe, expect, it } from "vitest";
import { checkinThreadId, runCheckin } from "../../cli/checkin.js";
import { waitingOn } from "../../cli/checkin-request.js";
import { createScheduleDomain } from "../../tools/schedule/domain.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";

describe("the daily check-in", () => {
  it("rolls the week when due, says what was missed, and leaves the card waiting", async () => {
    const now = new Date("2024-03-18T07:00:00+08:00");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const first = await runCheckin(tempo.graph, "student", now, "Asia/Shanghai");
    expect(first.threadId).toBe(checkinThreadId("student", now, "Asia/Shanghai"));
    expect(first.threadId).toBe("checkin-student-2024-03-18");
    expect((await tempo.repository.load("student")).window.days[0]?.date).toBe("2024-03-18");
    expect(first.movedOn).toMatch(/^A new week: the window moved on by 7 day\(s\)/);
    expect(first.movedOn).toMatch(/now missed: .*Vocabulary list unit 5 \(Thu 14 Mar\)/);
    // The missed reviews' card waits (a place at the candidates' best), not a plan to approve.
    // One card of every missed review a place fits (the three with room; not one of them alone).
    expect(first.waiting).toEqual(["place", "place", "place"]);
    expect(first.said).toContain("Step 1 of 4: Reschedule the missed review to its best free place");
    expect(first.said.join("\n")).toMatch(
      /Proposing it again at the best free place \(Place "Matrix operations review"/,
    );
    // The missed review no place fits any more is named beside the card, with why: its deadline, the midterm, left
    // with the old days.
    expect(first.said.join("\n")).toContain('"Review limits and continuity" stays missed: its deadline has passed.');

    const again = await runCheckin(tempo.graph, "student", new Date("2024-03-18T09:00:00+08:00"), "Asia/Shanghai");
    expect(again.waiting).toEqual(["place", "place", "place"]);
    expect(again.said).toEqual(first.said);
    expect(again.movedOn).toBe(first.movedOn);
  });

  it("two check-ins at once (a cron and a manual run): neither fails, the week rolls once, both find the same card", async () => {
    const now = new Date("2024-03-18T07:00:00+08:00");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const [first, second] = await Promise.all([
      runCheckin(tempo.graph, "student", now, "Asia/Shanghai"),
      runCheckin(tempo.graph, "student", now, "Asia/Shanghai"),
    ]);
    expect((await tempo.repository.load("student")).window.days[0]?.date).toBe("2024-03-18");
    // The check-in's own plan went ahead: the missed reviews' card waits, not the plan card.
    const state = await tempo.graph.getState({ configurable: { thread_id: first.threadId, user_id: "student" } });
    expect(waitingOn(state)).toEqual(["place", "place", "place"]);
    for (const outcome of [first, second]) {
      expect(outcome.threadId).toBe("checkin-student-2024-03-18");
      expect(outcome.waiting).toEqual(["place", "place", "place"]);
    }
  });

  it("on a day inside the window it rolls nothing", async () => {
    const now = new Date("2024-03-13T07:00:00+08:00");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const outcome = await runCheckin(tempo.graph, "student", now, "Asia/Shanghai");
    expect((await tempo.repository.load("student")).window.days[0]?.date).toBe("2024-03-11");
    expect(outcome.movedOn).toBeUndefined();
  });
});

describe("the check-in tells what is at risk", () => {
  /** Friday 15 March 2024, 23:00 in Shanghai: before the Saturday 10:00 midterm only Saturday 08:00–09:40 is left. */
  const FRIDAY_NIGHT = new Date("2024-03-15T23:00:00+08:00");

  async function tempoWithEssayAt(day: number, slot: number) {
    const week = halfPlacedWeek();
    week.tasks = week.tasks.map((task) =>
      task.id === "essay-draft" ? { ...task, slots: [{ day, start: slot, end: slot + 1 }] } : task,
    );
    const tempo = await offlineTempo(week, () => FRIDAY_NIGHT);
    return { ...tempo, domain: createScheduleDomain({ repository: tempo.repository }) };
  }

  it("the drills due before the midterm cannot fit: told at risk, with the recovery; nothing missed to make up", async () => {
    const tempo = await tempoWithEssayAt(6, 1);
    const outcome = await runCheckin(tempo.graph, "student", FRIDAY_NIGHT, "Asia/Shanghai", [tempo.domain]);
    expect(outcome.said).toContain("No review is missed: nothing to make up.");
    expect(outcome.atRisk).toMatch(
      /^At risk \(proved, with the reviews already placed where they are\): no free time before its deadline holds Derivative practice set \(due before Calculus midterm exam \(Sat 16 Mar\)\)\. The change that recovers the most/,
    );
  });

  it("a tight week that still holds them says nothing of risk", async () => {
    const tempo = await tempoWithEssayAt(7, 9);
    const outcome = await runCheckin(tempo.graph, "student", FRIDAY_NIGHT, "Asia/Shanghai", [tempo.domain]);
    expect(outcome.atRisk).toBeUndefined();
  });
});
