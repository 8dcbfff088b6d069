/**
 * Which thread the chat opens: the one asked for, else the user's last
 * thread when it still waits for an answer (so a restart picks it up),
 * else a fresh one.
 */
import { randomUUID } from "node:crypto";
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
): Promise<{ threadId: string; reason: "requested" | "waiting" | "new" }> {
  if (requested) return { threadId: requested, reason: "requested" };
  const [latest] = await registry.list(userId);
  if (latest?.waitingFor) {
    const snapshot = await graph.getState({ configurable: { thread_id: latest.threadId, user_id: userId } });
    if (snapshot.tasks.some((task) => task.interrupts.length > 0))
      return { threadId: latest.threadId, reason: "waiting" };
  }
  return { threadId: newChatThreadId(), reason: "new" };
}
