/**
 * The week pushed for Agent Chat UI (issue 48): a write card's proposal drawn beside the assistant message that
 * proposes the writes, and the week as it is now beside the task's answer, each in the state's `ui` channel with the
 * message id Chat UI files it under — and the channel stays bounded.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { HumanMessage } from "@langchain/core/messages";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import { describe, expect, test } from "vitest";
import { keptUiMessages, UI_MESSAGES_KEPT } from "../../kernel/ui-channel.js";
import type { WeekViewProps } from "../../ui/week-props.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";

const weeksOf = (ui: UIMessage[]) => ui.filter((entry) => entry.name === "week");

describe("the week pushed with its message", () => {
  test("a write card's proposal beside the message proposing it, and the week now beside the answer", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const config = threadConfig("thread-week-ui", "student");
    let result = await tempo.graph.invoke({ messages: [new HumanMessage("Place all my review tasks")] }, config);
    const accept = { type: "accept", args: null };
    // Cards are accepted until the first write card; its proposal is drawn beside the message whose calls it decides.
    for (let turn = 0; turn < 20 && weeksOf(result.ui).length === 0 && interruptsOf(result).length > 0; turn++) {
      const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
      result = await tempo.graph.invoke(resume(requests.length === 1 ? accept : requests.map(() => accept)), config);
    }
    const proposal = (result.messages as BaseMessage[]).findLast(
      (message) => ((message as AIMessage).tool_calls ?? []).length > 0,
    )!;
    const [drawn] = weeksOf(result.ui);
    expect(drawn?.metadata).toMatchObject({ message_id: proposal.id });
    const props = drawn!.props as unknown as WeekViewProps;
    const placed = (proposal as AIMessage).tool_calls!.filter((call) => call.name === "place");
    expect(placed.length).toBeGreaterThan(0);
    expect(props.reviews.filter((run) => run.mark === "added").length).toBe(placed.length);
    expect(props.days[0]).toMatchObject({ date: week.window.days[0]!.date });

    for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn++) {
      const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
      result = await tempo.graph.invoke(resume(requests.length === 1 ? accept : requests.map(() => accept)), config);
    }
    expect(result.finalAnswer).toBeTruthy();
    const answer = (result.messages as BaseMessage[]).findLast((message) => message.getType() === "ai")!;
    const now = weeksOf(result.ui).find((entry) => entry.metadata?.message_id === answer.id);
    expect(now).toBeDefined();
    const after = now!.props as unknown as WeekViewProps;
    expect(after.changes).toEqual([]);
    const stored = await tempo.repository.load("student");
    const placedNow = stored.tasks.filter((task) => task.source === "task_item" && task.status === "placed");
    expect(after.reviews.map((run) => run.name).sort()).toEqual(placedNow.map((task) => task.name).sort());
  });

  test("the channel keeps the latest pictures only", () => {
    const push = (id: string): UIMessage => ({ type: "ui", id, name: "week", props: {}, metadata: {} });
    let ui: UIMessage[] = [];
    for (let index = 0; index < UI_MESSAGES_KEPT + 5; index++) ui = keptUiMessages(ui, push(`week-${index}`));
    expect(ui.map((entry) => entry.id)).toEqual(
      Array.from({ length: UI_MESSAGES_KEPT }, (_, index) => `week-${index + 5}`),
    );
    expect(keptUiMessages(ui, push("week-6")).length).toBe(UI_MESSAGES_KEPT);
  });
});
