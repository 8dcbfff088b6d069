/**
 * The input check walks a run's input once (issue 45: the resume was walked twice more, once with the input and once
 * on its own for its length): every string of a resume is read one time, and the answer's own limit still holds.
 */
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

  test("an input that is not a message object is INVALID_INPUT, not LangGraph's raw InvalidUpdateError, and writes nothing", async () => {
    const { graph, checkpointer } = scriptedGraph({ domain: createNotesDomain() });
    for (const input of [5, "hello", [{ role: "user", content: "hi" }], { messages: [{ role: "user", content: 7 }] }]) {
      const error = await thrownBy(graph.invoke(input as never, threadConfig("odd")));
      expect(error, JSON.stringify(input)).toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(await checkpointer.getTuple(threadConfig("odd"))).toBeUndefined();
  });
});
