/**
 * The store `langgraph dev` saves in its folder (`.langgraph_api/.langgraphjs_ops.json`: threads, runs, assistants,
 * as superjson `{ json, meta }`), read by tests that restart a server on what an earlier one saved.
 *
 * The server writes the file in place, 3 s after its last change (`fs.writeFile`: the file truncated, then written),
 * so a read while it saves may see the file empty or cut short ("Unterminated string in JSON"): such a read is of a
 * store being saved, and the file is read again.
 */
import { promises as fs } from "node:fs";
import path from "node:path";

/** The dev server's saved store in `folder`. */
export const savedStoreFile = (folder: string) => path.join(folder, ".langgraph_api", ".langgraphjs_ops.json");

/** The part of the saved store the tests read and rewrite. */
export type SavedOps = {
  json: { threads: Record<string, { status: string; config?: { configurable?: Record<string, unknown> } }> };
};

/** How the store is read (the file system by default; a test of this helper gives its own). */
export type ReadStore = (file: string) => Promise<string>;

const readFile: ReadStore = (file) => fs.readFile(file, "utf8");

/** The store `text` holds; undefined when it is not whole JSON (a file read while the server wrote it). */
function parsedStore(text: string): SavedOps | undefined {
  try {
    return JSON.parse(text) as SavedOps;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Waits for the dev server in `folder` to save its store with `threadId` idle, and resolves with that store; reads it
 * at most `attempts` times, 200 ms apart (one read: what a stopped server left).
 */
export async function savedIdle(
  folder: string,
  threadId: string,
  read: ReadStore = readFile,
  attempts = 100,
): Promise<SavedOps> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const saved = await read(savedStoreFile(folder)).then(parsedStore, () => undefined);
    if (saved?.json.threads[threadId]?.status === "idle") return saved;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the dev server did not save thread ${threadId} as idle`);
}
