/**
 * `/prefs` and `/forget <n|id>`: the user's own look at their standing preferences, and their own way to take one
 * back (docs/design.md#standing-preferences). The graph's chat node runs them for every client (Agent Chat UI,
 * Studio, `invoke`), and the terminal chat runs them on its store: both say the same words, in the user's language.
 */
import type { BaseStore } from "@langchain/langgraph";
import type { Preference } from "../contracts/preferences.js";
import { say, type Language } from "../contracts/language.js";
import { isTempoError } from "../errors/index.js";
import { preferenceListingNamespace } from "./namespaces.js";
import {
  loadPreferences,
  readReference,
  removePreference,
  renderPreferenceList,
  shortThread,
  type ShownPreference,
} from "./preferences.js";

/** A preference command, as typed: `/prefs`, or `/forget` with its one reference (a number in `/prefs`, or an id). */
export type PreferenceCommand = { name: "prefs" } | { name: "forget"; reference: string };

/**
 * `/prefs` in Chinese, and `/forget` naming none of them (in English, `renderPreferenceList` and the error say them),
 * or a number of a list no longer as it was shown (`gone`), or with no list shown in the thread (`unlisted`).
 */
export const PREFERENCE_WORDS = {
  none: "还没有长期偏好。可以直接说一条（如“我周一从不学习”），或在拒绝卡片时说明（如“周一不要排”）。",
  heading: "你的长期偏好：",
  footer: "用 /forget <编号或 id> 删除一条。",
  notFound: (reference: string, count: number): string =>
    count === 0
      ? "你没有可删除的长期偏好。"
      : `没有偏好 ${JSON.stringify(reference)}：请给出它在 /prefs 中的编号（1-${count}）或它的 id。`,
  gone: (number: number, text: string): string =>
    `/prefs 列出的第 ${number} 条（“${text}”）已经不在你的长期偏好中了（之后被删除或替换），所以什么也没有删除。/prefs 会列出现在的偏好。`,
  unlisted: {
    en: "A number is the one /prefs shows in this conversation, and it has shown no list here yet, so nothing was removed. Send /prefs first, or give the preference's id.",
    zh: "编号是 /prefs 在这个对话中列出的编号，这里还没有列出过，所以什么也没有删除。请先发送 /prefs，或者给出偏好的 id。",
  },
} as const;

/**
 * The user's standing preferences, numbered as /forget takes them, in `language` (their words as they said them); the
 * footer after a blank line, a paragraph of its own in Markdown.
 */
export function renderPreferences(profile: readonly Preference[], language: Language = "en"): string {
  if (language === "en") return renderPreferenceList(profile);
  if (profile.length === 0) return PREFERENCE_WORDS.none;
  return [
    PREFERENCE_WORDS.heading,
    ...profile.map(
      (entry, index) =>
        `${index + 1}. ${entry.text} — ${sourceInChinese(entry)}，${entry.createdAt.slice(0, 10)} [${entry.id}]`,
    ),
    "",
    PREFERENCE_WORDS.footer,
  ].join("\n");
}

/**
 * Where an entry was said, in Chinese: "在对话 t-1 的消息中说的", "对 place 卡片的反馈（对话 t-1）"; an entry stored before
 * its origin was kept as data shows its English words as stored.
 */
function sourceInChinese(entry: Preference): string {
  const from = entry.from;
  if (!from) return entry.source;
  if (from.kind === "message") return `在对话 ${shortThread(from.threadId)} 的消息中说的`;
  // (A write card is named by its tool, as the card shows it: "对 place 卡片的反馈".)
  const card = from.tool === "the plan" ? "计划" : ` ${from.tool} `;
  return `对${card}卡片的反馈（对话 ${shortThread(from.threadId)}）`;
}

/** Where the list `/prefs` showed in a thread is kept: its entries in order, what `/forget <number>` counts in. */
const LISTING_KEY = "shown";

/**
 * The store item that holds the list `/prefs` last showed `userId` in `threadId`: what goes with the thread when it is
 * deleted (`auth/http-app.ts`) or cleared (`forgetShownList`).
 */
export function shownListItem(userId: string, threadId: string): { namespace: string[]; key: string } {
  return { namespace: preferenceListingNamespace(userId, threadId), key: LISTING_KEY };
}

/** The list `/prefs` last showed in `threadId` (undefined when it showed none there, or what is kept is unreadable). */
async function shownList(store: BaseStore, userId: string, threadId: string): Promise<ShownPreference[] | undefined> {
  const item = await store.get(preferenceListingNamespace(userId, threadId), LISTING_KEY);
  const entries = (item?.value as { entries?: unknown } | undefined)?.entries;
  if (!Array.isArray(entries)) return undefined;
  return entries.flatMap((entry: { id?: unknown; text?: unknown }) =>
    // Bounded words, as an entry's are when stored: the store API lets a user write this item too.
    typeof entry?.id === "string" && typeof entry.text === "string"
      ? [{ id: entry.id, text: entry.text.slice(0, 200) }]
      : [],
  );
}

/** `/clear`: the list `/prefs` showed in the thread is gone with its messages, so its numbers name nothing. */
export async function forgetShownList(store: BaseStore, userId: string, threadId: string): Promise<void> {
  const { namespace, key } = shownListItem(userId, threadId);
  await store.delete(namespace, key);
}

/**
 * Runs `command` for `userId` in `threadId` on `store` and says what it did, in `language`: the numbered list, or the
 * preference removed. A number is the one the list `/prefs` last showed in this thread gave (kept in the store), so it
 * names what the user saw under it — never the entry that moved into its place since (another thread stored or
 * removed one, or this thread removed the one above); a reference that names no preference is said (nothing is
 * removed); with no store there are no preferences.
 */
export async function runPreferenceCommand(
  store: BaseStore | undefined,
  userId: string,
  threadId: string,
  command: PreferenceCommand,
  language: Language,
): Promise<string> {
  if (!store)
    return say(
      language,
      "This chat has no memory store, so there are no standing preferences.",
      "这个聊天没有记忆存储，所以没有长期偏好。",
    );
  if (command.name === "prefs") {
    const profile = await loadPreferences(store, userId);
    const entries = profile.map((entry) => ({ id: entry.id, text: entry.text }));
    // A run with no thread (no checkpointer) has no conversation to show a list in: it keeps none.
    if (threadId !== "") await store.put(preferenceListingNamespace(userId, threadId), LISTING_KEY, { entries }, false);
    return renderPreferences(profile, language);
  }
  const shown = threadId === "" ? undefined : await shownList(store, userId, threadId);
  const numbered = readReference(command.reference).number !== undefined;
  if (!shown && numbered && (await loadPreferences(store, userId)).length > 0)
    return say(language, PREFERENCE_WORDS.unlisted.en, PREFERENCE_WORDS.unlisted.zh);
  try {
    const removed = await removePreference(store, userId, command.reference, shown ?? []);
    return say(
      language,
      `Removed: "${removed.text}". The next task no longer keeps to it.`,
      `已删除：“${removed.text}”。之后的任务不再遵守它。`,
    );
  } catch (error) {
    if (!isTempoError(error) || error.code !== "PREFERENCE_NOT_FOUND") throw error;
    const { reference, count, gone, number } = (error.details ?? {}) as Record<string, unknown>;
    if (language !== "zh") return error.message;
    if (typeof gone === "string" && typeof number === "number") return PREFERENCE_WORDS.gone(number, gone);
    return typeof reference === "string" && typeof count === "number"
      ? PREFERENCE_WORDS.notFound(reference, count)
      : error.message;
  }
}
