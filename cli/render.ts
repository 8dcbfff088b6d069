/**
 * How the terminal chat shows the conversation: status lines, tool
 * activity, the assistant's text, and the cards a human answers (the plan
 * as a numbered list, a write tool with its arguments, a question). Pure
 * functions from values to text, so the look is unit-tested.
 */
import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { choicesOf, isPlanCard, isQuestionCard } from "./card-answer.js";
import { COMMAND_HELP } from "./commands.js";

/** Prefix of the assistant's text. */
export const ASSISTANT_PREFIX = "tempo> ";
/** Prompt for a new message. */
export const MESSAGE_PROMPT = "you> ";

/** Where execution stands: step `index` (from 1) of `total`. */
export interface StepProgress {
  index: number;
  total: number;
  content: string;
}

/** The step being executed, from graph state values (`planSteps`, `currentStepId`); null when no step runs. */
export function stepProgress(values: { planSteps?: unknown; currentStepId?: unknown } | undefined): StepProgress | null {
  const steps = Array.isArray(values?.planSteps) ? (values.planSteps as Array<{ id?: unknown; content?: unknown }>) : [];
  const index = steps.findIndex((step) => step.id === values?.currentStepId);
  if (index === -1) return null;
  return { index: index + 1, total: steps.length, content: String(steps[index]!.content ?? "") };
}

/** "step 2 of 3: Place each pending review task". */
export function renderProgress(progress: StepProgress): string {
  return `step ${progress.index} of ${progress.total}: ${progress.content}`;
}

/** A status line. */
export function renderStatus(text: string): string {
  return `  · ${text}`;
}

/** A tool call about to run or being applied. */
export function renderToolCall(name: string, args: Record<string, unknown>): string {
  return `  → ${name} ${JSON.stringify(args)}`;
}

/** A tool's result: its first line, marked when the call failed or was not applied. */
export function renderToolResult(ok: boolean, content: string): string {
  const [first = ""] = content.split("\n");
  return `  ${ok ? "←" : "✗"} ${first}${content.includes("\n") ? " …" : ""}`;
}

/** The prompt shown while `card` waits for an answer. */
export function cardPrompt(card: HumanInterrupt): string {
  return isQuestionCard(card) ? "answer> " : "choice> ";
}

/** A card as a framed block: its title, its body, and the choices it allows. */
export function renderCard(card: HumanInterrupt, progress: StepProgress | null = null): string {
  const args = card.action_request.args ?? {};
  let title: string;
  let body: string[];
  if (isQuestionCard(card)) {
    title = "Question";
    body = [String((args as { question?: unknown }).question ?? card.description ?? "")];
  } else if (isPlanCard(card)) {
    const goal = (args as { goal?: unknown }).goal;
    const steps = Array.isArray((args as { plan_steps?: unknown }).plan_steps) ? (args as { plan_steps: Array<{ content?: unknown; done_when?: unknown }> }).plan_steps : [];
    title = `Plan${typeof goal === "string" && goal !== "" ? ` for: ${goal}` : ""}`;
    body = steps.flatMap((step, index) => [`${index + 1}. ${String(step.content ?? "")}`, `   done when: ${String(step.done_when ?? "")}`]);
  } else {
    title = `Confirm write: ${card.action_request.action}${progress ? ` (${renderProgress(progress)})` : ""}`;
    body = [`arguments: ${JSON.stringify(args)}`, ...explanation(card.description)];
  }
  return [`┌─ ${title}`, ...body.flatMap((line) => line.split("\n")).map((line) => `│ ${line}`), `└─ ${choicesOf(card)}`].join("\n");
}

/** The card's description without its "Confirm write: …" headline and closing instructions: the reason, mostly. */
function explanation(description: string | undefined): string[] {
  if (!description) return [];
  const paragraphs = description.split(/\n\s*\n/);
  const body = paragraphs.length > 1 ? paragraphs.slice(0, -1) : paragraphs;
  return body
    .join("\n")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("Confirm write:"));
}

/** What to type to edit `card`. */
export function renderEditInstructions(card: HumanInterrupt): string {
  if (isPlanCard(card)) {
    return "Enter the plan, one step a line as `what to do | done when` (or one JSON list of {content, done_when}); an empty line ends it.";
  }
  return `Enter the arguments as one JSON object (now: ${JSON.stringify(card.action_request.args ?? {})}); an empty line keeps the card waiting.`;
}

/** The /help text. */
export function renderHelp(): string {
  const width = Math.max(...COMMAND_HELP.map(([usage]) => usage.length));
  return [
    "Type a message to give Tempo a task or to chat. At a card, answer with a choice letter.",
    ...COMMAND_HELP.map(([usage, description]) => `  ${usage.padEnd(width)}  ${description}`),
  ].join("\n");
}

/** An error from a run, with its code when Tempo raised it on purpose. */
export function renderError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `error: ${typeof code === "string" ? `[${code}] ` : ""}${error.message}`;
  }
  return `error: ${String(error)}`;
}
