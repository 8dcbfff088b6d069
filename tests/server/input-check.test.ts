/**
 * The input check walks a run's input once (issue 45: the resume was walked twice more, once with the input and once
 * on its own for its length): every string of a resume is read one time, and the answer's own limit still holds.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { checkInputContent } from "../../server/input-check.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { scriptedGraph, threadConfig } from "../support/scripted.js";
import { thrownBy } from "../reliability/support/thread-state.js";

/** A resume whose one feedback string counts how often it is read. */
function countedResume(text: string) {
  const reads = { count: 0 };
  const decision: Record<string, unknown> = { type: "reject" };
  Object.defineProperty(decision, "message", {
    enumerable: true,
    get: () => {
      reads.count += 1;
      return text;
    },
  });
  return { resume: new Command({ resume: { decisions: [decision] } }), reads };
}

describe("the input check", () => {
  test("reads each string of a resume once, in the one walk of the input", () => {
    const { resume, reads } = countedResume("not on Monday");
    checkInputContent(resume, DEFAULT_WORKFLOW_SETTINGS);
    expect(reads.count).toBe(1);
  });

  test("an answer over the message limit is still refused, with its own length", () => {
    const limit = DEFAULT_WORKFLOW_SETTINGS.maxMessageCharacters;
    const { resume } = countedResume("x".repeat(limit + 1));
    expect(() => checkInputContent(resume, DEFAULT_WORKFLOW_SETTINGS)).toThrow(
      expect.objectContaining({
        code: "INVALID_INPUT",
        message: expect.stringContaining(
          `The answer (resume) has ${limit + 1 + "message".length + "type".length + "reject".length + "decisions".length} characters`,
        ),
      }),
    );
  });

  test("numbers, booleans and empty values count: a resume or message padded with millions of them is over the limits", async () => {
    // Each counted as no character at all: 6 MB of zeros in an edit, or in a message's additional_kwargs, passed the
    // 100,000-character answer and 200,000-character input limits, and went into the thread's checkpoints.
    const zeros = Array.from({ length: 3_000_000 }, () => 0);
    const edit = { type: "edit", edited_action: { name: "move", args: { days: zeros } } };
    expect(() => checkInputContent(new Command({ resume: { decisions: [edit] } }), DEFAULT_WORKFLOW_SETTINGS)).toThrow(
      expect.objectContaining({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/^The answer \(resume\) has 3000\d{3} characters; the limit is 100000/),
      }),
    );
    for (const padding of [
      Array.from({ length: 300_000 }, () => ""),
      Array.from({ length: 300_000 }, () => ({})),
      Array.from({ length: 300_000 }, () => false),
    ])
      expect(() =>
        checkInputContent(new Command({ resume: { decisions: padding } }), DEFAULT_WORKFLOW_SETTINGS),
      ).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringMatching(/^The answer \(resume\) has \d+ characters; the limit is 100000/),
        }),
      );
    const { graph, checkpointer } = scriptedGraph({ domain: createNotesDomain() });
    const padded = new HumanMessage({ content: "hi", additional_kwargs: { padding: zeros } });
    const error = await thrownBy(graph.invoke({ messages: [padded] }, threadConfig("padded")));
    expect(error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^The input has 3000\d{3} characters in all; the limit is 200000/),
    });
    expect(await checkpointer.getTuple(threadConfig("padded"))).toBeUndefined();
  });

  test("a size refusal is said in the sender's language, read from the input's own text", () => {
    const limit = DEFAULT_WORKFLOW_SETTINGS.maxMessageCharacters;
    const refusal = (input: unknown) => {
      try {
        checkInputContent(input, DEFAULT_WORKFLOW_SETTINGS);
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    };
    expect(refusal({ messages: [{ role: "user", content: "复习".repeat(limit) }] })).toMatch(
      new RegExp(`^这条消息有 ${limit * 2} 个字符，上限是 ${limit}`),
    );
    expect(refusal({ messages: [{ role: "user", content: "x".repeat(limit + 1) }] })).toMatch(/^The message has/);
    expect(refusal(countedResume("不要周一".repeat(limit)).resume)).toMatch(/^这个回答有 \d+ 个字符/);
    expect(refusal(countedResume("x".repeat(limit + 1)).resume)).toMatch(/^The answer \(resume\) has/);
  });

  test("an input that is not a message object is INVALID_INPUT, not LangGraph's raw InvalidUpdateError, and writes nothing", async () => {
    const { graph, checkpointer } = scriptedGraph({ domain: createNotesDomain() });
    for (const input of [5, "hello", [{ role: "user", content: "hi" }], { messages: [{ role: "user", content: 7 }] }]) {
      const error = await thrownBy(graph.invoke(input as never, threadConfig("odd")));
      expect(error, JSON.stringify(input)).toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(await checkpointer.getTuple(threadConfig("odd"))).toBeUndefined();
  });
});
