/**
 * "Undo that" right after a standing preference: before, it undid the last card — after "arrange my reviews" and
 * "never on Sunday", a card of eight `unplace` writes took the whole arranged week back, while the preference stayed.
 * Now it is told how to take the preference back, and nothing is undone; asked again, the last change is undone.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

const placed = (week: ScheduleState) =>
  week.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length;

describe("undo right after a standing preference", () => {
  test.each([
    {
      change: "arrange my reviews",
      preference: "never on Sunday",
      undo: "undo that",
      told: 'Your last message set a standing preference ("never on Sunday"), which is no change I can undo; to take it back, say "Sundays are fine now". Nothing was undone.',
      again: "undo the last change",
    },
    {
      change: "把矩阵复习移到周五",
      preference: "我周日从不学习",
      undo: "撤销",
      told: "你上一条消息设定的是长期偏好（“我周日从不学习”），这不是可以撤销的改动；要取消它，请告诉我“周日可以了”。什么也没有撤销。",
      again: "撤销上一次的修改",
    },
  ])(
    "$change, then $preference, then $undo: nothing undone, told how",
    async ({ change, preference, undo, told, again }) => {
      const store = new InMemoryStore();
      const tempo = await offlineTempo(sampleWeek(), undefined, { store });
      const changed = await converse(tempo, change, [], "t-1");
      expect(placed(changed.schedule)).toBeGreaterThan(0);
      await converse(tempo, preference, [], "t-1");
      const refused = await converse(tempo, undo, [], "t-1");
      expect(refused.cards).toEqual([]);
      expect(refused.said.at(-1)).toContain(told);
      expect(refused.schedule).toEqual(changed.schedule);
      expect(await loadPreferences(store, "student")).toHaveLength(1);
      // Asked again, the last change a card applied is undone.
      const undone = await converse(tempo, again, [], "t-1");
      expect(placed(undone.schedule)).toBe(placed(sampleWeek()));
    },
  );
});
