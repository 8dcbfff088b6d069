/**
 * The state's `ui` channel (issue 48): Generative UI components pushed by `nodes/shared/week-ui.ts`, each with the id of
 * the message it belongs to. The SDK's reducer (push, replace or remove by id) with a bound, so the state grows by
 * at most the latest few pictures; stored as a delta channel (`uiChannel`, kernel/channels.ts).
 */
import { uiMessageReducer } from "@langchain/langgraph-sdk/react-ui/server";
import type { RemoveUIMessage, UIMessage } from "@langchain/langgraph-sdk/react-ui";

/** How many pushed components a thread keeps: the latest ones; older messages lose their picture, not their text. */
export const UI_MESSAGES_KEPT = 4;

/** A write to the `ui` channel: a component pushed or removed, or several. */
export type UiWrite = UIMessage | RemoveUIMessage | Array<UIMessage | RemoveUIMessage>;

/**
 * The `ui` channel's reducer of one write: the SDK's (push, replace, remove by id), keeping the latest
 * `UI_MESSAGES_KEPT`. The channel is a delta channel (`uiChannel` in kernel/channels.ts) folding its writes one by one.
 */
export function keptUiMessages(current: UIMessage[], update: UiWrite): UIMessage[] {
  return (uiMessageReducer(current, update) as UIMessage[]).slice(-UI_MESSAGES_KEPT);
}
