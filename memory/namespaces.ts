/**
 * Store namespaces. Everything a user owns lives under
 * ["tempo", "users", <userId>, ...], so a search under one user's prefix can
 * never return another user's items.
 *
 * Ids are encoded into safe labels: PostgresStore rejects `%`, `_` and `\`
 * in namespace labels (they are LIKE wildcards in its prefix search), a "."
 * would split a label, and every store refuses a label with a ":" (before,
 * a user or thread id with one — a token's subject "google:123", `--user
 * a:b` — failed every run of that user with a raw InvalidNamespaceError). The
 * encoding is injective, so two ids never share a namespace.
 */
export type Namespace = string[];

/** An id as a namespace label: `~`, `%`, `_`, `\`, `.` and `:` escaped as `~XX` (hex). */
export function namespaceLabel(id: string): string {
  return id.replace(/[~%_\\.:]/g, (character) => `~${character.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function userPrefix(userId: string): Namespace {
  return ["tempo", "users", namespaceLabel(userId)];
}

/** The user's durable TaskState (one item, key "current"). */
export function taskStateNamespace(userId: string): Namespace {
  return [...userPrefix(userId), "task-state"];
}

/** Long-term facts about the user. */
export function factsNamespace(userId: string): Namespace {
  return [...userPrefix(userId), "facts"];
}

/** Past task episodes of the user. */
export function episodesNamespace(userId: string): Namespace {
  return [...userPrefix(userId), "episodes"];
}

/** The user's standing preferences (one item a preference, keyed by its id). */
export function preferencesNamespace(userId: string): Namespace {
  return [...userPrefix(userId), "preferences"];
}

/**
 * Everything kept for one thread of the user: every per-thread namespace is under it, so what goes with the thread
 * when it is deleted (`auth/http-app.ts`) is found by this prefix, a namespace added here later included.
 */
export function threadNamespace(userId: string, threadId: string): Namespace {
  return [...userPrefix(userId), "threads", namespaceLabel(threadId)];
}

/** Per-invocation summaries of one thread of the user. */
export function conversationNamespace(userId: string, threadId: string): Namespace {
  return [...threadNamespace(userId, threadId), "conversation"];
}

/** The standing preferences `/prefs` last showed in one thread of the user: what `/forget <number>` counts in. */
export function preferenceListingNamespace(userId: string, threadId: string): Namespace {
  return [...threadNamespace(userId, threadId), "preference-listing"];
}
