/**
 * "How did I do this week?", "how am I doing?", "我这周完成得怎么样": every review, and how they stand, counted. Before,
 * the English was not understood and the Chinese was read as a question of the week's health.
 *
 * Said at 20:00 on every day of two sample weeks, after a review marked done and one let go: the test counts from the
 * week after those marks and from the clock alone (a placed review whose first slot starts before now has passed) and
 * the answer's tally says the same.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

describe("reading: how the reviews are going", () => {
  test.each([
    "how did I do this week?",
    "how am I doing?",
    "how am I doing so far this week",
    "what's my progress",
    "我这周完成得怎么样",
    "我这周复习进度怎么样",
    "复习完成情况如何",
  ])("'%s' lists every review and how they stand", (said) => {
    expect(parseScheduleRequest(said)).toEqual({ kind: "list", status: "all" });
  });

  test.each(["how's my week going?", "我这周安排得怎么样", "这周的日程健康吗"])(
    "'%s' is still the week's health",
    (said) => {
      expect(parseScheduleRequest(said)).toEqual({ kind: "health" });
    },
  );
});

/** The tally the test expects, from the week and the moment alone. */
function expectedTally(week: ScheduleState, now: string, chinese: boolean): string {
  const reviews = week.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const count = (status: string) => reviews.filter((task) => task.status === status).length;
  const dateOf = (day: number) => week.window.days[day - 1]!.date!;
  const passed = reviews.filter(
    (task) =>
      task.status === "placed" &&
      `${dateOf(task.slots![0]!.day)} ${week.window.slotTimes![task.slots![0]!.start - 1]!.start}` <= now,
  ).length;
  const parts = (
    [
      ["done", "已完成"],
      ["missed", "错过"],
      ["skipped", "跳过"],
      ["placed", "已安排"],
      ["pending", "待安排"],
    ] as const
  )
    .filter(([status]) => count(status) > 0)
    .map(([status, zh]) => {
      const late = status === "placed" && passed > 0;
      return chinese
        ? `${zh} ${count(status)} 个${late ? `（其中 ${passed} 个时间已过，还没记为完成或错过）` : ""}`
        : `${count(status)} ${status}${late ? ` (${passed} whose time has passed, not marked done or missed)` : ""}`;
    });
  return chinese ? `目前：${parts.join("，")}。` : `So far: ${parts.join(", ")}.`;
}

describe("said at 20:00 on each day, after a review done and one let go: the tally is the week's", () => {
  const weeks = { "half-placed": halfPlacedWeek, "crowded Monday": crowdedMondayWeek };
  const cases = Object.keys(weeks).flatMap((name) =>
    [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
      ["how did I do this week?", "我这周完成得怎么样"].map((said) => [said, name, day] as const),
    ),
  );
  test.each(cases)("'%s' on the %s week, day %i", async (said, name, day) => {
    const chinese = /[\u4e00-\u9fff]/.test(said);
    const week = name === "half-placed" ? halfPlacedWeek({ chinese }) : weeks[name as keyof typeof weeks]();
    const moment = `2024-03-${String(10 + day).padStart(2, "0")} 20:00`;
    const tempo = await offlineTempo(week, () => new Date(`${moment.replace(" ", "T")}:00+08:00`));
    // One review done, one missed and let go — by id, so that the marks do not depend on the names' language.
    await converse(tempo, "I did review-limits");
    await converse(tempo, "I missed derivative-drills, don't reschedule it");
    const before = await tempo.repository.load("student");
    expect((before.tasks.find((task) => task.id === "review-limits") as TaskItem).status).toBe("done");
    const outcome = await converse(tempo, said);
    expect(outcome.cards).toEqual([]);
    expect(outcome.finalAnswer ?? outcome.said.at(-1)).toContain(expectedTally(before, moment, chinese));
    expect(outcome.schedule).toEqual(before);
  });
});
