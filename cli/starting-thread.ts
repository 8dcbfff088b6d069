/**
 * Which thread the chat opens: the one asked for, else the user's last
 * thread when it still waits for an answer (so a restart picks it up),
 * else a fresh one; and the language the user speaks on a thread.
 */
import { randomUUID } from "node:crypto";
import type { BaseMessage } from "@langchain/core/messages";
import { languageOf, type Language } from "../contracts/language.js";
import type { TempoGraph } from "../server/tempo-graph.js";
import type { ThreadRegistry } from "./thread-registry.js";

/** A fresh thread id for the chat. */
export function newChatThreadId(): string {
  return `cli-${randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

/**
 * The thread to open: the requested one, else this user's most recent
 * thread if it still waits for an answer (so a restart picks it up), else a
 * fresh one.
 */
export async function chooseStartingThread(
  graph: Pick<TempoGraph, "getState">,
  registry: ThreadRegistry,
  userId: string,
  requested: string | undefined,
): Promise<{ threadId: string; reason: "requested" | "waiting" | "new"; language?: Language }> {
  if (requested) return { threadId: requested, reason: "requested" };
  const [latest] = await registry.list(userId);
  if (latest?.waitingFor) {
    const snapshot = await graph.getState({ configurable: { thread_id: latest.threadId, user_id: userId } });
    if (snapshot.tasks.some((task) => task.interrupts.length > 0))
      return { threadId: latest.threadId, reason: "waiting", language: savedLanguage(snapshot.values) };
  }
  return { threadId: newChatThreadId(), reason: "new" };
}

/**
 * The user's language on a thread as the rest of Tempo decides it: `languageOf` over its saved messages (`values`, a
 * checkpoint's) and `lines` about to be sent, so a short answer ("ok", "day 5") keeps a Chinese conversation Chinese.
 */
export function savedLanguage(values: unknown, lines: readonly string[] = []): Language {
  const saved = (values as { messages?: unknown } | undefined)?.messages;
  const messages = (Array.isArray(saved) ? saved : []).filter(
    (message): message is BaseMessage => typeof (message as BaseMessage | null)?.getType === "function",
  );
  return languageOf([...messages, ...lines]);
}
