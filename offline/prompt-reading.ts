/**
 * Reads a stage prompt the way an offline policy (any domain's) needs it, by the section
 * names of `prompts/` rather than by message positions, so that sections
 * added to a prompt (memory, task state, …) change nothing: the stage tag of
 * the system messages, tagged sections (`<requirement>`, `<scratchpad>`,
 * `<live_state>`, `<pinned key="…">`, `<stage_state>`, `<instruction>`), and
 * the workspace — the tool rounds of the current step, whole or as the
 * one-line summaries of compressed rounds.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { languageInstruction, languageOf, type Language } from "../contracts/language.js";
import { CONTEXT_DATA_KEY, messageText as textOf } from "../contracts/message-text.js";
import { isStageMessage, stageNamed, wireRole } from "../contracts/stage-tag.js";
import { callOutcomeOf, toolResultData, type CallOutcome } from "../kernel/tool-results.js";

/** One tool round as the prompt shows it. */
export interface RoundView {
  /** Tool name. */
  name: string;
  /** Arguments (parsed back from a summary line as far as they survived). */
  arguments: Record<string, unknown>;
  /** What the assistant said with the call. */
  speak: string;
  /** The tool result (the start of it, for a summarised round). */
  result: string;
  /** True for a round seen only as a summary line. */
  summarised: boolean;
  /** What became of the call (the tool message's recorded outcome); undefined for a summarised round. */
  outcome?: CallOutcome;
  /** The tool's structured result (`ToolRun.data`, the tool message's artifact); undefined for a summarised round or a tool that gives none. */
  data?: unknown;
}

/** A stage prompt, read. */
export interface PromptView {
  /** The stage tag of the stage messages (`chat`, `plan`, `execute`, …). */
  stage: string;
  /** The stage messages' text (the system message — the shared head's — then the stage's own). */
  system: string;
  /** Every user-role message outside the workspace, joined. */
  context: string;
  /** The workspace: messages between the conversation message and the final instruction message. */
  workspace: BaseMessage[];
  /** The workspace's tool rounds, oldest first. */
  rounds: RoundView[];
  /** The structured data of context sections, by section name (e.g. `live_state`: the preflight tool's data). */
  contextData: Readonly<Record<string, unknown>>;
}

/** Reads the prompt. */
export function readPrompt(messages: BaseMessage[]): PromptView {
  // The stage messages: the system message, and after a shared head the stage's own user message (its stage tag first).
  const said = messages.map((message) => ({ role: wireRole(message), text: textOf(message) }));
  const system = said
    .filter((message) => isStageMessage(message.role, message.text))
    .map((message) => message.text)
    .join("\n\n");
  const stage = stageNamed(said);
  const conversationIndex = messages.findIndex(
    (message) => message.getType() === "human" && textOf(message).includes("<conversation>"),
  );
  const instructionIndex = messages.findLastIndex(
    (message) => message.getType() === "human" && textOf(message).includes("<instruction>"),
  );
  const first = conversationIndex === -1 ? 1 : conversationIndex + 1;
  const last = instructionIndex === -1 ? messages.length : instructionIndex;
  const workspace = messages.slice(first, Math.max(first, last));
  const outside = messages.filter(
    (message, index) =>
      message.getType() === "human" &&
      (index < first || index >= last) &&
      !isStageMessage(said[index]!.role, said[index]!.text),
  );
  const contextData = Object.assign(
    {},
    ...outside.map(
      (message) => (message.additional_kwargs?.[CONTEXT_DATA_KEY] as Record<string, unknown> | undefined) ?? {},
    ),
  ) as Record<string, unknown>;
  return {
    stage,
    system,
    context: outside.map(textOf).join("\n\n"),
    workspace,
    rounds: toolRounds(workspace),
    contextData,
  };
}

/** The text of a tagged section (`<tag>…</tag>`, or `<pinned key="tag">…</pinned>`), or "". */
export function section(text: string, tag: string): string {
  const plain = new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text);
  if (plain) return plain[1] ?? "";
  return new RegExp(`<pinned key="${tag}">\\n?([\\s\\S]*?)\\n?</pinned>`).exec(text)?.[1] ?? "";
}

/** The goal of the task: the requirement, else the stage state's `Goal:` line, else the latest user message. */
export function goalOf(view: PromptView): string {
  const requirement = section(view.context, "requirement").trim();
  if (requirement) return requirement;
  const state = section(view.context, "stage_state");
  const goal = /^Goal: ([\s\S]*?)(?=\n[A-Z][\w ]*:|$)/m.exec(state)?.[1]?.trim();
  if (goal) return goal;
  return latestUserLine(view);
}

/** The latest `user:` line of the conversation section. */
export function latestUserLine(view: PromptView): string {
  const lines = section(view.context, "conversation").split("\n");
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? "";
    if (line.startsWith("user: ")) return line.slice("user: ".length);
  }
  return "";
}

/** The message the chat stage is asked about: its instruction's "Latest user message", else the latest `user:` line. */
export function latestMessage(view: PromptView): string {
  return (
    /Latest user message:\s*([\s\S]*)$/.exec(section(view.context, "instruction"))?.[1] ?? latestUserLine(view)
  ).trim();
}

/**
 * The language to answer the chat stage's message in: the message's own when it tells, else the conversation's
 * (`contracts/language.ts`): a Chinese user's "a" or "ok" is answered in Chinese.
 */
export function chatLanguage(view: PromptView): Language {
  return toldChinese(view) ? "zh" : languageOf([...userLines(view), latestMessage(view)]);
}

/**
 * True when the prompt tells the model to write Chinese (`languageInstruction`): the graph read the user's language
 * from every message of the thread, while the prompt's conversation holds only its last few (after a long task, tool
 * results alone), so a policy that read the language from those lines answered a Chinese user in English.
 */
function toldChinese(view: Pick<PromptView, "system">): boolean {
  return view.system.includes(languageInstruction("zh"));
}

/** Every `user:` line of the conversation section, oldest first. */
export function userLines(view: PromptView): string[] {
  return section(view.context, "conversation")
    .split("\n")
    .filter((line) => line.startsWith("user: "))
    .map((line) => line.slice("user: ".length));
}

/**
 * The user's lines before `message` (the latest): the conversation may end with the message itself (a task stage's
 * view), or not yet hold it (the chat stage's).
 */
export function userLinesBefore(view: PromptView, message: string): string[] {
  const lines = userLines(view);
  return lines.at(-1)?.trim() === message.trim() ? lines.slice(0, -1) : lines;
}

/** The user's language, from what they wrote: the conversation's user lines and the task's goal (`contracts/language.ts`). */
export function userLanguage(view: PromptView): Language {
  return toldChinese(view) ? "zh" : languageOf([goalOf(view), ...userLines(view)]);
}

/** The user's reply to a question the execute stage asked in this step: a user message right after an assistant message with no calls. */
export function questionAnswer(view: PromptView): string | undefined {
  const messages = view.workspace;
  for (let index = messages.length - 1; index > 0; index -= 1) {
    const message = messages[index]!;
    if (message.getType() !== "human") continue;
    const before = messages[index - 1]!;
    const text = textOf(message).trim();
    if (
      before.getType() === "ai" &&
      ((before as { tool_calls?: unknown[] }).tool_calls ?? []).length === 0 &&
      text !== "" &&
      !text.startsWith("- called ") &&
      !text.startsWith("Your last answer could not be used")
    )
      return text;
  }
  return undefined;
}

/** The current step of the pinned execution context: its position and text. */
export function currentStepOf(view: PromptView): { index: number; total: number; content: string } {
  const match = /Current step \((\d+) of (\d+)\): (.*)/.exec(
    section(view.context, "execution_context") || view.context,
  );
  return { index: Number(match?.[1] ?? 1), total: Number(match?.[2] ?? 1), content: match?.[3] ?? "" };
}

/** The workspace's tool rounds: summary lines of compressed rounds, then whole rounds, in order. */
function toolRounds(messages: BaseMessage[]): RoundView[] {
  const rounds: RoundView[] = [];
  messages.forEach((message, index) => {
    if (message.getType() === "human") {
      for (const line of textOf(message).split("\n")) {
        const summary = /^- called (\S+) (.*?) → (.*)$/.exec(line);
        if (summary)
          rounds.push({
            name: summary[1] ?? "",
            arguments: summaryArguments(summary[2] ?? ""),
            speak: "",
            result: summary[3] ?? "",
            summarised: true,
          });
      }
      return;
    }
    // A round may carry several calls (a batch card's writes): each with the tool message answering it.
    const answers = messages.slice(index + 1).filter((candidate) => candidate.getType() === "tool") as ToolMessage[];
    ((message as AIMessage).tool_calls ?? []).forEach((call, position) => {
      const result = answers.find((answer) => answer.tool_call_id === call.id);
      if (!result) return;
      const data = toolResultData(result);
      rounds.push({
        name: call.name,
        arguments: call.args,
        speak: position === 0 ? textOf(message) : "",
        result: textOf(result),
        summarised: false,
        outcome: callOutcomeOf(result),
        ...(data === undefined ? {} : { data }),
      });
    });
  });
  return rounds;
}

/** Arguments of a summary line: the JSON when it is whole, else the string and number fields still readable. */
function summaryArguments(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    const fields: Record<string, unknown> = {};
    for (const match of text.matchAll(/"(\w+)":(?:"((?:[^"\\]|\\.)*)"|(-?\d+))/g))
      fields[match[1] ?? ""] = match[2] ?? Number(match[3]);
    return fields;
  }
}
