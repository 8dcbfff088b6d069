/** Helpers for driving the graph with scripted models. */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command, MemorySaver, type Interrupt } from "@langchain/langgraph";
import { buildTempoGraph } from "../../graphs/tempo.js";
import type { WorkflowSettings } from "../../config/configuration.js";
import type { ToolDomain } from "../../tools/domain.js";

/** A scripted model reply carrying `value` as JSON text. */
export function json(value: unknown): AIMessage {
  return new AIMessage(JSON.stringify(value));
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
  settings?: Partial<WorkflowSettings>;
}) {
  const models = {
    chat: scripted(options.chat ?? [json({ intent: "task", reply: "", reason: "needs tools" })]),
    plan: scripted(options.plan ?? []),
    execute: scripted(options.execute ?? []),
    deliver: scripted(options.deliver ?? ["All done."]),
  };
  const checkpointer = new MemorySaver();
  const graph = buildTempoGraph({ models: { default: models.chat, ...models }, domain: options.domain, checkpointer, settings: options.settings });
  return { graph, models, checkpointer };
}

/** "type:content" lines with tool calls shown, for asserting whole message sequences. */
export function transcript(messages: BaseMessage[]): string[] {
  return messages.map((message) => {
    const type = message.getType();
    const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    const calls = (message as AIMessage).tool_calls ?? [];
    if (calls.length) return `${type}:${text}|calls:${calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`).join(",")}`;
    if (type === "tool") return `tool:${(message as unknown as { tool_call_id: string }).tool_call_id ? "" : "!"}${text}`;
    return `${type}:${text}`;
  });
}

/** Asserts-friendly check: every assistant tool call is followed by its tool message, and every tool message answers one. */
export function unpairedToolCalls(messages: BaseMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    for (const call of (message as AIMessage).tool_calls ?? []) {
      const next = messages[index + 1] as { tool_call_id?: string } | undefined;
      if (next?.tool_call_id !== call.id) problems.push(`call ${call.id} (${call.name}) at ${index} is not followed by its tool message`);
    }
    if (message.getType() === "tool") {
      const previous = messages[index - 1] as AIMessage | undefined;
      const id = (message as unknown as { tool_call_id: string }).tool_call_id;
      if (!(previous?.tool_calls ?? []).some((call) => call.id === id)) problems.push(`tool message ${id} at ${index} answers no preceding call`);
    }
  });
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
