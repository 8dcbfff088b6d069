/**
 * `langgraph dev` serves the graph from langgraph.json: the server starts on
 * a free port, answers /ok, and a whole conversation runs through the SDK
 * client (threads, runs, interrupts resumed with command.resume, state, history).
 * Two front ends' requests are reproduced byte for byte: Agent Chat UI's
 * (`runs.stream` with subgraphs on and its stream modes) and `@langchain/react`'s
 * `useStream` (the SDK's `StreamController`: `run.start`, `input.respond` by
 * interrupt id).
 */
import { Client, type StreamMode } from "@langchain/langgraph-sdk";
import { StreamController } from "@langchain/langgraph-sdk/stream";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLangGraphDev, type LangGraphDevServer } from "../support/langgraph-dev.js";

let server: LangGraphDevServer;
let apiUrl: string;

beforeAll(async () => {
  server = await startLangGraphDev();
  apiUrl = server.apiUrl;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

test("the dev server answers /ok and runs a whole conversation through the SDK", async () => {
  expect(await (await fetch(`${apiUrl}/ok`)).json()).toEqual({ ok: true });
  const client = new Client({ apiUrl });
  const assistants = await client.assistants.search({ graphId: "tempo" });
  expect(assistants.length).toBeGreaterThan(0);
  // Studio renders these: the input is { messages }, the configuration has user_id and max_rounds.
  const schemas = await client.assistants.getSchemas(assistants[0]!.assistant_id);
  expect(Object.keys((schemas.input_schema as { properties?: object } | null)?.properties ?? {})).toEqual(["messages"]);
  expect(Object.keys((schemas.config_schema as { properties?: object } | null)?.properties ?? {}).sort()).toEqual(["max_rounds", "user_id"]);

  const thread = await client.threads.create();
  const config = { configurable: { user_id: "sdk-student" } };
  await client.runs.wait(thread.thread_id, "tempo", { input: { messages: [{ role: "user", content: "Arrange my review week" }] }, config });
  let state = await client.threads.getState(thread.thread_id);
  const first = state.tasks[0]?.interrupts[0]?.value as { action_request: { action: string } };
  expect(first.action_request.action).toBe("confirm_plan");

  const actions: string[] = [];
  for (let turn = 0; turn < 20 && state.tasks.some((task) => task.interrupts.length > 0); turn += 1) {
    actions.push((state.tasks[0]?.interrupts[0]?.value as { action_request: { action: string } }).action_request.action);
    await client.runs.wait(thread.thread_id, "tempo", { command: { resume: { type: "accept", args: null } }, config });
    state = await client.threads.getState(thread.thread_id);
  }
  expect(actions).toEqual(["confirm_plan", ...Array(8).fill("place")]);
  const values = state.values as { phase: string; finalAnswer: string };
  expect(values.phase).toBe("done");
  expect(values.finalAnswer).toContain("Your review week is arranged.");

  const history = await client.threads.getHistory(thread.thread_id, { limit: 200 });
  expect(history.length).toBeGreaterThan(20);
}, 240_000);

/** The `action_request.action` of the card Tempo waits on (its interrupt value). */
type Card = { action_request: { action: string } };

/** How long one run of the useStream conversation may take before the test fails. */
const RUN_END_TIMEOUT_MS = 60_000;

/** One server-sent event of `client.runs.stream`. */
type StreamEvent = { event: string; data: unknown };

/**
 * The stream options Agent Chat UI's `useStream` (`@langchain/langgraph-sdk/react`)
 * puts on every submit: the UI's own `streamMode: ["values"]`, `streamSubgraphs`
 * and `streamResumable`, plus the modes the hook adds because the UI renders
 * messages ("messages-tuple") and has an `onCustomEvent` ("custom").
 */
const AGENT_CHAT_UI_STREAM = {
  streamMode: ["values", "messages-tuple", "custom"] satisfies StreamMode[],
  streamSubgraphs: true,
  streamResumable: true,
  onDisconnect: "continue",
} as const;

/** Streams one run as Agent Chat UI sends it and collects its events. */
async function streamAsAgentChatUi(client: Client, threadId: string, payload: { input: Record<string, unknown>; command?: { resume: unknown } }): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const part of client.runs.stream(threadId, "tempo", { ...payload, ...AGENT_CHAT_UI_STREAM, streamMode: [...AGENT_CHAT_UI_STREAM.streamMode] })) {
    events.push({ event: part.event, data: part.data });
  }
  return events;
}

/** The card in the last root `values` event: what Agent Chat UI shows as the interrupt. */
function cardInValues(events: StreamEvent[]): string | undefined {
  const values = events.filter((part) => part.event === "values").at(-1)?.data as { __interrupt__?: Array<{ value: Card }> } | undefined;
  return values?.__interrupt__?.[0]?.value.action_request.action;
}

/** Stream modes seen, with subgraph namespaces (`custom|plan:…`) folded into their mode. */
function modesSeen(events: StreamEvent[]): string[] {
  return [...new Set(events.map((part) => part.event.split("|")[0]!))].sort();
}

test("Agent Chat UI's request (subgraphs on, values + messages-tuple + custom) runs to Tempo's card, and its resume to the next card", async () => {
  const client = new Client({ apiUrl });
  const thread = await client.threads.create();
  // Agent Chat UI sends the message as content blocks with its own id, and no config.
  const message = { id: "chat-ui-message-1", type: "human", content: [{ type: "text", text: "Arrange my review week" }] };
  const first = await streamAsAgentChatUi(client, thread.thread_id, { input: { messages: [message] } });
  expect(first.filter((part) => part.event === "error"), server.output()).toEqual([]);
  expect(modesSeen(first)).toEqual(expect.arrayContaining(["custom", "messages", "metadata", "values"]));
  expect(cardInValues(first)).toBe("confirm_plan");

  // The UI resumes with an empty input and the answer as command.resume.
  const second = await streamAsAgentChatUi(client, thread.thread_id, { input: {}, command: { resume: { type: "accept", args: null } } });
  expect(second.filter((part) => part.event === "error"), server.output()).toEqual([]);
  expect(cardInValues(second)).toBe("place");

  const runs = await client.runs.list(thread.thread_id);
  expect(runs.map((run) => run.status)).toEqual(["success", "success"]);
  const state = await client.threads.getState(thread.thread_id);
  expect((state.tasks[0]?.interrupts[0]?.value as Card | undefined)?.action_request.action).toBe("place");
}, 240_000);

test("a whole conversation driven as @langchain/react's useStream drives it: submit, read interrupts, respond by interrupt id", async () => {
  // useStream is a React binding over the SDK's StreamController; this drives the controller
  // the way the hook does (activate, submit, respond) and records the commands it sends.
  const commands: Array<{ method: string; params: { interrupt_id?: string; response?: unknown } }> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith("/commands") && typeof init?.body === "string") commands.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  const client = new Client({ apiUrl, callerOptions: { fetch: recordingFetch } });
  const runEnds: Array<(reason: string) => void> = [];
  const controller = new StreamController({
    assistantId: "tempo",
    client,
    threadId: null,
    fetch: recordingFetch,
    onCompleted: ({ reason }) => runEnds.shift()?.(reason),
  });
  const deactivate = controller.activate();
  /** Runs one submit / respond and resolves with how its run ended ("interrupt", "success", "error"). */
  const untilRunEnds = async (start: () => Promise<void>): Promise<string> => {
    const ended = new Promise<string>((resolve) => runEnds.push(resolve));
    await start();
    // A server without the protocol endpoints accepts nothing and ends nothing: fail instead of hanging.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the run did not end in ${RUN_END_TIMEOUT_MS / 1000} s:\n${server.output().slice(-4000)}`)), RUN_END_TIMEOUT_MS);
    });
    return Promise.race([ended, timeout]).finally(() => clearTimeout(timer));
  };
  try {
    const config = { configurable: { user_id: "use-stream-student" } };
    let ended = await untilRunEnds(() => controller.submit({ messages: [{ type: "human", content: "Arrange my review week" }] }, { config }));
    const actions: string[] = [];
    const answered: string[] = [];
    for (let turn = 0; turn < 20 && controller.rootStore.getSnapshot().interrupts.length > 0; turn += 1) {
      expect(ended).toBe("interrupt");
      const card = controller.rootStore.getSnapshot().interrupts[0]!;
      actions.push((card.value as Card).action_request.action);
      answered.push(card.id!);
      ended = await untilRunEnds(() => controller.respond({ type: "accept", args: null }, { interruptId: card.id!, config }));
    }
    expect(ended).toBe("success");
    expect(actions).toEqual(["confirm_plan", ...Array(8).fill("place")]);
    const snapshot = controller.rootStore.getSnapshot();
    expect(snapshot.error).toBeUndefined();
    const values = snapshot.values as { phase?: string; finalAnswer?: string };
    expect(values.phase).toBe("done");
    expect(values.finalAnswer).toContain("Your review week is arranged.");

    // What went over the wire: one run.start, then one input.respond per card, each naming the card's interrupt id.
    expect(commands.map((command) => command.method)).toEqual(["run.start", ...Array(answered.length).fill("input.respond")]);
    expect(commands.slice(1).map((command) => command.params.interrupt_id)).toEqual(answered);
    expect(commands.slice(1).map((command) => command.params.response)).toEqual(answered.map(() => ({ type: "accept", args: null })));
  } finally {
    deactivate();
    await controller.dispose();
  }
}, 240_000);

test("Agent Inbox's Mark as resolved (updateState as END through the SDK) ends the task and clears its card", async () => {
  const client = new Client({ apiUrl });
  const thread = await client.threads.create();
  const config = { configurable: { user_id: "sdk-resolver" } };
  await client.runs.wait(thread.thread_id, "tempo", { input: { messages: [{ role: "user", content: "Arrange my review week" }] }, config });
  expect((await client.threads.getState(thread.thread_id)).tasks[0]?.interrupts).toHaveLength(1);

  await client.threads.updateState(thread.thread_id, { values: null, asNode: "__end__" });
  const state = await client.threads.getState(thread.thread_id);
  expect(state.next).toEqual([]);
  expect(state.tasks.flatMap((task) => task.interrupts)).toEqual([]);
  expect(state.values).toMatchObject({ phase: "chatting", pending: null, outcome: { kind: "dropped", reason: "the thread was ended from the client" } });
}, 240_000);
