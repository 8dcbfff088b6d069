/**
 * Midnight as a limit. The week's grid holds a day's slots only ("HH:MM" of that day, none past 23:59), so midnight is
 * the day's end: a limit at it ("before midnight", "nothing after midnight", "晚上12点以前", "晚上12点以后不要") ends
 * by "24:00" and keeps every slot. Before, "晚上12点以前" was noon (only the morning was used), "帮我安排复习，晚上12点以后
 * 不要" was asked back as a number read as nothing (offline: a standing preference), "nothing after midnight" read
 * "midnight" as a task to be next to, and "把矩阵复习挪到周五晚上12点" moved the review toward noon. Through the reader
 * and through the graph on the sample week (its day ends 22:30).
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, placeOf, reviewPlaces } from "./support/offline-conversation.js";

describe("the reader", () => {
  test.each([
    ["帮我安排复习，晚上12点以后不要", "arrange"],
    ["帮我安排复习，晚上12点以前", "arrange"],
    ["arrange my reviews, nothing after midnight", "arrange"],
    ["arrange my reviews before midnight", "arrange"],
    ["arrange my reviews before 12am", "arrange"],
    ["move the essay to friday, nothing after midnight", "move"],
    ["把作文挪到周五晚上12点以前", "move"],
  ])("'%s' is a %s that ends by the day's end, 24:00", (said, kind) => {
    const request = parseScheduleRequest(said);
    expect(request.kind).toBe(kind);
    if (request.kind !== "arrange" && request.kind !== "move") return;
    expect(request.where.slots).toEqual({ endsBy: "24:00" });
    expect(request.where.next).toBeUndefined();
    if (request.kind === "arrange") expect(request.tasks).toEqual([]);
    else expect(request.task).toBe(/作文/.test(said) ? "作文" : "essay");
  });

  test.each([
    ["把作文挪到周五晚上12点", "00:00"],
    ["move the essay to friday at midnight", "00:00"],
    // Noon stays noon.
    ["把作文挪到周五中午12点", "12:00"],
  ])("'%s' is the clock time %s", (said, at) => {
    const request = parseScheduleRequest(said);
    expect(request.kind === "move" && request.where.slots.at).toBe(at);
  });

  test("noon said as a limit stays noon", () => {
    const request = parseScheduleRequest("帮我安排复习，中午12点以前");
    expect(request.kind === "arrange" && request.where.slots.endsBy).toBe("12:00");
  });

  test.each(["nothing after midnight", "no studying after midnight", "no studying after 12am", "晚上12点以后不要"])(
    "'%s' alone is the standing hour 24",
    (said) => {
      expect(readSchedulePreferences(said).add.map(({ kind, value }) => ({ kind, value }))).toEqual([
        { kind: "not_after_hour", value: 24 },
      ]);
    },
  );

  test.each(["帮我安排复习，晚上12点以后不要", "arrange my reviews, nothing after midnight"])(
    "'%s' is a request's own limit, no standing preference",
    (said) => {
      expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
    },
  );
});

describe("through the graph", () => {
  test.each([
    ["帮我安排复习，晚上12点以后不要", "帮我安排复习"],
    ["帮我安排复习，晚上12点以前", "帮我安排复习"],
    ["arrange my reviews, nothing after midnight", "arrange my reviews"],
    ["arrange my reviews before midnight", "arrange my reviews"],
  ])("'%s' arranges as '%s' does: every slot ends by midnight", async (said, plain) => {
    const store = new InMemoryStore();
    const limited = await converse(await offlineTempo(sampleWeek(), undefined, { store }), said, [], "t-1");
    const free = await converse(await offlineTempo(sampleWeek()), plain, [], "t-1");
    expect(limited.cards[0]?.action).toBe("confirm_plan");
    expect(reviewPlaces(limited.schedule).length).toBeGreaterThan(0);
    expect(reviewPlaces(limited.schedule)).toEqual(reviewPlaces(free.schedule));
    // A request's own limit: nothing is kept for every week.
    expect(await loadPreferences(store, "student")).toEqual([]);
  });

  test("'move the matrix review to friday, nothing after midnight' moves it to Friday", async () => {
    const moved = await converse(
      await offlineTempo(sampleWeek()),
      "move the matrix review to friday, nothing after midnight",
    );
    expect(placeOf(moved.schedule, "matrix-review")).toMatch(/^day 5 /);
  });

  test("'把矩阵复习挪到周五晚上12点' names midnight, which no slot starts at: nothing moves", async () => {
    const week = sampleWeek();
    const before = placeOf(week, "matrix-review");
    const asked = await converse(await offlineTempo(week), "把矩阵复习挪到周五晚上12点");
    expect(placeOf(asked.schedule, "matrix-review")).toBe(before);
    expect(asked.said.at(-1)).toContain("00:00");
  });
});
