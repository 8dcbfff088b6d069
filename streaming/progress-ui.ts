/**
 * Progress a person sees in Agent Chat UI (issue 48 item 5). Chat UI draws `values.messages` and `values.ui`, not
 * Tempo's `custom` status events, so the stage a task is at is also a `status` component (`ui/status.tsx`) under the
 * current assistant message: one per turn (its id from the turn's request), replaced as the stages advance ("Plan
 * confirmed", "Applying 8 approved changes…"), and emptied when the next card's picture or the answer is pushed — so
 * after an Approve something is shown until the next card. Emptied, not removed: Chat UI loads a component's script
 * after it mounts the component, and the script the pinned bundler generates reads its host element without checking
 * it is still there, so a status removed while its script loads is a TypeError in the console. An emptied status
 * renders nothing under the same message and stays until the next turn's status replaces it (`keptUiMessages`). Its
 * props are one line of text: the state grows by a few hundred bytes a thread.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { AIMessage, type BaseMessage, RemoveMessage } from "@langchain/core/messages";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { languageOf, say, type Language } from "../contracts/language.js";
import { isHiddenId, isProgressId, messageText, PROGRESS_ID_PREFIX } from "../contracts/message-text.js";
import type { StatusProps } from "../ui/week-props.js";
import { typedUi } from "@langchain/langgraph-sdk/react-ui/server";
import { ensureConfiguration } from "../config/configuration.js";

/** The state key of the pushed components (Agent Chat UI reads `values.ui`; the channel: `kernel/ui-channel.ts`). */
export const UI_STATE_KEY = "ui";

/** Shows `english` / `chinese` (the user's language) as the turn's status under `anchor` (default: the turn's latest assistant message). */
export function showStatus(
  config: LangGraphRunnableConfig,
  messages: readonly BaseMessage[],
  english: string,
  chinese: string,
  anchor?: string,
): void {
  const request = turnRequest(messages);
  const under = anchor ?? latestAssistantOfTurn(messages, request);
  if (!request || !under) return;
  const language = languageOf([...messages]);
  const props: StatusProps = { text: say(language, english, chinese), language };
  pushComponent(config, statusId(request.id!), "status", props as unknown as Record<string, unknown>, under);
}

/** "Applying 8 approved changes…" under the proposal whose calls `callIds` are. */
export function showApplying(
  config: LangGraphRunnableConfig,
  messages: readonly BaseMessage[],
  callIds: readonly string[],
): void {
  const proposal = messages.findLast((message) =>
    ((message as AIMessage).tool_calls ?? []).some((call) => call.id !== undefined && callIds.includes(call.id)),
  );
  const count = callIds.length;
  showStatus(
    config,
    messages,
    count === 1 ? "Applying the approved change…" : `Applying ${count} approved changes…`,
    count === 1 ? "正在执行已批准的更改…" : `正在执行 ${count} 项已批准的更改…`,
    proposal?.id,
  );
}

/** What a node reads of the state to end a status: the messages and the pushed components (`ui`). */
export interface UiView {
  messages: readonly BaseMessage[];
  ui?: readonly UIMessage[];
}

/**
 * Empties the turn's status (the next card's picture or the answer stands in its place): the same component under the
 * same message with no text, which renders nothing — never removed while Chat UI may still be loading its script.
 */
export function endStatus(config: LangGraphRunnableConfig, view: UiView): void {
  const request = turnRequest(view.messages);
  if (!request?.id) return;
  const id = statusId(request.id);
  const shown = view.ui?.find((entry) => entry.id === id);
  const under = shown?.metadata?.message_id;
  if (typeof under !== "string" || (shown!.props as unknown as StatusProps).text === "") return;
  const props: StatusProps = { text: "", language: (shown!.props as unknown as StatusProps).language };
  pushComponent(config, id, "status", props as unknown as Record<string, unknown>, under);
}

/**
 * Opens a turn in a client that draws Generative UI (a run through the LangGraph API: Agent Chat UI): an assistant
 * message with no text, the turn's opener, with the status "Working on your message…" under it, so the person sees
 * more than "•••" before the turn's first assistant message (a status needs a message to stand under). Returns the
 * messages to write: the earlier turns' openers removed, then the opener, once a turn; no opener for a run with no such
 * client (the terminal chat, `invoke`), or when the person's message is not the latest. The opener is a progress line:
 * the prompts leave it out; it draws nothing once its status is emptied, but Chat UI still gives it an empty row under
 * the person's message. It is kept for its own turn (removing it would take its status away while Chat UI may still be
 * loading it) and removed when the next turn opens, together with its status, which the new status replaces
 * (`keptUiMessages`): both long since loaded, so a reload shows no gap for a finished turn.
 */
export function openTurn(config: LangGraphRunnableConfig, messages: readonly BaseMessage[]): BaseMessage[] {
  const request = turnRequest(messages);
  const current = request?.id ? openerId(request.id) : undefined;
  const earlier = messages
    .filter((message) => isOpenerId(message.id) && message.id !== current)
    .map((message) => new RemoveMessage({ id: message.id! }));
  if (!config.metadata?.run_id || !current || messages.at(-1) !== request) return earlier;
  const opener = new AIMessage({ id: current, content: "" });
  showStatus(config, [...messages, opener], "Working on your message…", "正在处理你的消息…", opener.id);
  return [...earlier, opener];
}

/**
 * The removal of the turn's opener (`openTurn`) once its status has left it, as a message list to write (empty when the
 * opener is gone already or the turn has none). Its status leaves it when a later stage's status is shown under its own
 * message (after an answered card): the opener then draws nothing but Chat UI's empty row under the request, and its
 * status's script loaded long before the card was answered, so removing it unmounts nothing still loading.
 */
export function openerRemoval(messages: readonly BaseMessage[]): RemoveMessage[] {
  const request = turnRequest(messages);
  const opener = request?.id ? openerId(request.id) : undefined;
  return messages.some((message) => message.id === opener) ? [new RemoveMessage({ id: opener! })] : [];
}

/** The id of the opener of the turn that `requestId` started. */
export function openerId(requestId: string): string {
  return `${PROGRESS_ID_PREFIX}turn-${requestId}`;
}

/** True for a turn's opener (or its id). */
export function isOpenerId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(`${PROGRESS_ID_PREFIX}turn-`);
}

/**
 * The latest message that is not a turn's opener: what a node reads as "the last message", and what a mark such as
 * `memorizedUpTo` may point at — an opener is removed when the next turn opens, and a mark on it would be lost.
 */
export function latestBesideOpeners(messages: readonly BaseMessage[]): BaseMessage | undefined {
  return messages.findLast((message) => !isOpenerId(message.id));
}

/**
 * `node`, ending the opener's status (`openTurn`) when the node writes the turn's first assistant message a person
 * reads: from then on the turn speaks for itself (a later stage's status stands under its own message). Once that
 * later status has moved off the opener (an earlier step showed it under its own message), the node also removes the
 * opener (`openerRemoval`), so the finished turn leaves no empty row under its request. While `node` runs, a model call
 * that waits shows the wait as the turn's status (`showModelWait`).
 */
export function endingOpenerStatus<S extends UiView, U extends { messages?: unknown }>(
  node: (state: S, config: LangGraphRunnableConfig) => Promise<U>,
): (state: S, config: LangGraphRunnableConfig) => Promise<U> {
  const wrapped = async (state: S, config: LangGraphRunnableConfig) => {
    const update = await withinTurnStatus(state, () => node(state, config));
    const request = turnRequest(state.messages);
    const shown = request?.id ? state.ui?.find((entry) => entry.id === statusId(request.id!)) : undefined;
    if (shown && shown.metadata?.message_id !== openerId(request!.id!))
      return withOpenerRemoved(state.messages, update);
    if (shown?.metadata?.message_id !== openerId(request?.id ?? "")) return update;
    const written = Array.isArray(update.messages) ? (update.messages as unknown[]) : [];
    const speaks = written.some(
      (message) =>
        message instanceof AIMessage &&
        !isHiddenId(message.id) &&
        !isProgressId(message.id) &&
        (messageText(message) !== "" || (message.tool_calls ?? []).length > 0),
    );
    if (speaks) endStatus(config, state);
    return update;
  };
  Object.defineProperty(wrapped, "name", { value: node.name });
  return wrapped;
}

/** Where the turn's status stands as the client last saw it: its id, the message it is under, its language. */
interface StatusTarget {
  id: string;
  under: string;
  language: Language;
}

/** The turn's status while a node runs (`withinTurnStatus`), kept up to date by every status the node pushes. */
const statusScope = new AsyncLocalStorage<{ target?: StatusTarget }>();

/** Runs `run` (a node) knowing where the turn's status stands, for the model-wait line (`showModelWait`). */
function withinTurnStatus<T>(view: UiView, run: () => Promise<T>): Promise<T> {
  const request = turnRequest(view.messages);
  const shown = request?.id ? view.ui?.find((entry) => entry.id === statusId(request.id!)) : undefined;
  const under = shown?.metadata?.message_id;
  const target: StatusTarget | undefined =
    shown && typeof under === "string"
      ? { id: shown.id, under, language: statusLanguage(shown.props as unknown as StatusProps) }
      : undefined;
  return statusScope.run({ target }, run);
}

/** A status's language ("en" unless it says "zh"). */
function statusLanguage(props: StatusProps): Language {
  return props.language === "zh" ? "zh" : "en";
}

/** Chinese names of the stages in the model-wait line. */
const STAGE_NAMES_ZH: Readonly<Record<string, string>> = {
  chat: "对话",
  plan: "规划",
  execute: "执行",
  deliver: "总结",
  memory: "记忆",
};

/**
 * "Waiting for the execute model… 6 s" as the turn's status, under the message it stands under (issue 48): what Agent
 * Chat UI draws, beside the `custom` stream's status event. Sent through the stream's writer only — Chat UI folds a
 * `ui` event of the custom stream into the components it draws at once, and the step's values, which end the wait,
 * replace it with the stored status — so a wait of any length stores nothing in the checkpoint. Nothing outside a
 * node that knows the turn's status (a run with no status: the terminal chat, `invoke` without a run id).
 */
export function showModelWait(config: LangGraphRunnableConfig, stage: string, elapsedMs: number): void {
  const target = statusScope.getStore()?.target;
  if (!target || !config.writer) return;
  const seconds = Math.round(elapsedMs / 1000);
  const props: StatusProps = {
    text: say(
      target.language,
      `Waiting for the ${stage} model… ${seconds} s`,
      `正在等待${STAGE_NAMES_ZH[stage] ?? stage}模型… ${seconds} 秒`,
    ),
    language: target.language,
  };
  config.writer({ type: "ui", id: target.id, name: "status", props, metadata: { message_id: target.under } });
}

/** `update` with the turn's opener removed too, unless it is gone or `update` removes it already. */
function withOpenerRemoved<U extends { messages?: unknown }>(messages: readonly BaseMessage[], update: U): U {
  const removal = openerRemoval(messages);
  const written = Array.isArray(update.messages) ? (update.messages as BaseMessage[]) : [];
  if (removal.length === 0 || written.some((message) => message.id === removal[0]!.id)) return update;
  return { ...update, messages: [...written, ...removal] };
}

/** The status component's id for the turn that `requestId` started. */
export function statusId(requestId: string): string {
  return `status-${requestId}`;
}

/** The turn's request: the latest message a person wrote (not Tempo's hidden bookkeeping). */
function turnRequest(messages: readonly BaseMessage[]): BaseMessage | undefined {
  return messages.findLast((message) => message.getType() === "human" && message.id && !isHiddenId(message.id));
}

/** The latest assistant message after `request` that Chat UI draws. */
function latestAssistantOfTurn(messages: readonly BaseMessage[], request: BaseMessage | undefined): string | undefined {
  if (!request) return undefined;
  const after = messages.slice(messages.indexOf(request) + 1);
  return after.findLast((message) => message.getType() === "ai" && message.id && !isHiddenId(message.id))?.id;
}

/**
 * Pushes component `name` with `props` under the message `messageId` (the same `id` again replaces it), or removes the
 * component `id` when `props` is null.
 */
export function pushComponent(
  config: LangGraphRunnableConfig,
  id: string,
  name: string,
  props: Record<string, unknown> | null,
  messageId?: string,
): void {
  // A run outside the server (the terminal chat, a test's invoke) has no run id: the thread's id stands in.
  const runId = (config.metadata?.run_id as string | undefined) ?? config.runId ?? ensureConfiguration(config).threadId;
  const ui = typedUi({ ...config, runId }, { stateKey: UI_STATE_KEY });
  const scope = statusScope.getStore();
  if (scope && name === "status")
    scope.target =
      props === null || messageId === undefined
        ? undefined
        : { id, under: messageId, language: statusLanguage(props as unknown as StatusProps) };
  if (props === null || messageId === undefined) {
    ui.delete(id);
    return;
  }
  // Agent Chat UI shows a component under the message whose id is `metadata.message_id`; the pinned SDK's `push`
  // writes the message's id as `metadata.id` only (later SDKs write `message_id`), so it is given here too.
  ui.push({ id, name, props, metadata: { message_id: messageId } }, { message: { id: messageId } });
}
