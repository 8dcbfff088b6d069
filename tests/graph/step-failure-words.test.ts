/**
 * Why a step failed, in the user's language: the step's failure is kept in English (the report's phrase table reads it
 * back), and a Chinese conversation's answer says it in Chinese, as its other stop notes are — never "3 tool errors in
 * a row" or "you declined the 2 change(s)" inside a Chinese answer.
 */
import { HumanMessage } from "@langchain/core/messages";
import { expect, test } from "vitest";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, stepsOf, threadConfig } from "../support/scripted.js";

const keep = json({ action: "continue", reason: "the remaining steps hold" });
const next = (summary: string) => json({ action: "next_plan", goal_check: summary });
const unknownTool = json({ action: "continue", tool_call: { name: "shred_notes", arguments: {} } });
const addNote = (text: string) =>
  json({ speak: `添加 ${text}。`, action: "confirm", tool_call: { name: "add_note", arguments: { text } } });
const accept = resume({ type: "accept", args: null });
const message = (text: string) => ({ messages: [new HumanMessage(text)] });

test("repeated tool errors: a Chinese answer says the step failed on them in Chinese, naming the tool", async () => {
  const { graph } = scriptedGraph({
    domain: createNotesDomain(),
    plan: [planDone(stepsOf("收集笔记", "销毁笔记"), { speak: "计划如下。" }), keep],
    execute: [next("收集好了"), unknownTool, unknownTool, unknownTool],
    deliver: ["全部完成。"],
  });
  const config = threadConfig("tool-errors-zh");
  await graph.invoke(message("收集并销毁我的笔记"), config);
  const final = await graph.invoke(accept, config);
  expect(final.outcome).toMatchObject({ kind: "failed" });
  // Kept in English, as every step's failure is.
  expect(final.planSteps[1]).toMatchObject({
    status: "failed",
    reason: expect.stringMatching(/^3 tool errors in a row/),
  });
  expect(final.finalAnswer).toContain("销毁笔记");
  expect(final.finalAnswer).toContain("工具连续出错 3 次（最后一次来自 shred_notes：");
  expect(final.finalAnswer).not.toMatch(/tool errors in a row|last, from/);
});

test("declined twice in a row: a Chinese answer says the step failed because the changes were declined, in Chinese", async () => {
  const domain = createNotesDomain();
  const { graph } = scriptedGraph({
    domain,
    plan: [planDone(stepsOf("添加笔记"), { speak: "计划如下。" })],
    execute: [addNote("x"), addNote("y")],
  });
  const config = threadConfig("declined-zh");
  await graph.invoke(message("添加一条笔记"), config);
  await graph.invoke(accept, config);
  await graph.invoke(resume({ type: "ignore", args: null }), config);
  const final = await graph.invoke(message("不要"), config);
  expect(interruptsOf(final)).toEqual([]);
  expect(final.planSteps).toMatchObject([
    { status: "failed", reason: "you declined the 2 change(s) it proposed in a row" },
  ]);
  expect(final.finalAnswer).toContain("你连续拒绝了提议的 2 项修改");
  expect(final.finalAnswer).not.toMatch(/declined|change\(s\)/);
  expect(domain.applied).toEqual([]);
});
