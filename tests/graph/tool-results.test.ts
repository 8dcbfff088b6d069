/** A tool message records what happened to its call as data (kernel/tool-results.ts); readers never parse its text. */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { callOutcomeOf, isSetback, toolResultMessage } from "../../kernel/tool-results.js";
import { toolRoundOf } from "../../nodes/shared/messages.js";

const call = { id: "call-1", name: "place", arguments: { task_id: "rev-1" } };

describe("tool results as data", () => {
  test("each outcome is on the message: LangChain's status, and the outcome in its artifact", () => {
    for (const outcome of ["done", "applied", "declined", "held", "failed"] as const) {
      const message = toolResultMessage(call, "whatever the model reads", outcome);
      expect(callOutcomeOf(message)).toBe(outcome);
      expect(message.status).toBe(outcome === "done" || outcome === "applied" ? "success" : "error");
      expect(isSetback(message)).toBe(outcome === "declined" || outcome === "held" || outcome === "failed");
    }
    expect(isSetback(new HumanMessage("Error: not a tool result"))).toBe(false);
  });

  test("the text no longer decides: an applied write whose result reads like an error is still applied", () => {
    expect(callOutcomeOf(toolResultMessage(call, "Error-free placement: Not applied anywhere else", "applied"))).toBe(
      "applied",
    );
    expect(callOutcomeOf(toolResultMessage(call, "Placed.", "declined"))).toBe("declined");
  });

  test("a round's tool messages carry their entries' outcomes, in order", () => {
    const [assistant, ...results] = toolRoundOf(
      [
        { call, result: "Placed rev-1.", outcome: "applied" },
        { call: { ...call, id: "call-2" }, result: "Not applied: the user rejected this change.", outcome: "declined" },
      ],
      "Placing.",
    );
    expect((assistant as AIMessage).tool_calls?.map((toolCall) => toolCall.id)).toEqual(["call-1", "call-2"]);
    expect(results.map(callOutcomeOf)).toEqual(["applied", "declined"]);
  });

  test("a thread saved before outcomes were recorded is read from the texts Tempo wrote then; other messages have none", () => {
    const legacy = (content: string) => new ToolMessage({ content, tool_call_id: "c" });
    expect(callOutcomeOf(legacy("Not applied: the user rejected this change."))).toBe("declined");
    expect(callOutcomeOf(legacy("Not proposed yet: 1 other write(s) of this batch had invalid arguments."))).toBe(
      "held",
    );
    expect(callOutcomeOf(legacy("Error: bad day."))).toBe("failed");
    expect(callOutcomeOf(legacy("Placed rev-1 on Mon."))).toBe("done");
    expect(callOutcomeOf(new HumanMessage("Not applied"))).toBeUndefined();
  });
});
