/**
 * The threads this CLI has seen, per user, in a small JSON file (default
 * `.tempo/cli-threads.json`), for `/threads` and for reopening a thread
 * that waits for an answer after a restart. The checkpoints themselves live
 * in Postgres; this file only remembers thread ids and a one-line preview.
 */
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

/** Default location, relative to the working directory. */
export const DEFAULT_THREADS_FILE = path.join(".tempo", "cli-threads.json");

/** Threads kept in the file, newest first; older ones are dropped. */
const MAX_THREADS = 200;

/** One thread as this CLI last saw it. */
export interface ThreadEntry {
  threadId: string;
  userId: string;
  /** The last message the user sent on it ("" before the first). */
  lastMessage: string;
  /** ISO time of the last activity. */
  updatedAt: string;
  /** The card the thread waits on (its action, e.g. "confirm_plan", "place", "ask_user"), or null. */
  waitingFor: string | null;
}

/** A change to an entry; fields left out keep their value. */
export type ThreadEntryUpdate = Partial<Pick<ThreadEntry, "lastMessage" | "waitingFor">>;

/** Reads and writes the thread file; each write replaces the file atomically. */
export class ThreadRegistry {
  constructor(readonly file: string = DEFAULT_THREADS_FILE) {}

  /** Threads of `userId`, most recently active first. */
  async list(userId: string): Promise<ThreadEntry[]> {
    return (await this.readAll()).filter((entry) => entry.userId === userId);
  }

  /** The entry of a thread, if this CLI has seen it. */
  async find(threadId: string): Promise<ThreadEntry | undefined> {
    return (await this.readAll()).find((entry) => entry.threadId === threadId);
  }

  /** Records activity on a thread (created if new) and moves it to the top. */
  async touch(
    threadId: string,
    userId: string,
    update: ThreadEntryUpdate = {},
    now: Date = new Date(),
  ): Promise<ThreadEntry> {
    const entries = await this.readAll();
    const previous = entries.find((entry) => entry.threadId === threadId);
    const entry: ThreadEntry = {
      threadId,
      userId,
      lastMessage: update.lastMessage ?? previous?.lastMessage ?? "",
      updatedAt: now.toISOString(),
      waitingFor: update.waitingFor !== undefined ? update.waitingFor : (previous?.waitingFor ?? null),
    };
    await this.writeAll([entry, ...entries.filter((other) => other.threadId !== threadId)].slice(0, MAX_THREADS));
    return entry;
  }

  private async readAll(): Promise<ThreadEntry[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    // Named fallback: a damaged file (hand-edited, half-written by an old version) reads as empty instead of stopping the chat.
    try {
      const parsed: unknown = JSON.parse(text);
      const threads = (parsed as { threads?: unknown }).threads;
      return Array.isArray(threads) ? threads.filter(isThreadEntry) : [];
    } catch {
      return [];
    }
  }

  private async writeAll(entries: ThreadEntry[]): Promise<void> {
    await fs.mkdir(path.dirname(path.resolve(this.file)), { recursive: true });
    const staging = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    await fs.writeFile(staging, `${JSON.stringify({ threads: entries }, null, 2)}\n`);
    await fs.rename(staging, this.file);
  }
}

function isThreadEntry(value: unknown): value is ThreadEntry {
  if (value === null || typeof value !== "object") return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.threadId === "string" &&
    typeof entry.userId === "string" &&
    typeof entry.lastMessage === "string" &&
    typeof entry.updatedAt === "string" &&
    (entry.waitingFor === null || typeof entry.waitingFor === "string")
  );
}
