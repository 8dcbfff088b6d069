/**
 * Amounts no schedule can hold, typed by a student: "add a task: essay, -4 hours, due Friday" built a 4-hour task
 * named "add a task: essay, -" (the minus left in the name), "1e9 hours" read as 9 hours, "99999 minutes" reached
 * add_task and the student read its raw check ("duration: Too big: expected number to be <=96"), "move vocabulary to
 * Monday at 25:00" moved it to Monday's first free time (the time dropped without a word), "read -3 times a week" added
 * a habit of 3. Now each is refused in the user's language, saying what is wrong and what is allowed: no card, and the
 * stored week unchanged. Through the graph with the offline policy; the reader's reading beside.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const chinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

describe("an amount no schedule can hold is refused, the week untouched", () => {
  test.each([
    // A length below one.
    [
      "add a task: essay, -4 hours, due Friday",
      /"-4 hours" is not a length I can use: a length must be more than zero/,
    ],
    ["write the essay, -4 hours, before friday", /"-4 hours" is not a length I can use/],
    ["add a 0 min review of calculus", /"0 min" is not a length I can use: a length must be more than zero/],
    ["study maths for 0 hours", /"0 hours" is not a length I can use/],
    ["move the essay -30 minutes later", /"-30 minutes" is not a length I can use/],
    ["复习-4小时", /“-4小时”不是能用的时长：时长必须大于零/],
    ["写论文，-4小时，周五前", /“-4小时”不是能用的时长/],
    ["写论文，负4小时，周五前", /“负4小时”不是能用的时长/],
    ["添加任务：作文，0分钟，周五截止", /“0分钟”不是能用的时长/],
    ["给微积分添加任务：积分复习，0节", /“0节”不是能用的时长/],
    // A number no length is written as, and a length over a week.
    ["add a task: essay, 1e9 hours, due Friday", /I can't read "1e9 hours" as a length.*Write the number plainly/],
    [
      "add a task: essay, 99999 minutes, due Friday",
      /"99999 minutes" is longer than a week.*at most a week \(168 hours\)/,
    ],
    ["写论文，2000小时，周五前", /“2000小时”超过了一周.*一周（168小时）以内/],
    // A count below one.
    ["skip -3 reviews", /"-3 reviews" is no count I can act on: a count must be at least one/],
    ["read -3 times a week", /"-3 times" is no count I can act on/],
    // A time no clock shows.
    [
      "move vocabulary to Monday at 25:00",
      /There is no "25:00" on a clock \(hours run from 0 to 23, minutes from 0 to 59\)/,
    ],
    ["move vocabulary to Monday at 10:75", /There is no "10:75" on a clock/],
    ["schedule the derivative drills at 25:00", /There is no "25:00" on a clock/],
    ["把单词表挪到周五25点", /时钟上没有“25点”（小时是0到23，分钟是0到59）/],
    ["把单词表挪到周五10点75分", /时钟上没有“10点75分”/],
  ])("%s", async (request, reply) => {
    const week = halfPlacedWeek({ chinese: chinese(request) });
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).toMatch(reply);
    expect(outcome.said.join("\n")).toMatch(chinese(request) ? /什么也没有改/ : /so I changed nothing/);
    expect(outcome.schedule).toEqual(week);
  });
});

describe("the reader names the amount and what is wrong with it", () => {
  test.each([
    ["add a task: essay, -4 hours, due Friday", { said: "-4 hours", amount: "length", problem: "below_one" }],
    ["复习-4小时", { said: "-4小时", amount: "length", problem: "below_one" }],
    ["添加任务：作文，0分钟，周五截止", { said: "0分钟", amount: "length", problem: "below_one" }],
    ["skip -3 reviews", { said: "-3 reviews", amount: "count", problem: "below_one" }],
    ["add a task: essay, 1e9 hours, due Friday", { said: "1e9 hours", amount: "length", problem: "unreadable" }],
    ["add a task: essay, 99999 minutes, due Friday", { said: "99999 minutes", amount: "length", problem: "too_long" }],
    ["move it to Monday at 25:00", { said: "25:00", amount: "clock", problem: "no_such_time" }],
    ["move it to Monday at 13pm", { said: "13pm", amount: "clock", problem: "no_such_time" }],
    ["把作文挪到周五25点", { said: "25点", amount: "clock", problem: "no_such_time" }],
  ])("%s", (text, bad) => {
    expect(parseScheduleRequest(text)).toEqual({ kind: "unknown", why: "bad_amount", ...bad });
  });

  // Amounts that are fine, or no amount at all, read as before.
  test.each([
    ["write the essay, 4 hours, before friday", { kind: "add_long_task", minutes: 240 }],
    ["写论文，4小时，周五前", { kind: "add_long_task", minutes: 240 }],
    ["write the essay, 168 hours, before friday", { kind: "add_long_task", minutes: 10080 }],
    ["move the essay 30 minutes later", { kind: "move", shift: { minutes: 30 } }],
    ["move the essay to friday at 10:30pm", { kind: "move" }],
    ["move the essay to friday at 12am", { kind: "move" }],
    ["把作文挪到周五10点30分", { kind: "move" }],
    ["add task integrals for calculus, 2 slots", { kind: "add_task", duration: 2 }],
  ])("%s", (text, reading) => {
    expect(parseScheduleRequest(text)).toMatchObject(reading);
  });

  // A range, a dash between words, a thousands separator, a slot range ending in 0, a count of none, a day's end.
  test.each([
    "find 2-4 hours on wednesday",
    "write the essay - 4 hours before friday",
    "a week of 1,000 tasks",
    "一天中没有第1-0节",
    "the schedule shows 0 review task(s) still pending",
    "日程显示还有 0 个复习任务待安排",
    "finish the essay by 24:00 on friday",
  ])("%s: no amount no schedule can hold", (text) => {
    expect(parseScheduleRequest(text)).not.toMatchObject({ why: "bad_amount" });
  });
});
