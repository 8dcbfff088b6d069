/**
 * Nothing a person saw disappears (issue 48 item 6): history compression takes older turns out of the prompts, not
 * out of the thread's `messages`, which is what Agent Chat UI shows after a reload.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { isHiddenId, messageText } from "../../contracts/message-text.js";
import { promptMessages } from "../../kernel/state.js";
import { countMessageTokens, estimateCounter } from "../../memory/tokens.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import { threadConfig } from "../support/scripted.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** The offline policy, recording the tokens of every prompt it is sent. */
class MeasuredPolicy extends ScheduleOfflinePolicy {
  readonly promptTokens: number[] = [];
  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.promptTokens.push(countMessageTokens(messages, estimateCounter));
    return super._generate(messages);
  }
}

/** Thirteen requests, most with cards (plans, arrangements, moves), some small talk between. */
const REQUESTS = [
  "Arrange my reviews",
  "Move the matrix review to Monday",
  "Move my matrix review to Thursday",
  "hello",
  "Move the matrix review to Monday",
  "arrange the linked list exercises on Friday 15 March",
  "Move my matrix review to Thursday",
  "thanks",
  "Move the matrix review to Monday",
  "Arrange my review tasks",
  "Move my matrix review to Thursday",
  "Move the matrix review to Monday",
  "Arrange my reviews",
];

describe("compression keeps what a person saw", () => {
  test("13 turns with cards: every user message stays in state, in order; the prompts read the compressed view within budget", async () => {
    const week = sampleWeek();
    const policy = new MeasuredPolicy();
    const tempo = await offlineTempo(week, () => new Date(`${week.window.days[0]!.date}T07:00:00Z`), { policy });
    let cards = 0;
    for (const request of REQUESTS) cards += (await converse(tempo, request, [], "kept-thread")).cards.length;
    expect(cards).toBeGreaterThan(REQUESTS.length);

    const { values } = await tempo.graph.getState(threadConfig("kept-thread", "student"));
    const messages = values.messages as BaseMessage[];
    const said = messages.filter((message) => message.getType() === "human" && !isHiddenId(message.id));
    expect(said.map(messageText)).toEqual(REQUESTS);
    // Compression ran: the prompts' view starts after the summarised turns, which the state still holds.
    expect(values.compressedUpTo).toBeTruthy();
    const view = promptMessages(values);
    expect(view.length).toBeLessThan(messages.length);
    expect(view.length).toBeLessThanOrEqual(DEFAULT_WORKFLOW_SETTINGS.context.maxRecentMessages * 2);
    // No prompt grew past the largest stage budget, however long the thread.
    const budget = Math.max(...Object.values(DEFAULT_WORKFLOW_SETTINGS.context.promptBudget));
    expect(policy.promptTokens.length).toBeGreaterThan(REQUESTS.length);
    expect(Math.max(...policy.promptTokens)).toBeLessThanOrEqual(budget);
  });
});
