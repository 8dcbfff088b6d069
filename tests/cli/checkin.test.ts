/**
 * The daily check-in (`npm run checkin`, issue 47 item 6): on the first day after the window's last one it rolls the
 * week on by the clock, says what moved to history and what became missed, and leaves its card waiting on the day's
 * check-in thread; a second check-in that day finds that card and asks nothing twice.
 */
import { describe, expect, it } from "vitest";
import { checkinThreadId, runCheckin } from "../../cli/checkin.js";
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
    expect(first.waiting).toEqual(["confirm_plan"]);

    const again = await runCheckin(tempo.graph, "student", new Date("2024-03-18T09:00:00+08:00"), "Asia/Shanghai");
    expect(again.waiting).toEqual(["confirm_plan"]);
    expect(again.said).toEqual(first.said);
    expect(again.movedOn).toBe(first.movedOn);
  });

  it("on a day inside the window it rolls nothing", async () => {
    const now = new Date("2024-03-13T07:00:00+08:00");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const outcome = await runCheckin(tempo.graph, "student", now, "Asia/Shanghai");
    expect((await tempo.repository.load("student")).window.days[0]?.date).toBe("2024-03-11");
    expect(outcome.movedOn).toBeUndefined();
  });
});
