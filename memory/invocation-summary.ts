/**
 * What memorize extracts from an invocation without a model: a one-line
 * conversation summary, facts the user stated about themselves, and an
 * episode for a task. A `memory` stage model, when configured, can do better;
 * this is the deterministic baseline and the named fallback.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { messageText, oneLine } from "../contracts/message-text.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import { trimEdges } from "../contracts/edge-trim.js";
import type { TempoState } from "../kernel/state.js";
import { callOutcomeOf } from "../kernel/tool-results.js";
import type { Episode } from "./long-term.js";

/** A sentence about the user: it names them (I, my, me, we …; 我) and says something that lasts about them. */
const SELF_STATEMENT =
  /\b(?:i|i'm|i am|my|me|mine|we|we're|our|us)\b[^.!?\n]*\b(?:prefer|like|love|hate|dislike|don't|do not|never|always|usually|want|need|can't|cannot|study|work|have|best|worst)\b|\b(?:prefer|like|love|hate|dislike|don't|do not|never|always|usually|want|need|can't|cannot|study|work|have|best|worst)\b[^.!?\n]*\b(?:i|me|my|mine|we|us|our)\b/i;
/** A lasting statement that names no one ("Mornings work best", "Never on Monday", "晚上复习效果最好"). */
const STANDING_STATEMENT =
  /\b(?:never|always|usually|normally|every (?:day|week|morning|evening|time)|works? best|is best|are best)\b|喜欢|不喜欢|习惯|希望|一般|通常|总是|从不|从来不|不能|需要|最好|效果好/i;
/** Chinese first person with what lasts about them. */
const SELF_STATEMENT_CHINESE = /我[^。！？\n]*(?:喜欢|不喜欢|习惯|希望|想|不想|一般|通常|总是|从不|不能|需要)/;
const CJK = /[\u3400-\u9fff]/;
/** The longest sentence kept as a fact. */
const MAX_FACT_LENGTH = 200;

/**
 * Sentences in which the user states durable things about themselves — whether or not they begin with "I" or "my"
 * ("Mornings work best for me", "Never on Monday"), Chinese ones however short ("我喜欢晚上复习": a Chinese character
 * says as much as an English word). Questions are asked, not stated.
 */
export function extractUserFacts(userTexts: string[]): string[] {
  const facts: string[] = [];
  for (const text of userTexts) {
    for (const piece of text.split(/(?<=[.!?。！？\n])|[;；]/)) {
      // The marks trimmed in one pass, and a sentence too long to keep never read by the patterns below: their runs
      // backtrack in time quadratic in the text, and a message of 100 000 "我" held the event loop for half a minute.
      const sentence = trimEdges(piece.trim(), /[,;，；.。!！]/, "end");
      if (sentence === "" || sentence.length > MAX_FACT_LENGTH || /[?？]$/.test(sentence)) continue;
      const stated =
        SELF_STATEMENT.test(sentence) || SELF_STATEMENT_CHINESE.test(sentence) || STANDING_STATEMENT.test(sentence);
      const shortest = CJK.test(sentence) ? 4 : 8;
      if (stated && sentence.length >= shortest) facts.push(sentence);
    }
  }
  return [...new Set(facts)];
}

/** "User asked X, agent did Y, result Z." for the invocation's messages. */
export function summarizeInvocation(
  state: Pick<TempoState, "goal" | "planSteps" | "finalAnswer" | "phase" | "outcome">,
  invocation: BaseMessage[],
  wasTask: boolean,
): string {
  // A calendar file is named, not quoted: the summary is recalled on later invocations.
  const asked = invocation
    .filter((message) => message.getType() === "human")
    .map((message) => withoutCalendarText(messageText(message)))
    .filter(Boolean);
  const replies = invocation.filter((message) => message.getType() === "ai" && messageText(message)).map(messageText);
  const question = oneLine(wasTask ? state.goal || asked[0] || "" : (asked.at(-1) ?? ""), 160);
  if (!wasTask) return `User said: "${question}"; agent replied: "${oneLine(replies.at(-1) ?? "", 160)}".`;
  const done = state.planSteps.filter((step) => step.status === "done").length;
  const calls = invocation.filter((message) => message.getType() === "tool").length;
  return `User asked: "${question}"; agent ran a ${state.planSteps.length}-step plan (${done} done) with ${calls} tool calls; ${state.outcome?.kind ?? "ended"}: "${oneLine(state.finalAnswer ?? replies.at(-1) ?? "", 200)}".`;
}

/** The episode of an ended task: goal, key steps, its real outcome (kind, reason, answer), lessons. */
export function taskEpisode(
  state: Pick<TempoState, "goal" | "planSteps" | "finalAnswer" | "lastError" | "outcome">,
  invocation: BaseMessage[],
  now: string,
): Episode {
  const rejections = invocation
    .filter((message) => callOutcomeOf(message) === "declined")
    .map((message) => oneLine(messageText(message).replace(/^Not applied: /, ""), 160));
  return {
    goal: state.goal,
    status: state.outcome?.kind,
    keySteps: state.planSteps.map(
      (step) =>
        `[${step.status}] ${step.content}${step.summary ? ` — ${oneLine(step.summary, 120)}` : ""}${step.reason ? ` — failed: ${oneLine(step.reason, 120)}` : ""}`,
    ),
    outcome: oneLine(
      `${state.outcome ? `${state.outcome.kind}: ${state.outcome.reason}. ` : ""}${state.finalAnswer ?? ""}`,
      240,
    ),
    // One lesson once: the same rejection on five cards is one lesson.
    lessons: uniqueLessons([...rejections, ...(state.lastError ? [state.lastError] : [])]).slice(0, 5),
    createdAt: now,
  };
}

/** The lessons without repeats (compared without case, spacing and punctuation), first said first. */
export function uniqueLessons(lessons: readonly string[]): string[] {
  const seen = new Set<string>();
  return lessons.filter((lesson) => {
    const key = lesson
      .toLowerCase()
      .replace(/[\s\p{P}]+/gu, " ")
      .trim();
    if (key === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
