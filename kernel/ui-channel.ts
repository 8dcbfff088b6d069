/**
 * The state's `ui` channel (issue 48): Generative UI components pushed by `nodes/shared/week-ui.ts`, each with the id of
 * the message it belongs to. The SDK's reducer (push, replace or remove by id) with a bound, so the state grows by
 * at most the latest few pictures; stored as a delta channel (`uiChannel`, kernel/channels.ts).
 */
import { uiMessageReducer } from "@langchain/langgraph-sdk/react-ui/server";
import type { RemoveUIMessage, UIMessage } from "@langchain/langgraph-sdk/react-ui";

/** How many pictures a thread keeps: the latest ones; older messages lose their picture, not their text. */
export const UI_MESSAGES_KEPT = 4;

/** The progress line's component (`streaming/progress-ui.ts`): one a thread, outside the pictures' bound. */
const STATUS = "status";

/** A write to the `ui` channel: a component pushed or removed, or several. */
export type UiWrite = UIMessage | RemoveUIMessage | Array<UIMessage | RemoveUIMessage>;

/**
 * The `ui` channel's reducer of one write: the SDK's (push, replace, remove by id), keeping the latest
 * `UI_MESSAGES_KEPT` pictures and the latest turn's status. A status is never cut by the pictures' bound (Chat UI may
 * still be loading its script, see `endStatus`); a turn's status replaces the earlier turn's, long since loaded. The
 * channel is a delta channel (`uiChannel` in kernel/channels.ts) folding its writes one by one.
 */
export function keptUiMessages(current: UIMessage[], update: UiWrite): UIMessage[] {
  const writes = Array.isArray(update) ? update : [update];
  const status = writes.findLast((write) => write.type === "ui" && write.name === STATUS)?.id;
  const next = (uiMessageReducer(current, update) as UIMessage[]).filter(
    (entry) => entry.name !== STATUS || status === undefined || entry.id === status,
  );
  const pictures = next.filter((entry) => entry.name !== STATUS);
  const cut = new Set(pictures.slice(0, Math.max(0, pictures.length - UI_MESSAGES_KEPT)));
  return next.filter((entry) => !cut.has(entry));
}
