/**
 * LangGraph's `messages` stream mode (`messages-tuple` on the server, what
 * Agent Chat UI and useStream render) carries only what a person should
 * read: with models that stream token by token, the stages' JSON contract
 * output — valid, or invalid and corrected — never streams; `speak` and the
 * chat reply arrive as AI messages; the final answer streams once, under the
 * id of the message the thread keeps.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { Command, MemorySaver } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { threadConfig } from "../support/scripted.js";

/** A model that streams its replies character by character, as a real one streams tokens. */
const streaming = (responses: unknown[], onCall?: () => void) =>
  new FakeListChatModel({
    responses: responses.map((reply) => (typeof reply === "string" ? reply : JSON.stringify(reply))),
    sleep: 0,
    callbacks: onCall ? [{ handleChatModelStart: onCall }] : undefined,
  });

test("no contract JSON in the messages stream; speak, replies and the final answer arrive as AI messages", async () => {
  let planCalls = 0;
  const models = {
    chat: streaming([{ intent: "task", reply: "", reason: "needs tools" }]),
    plan: streaming(
      [
        // Invalid first (a contract-shaped object with a bad action): the correction loop runs, and none of it streams.
        { speak: "", action: "bogus" },
        {
          speak: "Here is the plan.",
          action: "plan_done",
          complexity: "simple",
          plan_steps: [{ content: "Add the note", done_when: "it is listed" }],
        },
      ],
      () => (planCalls += 1),
    ),
    execute: streaming([
      {
        speak: "Adding the note.",
        action: "confirm",
        reason: "asked",
        tool_call: { name: "add_note", arguments: { text: "call mom" } },
      },
      { speak: "The note is there.", action: "done", goal_check: "it is listed" },
    ]),
    deliver: streaming(["Added the note “call mom”."]),
  };
  const graph = buildTempoGraph({
    models: { default: models.chat, ...models },
    domain: createNotesDomain(),
    checkpointer: new MemorySaver(),
  });
  const config = threadConfig("messages-stream");

  const streamed: Array<{ id?: string; type: string; text: string; node: string }> = [];
  const inputs = [
    { messages: [new HumanMessage("Add a note: call mom")] },
    new Command({ resume: { decisions: [{ type: "approve" }] } }),
    new Command({ resume: { decisions: [{ type: "approve" }] } }),
  ];
  for (const input of inputs) {
    for await (const [message, metadata] of await graph.stream(input as Parameters<typeof graph.stream>[0], {
      ...config,
      streamMode: "messages",
    })) {
      const chunk = message as BaseMessage;
      streamed.push({
        id: chunk.id,
        type: chunk.getType(),
        text: typeof chunk.content === "string" ? chunk.content : JSON.stringify(chunk.content),
        node: String((metadata as { langgraph_node?: unknown }).langgraph_node),
      });
    }
  }

  // Join chunks per message id, as a UI does.
  const joined = new Map<string, { type: string; text: string }>();
  for (const chunk of streamed) {
    const key = chunk.id ?? "";
    const previous = joined.get(key);
    joined.set(key, { type: chunk.type, text: (previous?.text ?? "") + chunk.text });
  }
  const texts = [...joined.values()].map((message) => message.text);
  for (const text of texts) {
    expect(text).not.toMatch(/"(action|intent|speak|plan_steps|tool_call|goal_check)"\s*:/);
    expect(text).not.toContain("Answer again with exactly one JSON object");
  }
  const aiTexts = [...joined.values()].filter((message) => message.type === "ai").map((message) => message.text);
  expect(aiTexts).toEqual(
    expect.arrayContaining([
      "Here is the plan.",
      "Adding the note.",
      "The note is there.",
      "Added the note “call mom”.",
    ]),
  );

  // The final answer streamed token by token, under the id the thread keeps: a UI shows it once.
  const state = await graph.getState(config);
  const final = (state.values.messages as BaseMessage[]).at(-1)!;
  expect(final.content).toBe("Added the note “call mom”.");
  const finalChunks = streamed.filter((chunk) => chunk.id === final.id);
  expect(finalChunks.length).toBeGreaterThan(5);
  expect(finalChunks.every((chunk) => chunk.node === "deliver")).toBe(true);
  // The planner's invalid output was corrected (two calls), and neither the output nor the correction request streamed.
  expect(planCalls).toBe(2);
});
