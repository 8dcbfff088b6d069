/**
 * Long-term memory around an invocation (docs/design.md#long-term-memory): facts and episodes per
 * user, and one summary per invocation per thread, all through the LangGraph
 * `BaseStore` (PostgresStore in production — text search by default, vector
 * search when the store has an embedding index — InMemoryStore in tests).
 */
import { randomUUID } from "node:crypto";
import type { BaseStore } from "@langchain/langgraph";
import { conversationNamespace, episodesNamespace, factsNamespace } from "./namespaces.js";
import { isLiveData } from "./task-state.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";

export interface Fact {
  text: string;
  /** Where it came from ("user", "agent"). */
  source: string;
  createdAt: string;
}

export interface Episode {
  goal: string;
  /** How the task ended (absent in episodes recorded before outcomes existed). */
  status?: "completed" | "partial" | "failed" | "dropped";
  keySteps: string[];
  outcome: string;
  lessons: string[];
  createdAt: string;
}

export interface ConversationEntry {
  /** "User asked X, agent did Y, result Z." */
  summary: string;
  createdAt: string;
}

/** Facts relevant to `query`, best first. */
export async function searchFacts(store: BaseStore, userId: string, query: string, limit = 5): Promise<Fact[]> {
  return (await searchWithFallback(store, factsNamespace(userId), query, limit)).map(
    (value) => value as unknown as Fact,
  );
}

/** Past episodes similar to `query`, best first. */
export async function searchEpisodes(store: BaseStore, userId: string, query: string, limit = 3): Promise<Episode[]> {
  return (await searchWithFallback(store, episodesNamespace(userId), query, limit)).map(
    (value) => value as unknown as Episode,
  );
}

/** The thread's conversation memory, oldest first (the last `limit` entries). */
export async function conversationMemory(
  store: BaseStore,
  userId: string,
  threadId: string,
  limit = 8,
): Promise<ConversationEntry[]> {
  const items = await store.search(conversationNamespace(userId, threadId), { limit: 200 });
  return items
    .map((item) => item.value as unknown as ConversationEntry)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .slice(-limit);
}

/** Stores facts that are durable (live data is skipped); returns the stored ones. */
export async function storeFacts(
  store: BaseStore,
  userId: string,
  texts: string[],
  source: string,
  now: string,
): Promise<Fact[]> {
  const existing = new Set(
    (await store.search(factsNamespace(userId), { limit: 500 })).map((item) =>
      String((item.value as { text?: string }).text ?? "").toLowerCase(),
    ),
  );
  const stored: Fact[] = [];
  for (const text of texts.map((entry) => entry.trim())) {
    if (text === "" || isLiveData(text) || existing.has(text.toLowerCase())) continue;
    const fact: Fact = { text, source, createdAt: now };
    await store.put(factsNamespace(userId), randomUUID(), { ...fact });
    existing.add(text.toLowerCase());
    stored.push(fact);
  }
  return stored;
}

/** Records a task episode. */
export async function recordEpisode(store: BaseStore, userId: string, episode: Episode): Promise<void> {
  await store.put(episodesNamespace(userId), randomUUID(), {
    ...episode,
    text: `${episode.goal}\n${episode.keySteps.join("\n")}\n${episode.status ?? ""} ${episode.outcome}`,
  });
}

/** Appends one invocation summary to the thread's conversation memory. */
export async function appendConversation(
  store: BaseStore,
  userId: string,
  threadId: string,
  entry: ConversationEntry,
): Promise<void> {
  await store.put(conversationNamespace(userId, threadId), `${entry.createdAt}-${randomUUID().slice(0, 8)}`, {
    ...entry,
  });
}

/** One line for a prompt: goal, how it ended, lessons (a calendar's text an older episode holds shown as a mention). */
export function renderEpisode(episode: Episode): string {
  const shown = withoutCalendarText;
  return `${shown(episode.goal)} → ${episode.status ? `[${episode.status}] ` : ""}${shown(episode.outcome)}${episode.lessons.length ? ` (lessons: ${episode.lessons.map(shown).join("; ")})` : ""}`;
}

/** Deletes the thread's conversation memory. */
export async function clearConversation(store: BaseStore, userId: string, threadId: string): Promise<void> {
  const items = await store.search(conversationNamespace(userId, threadId), { limit: 1000 });
  await Promise.all(items.map((item) => store.delete(item.namespace, item.key)));
}

/**
 * Store search by query, falling back to word matching: InMemoryStore without
 * an index ignores the query, and Postgres text search needs every word.
 */
async function searchWithFallback(
  store: BaseStore,
  namespace: string[],
  query: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const searched = await store.search(namespace, { query, limit });
  const hits = searched.filter((item) => item.score !== undefined && item.score !== null && item.score > 0);
  if (hits.length > 0) return hits.map((item) => item.value);
  // Rank everything in the namespace by shared words (bounded: memories are small per user).
  const all = await store.search(namespace, { limit: 500 });
  return all
    .map((item) => ({ value: item.value, score: wordOverlap(JSON.stringify(item.value).toLowerCase(), words) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((entry) => entry.value);
}

function wordOverlap(text: string, words: string[]): number {
  return words.reduce((count, word) => count + (text.includes(word) ? 1 : 0), 0);
}
