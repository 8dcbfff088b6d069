/**
 * The offline policy: a deterministic `BaseChatModel` that honours the same
 * stage contracts as a real model, for the schedule domain, so the whole
 * graph runs with no network (demo, terminal chat, `langgraph dev`, tests).
 *
 * It understands the schedule's requests in English and Chinese — arrange
 * (everything, named tasks, one day), move, swap, unplace, remove a
 * timetable event, "when am I free",
 * "what's on", list pending / placed tasks, explain a task — plans exactly
 * what was asked, places as many tasks as fit (`placement-search.ts`), acts
 * on simple feedback on a card, and answers what it does not understand
 * honestly (`offline/schedule/`).
 *
 * It reads only its prompt, by the section names of `prompts/`: the stage tag
 * of the system message, tagged context sections, the pinned execution
 * context and the stage workspace (the real tool rounds of the current step).
 * Nothing is remembered between calls.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { decideExecute } from "./execute-stage.js";
import { decidePlan } from "./plan-stage.js";
import { readPrompt } from "../prompt-reading.js";
import type { OfflinePolicy } from "../router.js";
import { answerStage, type StageRules } from "../decisions.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { decideChat, decideDeliver } from "./replies.js";
import { calendarChat, calendarExecute, calendarPlan } from "./calendar-import.js";
import { isCalendarRequest } from "../../contracts/attached-calendar.js";

export { OFFLINE_PLAN_STEPS } from "./fixed-steps.js";

/** A deterministic stand-in for a chat model, driving the schedule domain through the stage contracts. */
export class ScheduleOfflinePolicy extends BaseChatModel {
  /** Most writes the arrange step proposes on one card (default: all of the step's placements on one batch card). */
  readonly writesPerCard: number;

  constructor(options: { writesPerCard?: number } = {}) {
    super({});
    this.writesPerCard = options.writesPerCard ?? Number.POSITIVE_INFINITY;
  }

  static override lc_name(): string {
    return "ScheduleOfflinePolicy";
  }

  _llmType(): string {
    return "tempo-offline-policy";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const text = decide(messages, this.writesPerCard);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

/** Words that name the schedule outright. */
const SCHEDULE_NAMED = /\b(?:schedul\w*|timetable|calendar)\b|日程|课表/i;
/** Words of the schedule's own business (another domain's items may share them: "add 'review notes' to my to-do list"). */
const SCHEDULE_WORDS = /\b(?:weeks?|weekly|reviews?|reviewing|slots?|free time|free|busy)\b|复习|空闲|安排|有空/i;

/** The schedule's offline policy for `OfflineRouter` (`offline/router.ts`). */
export function scheduleOfflinePolicy(options: { writesPerCard?: number } = {}): OfflinePolicy {
  const writesPerCard = options.writesPerCard ?? Number.POSITIVE_INFINITY;
  return {
    // "Mark X done" names no schedule word: a to-do list served beside reads it as surely, and goes first on it.
    understands: (request) => {
      if (SCHEDULE_NAMED.test(request) || isCalendarRequest(request)) return 1;
      if (SCHEDULE_WORDS.test(request)) return 0.75;
      const kind = parseScheduleRequest(request).kind;
      return kind === "unknown" ? 0 : kind === "mark" ? 0.25 : 0.5;
    },
    decide: (view) => answerStage(view, scheduleRules(writesPerCard)),
  };
}

/** The schedule's stage rules (`writesPerCard`: most writes on one card). */
function scheduleRules(writesPerCard: number): StageRules {
  // A calendar file sent to be imported is checked first: its text is no request to parse.
  return {
    chat: (view) => calendarChat(view) ?? decideChat(view),
    plan: (view) => calendarPlan(view) ?? decidePlan(view),
    execute: (view) => calendarExecute(view) ?? decideExecute(view, writesPerCard),
    deliver: decideDeliver,
  };
}

/** The policy's answer to a stage prompt. */
export function decide(messages: BaseMessage[], writesPerCard = Number.POSITIVE_INFINITY): string {
  return answerStage(readPrompt(messages), scheduleRules(writesPerCard));
}
