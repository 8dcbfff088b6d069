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
import { AIMessage, BaseMessage, RemoveMessage } from "@langchain/core/messages";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { languageOf, say, type Language } from "../contracts/language.js";
import {
  isHiddenId,
  isProgressId,
  isProgressLine,
  messageText,
  OPENER_ID_PREFIX,
  PROGRESS_MARK,
} from "../contracts/message-text.js";
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
 * messages to write: the earlier turns' silent openers removed, then the opener, once a turn; no opener for a run with
 * no such client (the terminal chat, `invoke`), or when the person's message is not the latest. While it says nothing
 * the opener is a progress line (the prompts leave it out), and Chat UI gives it an empty row under the person's
 * message; so the turn's first words take its place (`endingOpenerStatus` writes them under its id, replacing it where
 * it stands): the row fills, and the status under it, emptied in the same step, stays mounted — never removed while
 * Chat UI may still be loading its script. An opener still silent when the next turn opens (a turn that said nothing)
 * is removed then, together with its status, which the new status replaces (`keptUiMessages`).
 */
export function openTurn(config: LangGraphRunnableConfig, messages: readonly BaseMessage[]): BaseMessage[] {
  const request = turnRequest(messages);
  const current = request?.id ? openerId(request.id) : undefined;
  const earlier = messages
    .filter((message) => isSilentOpener(message) && message.id !== current)
    .map((message) => new RemoveMessage({ id: message.id! }));
  if (!config.metadata?.run_id || !current || messages.at(-1) !== request) return earlier;
  const opener = new AIMessage({ id: current, content: "" });
  showStatus(config, [...messages, opener], "Working on your message…", "正在处理你的消息…", opener.id);
  return [...earlier, opener];
}

/**
 * The removal of the turn's opener (`openTurn`) while it is still silent, once its status has left it, as a message
 * list to write (empty when the opener is gone, has the turn's first words, or the turn has none). Its status leaves it
 * when a later stage's status is shown under its own message (after an answered card) before the turn said anything
 * under the opener: the opener then draws nothing but Chat UI's empty row under the request, and its status's script
 * loaded long before the card was answered, so removing it unmounts nothing still loading.
 */
export function openerRemoval(messages: readonly BaseMessage[]): RemoveMessage[] {
  const request = turnRequest(messages);
  const opener = request?.id ? openerId(request.id) : undefined;
  const silent = messages.some((message) => message.id === opener && isSilentOpener(message));
  return silent ? [new RemoveMessage({ id: opener! })] : [];
}

/** The id of the opener of the turn that `requestId` started. */
export function openerId(requestId: string): string {
  return `${OPENER_ID_PREFIX}${requestId}`;
}

/** True for a turn's opener's id — the opener's, or the turn's first words' that took its place. */
export function isOpenerId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(OPENER_ID_PREFIX);
}

/** True for a turn's opener that says nothing yet: no words have taken its place. */
export function isSilentOpener(message: BaseMessage): boolean {
  return isOpenerId(message.id) && isProgressLine(message) && !isMarkedProgress(message);
}

/**
 * The latest message that is not a silent opener: what a node reads as "the last message", and what a mark such as
 * `memorizedUpTo` may point at — a silent opener is removed when the next turn opens, and a mark on it would be lost.
 */
export function latestBesideOpeners(messages: readonly BaseMessage[]): BaseMessage | undefined {
  return messages.findLast((message) => !isSilentOpener(message));
}

/**
 * `node`, with the turn's first words taking the silent opener's place and ending its status (`openTurn`). While the
 * opener says nothing and the turn's status stands under it, the first message the node writes that a person sees (a
 * chat reply, the plan's words, a question, a read's tool round, the answer, a step's line) is written under the
 * opener's id: the reducer replaces the opener where it stands, so Chat UI fills the row it drew (same key: the status
 * under it stays mounted) instead of drawing another under an empty one, and a reload reads request, …, answer with no
 * gap. Every other reference the node makes to that message is renamed with it: the fields of its update, and the
 * components it pushes under the message (held until the node returns). When the node writes the turn's first assistant
 * message a person reads (not a step's line), the status is emptied: from then on the turn speaks for itself (a later
 * stage's status stands under its own message). Once that later status has moved off a still silent opener (an
 * earlier step showed it under its own message), the node removes the opener (`openerRemoval`). While `node` runs, a
 * model call that waits shows the wait as the turn's status (`showModelWait`).
 */
export function endingOpenerStatus<S extends UiView, U extends { messages?: unknown }>(
  node: (state: S, config: LangGraphRunnableConfig) => Promise<U>,
): (state: S, config: LangGraphRunnableConfig) => Promise<U> {
  const wrapped = async (state: S, config: LangGraphRunnableConfig) => {
    const request = turnRequest(state.messages);
    const opener = request?.id ? openerId(request.id) : undefined;
    const shown = request?.id ? state.ui?.find((entry) => entry.id === statusId(request.id!)) : undefined;
    const under = shown?.metadata?.message_id;
    const vacant = under === opener && opener !== undefined && silentAndLast(state.messages, opener);
    const held: HeldPush[] | undefined = vacant ? [] : undefined;
    let update: U;
    try {
      update = await withinTurnStatus(state, () => node(state, config), held && { held, known: idsOf(state.messages) });
    } catch (error) {
      flush(config, held ?? [], undefined);
      throw error;
    }
    if (shown && under !== opener) return withOpenerRemoved(state.messages, update);
    if (under !== opener || opener === undefined) return update;
    const written = Array.isArray(update.messages) ? (update.messages as unknown[]) : [];
    const speaks = written.some(
      (message) =>
        message instanceof AIMessage &&
        !isHiddenId(message.id) &&
        !isProgressId(message.id) &&
        (messageText(message) !== "" || (message.tool_calls ?? []).length > 0),
    );
    if (speaks) endStatus(config, state);
    if (!held) return update;
    const taking = vacant ? firstWords(written) : undefined;
    flush(config, held, taking && { from: taking.id!, to: opener });
    return taking ? inOpenersPlace(update, taking, opener) : update;
  };
  Object.defineProperty(wrapped, "name", { value: node.name });
  return wrapped;
}

/** A component pushed under a message the node is writing, held until the node returns (`endingOpenerStatus`). */
interface HeldPush {
  id: string;
  name: string;
  props: Record<string, unknown>;
  messageId: string;
}

/** The ids of `messages`. */
function idsOf(messages: readonly BaseMessage[]): Set<string> {
  return new Set(messages.flatMap((message) => (message.id ? [message.id] : [])));
}

/** True when the opener `opener` is in `messages`, says nothing, and nothing a person sees follows it. */
function silentAndLast(messages: readonly BaseMessage[], opener: string): boolean {
  const at = messages.findIndex((message) => message.id === opener);
  return at >= 0 && isSilentOpener(messages[at]!) && messages.slice(at + 1).every((message) => isHiddenId(message.id));
}

/**
 * The first message of `written` a person sees, when it is an assistant message (its words, its tool calls, or a
 * step's line) — what takes the opener's place; undefined when nothing is seen, or when another message a person sees
 * (a tool's result, a person's) would come before it.
 */
function firstWords(written: readonly unknown[]): AIMessage | undefined {
  const seen = written.find(
    (message): message is BaseMessage =>
      message instanceof BaseMessage && !(message instanceof RemoveMessage) && !isHiddenId(message.id),
  );
  if (!(seen instanceof AIMessage) || !seen.id) return undefined;
  return messageText(seen) !== "" || (seen.tool_calls ?? []).length > 0 ? seen : undefined;
}

/**
 * `update` with `words` written under the opener's id (a step's line marked as one, so the prompts still leave it
 * out), every other mention of its id in the update renamed too (a workspace's ids, a card's message), and no removal
 * of the opener.
 */
function inOpenersPlace<U extends { messages?: unknown }>(update: U, words: AIMessage, opener: string): U {
  const from = words.id!;
  const metadata = isProgressId(from) ? { ...words.response_metadata, [PROGRESS_MARK]: true } : words.response_metadata;
  const placed = new AIMessage({
    content: words.content,
    id: opener,
    name: words.name,
    tool_calls: words.tool_calls,
    invalid_tool_calls: words.invalid_tool_calls,
    additional_kwargs: words.additional_kwargs,
    response_metadata: metadata,
    usage_metadata: words.usage_metadata,
  });
  const messages = (update.messages as BaseMessage[]).flatMap((message) =>
    message === words ? [placed] : message instanceof RemoveMessage && message.id === opener ? [] : [message],
  );
  const renamed = Object.fromEntries(
    Object.entries(update).map(([key, value]) => [key, key === "messages" ? messages : renamedId(value, from, opener)]),
  );
  return renamed as U;
}

/** `value` with every string equal to `from` (a message id: unique) replaced by `to`, in plain objects and arrays. */
function renamedId(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => renamedId(item, from, to));
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamedId(item, from, to)]));
}

/** Pushes the held components, under the opener's id those that stood under the message that took its place. */
function flush(config: LangGraphRunnableConfig, held: readonly HeldPush[], rename?: { from: string; to: string }) {
  for (const push of held)
    pushComponent(config, push.id, push.name, push.props, push.messageId === rename?.from ? rename.to : push.messageId);
}

/** True for a step's line written under an opener's id (`PROGRESS_MARK`). */
function isMarkedProgress(message: BaseMessage): boolean {
  return (message as AIMessage).response_metadata?.[PROGRESS_MARK] === true;
}

/** Where the turn's status stands as the client last saw it: its id, the message it is under, its language. */
interface StatusTarget {
  id: string;
  under: string;
  language: Language;
}

/**
 * The turn's status while a node runs (`withinTurnStatus`), kept up to date by every status the node pushes; and, while
 * the node's first words may take the opener's place, the components it pushes under messages not in the state yet
 * (`held`: pushed when it returns, under the id the message is written with) and the ids of those that are (`known`).
 */
const statusScope = new AsyncLocalStorage<{
  target?: StatusTarget;
  held?: HeldPush[];
  known?: Set<string>;
  /** The user's language (`languageOf` the messages the node runs on), for what is said while no status is shown. */
  language?: Language;
}>();

/** Runs `run` (a node) knowing where the turn's status stands, for the model-wait line (`showModelWait`). */
function withinTurnStatus<T>(
  view: UiView,
  run: () => Promise<T>,
  holding?: { held: HeldPush[]; known: Set<string> },
): Promise<T> {
  const request = turnRequest(view.messages);
  const shown = request?.id ? view.ui?.find((entry) => entry.id === statusId(request.id!)) : undefined;
  const under = shown?.metadata?.message_id;
  const target: StatusTarget | undefined =
    shown && typeof under === "string"
      ? { id: shown.id, under, language: statusLanguage(shown.props as unknown as StatusProps) }
      : undefined;
  return statusScope.run({ target, language: languageOf([...view.messages]), ...holding }, run);
}

/** The user's language while a node runs (the turn's messages), for a status said below the node; "en" outside one. */
export function turnLanguage(): Language {
  const scope = statusScope.getStore();
  return scope?.target?.language ?? scope?.language ?? "en";
}

/** "Waiting for the execute model… 6 s" in `language`. */
export function modelWaitText(stage: string, elapsedMs: number, language: Language): string {
  const seconds = Math.round(elapsedMs / 1000);
  return say(
    language,
    `Waiting for the ${stage} model… ${seconds} s`,
    `正在等待${stageNameInChinese(stage)}模型… ${seconds} 秒`,
  );
}

/** A stage's name in Chinese ("执行" for execute); an unknown stage as it is. */
export function stageNameInChinese(stage: string): string {
  return STAGE_NAMES_ZH[stage] ?? stage;
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
  const props: StatusProps = { text: modelWaitText(stage, elapsedMs, target.language), language: target.language };
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
  if (scope?.held && scope.known && !scope.known.has(messageId)) {
    scope.held.push({ id, name, props, messageId });
    return;
  }
  // Agent Chat UI shows a component under the message whose id is `metadata.message_id`; the pinned SDK's `push`
  // writes the message's id as `metadata.id` only (later SDKs write `message_id`), so it is given here too.
  ui.push({ id, name, props, metadata: { message_id: messageId } }, { message: { id: messageId } });
}
