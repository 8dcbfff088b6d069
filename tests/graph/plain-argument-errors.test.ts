/**
 * Arguments a tool's check refused, as the student reads of them: "add task integrals for calculus, 200 slots" ended
 * "Your schedule is unchanged: invalid arguments for add_task: duration: Too big: expected number to be <=96 (given:
 * 200)" — the schema's message, in English even in a Chinese answer ("日程没有改动：invalid arguments for add_task: …");
 * a model that sent add_task a duration of 500 three times failed its step with the same words, which the answer
 * told when the deliver model could not. Now the person reads the field in their words and the bound, in their
 * language; the model still reads the precise check in the tool message, so it can correct itself; nothing changes.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { checkToolArguments } from "../../tools/runner.js";
import { argumentProblemIn } from "../../tools/schedule/argument-words.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import {
  addTaskTool,
  createScheduleDomain,
  InMemoryScheduleRepository,
  placeTool,
  sampleWeek,
} from "../../tools/schedule/index.js";
import type { InvalidArguments } from "../../tools/argument-issues.js";
import { json, resume, scriptedGraph, threadConfig, interruptsOf } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const RAW = /invalid arguments|Too big|Too small|expected number/;

describe("the offline policy tells a refused argument in plain words", () => {
  test.each([
    [
      "add task integrals for calculus, 200 slots",
      "Your schedule is unchanged: the number of slots asked for (200) is more than it can be: at most 96; nothing was changed.",
    ],
    ["给微积分添加任务：积分复习，200节", "日程没有改动：所要求的节数（200）超出了上限：最多 96；什么也没有改。"],
  ])("%s", async (request, answer) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.finalAnswer).toBe(answer);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.schedule).toEqual(week);
  });
});

describe("a model's bad arguments: precise for the model, plain for the person", () => {
  test.each([
    ["add an essay task of 500 slots", "the number of slots asked for (500) is more than it can be: at most 96"],
    ["给英语添加一个500节的作文任务", "the number of slots asked for (500) is more than it can be: at most 96"],
  ])("%s", async (request, plain) => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", sampleWeek());
    const before = await repository.load("student");
    const bad = json({
      action: "confirm",
      tool_call: { name: "add_task", arguments: { name: "Essay", class_id: "english", duration: 500 } },
    });
    const { graph } = scriptedGraph({
      domain: createScheduleDomain({ repository }),
      plan: [json({ action: "plan_done", plan_steps: [{ content: "Add the essay", done_when: "added" }] })],
      execute: [bad, bad, bad],
      // The deliver model down: the answer is the task's report, as the code writes it.
      deliver: [new Error("deliver model down")],
    });
    const config = threadConfig("bad-arguments", "student");
    let result = await graph.invoke({ messages: [new HumanMessage(request)] }, config);
    const cards: string[] = [];
    for (let turn = 0; turn < 5 && interruptsOf(result).length > 0; turn += 1) {
      cards.push(
        ...(interruptsOf(result)[0]!.value as { action_requests: Array<{ name: string }> }).action_requests.map(
          (card) => card.name,
        ),
      );
      result = await graph.invoke(resume({ type: "accept", args: null }), config);
    }
    // No card for the write: bad arguments go back to the model.
    expect(cards).toEqual(["confirm_plan"]);
    const tools = (result.messages as BaseMessage[]).filter((message) => message.getType() === "tool");
    expect(tools.map((message) => String(message.content))).toEqual(
      Array.from(
        { length: 3 },
        () =>
          "Error: invalid arguments for add_task: duration: Too big: expected number to be <=96 (given: 500). Nothing was changed.",
      ),
    );
    expect(result.finalAnswer).toContain(plain);
    expect(result.finalAnswer).not.toMatch(RAW);
    expect(result.planSteps[0]!.reason).toContain(plain);
    expect(await repository.load("student")).toEqual(before);
  });
});

describe("a refused argument's words", () => {
  const refused = (tool: Parameters<typeof checkToolArguments>[0], args: unknown) => {
    const checked = checkToolArguments(tool, args);
    if (checked.ok) throw new Error("expected a refusal");
    return checked.data;
  };

  test.each([
    [
      addTaskTool,
      { name: "Essay", class_id: "english", duration: 0 },
      "the number of slots asked for (0) is less than it can be: at least 1; nothing was changed",
      "所要求的节数（0）低于下限：至少 1；什么也没有改",
    ],
    [
      placeTool,
      { task_id: "essay-draft", day: "someday", slot_start: 1 },
      'the day asked for ("someday") cannot be used; nothing was changed',
      '所要求的日期（第几天）（"someday"）无法使用；什么也没有改',
    ],
    [
      placeTool,
      { task_id: "essay-draft", slot_start: 1 },
      "no day was given; nothing was changed",
      "没有给出日期（第几天）；什么也没有改",
    ],
  ])("%#: said in English and Chinese, and the English read back in Chinese", (tool, args, english, chinese) => {
    const data: InvalidArguments = refused(tool as never, args);
    expect(argumentProblemIn(data, "en")).toBe(english);
    expect(argumentProblemIn(data, "zh")).toBe(chinese);
    expect(summaryInChinese(english)).toBe(chinese);
  });
});
