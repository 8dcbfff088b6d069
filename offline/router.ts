/**
 * The offline model when several domains are served: one deterministic chat model that hands each stage prompt to
 * the offline policy of the domain the prompt is about. Each domain's policy says how surely it reads a request
 * (`understands`); the prompt's request is the latest user message (chat), the task's goal (plan, deliver) or the
 * current step (execute, where a step no policy reads falls back to the goal). The surest policy answers; a tie goes
 * to the domain served first (`TEMPO_DOMAINS` order), which also answers prompts of other stages and requests no
 * policy reads (its own honest "I can't tell what to do").
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { currentStepOf, goalOf, latestMessage, readPrompt, type PromptView } from "./prompt-reading.js";

/** A domain's offline policy: a pure function from a stage prompt to the stage's answer. */
export interface OfflinePolicy {
  /**
   * How surely this policy reads `request` (a user message, a task's goal or a plan step): 0 not at all, 1 when it
   * names the domain outright ("my to-do list", "the schedule").
   */
  understands(request: string): number;
  /** The answer to a stage prompt, read (`readPrompt`): the stage contract's JSON, or the final answer's text for deliver. */
  decide(view: PromptView): string;
}

/** A policy with the name of its domain. */
export interface NamedOfflinePolicy {
  domain: string;
  policy: OfflinePolicy;
}

/** The chat model that answers every stage with the policy of the domain each prompt is about. */
export class OfflineRouter extends BaseChatModel {
  readonly policies: readonly NamedOfflinePolicy[];

  constructor(policies: readonly NamedOfflinePolicy[]) {
    super({});
    if (policies.length === 0) throw new Error("OfflineRouter needs at least one offline policy.");
    this.policies = policies;
  }

  static override lc_name(): string {
    return "OfflineRouter";
  }

  _llmType(): string {
    return "tempo-offline-router";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    // The prompt is read once: the router chooses by it, and the chosen policy answers it.
    const view = readPrompt(messages);
    const text = this.policyForView(view).policy.decide(view);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }

  /** The policy that answers `messages`. */
  policyFor(messages: BaseMessage[]): NamedOfflinePolicy {
    return this.policyForView(readPrompt(messages));
  }

  private policyForView(view: PromptView): NamedOfflinePolicy {
    if (this.policies.length === 1) return this.policies[0]!;
    for (const request of requestsOf(view)) {
      const surest = this.surest(request);
      if (surest) return surest;
    }
    return this.policies[0]!;
  }

  /** The policy that reads `request` most surely (the first served on a tie), or undefined when none reads it. */
  private surest(request: string): NamedOfflinePolicy | undefined {
    let best: NamedOfflinePolicy | undefined;
    let bestScore = 0;
    for (const named of this.policies) {
      const score = named.policy.understands(request);
      if (score > bestScore) [best, bestScore] = [named, score];
    }
    return best;
  }
}

/** The texts a prompt's request is read from, surest first: what the stage acts on, then the task's goal. */
function requestsOf(view: PromptView): string[] {
  switch (view.stage) {
    case "chat":
      return [latestMessage(view)];
    case "execute":
      return [currentStepOf(view).content, goalOf(view)];
    case "plan":
    case "plan_deep":
    case "deliver":
      return [goalOf(view)];
    default:
      return [];
  }
}
