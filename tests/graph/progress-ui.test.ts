/**
 * Progress a person sees in Agent Chat UI (issue 48 item 5): the stage a task is at is a `status` component in the
 * state's `ui` channel — what Chat UI draws — under the current assistant message, one per turn (replaced, never
 * appended), shown after each Approve until the next card or the answer takes its place.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { HumanMessage } from "@langchain/core/messages";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import { describe, expect, test } from "vitest";
import { approveCard, threadConfig } from "../support/scripted.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";

interface Seen {
  text: string;
  id: string;
  under: string;
  messages: BaseMessage[];
}

/** Streams a request and approves every card, recording each status the `values` stream carried. */
async function watch(request: string) {
  const week = sampleWeek();
  const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
  const config = { ...threadConfig(`progress-${request}`, "student"), streamMode: "values" as const };
  const seen: Seen[] = [];
  let input: unknown = { messages: [new HumanMessage(request)] };
  let last: Record<string, unknown> = {};
  for (let turn = 0; turn < 20; turn++) {
    for await (const values of await tempo.graph.stream(input as never, config)) {
      last = values as Record<string, unknown>;
      for (const entry of ((last.ui as UIMessage[] | undefined) ?? []).filter((ui) => ui.name === "status")) {
        const text = (entry.props as { text: string }).text;
        if (seen.at(-1)?.text !== text)
          seen.push({
            text,
            id: entry.id,
            under: entry.metadata?.message_id as string,
            messages: last.messages as BaseMessage[],
          });
      }
    }
    const state = await tempo.graph.getState(config);
    if (state.tasks.every((task) => task.interrupts.length === 0)) break;
    input = approveCard({ __interrupt__: state.tasks.flatMap((task) => task.interrupts) });
  }
  return { seen, last };
}

describe("progress in the ui channel", () => {
  test("after each Approve a status stands under the current message until the next card or the answer", async () => {
    const { seen, last } = await watch("Place all my review tasks");
    const request = (last.messages as BaseMessage[]).find((message) => message.getType() === "human")!;
    // Emptied (not removed) when the card's picture comes, then again when the answer's does.
    expect(seen.map((entry) => entry.text)).toEqual([
      "Plan confirmed; working on it…",
      "",
      "Applying 8 approved changes…",
      "",
    ]);
    // One component a turn, replaced as the stages advance.
    expect(new Set(seen.map((entry) => entry.id))).toEqual(new Set([`status-${request.id}`]));
    const [confirmed, emptied, applying, ended] = seen;
    const plan = confirmed!.messages.findLast((message) => message.getType() === "ai")!;
    expect(confirmed!.under).toBe(plan.id);
    const proposal = applying!.messages.findLast((message) => ((message as AIMessage).tool_calls ?? []).length > 0)!;
    expect((proposal as AIMessage).tool_calls!.map((call) => call.name)).toContain("place");
    expect(applying!.under).toBe(proposal.id);
    // Each status is emptied under the message it stood under: Chat UI never unmounts it while its script may load.
    expect(emptied!.under).toBe(plan.id);
    expect(ended!.under).toBe(proposal.id);
    // The answer's week takes the status's place; the emptied status stays, and draws nothing.
    const ui = last.ui as UIMessage[];
    expect(ui.filter((entry) => entry.name === "status").map((entry) => entry.props)).toEqual([
      { text: "", language: "en" },
    ]);
    const answer = (last.messages as BaseMessage[]).findLast((message) => message.getType() === "ai")!;
    expect(ui.some((entry) => entry.name === "week" && entry.metadata?.message_id === answer.id)).toBe(true);
  });

  test("a Chinese user reads the status in Chinese", async () => {
    const { seen } = await watch("帮我安排复习");
    expect(seen.map((entry) => entry.text).filter((text) => text !== "")).toEqual([
      "计划已确认，正在执行…",
      "正在执行 8 项已批准的更改…",
    ]);
  });

  test("a Chinese user's status lines on the custom stream are Chinese", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const config = { ...threadConfig("progress-zh-custom", "student"), streamMode: "custom" as const };
    const lines: string[] = [];
    const collect = async (input: unknown) => {
      for await (const event of await tempo.graph.stream(input as never, config))
        if ((event as { kind?: string }).kind === "status") lines.push((event as { text: string }).text);
    };
    await collect({ messages: [new HumanMessage("帮我安排复习")] });
    for (let turn = 0; turn < 20; turn++) {
      const state = await tempo.graph.getState(config);
      if (state.tasks.every((task) => task.interrupts.length === 0)) break;
      await collect(approveCard({ __interrupt__: state.tasks.flatMap((task) => task.interrupts) }));
    }
    expect(lines).toEqual(expect.arrayContaining(["正在理解你的消息", "正在规划任务", "计划已确认"]));
    expect(lines).not.toEqual(expect.arrayContaining(["Planning the task"]));
    expect(lines).not.toEqual(expect.arrayContaining(["Plan confirmed"]));
  });
});
