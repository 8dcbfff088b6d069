/** Helpers for driving the graph with scripted models. */
import type { CallerRecursionLimit, InvalidConfigurable, RefusedAnswers } from "../../server/run-guard.js";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { RunnableLambda } from "@langchain/core/runnables";
import { Command, MemorySaver, type BaseStore, type Interrupt } from "@langchain/langgraph";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import type { WorkflowSettings } from "../../config/configuration.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { ToolCallingMode } from "../../models/stage-models.js";
import { isStageMessage, wireRole } from "../../contracts/stage-tag.js";

/** A scripted model reply carrying `value` as JSON text. */
export function json(value: unknown): AIMessage {
  return new AIMessage(JSON.stringify(value));
}

/** A plan step as the planner writes it. */
export type StepDraft = { content: string; done_when: string; packs?: string[] };

/** Plan steps named by their contents, each done when "<content> is done". */
export function stepsOf(...contents: string[]): StepDraft[] {
  return contents.map((content) => ({ content, done_when: `${content} is done` }));
}

/** A planner reply that finishes the plan: `plan_done` with `steps`, and the other fields given (speak, reason, complexity …). */
export function planDone(steps: StepDraft[], fields: Record<string, unknown> = {}): AIMessage {
  return json({ ...fields, action: "plan_done", plan_steps: steps });
}

export type Script = Array<AIMessage | Error | string>;

/** A fake model answering the given replies in order (strings become AI text). */
export function scripted(replies: Script) {
  const model = fakeModel();
  for (const reply of replies) model.respond(typeof reply === "string" ? new AIMessage(reply) : reply);
  return model;
}

/** Builds the graph on a MemorySaver with one scripted model per stage. */
export function scriptedGraph(options: {
  domain: ToolDomain;
  chat?: Script;
  plan?: Script;
  execute?: Script;
  deliver?: Script;
  /** The memory stage's model (TaskState summaries, standing preferences); none when absent. */
  memory?: Script;
  settings?: Partial<WorkflowSettings>;
  store?: BaseStore;
  /** The execute stage's tool calling (default auto: native, since fake models have bindTools). */
  toolCalling?: ToolCallingMode;
  /** What a refused answer does (default `throw`; the served graph's `ask_again`). */
  refusedAnswers?: RefusedAnswers;
  /** What a configurable value that cannot work does (`RunGuard.invalidConfigurable`). */
  invalidConfigurable?: InvalidConfigurable;
  /** What a caller's own recursion limit does (`RunGuard.callerRecursionLimit`; the served graph's `ignore`). */
  callerRecursionLimit?: CallerRecursionLimit;
  /** The clock the stages' "now" is read from (default the system clock). */
  now?: () => Date;
}) {
  const models = {
    chat: scripted(options.chat ?? [json({ intent: "task", reply: "", reason: "needs tools" })]),
    plan: scripted(options.plan ?? []),
    execute: scripted(options.execute ?? []),
    deliver: scripted(options.deliver ?? ["All done."]),
    ...(options.memory ? { memory: scripted(options.memory) } : {}),
  };
  const checkpointer = new MemorySaver();
  // Scripts name every planner call, a replan after each step included: the planner reviews every step here unless a test says otherwise.
  const settings = { replanAfterStep: "always" as const, ...options.settings };
  const graph = buildTempoGraph({
    models: { default: models.chat, ...models, toolCalling: options.toolCalling },
    domain: options.domain,
    checkpointer,
    settings,
    store: options.store,
    refusedAnswers: options.refusedAnswers,
    invalidConfigurable: options.invalidConfigurable,
    callerRecursionLimit: options.callerRecursionLimit,
    now: options.now,
  });
  return { graph, models, checkpointer };
}

/**
 * The text of a prompt's stage messages, joined: the system message (the shared head's), then the stage's own
 * (prompts/stage-messages.ts, contracts/stage-tag.ts).
 */
export function systemText(messages: readonly BaseMessage[]): string {
  return messages
    .filter((message) => isStageMessage(wireRole(message), String(message.content)))
    .map((message) => String(message.content))
    .join("\n\n");
}

/** How many leading parts (serialised messages, …) two requests share byte for byte, up to the first that differs. */
export function sharedLeadingParts(left: readonly string[], right: readonly string[]): number {
  let at = 0;
  while (at < Math.min(left.length, right.length) && left[at] === right[at]) at += 1;
  return at;
}

/** "type:content" lines with tool calls shown, for asserting whole message sequences. */
export function transcript(messages: BaseMessage[]): string[] {
  return messages.map((message) => {
    const type = message.getType();
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    const calls = (message as AIMessage).tool_calls ?? [];
    if (calls.length)
      return `${type}:${text}|calls:${calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(",")}`;
    if (type === "tool")
      return `tool:${(message as unknown as { tool_call_id: string }).tool_call_id ? "" : "!"}${text}`;
    return `${type}:${text}`;
  });
}

/**
 * Pairing problems, [] when every tool call is answered, once, by a later tool message, and every tool message
 * answers an open call. Not necessarily directly: between a card's proposal and its answers may come the user's
 * reply by message or a note (prompts send only the workspace, where answers follow their calls). `waiting`: the calls
 * of the card the thread waits on, open until it is answered.
 */
export function unpairedToolCalls(messages: BaseMessage[], waiting: readonly string[] = []): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  messages.forEach((message, index) => {
    const toolCallId = (message as unknown as { tool_call_id?: string }).tool_call_id;
    if (message.getType() !== "tool") {
      for (const call of (message as AIMessage).tool_calls ?? []) open.add(call.id ?? "");
    } else if (!toolCallId || !open.delete(toolCallId)) {
      problems.push(`tool message ${toolCallId} at ${index} answers no open call`);
    }
  });
  for (const id of waiting) open.delete(id);
  if (open.size > 0) problems.push(`calls ${[...open].join(", ")} are never answered`);
  return problems;
}

/** Run config for a thread of a user. */
export function threadConfig(threadId: string, userId = "user-1") {
  return { configurable: { thread_id: threadId, user_id: userId } };
}

/** A resume command, typed to fit any graph's invoke. */
export function resume(value: unknown): Command<unknown, Record<string, never>, never> {
  return new Command({ resume: value });
}

/** The interrupts an invoke result carries (LangGraph puts them under `__interrupt__`). */
export function interruptsOf(result: object): Interrupt[] {
  return (result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [];
}

/** The resume approving every action of the card `result` waits on (v1 decisions, one per action). */
export function approveCard(result: object): Command<unknown, Record<string, never>, never> {
  const card = interruptsOf(result)[0]?.value as { action_requests?: unknown[] } | undefined;
  return resume({ decisions: (card?.action_requests ?? [null]).map(() => ({ type: "approve" })) });
}

/**
 * A graph whose chat starts a task, with the planner and execute models given and native tool calls; the planner
 * reviews no step. For tests of what the execute stage is offered and does with it.
 */
export function nativeToolGraph(
  domain: ToolDomain,
  plan: ReturnType<typeof scripted>,
  execute: ReturnType<typeof scripted>,
) {
  return buildTempoGraph({
    models: {
      default: scripted([json({ intent: "task", reply: "", reason: "" })]),
      plan,
      execute,
      deliver: scripted(["Done."]),
      toolCalling: "native",
    },
    domain,
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
  });
}

/** `model`, recording for each request the names of the tools bound to it (in `offered`, one list a request). */
export function recordingBoundTools(model: ReturnType<typeof scripted>): string[][] {
  const offered: string[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = ((tools: Array<{ name: string }>) => {
    const bound = bindTools(tools as never);
    const names = tools.map((tool) => tool.name);
    return RunnableLambda.from(async (messages: BaseMessage[], config) => {
      offered.push(names);
      return bound.invoke(messages, config);
    });
  }) as never;
  return offered;
}
