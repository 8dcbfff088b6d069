/**
 * "Undo that" when the place the change took a review from has passed since: the review cannot go back into the past,
 * so nothing is undone, and the reply says why as a person reads it — the place by its date and clock time, in the
 * user's language — never "day 2 slot 3:", a tool's refusal or English inside a Chinese answer. The clock moves
 * between the change and the undo (`configurable.now`).
 */
import { describe, expect, test } from "vitest";
import { CHINESE_NAMES, converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const SUNDAY_EVENING = "2024-03-10T12:00:00.000Z"; // 20:00 in Shanghai, the eve of the sample week
const THURSDAY_NOON = "2024-03-14T04:00:00.000Z";

describe("an undo whose old place has passed says so by date and time, and leaves the week as it is", () => {
  test.each([
    {
      language: "en",
      change: "move the matrix review to Friday",
      undo: "undo that",
      says: [`"Matrix operations review"`, "Tue 12 Mar, 10:00–11:40", "has passed"],
    },
    {
      language: "zh",
      change: "把矩阵复习移到周五",
      undo: "撤销刚才的修改",
      says: [CHINESE_NAMES["matrix-review"]!, "3月12日周二 10:00–11:40", "已经过去"],
    },
    {
      language: "en",
      change: "take the matrix review off the schedule",
      undo: "undo that",
      says: [`"Matrix operations review"`, "Tue 12 Mar, 10:00–11:40", "has passed"],
    },
  ])("$language: $change on Sunday, then $undo on Thursday", async ({ language, change, undo, says }) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: language === "zh" }));
    const changed = await converse(tempo, change, [], "thread", "student", { now: SUNDAY_EVENING });
    const matrix = changed.schedule.tasks.find((task) => task.id === "matrix-review");
    expect(JSON.stringify(matrix?.slots ?? null)).not.toBe(JSON.stringify([{ day: 2, start: 3, end: 4 }]));
    const refused = await converse(tempo, undo, [], "thread", "student", { now: THURSDAY_NOON });
    expect(JSON.stringify(refused.schedule)).toBe(JSON.stringify(changed.schedule));
    const reply = refused.finalAnswer ?? "";
    for (const words of says) expect(reply).toContain(words);
    expect(reply).not.toMatch(/day \d+ slot \d+|only a slot not yet started|cannot move|matrix-review/);
    if (language === "zh") expect(reply).not.toMatch(/[a-z]{3,} [a-z]{3,}/);
  });
});
