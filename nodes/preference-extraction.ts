/**
 * Standing preferences from an invocation (docs/design.md#standing-preferences), for memorize: the user's messages
 * and their feedback on rejected cards are read — by the memory model when one is configured (a text with no word of
 * a lasting wish costs no call), otherwise, and when the model fails, by the domain's offline reader
 * (`ToolDomain.readPreferences`) — and the profile in the store is updated: new preferences added (deduplicated,
 * replacing what they contradict), the ones the user takes back removed.
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { BaseStore, LangGraphRunnableConfig } from "@langchain/langgraph";
import { messageText } from "../contracts/message-text.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import { planRejectionFeedback, writeRejectionFeedback } from "../contracts/rejections.js";
import {
  LIFT_CUE,
  NO_PREFERENCE_CHANGE,
  PreferenceExtractionSchema,
  ruleOf,
  STANDING_CUE,
  type Preference,
  type PreferenceChange,
  type PreferenceDraft,
  type PreferenceOrigin,
  type UnkeptPreference,
} from "../contracts/preferences.js";
import { callOutcomeOf } from "../kernel/tool-results.js";
import { isCommandText } from "../kernel/commands.js";
import { applyPreferenceChange, mergePreferences } from "../memory/preferences.js";
import type { RecalledMemory } from "../kernel/state.js";
import type { ToolDomain } from "../tools/domain.js";
import { callStage } from "../models/invoke-contract.js";
import { PREFERENCES_STAGE_PROMPT } from "../prompts/memory.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import type { NodeDependencies } from "./shared/dependencies.js";

/** A text the user wrote that may state a standing preference, with where it was written. */
export interface PreferenceSource {
  text: string;
  origin: PreferenceOrigin;
  /** For the entry: "card feedback on place (thread t-1)". */
  source: string;
}

/** The texts of `invocation` that may state a standing preference: the user's messages and their card feedback. */
export function preferenceSources(invocation: readonly BaseMessage[], threadId: string): PreferenceSource[] {
  const sources: PreferenceSource[] = [];
  for (const message of invocation) {
    // A calendar file's text states no preference of the user's (a SUMMARY "Never on Monday" is an event's name).
    const text = withoutCalendarText(messageText(message)).trim();
    const onPlan = message.getType() === "human" ? planRejectionFeedback(text) : undefined;
    if (onPlan)
      sources.push({
        text: onPlan,
        origin: { kind: "card_feedback", tool: "the plan" },
        source: feedbackSource("the plan", threadId),
      });
    else if (message.getType() === "human" && onPlan === undefined && text !== "" && !isCommandText(text)) {
      sources.push({ text, origin: { kind: "message" }, source: `stated in a message (thread ${threadId})` });
    }
    const feedback =
      message.getType() === "tool" && callOutcomeOf(message) === "declined" ? writeRejectionFeedback(text) : undefined;
    if (feedback) {
      const tool = (message as ToolMessage).name ?? "a write";
      sources.push({ text: feedback, origin: { kind: "card_feedback", tool }, source: feedbackSource(tool, threadId) });
    }
  }
  return sources;
}

/** Where a preference said in feedback on a card came from. */
function feedbackSource(tool: string, threadId: string): string {
  return `card feedback on ${tool} (thread ${threadId})`;
}

/**
 * Reads the invocation's standing preferences and updates the user's profile; returns what was added and removed, and
 * what was read but never stored, with why (a model's "nothing after 01:00": `unkeptReasonOf`).
 */
export async function rememberPreferences(
  store: BaseStore,
  userId: string,
  sources: readonly PreferenceSource[],
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  now: string,
): Promise<{ added: Preference[]; removed: Preference[]; unkept: UnkeptPreference[] }> {
  // Most turns say nothing lasting: without a word of a lasting wish, nothing is read (and no model is called).
  const candidates = sources.filter((source) => STANDING_CUE.test(source.text) || LIFT_CUE.test(source.text));
  if (candidates.length === 0) return { added: [], removed: [], unkept: [] };
  const byModel = dependencies.models.memory ? await readByModel(candidates, dependencies, config) : undefined;
  const changes =
    byModel ??
    candidates.map((source) => ({
      source,
      change: dependencies.domain.readPreferences?.(source.text, source.origin) ?? NO_PREFERENCE_CHANGE,
    }));
  const result = { added: [] as Preference[], removed: [] as Preference[], unkept: [] as UnkeptPreference[] };
  const threadId: unknown = config.configurable?.thread_id;
  for (const { source, change } of changes) {
    // Where it was said, as data too, when the run names its thread: each language says it from that.
    const from = typeof threadId === "string" ? { ...source.origin, threadId } : undefined;
    const applied = await applyPreferenceChange(store, userId, change, source.source, now, from);
    result.added.push(...applied.added);
    result.removed.push(...applied.removed);
    result.unkept.push(...applied.unkept);
  }
  return result;
}

/** The memory model's reading of the texts, one change per text it read from; undefined when it fails (the offline reader then reads). */
async function readByModel(
  sources: readonly PreferenceSource[],
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<Array<{ source: PreferenceSource; change: PreferenceChange }> | undefined> {
  try {
    const listed = sources
      .map(
        (source, index) =>
          `${index + 1}. (${source.origin.kind === "message" ? "message" : `feedback rejecting a ${source.origin.tool} card`}) ${source.text}`,
      )
      .join("\n");
    const messages = buildStageMessages({
      stagePrompt: PREFERENCES_STAGE_PROMPT,
      conversation: [],
      stageState: listed,
      instruction: "List the standing preferences the texts above state or take back.",
    });
    const result = await callStage(
      dependencies.models,
      "memory",
      PreferenceExtractionSchema,
      messages,
      "preference_extraction",
      config,
    );
    if (!result.ok) return undefined;
    const bySource = new Map<string, PreferenceChange>(sources.map((source) => [source.source, { add: [], lift: [] }]));
    for (const entry of result.value.preferences) {
      const rule = ruleOf(entry);
      const source = sources[(entry.source_index ?? 1) - 1] ?? sources[0]!;
      if (rule) bySource.get(source.source)!.add.push({ ...rule, text: entry.text } as PreferenceDraft);
    }
    // A preference taken back is taken back whichever text said so.
    const lift = result.value.lifted.flatMap((entry) => ruleOf(entry) ?? []);
    bySource.get(sources[0]!.source)!.lift.push(...lift);
    // (Texts of one kind in one thread share their words: the first of them stands for all.)
    return [...bySource].map(([said, change]) => ({ source: sources.find((each) => each.source === said)!, change }));
  } catch {
    return undefined;
  }
}

/**
 * The recalled memory with the standing preferences said in feedback on a card (read offline, at once), or undefined
 * when the feedback states none: they bind the rest of this task's tool runs — its refinement proposes no Monday
 * after "never on Monday" — while memorize stores them, by the memory model when there is one, when the task ends.
 */
export function withPreferencesHeard(
  recalled: RecalledMemory,
  feedback: ReadonlyArray<{ text: string; tool: string }>,
  domain: ToolDomain,
  threadId: string,
  now: string,
): RecalledMemory | undefined {
  let preferences = recalled.preferences ?? [];
  let heard = false;
  for (const { text, tool } of feedback) {
    const change = domain.readPreferences?.(text, { kind: "card_feedback", tool }) ?? NO_PREFERENCE_CHANGE;
    if (change.add.length === 0 && change.lift.length === 0) continue;
    preferences = mergePreferences(preferences, change, feedbackSource(tool, threadId), now).profile;
    heard = true;
  }
  return heard ? { ...recalled, preferences } : undefined;
}
