/**
 * Store namespaces. Everything a user owns lives under
 * ["tempo", "users", <userId>, ...], so a search under one user's prefix can
 * never return another user's items.
 */
export type Namespace = string[];

/** The user's durable TaskState (one item, key "current"). */
export function taskStateNamespace(userId: string): Namespace {
  return ["tempo", "users", userId, "task_state"];
}

/** Long-term facts about the user. */
export function factsNamespace(userId: string): Namespace {
  return ["tempo", "users", userId, "facts"];
}

/** Past task episodes of the user. */
export function episodesNamespace(userId: string): Namespace {
  return ["tempo", "users", userId, "episodes"];
}

/** Per-invocation summaries of one thread of the user. */
export function conversationNamespace(userId: string, threadId: string): Namespace {
  return ["tempo", "users", userId, "threads", threadId, "conversation"];
}
