/**
 * Hostile input (issue 12.3): text Postgres cannot store (NUL, unpaired
 * surrogates) anywhere a caller writes — messages, message ids, feedback,
 * edits, object keys, the thread id —, inputs and answers over their size
 * limits, and messages that would remove or overwrite messages of the thread.
 * Each is refused with INVALID_INPUT before anything is written: the thread
 * stays at the same checkpoint, the schedule is unchanged, and the thread is
 * still usable afterwards. On Postgres (through `createTempo`, whose memory
 * store is where such text used to fail for good) the thread then finishes
 * its task and chats on.
 */
import { AIMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { TempoError } from "../../errors/index.js";
import type { TempoState } from "../../kernel/state.js";
import { createTempo, type Tempo } from "../../server/create-tempo.js";
import type { ScheduleRepository } from "../../tools/schedule/repository.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig, unpairedToolCalls } from "../support/scripted.js";
import { snapshot, thrownBy } from "./support/thread-state.js";
import { afterAll, beforeAll } from "vitest";

const plan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const addNote = (text: string) =>
  json({ speak: "Adding.", action: "confirm", reason: "asked", tool_call: { name: "add_note", arguments: { text } } });
const done = json({ action: "done", goal_check: "the note is listed" });
const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const accept = resume({ type: "accept", args: null });
const NUL = "\u0000";
const LONE_LOW = "\udc00";
const LONE_HIGH = "\ud800";

/** A thread waiting on its second add_note card: the first write (its tool-call and tool messages) is in the thread. */
async function threadAtWriteCard(threadId: string) {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  const { graph } = scriptedGraph({ domain, plan: [plan], execute: [addNote("call mom"), addNote("call dad"), done] });
  const config = threadConfig(threadId);
  await graph.invoke(message("Add notes: call mom, call dad"), config);
  await graph.invoke(accept, config);
  await graph.invoke(accept, config);
  return { graph, domain, config };
}

/** The id of the assistant message that carries the pending write's tool call. */
function toolCallMessageId(values: TempoState): string {
  const carrier = values.messages.find((entry) => ((entry as AIMessage).tool_calls ?? []).length > 0);
  if (!carrier?.id) throw new Error("no tool-call message with an id");
  return carrier.id;
}

type Hostile = [label: string, input: (values: TempoState) => unknown, expected: RegExp];

const hostileInputs: Hostile[] = [
  [
    "a message with a NUL",
    () => message(`call${NUL}mom`),
    /a NUL character \(\\u0000\) at input\.messages\[0\]\.content/,
  ],
  [
    "a message with a lone low surrogate",
    () => message(`call ${LONE_LOW} mom`),
    /an unpaired UTF-16 surrogate at input\.messages\[0\]\.content/,
  ],
  [
    "a message whose id holds a NUL",
    () => ({ messages: [new HumanMessage({ content: "hello", id: `id${NUL}` })] }),
    /a NUL character .* at input\.messages\[0\]\.id/,
  ],
  [
    "a message as a role object with a lone high surrogate",
    () => ({ messages: [{ role: "user", content: `x${LONE_HIGH}` }] }),
    /unpaired UTF-16 surrogate at input\.messages\[0\]\.content/,
  ],
  [
    "feedback with a NUL",
    () => resume({ type: "response", args: `not now${NUL}` }),
    /a NUL character .* at input\.resume\.args/,
  ],
  [
    "an edit with a lone surrogate",
    () => resume({ type: "edit", args: { action: "add_note", args: { text: `call ${LONE_HIGH}mom` } } }),
    /unpaired UTF-16 surrogate at input\.resume\.args\.args\.text/,
  ],
  [
    "an answer with a NUL in a key",
    () => resume({ type: "accept", args: null, [`note${NUL}`]: 1 }),
    /a NUL character .* at input\.resume \(a key\)/,
  ],
  [
    "a 10 MB response",
    () => resume({ type: "response", args: "x".repeat(10 * 1024 * 1024) }),
    /^The answer \(resume\) has 10485\d+ characters; the limit is 100000/,
  ],
  [
    "200 messages of 99 000 characters in one input",
    () => ({
      messages: Array.from({ length: 200 }, (_, index) => new HumanMessage(`${index} ${"y".repeat(99_000 - 4)}`)),
    }),
    /^The input has \d+ characters in all; the limit is 200000/,
  ],
  [
    "a remove message for the assistant's tool-call message",
    (values) => ({ messages: [{ type: "remove", id: toolCallMessageId(values) }] }),
    /Removing messages from a thread is not allowed/,
  ],
  [
    "a RemoveMessage instance",
    (values) => ({ messages: [new RemoveMessage({ id: toolCallMessageId(values) })] }),
    /Removing messages from a thread is not allowed/,
  ],
  [
    "a message reusing the tool-call message's id",
    (values) => ({ messages: [new HumanMessage({ content: "replaced", id: toolCallMessageId(values) })] }),
    /A message with id .* is already in the thread/,
  ],
  [
    "two new messages with one id",
    () => ({
      messages: [new HumanMessage({ content: "a", id: "same" }), new HumanMessage({ content: "b", id: "same" })],
    }),
    /A message with id same is already/,
  ],
];

describe("refused with INVALID_INPUT before anything is written; the thread stays usable", () => {
  test.each(hostileInputs)("%s", async (_label, input, expected) => {
    const { graph, domain, config } = await threadAtWriteCard(`hostile-${_label}`);
    const before = await snapshot(graph, config);
    const error = await thrownBy(graph.invoke(input(before.values) as never, config));
    expect(error).toBeInstanceOf(TempoError);
    expect(error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(expected) });
    expect((error as Error).message).toContain("nothing was changed");

    const after = await snapshot(graph, config);
    expect(after.checkpointId).toBe(before.checkpointId);
    expect(after.values).toEqual(before.values);
    expect(after.interrupts).toEqual(before.interrupts);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });

    // Still usable: the card it waits on is answered and the task finishes.
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom", "call dad"] });
    expect(unpairedToolCalls(final.messages)).toEqual([]);
  });

  test("a thread id or user id with a NUL is refused; nothing is created", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain() });
    for (const config of [threadConfig(`thread${NUL}`), threadConfig("fine-thread", `user${LONE_LOW}`)]) {
      const error = await thrownBy(graph.invoke(message("hello"), config));
      expect(error).toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/at configurable\.(thread_id|user_id)/),
      });
    }
    expect((await graph.getState(threadConfig("fine-thread"))).createdAt).toBeUndefined();
  });

  test("a message at the size limit, and clean text with emoji and CJK (paired surrogates), are accepted", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [json({ intent: "chat", reply: "好的 👍", reason: "small talk" })],
    });
    const result = await graph.invoke(message("安排复习 📚 please"), threadConfig("clean-text"));
    expect(String(result.messages.at(-1)?.content)).toBe("好的 👍");
  });
});

describe.each(postgresTargets())("through createTempo on $kind postgres", (target) => {
  let server: TestPostgres;
  let tempo: Tempo;
  beforeAll(async () => {
    server = await target.start();
    tempo = await createTempo(readSettings({ DATABASE_URL: server.url }));
  });
  afterAll(async () => {
    await tempo?.close();
    await server?.stop();
  });

  test("NUL and lone surrogates in feedback and messages are refused; the schedule is unchanged; the task finishes and the thread chats on", async () => {
    const config = {
      configurable: { thread_id: `hostile-pg-${target.kind}`, user_id: `student-hostile-${target.kind}` },
    };
    const first = await tempo.graph.invoke(message("Help me arrange next week's review"), config);
    expect(interruptsOf(first)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
    const scheduleBefore = await tempo.repositoryOf<ScheduleRepository>("schedule").load(config.configurable.user_id);
    const before = await tempo.graph.getState(config);

    for (const input of [
      resume({ type: "response", args: `later${NUL}` }),
      message(`arrange ${LONE_LOW}`),
      resume({ type: "response", args: "x".repeat(10 * 1024 * 1024) }),
    ]) {
      const error = await thrownBy(tempo.graph.invoke(input as never, config));
      expect(error).toMatchObject({ code: "INVALID_INPUT" });
    }
    const after = await tempo.graph.getState(config);
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    expect(await tempo.repositoryOf<ScheduleRepository>("schedule").load(config.configurable.user_id)).toEqual(
      scheduleBefore,
    );

    let result: object = await tempo.graph.invoke(accept, config);
    for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1)
      result = await tempo.graph.invoke(accept, config);
    expect((result as TempoState).phase).toBe("done");
    // The memory step (Postgres store, jsonb) runs on every later turn too.
    const chat = await tempo.graph.invoke(message("thanks"), config);
    expect(chat.messages.at(-1)?.getType()).toBe("ai");
  });
});
