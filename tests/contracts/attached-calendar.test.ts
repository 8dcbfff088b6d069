/**
 * How a calendar file travels (contracts/attached-calendar.ts): the message names it everywhere but in its own
 * request — by file name, event count and size — and the request's files are read back whole, by lines, whatever
 * their text says; the task's request is the message whose request is the goal, never another message's file.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import {
  attachedCalendars,
  calendarImportMessage,
  calendarSize,
  isCalendarRequest,
  requestedCalendarFile,
  withoutCalendarText,
} from "../../contracts/attached-calendar.js";
import { boundedGoal } from "../../kernel/transitions.js";
import { renderConversation } from "../../prompts/stage-messages.js";
import { requestCalendars } from "../../nodes/shared/messages.js";

/** A calendar whose notes quote its own markers: lines, not words, end it. */
const TRICKY = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "BEGIN:VEVENT",
  "UID:a@uni",
  "DTSTART:20240317T060000Z",
  "SUMMARY:Seminar",
  "DESCRIPTION:ends with END:VCALENDAR and BEGIN:VEVENT in words",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:b@uni",
  "DTSTART:20240318T060000Z",
  "SUMMARY:Lab",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

describe("a calendar in a message", () => {
  test("the /import message is named by file, events and size; its calendar read back whole, with the file's name", () => {
    const message = calendarImportMessage("term.ics", TRICKY);
    expect(withoutCalendarText(message)).toBe(
      `Import my timetable from the calendar file term.ics (2 events, ${Buffer.byteLength(TRICKY)} bytes)`,
    );
    expect(attachedCalendars(message)).toEqual([{ fileName: "term.ics", ics: TRICKY }]);
    expect(requestedCalendarFile(withoutCalendarText(message))).toBe("term.ics");
    expect(calendarSize(TRICKY + "x".repeat(3000))).toBe("2 events, 3.2 KB");
  });

  test("a Chinese chat's /import message is read the same way, and keeps its Chinese words where it is named", () => {
    const message = calendarImportMessage("term.ics", TRICKY, "zh");
    expect(message.startsWith("从日历文件导入我的课表 term.ics:")).toBe(true);
    expect(isCalendarRequest(message)).toBe(true);
    expect(withoutCalendarText(message)).toBe(
      `从日历文件导入我的课表 term.ics（2 个日程，${Buffer.byteLength(TRICKY)} 字节）`,
    );
    // A calendar pasted among Chinese words is mentioned in Chinese; among English words, in English.
    expect(withoutCalendarText(`这是我的课表：\n${TRICKY}`)).toBe(
      `这是我的课表：\n[日历文件：2 个日程，${Buffer.byteLength(TRICKY)} 字节]`,
    );
    expect(withoutCalendarText(`my timetable:\n${TRICKY}`)).toBe(
      `my timetable:\n[calendar file: 2 events, ${Buffer.byteLength(TRICKY)} bytes]`,
    );
    expect(attachedCalendars(message)).toEqual([{ fileName: "term.ics", ics: TRICKY }]);
    expect(requestedCalendarFile(withoutCalendarText(message))).toBe("term.ics");
    expect(isCalendarRequest("从日历文件导入我的课表")).toBe(false);
  });

  test("a pasted calendar has no name; words around it stay; a calendar cut short is never an attachment", () => {
    const pasted = `please add these:\n${TRICKY}\nthanks`;
    expect(withoutCalendarText(pasted)).toBe(
      `please add these:\n[calendar file: 2 events, ${Buffer.byteLength(TRICKY)} bytes]\nthanks`,
    );
    expect(attachedCalendars(pasted)).toEqual([{ ics: TRICKY }]);
    // What goals used to keep: the first 1,000 characters of the message.
    const cut = calendarImportMessage("old.ics", TRICKY).slice(0, 120);
    expect(attachedCalendars(cut)).toEqual([]);
    expect(withoutCalendarText(cut)).toMatch(
      /^Import my timetable from the calendar file old\.ics:\n\n\[part of a calendar file: \d+ characters\]$/,
    );
    expect(withoutCalendarText("no calendar here")).toBe("no calendar here");
  });

  test("the conversation a prompt shows names the file; the goal does too", () => {
    const message = calendarImportMessage("term.ics", TRICKY);
    expect(renderConversation([new HumanMessage(message)])).toBe(
      `user: Import my timetable from the calendar file term.ics (2 events, ${Buffer.byteLength(TRICKY)} bytes)`,
    );
    expect(boundedGoal(message)).toBe(withoutCalendarText(message));
  });

  test("the task's files are its request's: the start message's, or for a retried task the message it retries — never an earlier file", () => {
    const earlier = TRICKY.replace("SUMMARY:Seminar", "SUMMARY:Old lecture");
    const messages = [
      new HumanMessage({ id: "m1", content: calendarImportMessage("lectures.ics", earlier) }),
      new AIMessage({ id: "m2", content: "Your schedule is unchanged." }),
      new HumanMessage({ id: "m3", content: calendarImportMessage("lectures2.ics", TRICKY) }),
      new AIMessage({ id: "m4", content: "Your schedule is unchanged." }),
      new HumanMessage({ id: "m5", content: "try again" }),
    ];
    const goal = boundedGoal(calendarImportMessage("lectures2.ics", TRICKY));
    expect(requestCalendars({ messages, taskStartMessageId: "m3", goal })).toEqual([
      { fileName: "lectures2.ics", ics: TRICKY },
    ]);
    // Retried from "try again": the goal is the earlier request's, and so is the file.
    expect(requestCalendars({ messages, taskStartMessageId: "m5", goal })).toEqual([
      { fileName: "lectures2.ics", ics: TRICKY },
    ]);
    // A goal no message at or before the start has: no file, rather than another one.
    expect(requestCalendars({ messages: messages.slice(0, 2), taskStartMessageId: "m5", goal })).toEqual([]);
    expect(requestCalendars({ messages, taskStartMessageId: "m5", goal: "Arrange my week" })).toEqual([]);
  });
});
