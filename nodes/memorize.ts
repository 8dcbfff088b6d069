/**
 * memorize: memory at invocation end (docs/design.md#long-term-memory) and history
 * compression (docs/design.md#compression). Appends a summary of the invocation to
 * the thread's conversation memory, stores facts the user stated, records an
 * episode for a finished task, updates the user's TaskState; then, when the
 * conversation the prompts read has grown past its bound, summarises the older turns
 * into TaskState and moves the prompts' start past them (`compressedUpTo`): they stay in
 * `messages`, which is what a client shows (issue 48 item 6), and leave the prompts.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseStore, LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../config/configuration.js";
import { TaskStateSummarySchema } from "../contracts/memory.js";
import { nothingRecalled, promptMessages, type TempoState, type TempoUpdate } from "../kernel/state.js";
import { planHistoryCompression } from "../memory/compression.js";
import { extractUserFacts, summarizeInvocation, taskEpisode } from "../memory/invocation-summary.js";
import { appendConversation, recordEpisode, storeFacts } from "../memory/long-term.js";
import { loadTaskState, mergeTaskState, saveTaskState, type TaskState } from "../memory/task-state.js";
import { estimateCounter } from "../memory/tokens.js";
import { messageText } from "../contracts/message-text.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import { callStage } from "../models/invoke-contract.js";
import { MEMORY_STAGE_PROMPT } from "../prompts/memory.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import type { NodeDependencies } from "./shared/dependencies.js";
import { latestUserText } from "./shared/messages.js";
import { runMoment, toolMoment } from "./shared/now.js";
import { preferenceSources, rememberPreferences } from "./preference-extraction.js";
import { emitAssistantText, emitStatus } from "../streaming/events.js";
import { languageOf, type Language } from "../contracts/language.js";
import { newId } from "../kernel/ids.js";
import { isCommandText } from "../kernel/commands.js";
import { latestBesideOpeners } from "../streaming/progress-ui.js";
import { UNKEPT_REASON_TEXT, type Preference, type UnkeptPreference } from "../contracts/preferences.js";

/** Builds the memorize node. */
export function createMemorizeNode(dependencies: NodeDependencies) {
  return memorize;

  async function memorize(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    const store = config.store;
    // The run's clock (`configurable.now`, else the graph's): what is remembered is dated when it was said.
    const time = runMoment(dependencies, config).toISOString();
    const startIndex = state.memorizedUpTo
      ? state.messages.findIndex((message) => message.id === state.memorizedUpTo) + 1
      : 0;
    const invocation = state.messages.slice(startIndex);
    const command = isCommandText(latestUserText(invocation));
    // A task ended in this invocation when its answer (deliver's, or the drop's: both set finalAnswer) is among the new
    // messages. Known by its text: deliver's answer keeps the id it was streamed under.
    const wasTask =
      state.outcome !== null &&
      state.finalAnswer !== null &&
      invocation.some((message) => message.getType() === "ai" && messageText(message) === state.finalAnswer);

    let told: AIMessage | undefined;
    if (store && !command && invocation.length > 0) {
      // A calendar file is kept as its name and size: its text never reaches memory, which other threads recall.
      const userTexts = invocation
        .filter((message) => message.getType() === "human")
        .map((message) => withoutCalendarText(messageText(message)));
      await appendConversation(store, userId, threadId, {
        summary: summarizeInvocation(state, invocation, wasTask),
        createdAt: time,
      });
      await storeFacts(store, userId, extractUserFacts(userTexts), "user", time);
      // Standing preferences from the messages and the card feedback: the profile every later task keeps to.
      const remembered = await rememberPreferences(
        store,
        userId,
        preferenceSources(invocation, threadId),
        dependencies,
        config,
        time,
      );
      if (remembered.added.length + remembered.removed.length > 0)
        emitStatus(
          config,
          "memorize",
          state.messages,
          preferenceNews(remembered, "en"),
          preferenceNews(remembered, "zh"),
        );
      // A preference read but never stored ("nothing after 01:00" from a model): said, with why, never a silent loss.
      if (remembered.unkept.length > 0)
        emitStatus(
          config,
          "memorize",
          state.messages,
          unkeptNews(remembered.unkept, "en"),
          unkeptNews(remembered.unkept, "zh"),
        );
      // A review already where a preference just said rules out stays there until moved: the person is told.
      // (Best-effort: the reply is given and the preference stored; a week that cannot be read now is said, not a
      // failed run.)
      const against =
        remembered.added.length > 0
          ? await placedAgainst(userId, remembered.added, invocation, config).catch(() => {
              emitStatus(
                config,
                "memorize",
                state.messages,
                "Could not read your week to check for reviews already where this preference rules out",
                "暂时读不到你的日程，没能检查是否已有复习排在这条偏好排除的时间",
              );
              return undefined;
            })
          : undefined;
      if (against) {
        told = new AIMessage({ id: newId("ai"), content: against });
        emitAssistantText(config, "memorize", told.id!, against);
      }
      if (wasTask) {
        const episode = taskEpisode(state, invocation, time);
        await recordEpisode(store, userId, episode);
        await rememberTaskEnd(store, userId, state, episode.outcome, time);
      }
    }

    // The recalled memory lived for this invocation; the next one recalls afresh (the store holds it). Already empty,
    // the write is dropped (writeChangesOnly).
    const forget = { recalled: nothingRecalled() };
    // The mark is the last message that stays: a turn's opener is removed when the next turn opens, and a mark on it
    // would send the next memorize back to the thread's first message.
    const memorizedUpTo = told?.id ?? latestBesideOpeners(state.messages)?.id ?? null;
    const said = told ? { messages: [told] } : {};
    const compression = compressHistory(state, dependencies);
    if (!compression) return { memorizedUpTo, ...said, ...forget };
    if (store) {
      const summary = await summarizeTurns(compression.remove, dependencies, config);
      await saveTaskState(store, userId, mergeTaskState(await loadTaskState(store, userId), summary, time));
    }
    // The summarised turns stay where the client shows them; the prompts start after the last of them.
    const compressedUpTo = compression.remove.findLast((message) => message.id)?.id;
    return {
      ...(compressedUpTo ? { compressedUpTo } : {}),
      memorizedUpTo,
      ...said,
      ...forget,
    };
  }

  /**
   * What the domain has in place where the preferences `added` rule out (on the state with the run's clock, so what
   * has started is history), in the language of the invocation's last message; undefined when nothing is.
   */
  async function placedAgainst(
    userId: string,
    added: readonly Preference[],
    invocation: BaseMessage[],
    config: LangGraphRunnableConfig,
  ): Promise<string | undefined> {
    const { domain } = dependencies;
    if (!domain.placedAgainstPreferences || !domain.withPreferences) return undefined;
    const now = toolMoment(dependencies, config);
    const loaded = await domain.load(userId);
    const state = domain.withPreferences(now && domain.withClock ? domain.withClock(loaded, now) : loaded, added);
    return domain.placedAgainstPreferences(state, languageOf(latestUserText(invocation)));
  }

  /**
   * TaskState after a task ended, from the outcome deliver judged (or the drop recorded): an unfinished task
   * (partial, failed) leaves an open loop naming what is still open; open loops a later task finished are closed
   * (their items are no longer open, or their goal has now completed); a dropped task leaves no loop.
   */
  async function rememberTaskEnd(
    store: BaseStore,
    userId: string,
    state: TempoState,
    summary: string,
    time: string,
  ): Promise<void> {
    const outcome = state.outcome!;
    const { domain } = dependencies;
    // Read for the older loops only: this task's own still-open items are in its outcome.
    // (A week that cannot be read now closes no older loop: they are kept.)
    const openItems = domain.openItems?.bind(domain);
    const openNow = openItems ? await domain.load(userId).then(openItems, () => undefined) : undefined;
    const kind = outcome.kind;
    const stillOpen = outcome.stillOpen ?? [];
    const openNames = new Set((openNow ?? []).map((item) => item.name));
    const current = await loadTaskState(store, userId);
    const openLoops = current.openLoops.filter((loop) => {
      if (loop.startsWith(`"${state.goal}" ended`)) return false;
      const pending = OPEN_ITEMS_OF_LOOP.exec(loop)?.[1];
      if (pending !== undefined && openNow !== undefined)
        return pending.split("; ").some((name) => openNames.has(name));
      return true;
    });
    const left = stillOpen.length
      ? `still pending: ${stillOpen.map((item) => item.name).join("; ")}`
      : `steps left: ${state.planSteps
          .filter((step) => step.status !== "done" && step.status !== "skipped")
          .map((step) => step.content)
          .join("; ")}`;
    const unfinished = kind === "partial" || kind === "failed";
    await saveTaskState(
      store,
      userId,
      mergeTaskState(
        { ...current, openLoops, currentGoal: unfinished ? current.currentGoal : "" },
        {
          currentGoal: unfinished ? state.goal : "",
          activeFlow: `${domain.name} tasks`,
          openLoops: unfinished ? [`"${state.goal}" ended ${kind}; ${left}`] : [],
          lastDecision: `${kind === "dropped" ? "Dropped" : kind === "completed" ? "Finished" : `Ended (${kind})`} "${state.goal}": ${summary.slice(0, 160)}`,
        },
        time,
      ),
    );
  }
}

/** What the profile gained and lost, in a line for the person watching, in their language. */
function preferenceNews(change: { added: Preference[]; removed: Preference[] }, language: Language): string {
  if (language === "zh") {
    const quoted = (entries: Preference[]) => entries.map((entry) => `“${entry.text}”`).join("、");
    const parts = [
      ...(change.added.length > 0 ? [`已记为长期偏好：${quoted(change.added)}`] : []),
      ...(change.removed.length > 0 ? [`不再是长期偏好：${quoted(change.removed)}`] : []),
    ];
    return `${parts.join("；")}（/prefs 查看偏好，/forget 删除一条）。`;
  }
  const parts = [
    ...(change.added.length > 0
      ? [`Remembered as a standing preference: ${change.added.map((entry) => `"${entry.text}"`).join(", ")}`]
      : []),
    ...(change.removed.length > 0
      ? [`No longer a standing preference: ${change.removed.map((entry) => `"${entry.text}"`).join(", ")}`]
      : []),
  ];
  return `${parts.join(". ")} (/prefs lists them, /forget removes one).`;
}

/** What was read as a standing preference but not stored, and why, in the person's language. */
function unkeptNews(unkept: readonly UnkeptPreference[], language: Language): string {
  return unkept
    .map(({ reason, text }) =>
      language === "zh"
        ? `没有记为长期偏好：“${text}”——${UNKEPT_REASON_TEXT[reason].zh}。`
        : `Not remembered as a standing preference: "${text}" — ${UNKEPT_REASON_TEXT[reason].en}.`,
    )
    .join(language === "zh" ? "" : " ");
}

/** The item names an open loop lists ("…; still pending: A; B"). */
const OPEN_ITEMS_OF_LOOP = /; still pending: (.*)$/;

/** The older messages to take out of the prompts when the conversation they read is past its bound. */
function compressHistory(state: TempoState, dependencies: NodeDependencies) {
  const { maxRecentMessages, maxRecentTokens, keepRecentMessages } = dependencies.settings.context;
  return planHistoryCompression(promptMessages(state), {
    maxMessages: maxRecentMessages,
    maxTokens: maxRecentTokens,
    keepMessages: keepRecentMessages,
    counter: estimateCounter,
    protectedIds: new Set(state.workspaceMessageIds),
  });
}

/**
 * Older turns as a TaskState update: by the memory model when one is configured,
 * otherwise (and as the fallback when it fails) by `mechanicalTurnSummary`.
 */
async function summarizeTurns(
  removed: BaseMessage[],
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<Partial<TaskState>> {
  const mechanical = mechanicalTurnSummary(removed);
  if (!dependencies.models.memory) return mechanical;
  try {
    const messages = buildStageMessages({
      stagePrompt: MEMORY_STAGE_PROMPT,
      conversation: removed,
      stageState: "",
      instruction: "Summarise the conversation above into TaskState.",
    });
    const result = await callStage(
      dependencies.models,
      "memory",
      TaskStateSummarySchema,
      messages,
      "task_state_summary",
      config,
    );
    if (!result.ok) return mechanical;
    return {
      currentGoal: result.value.current_goal,
      activeFlow: result.value.active_flow,
      openLoops: result.value.open_loops,
      importantFacts: [...mechanical.importantFacts!, ...result.value.important_facts],
      lastDecision: result.value.last_decision,
    };
  } catch {
    return mechanical;
  }
}

/** Facts the user stated in the removed turns, and the last assistant conclusion among them. */
function mechanicalTurnSummary(removed: BaseMessage[]): Partial<TaskState> {
  const userTexts = removed
    .filter((message) => message.getType() === "human")
    .map((message) => withoutCalendarText(messageText(message)));
  const lastReply =
    removed
      .filter((message) => message.getType() === "ai" && messageText(message).trim())
      .map(messageText)
      .at(-1) ?? "";
  return { importantFacts: extractUserFacts(userTexts), lastDecision: lastReply.replace(/\s+/g, " ").slice(0, 200) };
}
