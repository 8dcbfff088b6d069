/**
 * Progress a person sees in Agent Chat UI (issue 48 item 5): the stage a task is at is a `status` component in the
 * state's `ui` channel — what Chat UI draws — under the current assistant message, one per turn (replaced, never
 * appended), shown after each Approve until the next card or the answer takes its place.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import { describe, expect, test } from "vitest";
import { approveCard, threadConfig } from "../support/scripted.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import { messageText } from "../../contracts/message-text.js";
import { renderConversation } from "../../prompts/stage-messages.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import type { ChatResult } from "@langchain/core/outputs";
import { openTurn } from "../../streaming/progress-ui.js";

/** The offline policy, recording the text of every prompt it is sent. */
class RecordingPolicy extends ScheduleOfflinePolicy {
  readonly prompts: string[][] = [];
  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages.map((message) => `${message.getType()}: ${messageText(message)}`));
    return super._generate(messages);
  }
}

/** An assistant message Chat UI draws as an empty row: no text, no tool calls, not hidden. */
function isEmptyRow(message: BaseMessage): boolean {
  return (
    message.getType() === "ai" &&
    !String(message.id).startsWith("do-not-render-") &&
    messageText(message) === "" &&
    ((message as AIMessage).tool_calls ?? []).length === 0
  );
}

/**
 * Streams `text` on a new thread as a run through the LangGraph API (Agent Chat UI's carries a run id; the terminal
 * chat's and invoke's do not), recording each state that has messages.
 */
async function servedTurn(tempo: Awaited<ReturnType<typeof offlineTempo>>, thread: string, text: string) {
  const config = { ...threadConfig(thread, "student"), metadata: { run_id: `run-${thread}` } };
  const snapshots: Array<{ messages: BaseMessage[]; ui: UIMessage[] }> = [];
  const input = { messages: [new HumanMessage(text)] };
  for await (const values of await tempo.graph.stream(input as never, { ...config, streamMode: "values" as const }))
    if ((values as { messages?: unknown }).messages) snapshots.push(values as never);
  return { config, snapshots };
}

/** The offline policy whose first call waits until `release` is called: a model that keeps the turn waiting. */
class WaitingPolicy extends ScheduleOfflinePolicy {
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    await this.released;
    return super._generate(messages);
  }
}

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

  test("before the turn's first assistant message, a status stands under an opener that a reload shows once", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const { config, snapshots } = await servedTurn(tempo, "progress-opener", "Place all my review tasks");
    const request = snapshots.at(-1)!.messages.find((message) => message.getType() === "human")!;
    const opener = `progress-turn-${request.id}`;
    // The first state after the request: the opener, empty, with the status under it — before any model speaks.
    const first = snapshots.find((values) => values.messages.some((message) => message.id === opener))!;
    expect(first.messages.map((message) => message.id)).toEqual([request.id, opener]);
    expect(messageText(first.messages[1])).toBe("");
    expect(first.ui.find((entry) => entry.name === "status")).toMatchObject({
      id: `status-${request.id}`,
      props: { text: "Working on your message…" },
      metadata: { message_id: opener },
    });
    // The plan speaks, under the opener's id: the status is emptied under it (never removed), and it stays, once.
    const state = await tempo.graph.getState(config);
    const messages = state.values.messages as BaseMessage[];
    expect(messages.filter((message) => message.id === opener)).toHaveLength(1);
    expect(messages.findIndex((message) => message.id === opener)).toBe(1);
    expect((state.values.ui as UIMessage[]).find((entry) => entry.name === "status")).toMatchObject({
      props: { text: "" },
      metadata: { message_id: opener },
    });
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);

    // The invoke of a client that draws no Generative UI gets no opener.
    const plain = threadConfig("progress-no-opener", "student");
    const result = await tempo.graph.invoke({ messages: [new HumanMessage("hello")] }, plain);
    expect((result.messages as BaseMessage[]).some((message) => String(message.id).startsWith("progress-turn-"))).toBe(
      false,
    );
  });

  test.each([
    ["hello", "en"],
    ["你好", "zh"],
  ])(
    "small talk (%s): the reply takes the opener's place, and the prompts read it as the reply",
    async (text, language) => {
      const week = sampleWeek();
      const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
      const config = {
        ...threadConfig(`progress-opener-chat-${language}`, "student"),
        metadata: { run_id: "run-chat" },
      };
      const result = await tempo.graph.invoke({ messages: [new HumanMessage(text)] }, config);
      const messages = result.messages as BaseMessage[];
      // Request, reply: the reply is written under the opener's id, replacing it where it stood — no empty row.
      expect(messages.map((message) => message.getType())).toEqual(["human", "ai"]);
      expect(messages[1]!.id).toBe(`progress-turn-${messages[0]!.id}`);
      expect(messageText(messages[1])).not.toBe("");
      // The status stays under the same message, emptied: Chat UI never unmounts it.
      expect((result.ui as UIMessage[]).filter((entry) => entry.name === "status")).toMatchObject([
        { props: { text: "", language }, metadata: { message_id: messages[1]!.id } },
      ]);
      expect(renderConversation(messages).split("\n")).toEqual([
        `user: ${text}`,
        `assistant: ${messageText(messages[1])}`,
      ]);
    },
  );

  test("a read: its first round takes the opener's place, and the status stays mounted under it all turn", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const { snapshots } = await servedTurn(tempo, "progress-opener-read", "What's on Monday?");
    const messages = snapshots.at(-1)!.messages;
    const request = messages[0]!;
    const opener = `progress-turn-${request.id}`;
    // Request, the round that reads (under the opener's id), its result, the answer: the row Chat UI drew is filled.
    expect(messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(messages[1]!.id).toBe(opener);
    expect((messages[1] as AIMessage).tool_calls).toHaveLength(1);
    // Once pushed, the status stands under the opener's id in every later state: never unmounted while its script loads.
    const pushed = snapshots.findIndex((values) => values.ui?.some((entry) => entry.name === "status"));
    for (const values of snapshots.slice(pushed))
      expect(values.ui.filter((entry) => entry.name === "status")).toMatchObject([
        { id: `status-${request.id}`, metadata: { message_id: opener } },
      ]);
    expect(snapshots.at(-1)!.ui.find((entry) => entry.name === "status")!.props).toEqual({ text: "", language: "en" });
    // The answer's week is under the answer, and no state of the turn had an empty row after its first words.
    const answer = messages.at(-1)!;
    expect(
      snapshots.at(-1)!.ui.some((entry) => entry.name === "week" && entry.metadata?.message_id === answer.id),
    ).toBe(true);
    const spoken = snapshots.findIndex((values) => messageText(values.messages[1]) !== "");
    for (const values of snapshots.slice(spoken))
      expect(values.messages.filter((message) => message.getType() === "ai" && isEmptyRow(message))).toEqual([]);
  });

  test("the prompts a served turn sends the models are the ones an invoke without an opener sends", async () => {
    const prompts = async (runId: string | undefined) => {
      const week = sampleWeek();
      const policy = new RecordingPolicy();
      const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`), { policy });
      const thread = threadConfig("progress-prompts", "student");
      const config = runId ? { ...thread, metadata: { run_id: runId } } : thread;
      for (const text of ["hello", "What's on Monday?", "Explain the essay draft", "你好", "thanks"])
        await tempo.graph.invoke({ messages: [new HumanMessage(text)] }, config);
      return policy.prompts;
    };
    const served = await prompts("run-served");
    expect(served.length).toBeGreaterThan(5);
    expect(served).toEqual(await prompts(undefined));
  });

  test("each turn's first words take its opener's place: a reload shows no gap, and a turn that says nothing loses it", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const config = { ...threadConfig("progress-opener-gap", "student"), metadata: { run_id: "run-gap" } };
    await tempo.graph.invoke({ messages: [new HumanMessage("hello")] }, config);
    await tempo.graph.invoke({ messages: [new HumanMessage("thanks")] }, config);
    const state = await tempo.graph.getState(config);
    const messages = state.values.messages as BaseMessage[];
    const requests = messages.filter((message) => message.getType() === "human");
    expect(requests.map((message) => messageText(message))).toEqual(["hello", "thanks"]);
    // Request, reply, request, reply: each reply under its turn's opener id, none empty.
    expect(messages.map((message) => message.getType())).toEqual(["human", "ai", "human", "ai"]);
    expect([messages[1]!.id, messages[3]!.id]).toEqual(requests.map((request) => `progress-turn-${request.id}`));
    expect(messages.filter(isEmptyRow)).toEqual([]);
    // The earlier turn's status went when the new one came; the current one stays (emptied) under the current reply.
    expect((state.values.ui as UIMessage[]).filter((entry) => entry.name === "status")).toMatchObject([
      { id: `status-${requests[1]!.id}`, props: { text: "" }, metadata: { message_id: messages[3]!.id } },
    ]);

    // An opener still silent when the next turn opens (its run failed before it spoke) is removed then; one that took
    // its turn's first words stays.
    const said = new AIMessage({ id: "progress-turn-human-0", content: "Hello!" });
    const silent = new AIMessage({ id: "progress-turn-human-1", content: "" });
    const history = [new HumanMessage({ id: "human-0", content: "hello" }), said];
    const next = new HumanMessage({ id: "human-2", content: "again" });
    const opened = openTurn({ metadata: { run_id: "run-next" } }, [
      ...history,
      new HumanMessage({ id: "human-1", content: "hi" }),
      silent,
      next,
    ]);
    expect(opened.map((message) => [message.getType(), message.id])).toEqual([
      ["remove", silent.id],
      ["ai", "progress-turn-human-2"],
    ]);
  });

  test("the plan's words take the opener's place: the turn has no empty row above its plan, during or after", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`));
    const thread = threadConfig("progress-opener-approved", "student");
    const config = { ...thread, metadata: { run_id: "run-approved" }, streamMode: "values" as const };
    let input: unknown = { messages: [new HumanMessage("Place all my review tasks")] };
    const states: Array<{ messages: BaseMessage[]; status?: string }> = [];
    for (let turn = 0; turn < 20; turn++) {
      for await (const values of await tempo.graph.stream(input as never, config)) {
        const { messages, ui } = values as { messages?: BaseMessage[]; ui?: UIMessage[] };
        if (messages)
          states.push({
            messages,
            status: ui?.find((entry) => entry.name === "status")?.metadata?.message_id as string | undefined,
          });
      }
      const state = await tempo.graph.getState(config);
      if (state.tasks.every((task) => task.interrupts.length === 0)) break;
      input = approveCard({ __interrupt__: state.tasks.flatMap((task) => task.interrupts) });
    }
    const final = states.at(-1)!.messages;
    const opener = `progress-turn-${final[0]!.id}`;
    // The request is followed directly by the plan's words, written under the opener's id; the plan is never removed.
    expect(final[1]!.id).toBe(opener);
    expect(messageText(final[1])).not.toBe("");
    const spoken = states.findIndex((values) => messageText(values.messages[1]) !== "");
    expect(spoken).toBeGreaterThan(0);
    for (const values of states.slice(spoken)) {
      expect(values.messages[1]!.id).toBe(opener);
      expect(values.messages.filter(isEmptyRow)).toEqual([]);
    }
    expect(new Set(final.map((message) => message.id)).size).toBe(final.length);
  });

  test.each([
    ["hello", /^Waiting for the \w+ model… \d+ s$/],
    ["你好", /^正在等待.+模型… \d+ 秒$/],
  ])(
    "a model that keeps the turn waiting (%s): the wait is the turn's status in Chat UI, and none of it is stored",
    async (text, wait) => {
      const week = sampleWeek();
      const policy = new WaitingPolicy();
      const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`), { policy });
      const thread = threadConfig(`progress-wait-${text}`, "student");
      const config = {
        ...thread,
        configurable: { ...thread.configurable, model_status_ms: 5 },
        metadata: { run_id: "run-wait" },
        streamMode: ["custom", "values"] as ("custom" | "values")[],
      };
      const waits: UIMessage[] = [];
      let ticks = 0;
      for await (const [mode, chunk] of await tempo.graph.stream(
        { messages: [new HumanMessage(text)] } as never,
        config,
      )) {
        if (mode !== "custom") continue;
        // The model answers after three of the custom stream's waiting statuses, in the user's language: the wait went on.
        const status = chunk as { kind?: string; text?: string };
        if (status.kind === "status" && wait.test(status.text ?? "") && ++ticks === 3) policy.release();
        const event = chunk as UIMessage;
        if (event.type === "ui" && event.name === "status" && wait.test((event.props as { text: string }).text))
          waits.push(event);
      }
      const state = await tempo.graph.getState(thread);
      const request = (state.values.messages as BaseMessage[])[0]!;
      // Under the turn's opener, as its status: the same component the stages' lines replace, so Chat UI draws it.
      expect(waits.length).toBeGreaterThanOrEqual(2);
      for (const event of waits)
        expect(event).toMatchObject({
          id: `status-${request.id}`,
          name: "status",
          metadata: { message_id: `progress-turn-${request.id}` },
        });
      // Sent through the stream only: no checkpoint of the thread holds a wait line.
      for await (const snapshot of tempo.graph.getStateHistory(thread))
        for (const entry of (snapshot.values as { ui?: UIMessage[] }).ui ?? [])
          expect(wait.test(String((entry.props as { text?: unknown }).text))).toBe(false);
    },
  );

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
