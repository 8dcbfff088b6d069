/**
 * "But" said in Chinese before a limit ("帮我安排复习，但是不要周五") was read as a task named "但是": the student was
 * asked which task that was. It is read as "arrange my reviews, but not Friday" is in English: every pending review,
 * Friday ruled out. Through the reader and through the graph on the sample week.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

describe("the reader", () => {
  test.each([
    ["帮我安排复习，但是不要周五", "帮我安排复习，不要周五"],
    ["帮我安排复习，但不要周五", "帮我安排复习，不要周五"],
    ["帮我安排复习，可是不要周五", "帮我安排复习，不要周五"],
    ["帮我安排复习，不过不要周五", "帮我安排复习，不要周五"],
    ["帮我安排复习但是不要周五", "帮我安排复习，不要周五"],
    ["帮我安排复习，但是周五不行", "帮我安排复习，周五不行"],
    ["安排作文，但是不要周五", "安排作文，不要周五"],
  ])("'%s' is read as '%s'", (said, twin) => {
    expect(parseScheduleRequest(said)).toEqual(parseScheduleRequest(twin));
  });

  test("as the English says it", () => {
    const request = parseScheduleRequest("帮我安排复习，但是不要周五");
    expect(request).toEqual(parseScheduleRequest("arrange my reviews, but not Friday"));
    expect(request.kind === "arrange" && request.tasks).toEqual([]);
  });

  // "Only" said first in its clause was a task's name too ("只要"): the student was asked which task that was.
  test.each([
    ["帮我安排复习，只要周五", "arrange my reviews, only on Friday"],
    ["帮我安排复习，只排周五", "arrange my reviews, only on Friday"],
    ["帮我安排复习，仅周五", "arrange my reviews, only on Friday"],
    ["帮我安排复习，只在周五晚上", "arrange my reviews, only on Friday evening"],
  ])("'%s' is read as '%s'", (said, twin) => {
    const request = parseScheduleRequest(said);
    expect(request).toEqual(parseScheduleRequest(twin));
    expect(request.kind === "arrange" && request.tasks).toEqual([]);
  });

  test("但 that begins a name stays in it ('安排但丁阅读': Dante)", () => {
    const request = parseScheduleRequest("安排但丁阅读，但是不要周五");
    expect(request.kind === "arrange" && request.tasks).toEqual(["但丁阅读"]);
  });
});

describe("through the graph", () => {
  test("'帮我安排复习，但是不要周五' arranges every review off Friday, as '帮我安排复习，不要周五' does", async () => {
    const said = await converse(await offlineTempo(sampleWeek()), "帮我安排复习，但是不要周五", [], "t-1");
    const twin = await converse(await offlineTempo(sampleWeek()), "帮我安排复习，不要周五", [], "t-1");
    expect(said.cards.map((card) => card.action)).not.toContain("ask_user");
    const places = reviewPlaces(said.schedule);
    expect(places.length).toBeGreaterThan(0);
    expect(places).toEqual(reviewPlaces(twin.schedule));
    expect(places.filter((place) => / day 5 /.test(place))).toEqual([]);
  });
});
