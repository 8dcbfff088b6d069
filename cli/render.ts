/**
 * How the terminal chat shows the conversation: status lines, tool
 * activity, the assistant's text, and the cards a human answers (the plan
 * as a numbered list, a write tool with its arguments, a question). Pure
 * functions from values to text, so the look is unit-tested.
 */
import type { Card } from "../contracts/cards.js";
import { withCalendarsNamed } from "../contracts/attached-calendar.js";
import { say, type Language } from "../contracts/language.js";
import { choicesOf, isBatchCard, isPlanCard, isQuestionCard } from "./card-answer.js";
import { CARD_WORDS, ERROR_LABEL, HELP_INTRO, PROMPTS, REASONING_LABEL, tell } from "./chat-words.js";
import { COMMAND_HELP } from "./commands.js";

/** Prefix of the assistant's text. */
export const ASSISTANT_PREFIX = "tempo> ";

/** A status line. */
export function renderStatus(text: string): string {
  return `  · ${text}`;
}

/** The reasoning a model returned, as its own indented block (never part of the answer line), labelled in `language`. */
export function renderReasoning(text: string, language: Language = "en"): string {
  const lines = text
    .trim()
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  return [`  ┆ ${tell(language, REASONING_LABEL)}`, ...lines.map((line) => `  ┆ ${line}`)].join("\n");
}

/** A tool call about to run or being applied. */
export function renderToolCall(name: string, args: Record<string, unknown>): string {
  return `  → ${name} ${shownArguments(args)}`;
}

/**
 * A call's arguments as JSON for a line of the terminal, a calendar file's text named by its size ("[calendar file:
 * 6 events, 2.4 KB]") rather than printed whole, which for a term's timetable is thousands of characters on one line.
 * Editing a write shows its arguments whole (`renderEditInstructions`).
 */
function shownArguments(args: Record<string, unknown>): string {
  return JSON.stringify(withCalendarsNamed(args));
}

/** A tool's result: its first line, marked when the call failed or was not applied. */
export function renderToolResult(ok: boolean, content: string): string {
  const [first = ""] = content.split("\n");
  return `  ${ok ? "←" : "✗"} ${first}${content.includes("\n") ? " …" : ""}`;
}

/** The prompt shown while `card` waits for an answer, in the user's `language` ("choice> ", "选择> "). */
export function cardPrompt(card: Card, language: Language = "en"): string {
  return tell(language, isQuestionCard(card) ? PROMPTS.answer : PROMPTS.choice);
}

/**
 * A card as a framed block: its title, the description every front end shows
 * (markdown read as plain text, without the closing instructions), a write's
 * arguments in the debug view (`verbose`), and the choices it allows — its fixed words in the user's `language`.
 */
export function renderCard(card: Card, options: { verbose?: boolean; language?: Language } = {}): string {
  const verbose = options.verbose ?? false;
  const language = options.language ?? "en";
  const [request] = card.action_requests;
  let title: string;
  let body: string[];
  if (isQuestionCard(card)) {
    title = say(language, "Question", "问题");
    body = [request!.description];
  } else if (isBatchCard(card)) {
    // A batch card: each change numbered, with its arguments; then why and where the plan stands.
    const context = request!.description.split(/\n\s*\n/).filter((paragraph) => /^\*\*(Why|Step)\b/.test(paragraph));
    const change = (action: Card["action_requests"][number]) =>
      (action.description.split(/\n\s*\n/)[0] ?? "").replace(
        /^(?:Change \d+ of \d+: |第 \d+ 项修改（共 \d+ 项）：)/,
        "",
      );
    const count = card.action_requests.length;
    title = say(language, `Confirm ${count} writes`, `确认 ${count} 项修改`);
    body = [
      say(language, `${count} changes proposed together:`, `一起提出的 ${count} 项修改：`),
      ...card.action_requests.map(
        (action, index) =>
          `${index + 1}. ${plainText(change(action))}${verbose ? `\n   arguments: ${shownArguments(action.args)}` : ""}`,
      ),
      ...context.map(plainText),
    ];
  } else {
    title = isPlanCard(card)
      ? say(language, "Plan", "计划")
      : say(language, `Confirm write: ${request!.name}`, verbose ? `确认修改：${request!.name}` : "确认修改");
    body = card.action_requests.flatMap((action) => [
      ...withoutInstructions(action.description).map(plainText),
      ...(isPlanCard(card) || !verbose ? [] : [`arguments: ${shownArguments(action.args)}`]),
    ]);
  }
  return [
    `┌─ ${title}`,
    ...body.flatMap((line) => line.split("\n")).map((line) => `│ ${line}`.trimEnd()),
    `└─ ${choicesOf(card, language)}`,
  ].join("\n");
}

/** A card description's paragraphs without the last one (what to answer, which the choices line says). */
function withoutInstructions(description: string): string[] {
  const paragraphs = description.split(/\n\s*\n/);
  return paragraphs.length > 1 ? paragraphs.slice(0, -1) : paragraphs;
}

/** Markdown emphasis and hard line breaks removed, for the terminal. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\*([^*]+)\*/g, "$1")
    .replace(/ {2}$/gm, "");
}

/** What to type to edit `card` (its write at `index`, on a batch card). */
export function renderEditInstructions(card: Card, index = 0, language: Language = "en"): string {
  if (isPlanCard(card)) return tell(language, CARD_WORDS.enterPlan);
  const now = JSON.stringify(card.action_requests[index]?.args ?? {});
  return tell(language, CARD_WORDS.enterArguments(isBatchCard(card) ? index + 1 : undefined, now));
}

/** The /help text, in the user's `language` (the commands keep their names). */
export function renderHelp(language: Language = "en"): string {
  const width = Math.max(...COMMAND_HELP.map(([usage]) => usage.length));
  return [
    tell(language, HELP_INTRO),
    ...COMMAND_HELP.map(([usage, english, chinese]) => `  ${usage.padEnd(width)}  ${say(language, english, chinese)}`),
  ].join("\n");
}

/** An error from a run, with its code when Tempo raised it on purpose; its label in the user's `language`. */
export function renderError(error: unknown, language: Language = "en"): string {
  const label = tell(language, ERROR_LABEL);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${label}${typeof code === "string" ? `[${code}] ` : ""}${error.message}`;
  }
  return `${label}${String(error)}`;
}
