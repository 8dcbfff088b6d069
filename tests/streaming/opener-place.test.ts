/**
 * A served turn's first words take its opener's place (`endingOpenerStatus`, streaming/progress-ui.ts): written under
 * the opener's id, with every other reference the node makes to that message renamed too — the update's fields and the
 * components pushed under it — so Agent Chat UI fills the row it drew instead of leaving it empty above the words.
 */
import { AIMessage, BaseMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import { describe, expect, test } from "vitest";
import { endingOpenerStatus, openerId, pushComponent, statusId } from "../../streaming/progress-ui.js";
import { isProgressLine } from "../../contracts/message-text.js";
import { renderConversation } from "../../prompts/stage-messages.js";

const request = new HumanMessage({ id: "human-1", content: "What is on Monday and Tuesday?" });
const opener = openerId("human-1");

/** The state a node runs on: the request, its silent opener, and the status "Working on your message…" under it. */
function openedTurn(): { messages: BaseMessage[]; ui: UIMessage[]; workspaceMessageIds: string[] } {
  const status = { text: "Working on your message…", language: "en" };
  return {
    messages: [request, new AIMessage({ id: opener, content: "" })],
    ui: [{ type: "ui", id: statusId("human-1"), name: "status", props: status, metadata: { message_id: opener } }],
    workspaceMessageIds: [],
  };
}

/** A served run's config, recording what is pushed (the custom stream's `ui` events). */
function served() {
  const pushed: UIMessage[] = [];
  const config: LangGraphRunnableConfig = {
    metadata: { run_id: "run-1" },
    writer: (event) => pushed.push(event as UIMessage),
  };
  return { config, pushed };
}

type Update = { messages?: BaseMessage[]; workspaceMessageIds?: string[] };

describe("the turn's first words take the opener's place", () => {
  test("a round: its id and every mention of it become the opener's, its picture moves with it", async () => {
    const { config, pushed } = served();
    const round = new AIMessage({
      id: "ai-round",
      content: "Looking at the days.",
      tool_calls: [{ id: "call_1", name: "query_range", args: { day: 1 } }],
    });
    const node = endingOpenerStatus(async (_state: ReturnType<typeof openedTurn>, nodeConfig) => {
      pushComponent(nodeConfig, "week-ai-round", "week", { title: "Your week" }, "ai-round");
      const update: Update = {
        messages: [round, new RemoveMessage({ id: opener })],
        workspaceMessageIds: ["ai-round"],
      };
      return update;
    });
    const update = await node(openedTurn(), config);
    expect(update.messages!.map((message) => [message.getType(), message.id, message.content])).toEqual([
      ["ai", opener, "Looking at the days."],
    ]);
    expect((update.messages![0] as AIMessage).tool_calls).toEqual(round.tool_calls);
    expect(update.workspaceMessageIds).toEqual([opener]);
    // The status is emptied under the opener; the round's picture is pushed under the opener's id, once.
    expect(pushed.map((event) => [event.id, event.metadata?.message_id, event.props])).toEqual([
      [statusId("human-1"), opener, { text: "", language: "en" }],
      ["week-ai-round", opener, { title: "Your week" }],
    ]);
    expect(isProgressLine(update.messages![0])).toBe(false);
  });

  test("a step's line takes the place as a progress line: the prompts still leave it out", async () => {
    const { config, pushed } = served();
    const step = new AIMessage({ id: "progress-step-1", content: "Step 1 of 2: Read Monday" });
    const round = new AIMessage({ id: "ai-round", content: "Looking at Monday." });
    const node = endingOpenerStatus(async () => {
      pushComponent(config, "week-ai-round", "week", { title: "Your week" }, "ai-round");
      return { messages: [step, round] } as Update;
    });
    const update = await node(openedTurn(), config);
    expect(update.messages!.map((message) => message.id)).toEqual([opener, "ai-round"]);
    expect(isProgressLine(update.messages![0])).toBe(true);
    expect(renderConversation([request, ...update.messages!])).toBe(
      "user: What is on Monday and Tuesday?\nassistant: Looking at Monday.",
    );
    // The round spoke: the status is emptied; its picture stays under the round.
    expect(pushed.map((event) => [event.id, event.metadata?.message_id])).toEqual([
      [statusId("human-1"), opener],
      ["week-ai-round", "ai-round"],
    ]);
  });

  test("nothing takes the place of an opener that spoke, nor of one a later message follows", async () => {
    const { config } = served();
    const reply = () => ({ messages: [new AIMessage({ id: "ai-2", content: "Anything else?" })] }) as Update;
    const spoke = openedTurn();
    spoke.messages[1] = new AIMessage({ id: opener, content: "Monday is free." });
    expect((await endingOpenerStatus(async () => reply())(spoke, config)).messages![0]!.id).toBe("ai-2");
    const followed = openedTurn();
    followed.messages.push(new AIMessage({ id: "progress-step-1", content: "Step 1 of 2: Read Monday" }));
    expect((await endingOpenerStatus(async () => reply())(followed, config)).messages![0]!.id).toBe("ai-2");
  });

  test("a node that stops (a card's interrupt) still pushes what it drew", async () => {
    const { config, pushed } = served();
    const node = endingOpenerStatus(async (): Promise<Update> => {
      pushComponent(config, "week-ai-3", "week", { title: "Your week" }, "ai-3");
      throw new Error("interrupted");
    });
    await expect(node(openedTurn(), config)).rejects.toThrow("interrupted");
    expect(pushed.map((event) => [event.id, event.metadata?.message_id])).toEqual([["week-ai-3", "ai-3"]]);
  });
});
