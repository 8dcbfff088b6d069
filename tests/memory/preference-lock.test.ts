/**
 * A change of one user's standing preferences is one at a time across processes that share the store's database, not
 * only within one: two server workers on one Postgres. Each change reads the profile and then writes what it decided
 * from that read; the in-process queue (`withLocalMutex`) kept two runs of one process apart, but a second process
 * read the same profile and wrote past the first. Found: "/forget 1" of "never in the morning" in one worker while
 * "Sunday mornings are fine now" was said to another — /forget said "Removed", and the lift, which had read the rule
 * before it went, put it back for Monday to Saturday. Now the change holds a Postgres advisory lock on the store's
 * database (`MemoryStore.exclusive`).
 *
 * On the real server the second worker is a child process with its own pool and its own in-process queues, and the
 * first worker's change is held between its read and its write until the child has either done its whole change (no
 * lock: the lost update) or waits for the lock. The embedded server (PGlite) is one process's alone (its data
 * directory is locked to it, and its connections share one session, where advisory locks never block), so there the
 * two changes run from two stores on two pools of one process: the lock taken inside the in-process queue changes
 * nothing of what they do, and neither waits for ever.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { openDatabase } from "../../database/index.js";
import { preferencesNamespace } from "../../memory/namespaces.js";
import { applyPreferenceChange, loadPreferences, removePreference } from "../../memory/preferences.js";
import { createMemoryStore, type MemoryStore } from "../../memory/store.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { ScriptProcess } from "../cli/child-process.js";
import { useMemoryStore } from "../support/memory-store.js";
import { postgresTargets } from "../support/postgres.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = path.join(ROOT, "tests/support/preference-change-process.ts");
const STATED = "2026-01-05T10:00:00.000Z";
const LIFTED = "2026-01-06T10:00:00.000Z";

/** `inner`, whose read of `namespace`'s entries waits for `pause` before it answers; the lock is `inner`'s own. */
class PausingStore extends BaseStore {
  constructor(
    private readonly inner: MemoryStore,
    private readonly namespace: string[],
    private readonly pause: () => Promise<void>,
  ) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = await this.inner.batch(operations);
    const reads = operations.some(
      (operation) => "namespacePrefix" in operation && operation.namespacePrefix.join("/") === this.namespace.join("/"),
    );
    if (reads) await this.pause();
    return results;
  }

  exclusive<T>(key: string, fn: () => Promise<T>, holding: string): Promise<T> {
    return this.inner.exclusive(key, fn, holding);
  }
}

/** The address of the database `store` is on (its pool's). */
function databaseUrlOf(store: MemoryStore): string {
  return (store.inner as unknown as { core: { pool: { options: { connectionString: string } } } }).core.pool.options
    .connectionString;
}

/** `user` holds "never in the morning"; the entry, as a list showed it under number 1. */
async function neverInTheMorning(store: MemoryStore, user: string) {
  await applyPreferenceChange(store, user, readSchedulePreferences("never in the morning"), "stated", STATED);
  const [entry, ...rest] = await loadPreferences(store, user);
  expect(rest).toEqual([]);
  return { id: entry!.id, text: entry!.text };
}

describe.each(postgresTargets())("$kind postgres", (target) => {
  const postgres = useMemoryStore(target);

  // A second process is the real server's alone (see above).
  if (target.kind === "real")
    test("/forget in one worker while another lifts the rule on Sundays: the second waits, and what /forget said is kept", async () => {
      const store = postgres.store;
      const user = "lock-worker";
      const shown = await neverInTheMorning(store, user);
      let read!: () => void;
      const readDone = new Promise<void>((resolve) => (read = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const pausing = new PausingStore(store, preferencesNamespace(user), async () => {
        read();
        await released;
      });
      const forgetting = removePreference(pausing, user, "1", [shown]);
      await readDone;

      const url = databaseUrlOf(store);
      const child = ScriptProcess.start(CHILD, [url, user, "Sunday mornings are fine now", LIFTED], {
        cwd: ROOT,
        env: process.env,
      });
      try {
        const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
        try {
          // Held between its read and its write until the other worker has done its change or waits for the lock.
          for (let polls = 0; !child.done; polls += 1) {
            const { rows } = await database.pool.query<{ waiting: number }>(
              "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
            );
            if (rows[0]!.waiting > 0) break;
            if (polls > 6_000) throw new Error(`The child neither ended nor waited.\n${child.transcript()}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          await database.close();
        }
        release();
        expect(await forgetting).toMatchObject({ text: "never in the morning" });
        expect(await child.exitCode(), child.transcript()).toBe(0);
        // The lift read the profile after /forget: nothing left to narrow. Before, it put the rule back narrowed.
        expect(JSON.parse(child.stdout.trim())).toEqual({ added: [], removed: [] });
        expect(await loadPreferences(store, user)).toEqual([]);
      } finally {
        release();
        await child.stop();
      }
    });

  test("two changes of one user from two stores on two pools: one after the other, neither waits for ever", async () => {
    const store = postgres.store;
    const user = `lock-pools-${target.kind}`;
    const shown = await neverInTheMorning(store, user);
    const url = databaseUrlOf(store);
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    const other = await createMemoryStore(database, { poolSize: 2 });
    try {
      const [forgot, lifted] = await Promise.allSettled([
        removePreference(store, user, "1", [shown]),
        applyPreferenceChange(other, user, readSchedulePreferences("Sunday mornings are fine now"), "s", LIFTED),
      ]);
      const kept = (await loadPreferences(store, user)).map((entry) => entry.text);
      // Either /forget went first (nothing left to lift) or the lift did (the entry shown is gone: nothing removed).
      if (forgot.status === "fulfilled") {
        expect(kept).toEqual([]);
        expect(lifted).toMatchObject({ status: "fulfilled", value: { added: [], removed: [] } });
      } else {
        expect(forgot.reason).toMatchObject({ code: "PREFERENCE_NOT_FOUND" });
        expect(kept).toHaveLength(1);
      }
    } finally {
      await other.stop();
      await database.close();
    }
  });
});
