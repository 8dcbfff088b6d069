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
import { halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import type { HealthPanelProps } from "../../ui/week-props.js";
import { crowdedSampleWeek } from "../support/crowded-week.js";

const weeksOf = (ui: UIMessage[]) => ui.filter((entry) => entry.name === "week");
/** The weeks drawn beside write cards (the plan's and the answer's change nothing). */
const proposalsOf = (ui: UIMessage[]) =>
  weeksOf(ui).filter((entry) => (entry.props as unknown as WeekViewProps).changes.length > 0);

describe("the week pushed with its message", () => {
  test("a write card's proposal beside the message proposing it, and the week now beside the answer", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const config = threadConfig("thread-week-ui", "student");
    let result = await tempo.graph.invoke({ messages: [new HumanMessage("Place all my review tasks")] }, config);
    const accept = { type: "accept", args: null };
    // Cards are accepted until the first write card; its proposal is drawn beside the message whose calls it decides.
    for (let turn = 0; turn < 20 && proposalsOf(result.ui).length === 0 && interruptsOf(result).length > 0; turn++) {
      const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
      result = await tempo.graph.invoke(resume(requests.length === 1 ? accept : requests.map(() => accept)), config);
    }
    const proposal = (result.messages as BaseMessage[]).findLast(
      (message) => ((message as AIMessage).tool_calls ?? []).length > 0,
    )!;
    const [drawn] = proposalsOf(result.ui);
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

  test("a removal's card draws its proposal too: the removed event's ghost; a card that changes no place draws none", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const card = await writeCardFor(tempo, "remove the Friday tutorial");
    expect(cardName(card)).toBe("remove_event");
    const [drawn] = proposalsOf(card.ui);
    const props = drawn!.props as unknown as WeekViewProps;
    expect(props.title).toBe("Proposed week");
    expect(props.changes).toEqual([{ mark: "removed", text: "Calculus tutorial: Fri 15 Mar 08:00–09:40" }]);
    expect(props.departures).toEqual([expect.objectContaining({ name: "Calculus tutorial", mark: "removed" })]);

    // A review marked done is settled, not taken off the week: its card has no picture either.
    const doneCard = await writeCardFor(tempo, "I did the matrix review");
    expect(cardName(doneCard)).toBe("mark_done");
    expect(proposalsOf(doneCard.ui)).toEqual([]);

    // A class's new profile moves nothing: its card has no picture.
    const classCard = await writeCardFor(tempo, "make calculus mornings only");
    expect(cardName(classCard)).toBe("upsert_task_class");
    expect(proposalsOf(classCard.ui)).toEqual([]);
    expect(
      weeksOf(classCard.ui).filter((entry) => (entry.props as unknown as WeekViewProps).title === "Proposed week"),
    ).toEqual([]);
  });

  test("the plan card opens with the week as it is beside the message that carries the plan", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const config = threadConfig("thread-week-plan", "student");
    const result = await tempo.graph.invoke({ messages: [new HumanMessage("Place all my review tasks")] }, config);
    expect(result.pending).toMatchObject({ kind: "confirm_plan" });
    const plan = (result.messages as BaseMessage[]).findLast((message) => message.getType() === "ai")!;
    const [drawn] = weeksOf(result.ui);
    expect(drawn?.metadata).toMatchObject({ message_id: plan.id });
    const props = drawn!.props as unknown as WeekViewProps;
    expect(props.changes).toEqual([]);
    expect(props.days[0]).toMatchObject({ date: week.window.days[0]!.date });
    expect(props.events.length).toBeGreaterThan(0);
  });

  test("a refinement's proposal has the health panel beside it: the score and its parts, before → after", async () => {
    const tempo = await offlineTempo(crowdedSampleWeek());
    const config = threadConfig("thread-health-ui", "student");
    const before = analyzeHealth(await tempo.repository.load("student")).score;
    let result = await tempo.graph.invoke({ messages: [new HumanMessage("Please optimise my week")] }, config);
    result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const proposal = (result.messages as BaseMessage[]).findLast(
      (message) => ((message as AIMessage).tool_calls ?? []).length > 0,
    )!;
    expect((proposal as AIMessage).tool_calls!.map((call) => call.name)).toEqual(["batch_move"]);
    const panel = (result.ui as UIMessage[]).find((entry) => entry.name === "health");
    expect(panel?.metadata).toMatchObject({ message_id: proposal.id });
    const props = panel!.props as unknown as HealthPanelProps;
    expect(props.before).toBe(before);
    expect(props.parts.map((part) => part.label)).toEqual(["rhythm", "tightness", "profile", "feasibility"]);
    // The parts are what the score loses: before, and after the proposal's writes.
    const lost = (side: "before" | "after") => props.parts.reduce((sum, part) => sum + part[side], 0);
    expect(lost("before")).toBeCloseTo(100 - props.before, 1);
    expect(lost("after")).toBeCloseTo(100 - props.after, 1);
    result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(props.after).toBe(analyzeHealth(await tempo.repository.load("student")).score);
    expect(props.after).toBeGreaterThan(props.before);
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

  test("the turn's status is never cut by the pictures' bound; the next turn's status replaces it", () => {
    const push = (id: string, name = "week"): UIMessage => ({ type: "ui", id, name, props: {}, metadata: {} });
    let ui = keptUiMessages([], push("status-turn-1", "status"));
    for (let index = 0; index < UI_MESSAGES_KEPT + 2; index++) ui = keptUiMessages(ui, push(`week-${index}`));
    expect(ui.map((entry) => entry.id)).toEqual([
      "status-turn-1",
      ...Array.from({ length: UI_MESSAGES_KEPT }, (_, index) => `week-${index + 2}`),
    ]);
    ui = keptUiMessages(ui, push("status-turn-2", "status"));
    expect(ui.filter((entry) => entry.name === "status").map((entry) => entry.id)).toEqual(["status-turn-2"]);
    expect(ui.filter((entry) => entry.name === "week").length).toBe(UI_MESSAGES_KEPT);
  });
});

function cardName(result: object): string | undefined {
  return (interruptsOf(result)[0]?.value as { action_requests?: Array<{ name: string }> } | undefined)
    ?.action_requests?.[0]?.name;
}

/** The first write card a new thread's `request` reaches, its plan card (if any) approved. */
async function writeCardFor(tempo: Awaited<ReturnType<typeof offlineTempo>>, request: string) {
  const config = threadConfig(`thread-${request.replace(/\W+/g, "-")}`, "student");
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, config);
  if (cardName(result) === "confirm_plan")
    result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  return result;
}
