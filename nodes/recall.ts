/**
 * recall: memory at invocation start (docs/design.md#long-term-memory). Loads the user's TaskState,
 * the long-term facts and past episodes relevant to the message, and this
 * thread's conversation memory and the user's standing preferences (all of them: few, and every stage and tool
 * keeps to them), through the LangGraph store. Every namespace
 * is under the user's own prefix, so nothing of another user is visible.
 * Without a store, the recalled memory is empty. Before reading memory it runs the writes the clock makes due
 * (`catchUpWithClock`: the schedule's window moves on to the week of now), told by the answer (`movedOn`).
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../config/configuration.js";
import { assertThreadOwner } from "../kernel/ownership.js";
import { isCommandText } from "../kernel/commands.js";
import type { TempoState, TempoUpdate } from "../kernel/state.js";
import { conversationMemory, renderEpisode, searchEpisodes, searchFacts } from "../memory/long-term.js";
import { loadTaskState, renderTaskState } from "../memory/task-state.js";
import { loadPreferences } from "../memory/preferences.js";
import type { NodeDependencies } from "./shared/dependencies.js";
import { latestUserText } from "./shared/messages.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";
import { languageOf } from "../contracts/language.js";
import { catchUpWithClock } from "./shared/clock-writes.js";
import { openTurn } from "../streaming/progress-ui.js";

/** Builds the recall node. */
export function createRecallNode(dependencies: NodeDependencies) {
  return async function recall(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    // The turn's opener and its status first, for a client that draws them (Agent Chat UI): more than "•••"; the
    // earlier turns' openers are removed (`openTurn`), so no empty row stays under a finished turn.
    const opener = openTurn(config, state.messages);
    const update = await recallMemory(state, config);
    return opener.length > 0 ? { ...update, messages: opener } : update;
  };

  async function recallMemory(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
    assertThreadOwner(state.userId, userId);
    const store = config.store;
    // A calendar file's words find nothing worth recalling: the search reads the request with the file named.
    const query = withoutCalendarText(latestUserText(state.messages));
    if (isCommandText(query)) return {};
    // The clock first: a request after the window's last day is read on the week of now (never while a card waits:
    // its writes name the days of the window it was made on).
    const caughtUp = state.pending
      ? undefined
      : await catchUpWithClock(dependencies, config, languageOf(state.messages), state.atRiskTold);
    const movedOn = caughtUp?.text ?? null;
    const clock: TempoUpdate = {
      ...(movedOn === state.movedOn ? {} : { movedOn }),
      // A new request: what an earlier card answered after its time left undone was that task's to say.
      ...(!state.pending && state.outlivedCard ? { outlivedCard: null } : {}),
      // What the roll put at risk was told with it: the turn's answer does not tell it again.
      ...(caughtUp?.atRisk ? { atRiskTold: caughtUp.atRisk } : {}),
    };
    if (!store) return clock;
    const [taskState, facts, episodes, conversation, preferences] = await Promise.all([
      loadTaskState(store, userId),
      searchFacts(store, userId, query),
      searchEpisodes(store, userId, query),
      conversationMemory(store, userId, threadId),
      loadPreferences(store, userId),
    ]);
    return {
      ...clock,
      recalled: {
        taskState: renderTaskState(taskState),
        facts: facts.map((fact) => fact.text),
        episodes: episodes.map(renderEpisode),
        conversation: conversation.map((entry) => entry.summary),
        preferences,
      },
    };
  }
}
