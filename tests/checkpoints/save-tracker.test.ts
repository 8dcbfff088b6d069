/**
 * The save tracker's refusal of a losing run's later checkpoints (checkpoints/resume-claims.ts), told apart from a new
 * run on the same thread whose save has not started yet when its write first asks. Offline: the pool is a stand-in
 * that answers whether a checkpoint is stored.
 */
import type pg from "pg";
import { describe, expect, test, vi } from "vitest";
import { AlreadyResumedError, SaveTracker } from "../../checkpoints/resume-claims.js";
import { saverTables, type CheckpointRef } from "../../checkpoints/refs.js";

const ref = (checkpointId: string): CheckpointRef => ({ threadId: "t-1", checkpointNs: "", checkpointId });

/** A pool whose stored checkpoints are `stored`; `onAsk` runs after each question, as the next statement would. */
function poolOf(stored: Set<string>, onAsk: () => void = () => undefined): pg.Pool {
  return {
    query: async (_sql: string, values: unknown[]) => {
      const rowCount = stored.has(String(values[2])) ? 1 : 0;
      setImmediate(onAsk);
      return { rowCount, rows: [] };
    },
  } as unknown as pg.Pool;
}

/** A tracker on `pool` whose save of checkpoint "0001" just lost its claim to another run. */
async function trackerAfterLoss(pool: pg.Pool): Promise<{ tracker: SaveTracker; lost: AlreadyResumedError }> {
  const tracker = new SaveTracker(pool, saverTables("public"), 30_000);
  const lost = new AlreadyResumedError(ref("0001"), "0000", "0009");
  await expect(tracker.track(ref("0001"), Promise.reject(lost))).rejects.toBe(lost);
  return { tracker, lost };
}

describe("SaveTracker after a lost claim", () => {
  test("a later checkpoint of the losing run, never saved, is refused with the lost claim's error", async () => {
    const { tracker, lost } = await trackerAfterLoss(poolOf(new Set()));
    await expect(tracker.awaitSaved(ref("0002"), 30)).rejects.toBe(lost);
  });

  test("a new run's checkpoint whose save starts just after its write asks is saved, not refused", async () => {
    const stored = new Set<string>();
    let started = false;
    // LangGraph starts a step's save once the save before it ends: here, right after the write's first question.
    const pool = poolOf(stored, () => {
      if (started) return;
      started = true;
      void tracker.track(
        ref("0003"),
        Promise.resolve().then(() => {
          stored.add("0003");
        }),
      );
    });
    const { tracker } = await trackerAfterLoss(pool);
    await expect(tracker.awaitSaved(ref("0003"), 30)).resolves.toBe("saved");
  });

  test("a checkpoint whose save starts and loses while the write asks whether it is stored is refused", async () => {
    // The write asks after its step's writes are stored but before LangGraph has called \`put\`: the save then starts,
    // and loses its claim, within the one question. With no grace left, only the save's outcome tells.
    const tracker = new SaveTracker(
      {
        query: async () => {
          await tracker.track(ref("0005"), Promise.reject(lost)).catch(() => undefined);
          return { rowCount: 0, rows: [] };
        },
      } as unknown as pg.Pool,
      saverTables("public"),
      30_000,
    );
    const lost = new AlreadyResumedError(ref("0005"), "0000", "0009");
    await expect(tracker.awaitSaved(ref("0005"), 0)).rejects.toBe(lost);
  });

  test("a checkpoint whose save starts and ends while the write asks whether it is stored is saved", async () => {
    const tracker = new SaveTracker(
      {
        query: async () => {
          await tracker.track(ref("0006"), Promise.resolve());
          return { rowCount: 0, rows: [] };
        },
      } as unknown as pg.Pool,
      saverTables("public"),
      30_000,
    );
    await expect(tracker.awaitSaved(ref("0006"), 0)).resolves.toBe("saved");
  });

  test("a checkpoint stored by another process is saved, whatever this process lost", async () => {
    const { tracker } = await trackerAfterLoss(poolOf(new Set(["0004"])));
    await expect(tracker.awaitSaved(ref("0004"), 30)).resolves.toBe("saved");
  });
});

describe("SaveTracker's wait behind a save of the thread", () => {
  test("a checkpoint queued behind another save is saved, and the wait leaves no timer behind (the process can exit)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const stored = new Set<string>();
      const tracker = new SaveTracker(poolOf(stored), saverTables("public"), 30_000);
      let finish: () => void = () => undefined;
      const saving = tracker.track(
        ref("0010"),
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
      );
      const waited = tracker.awaitSaved(ref("0011"), 30);
      // The wait is queued behind 0010's save; that save ends, and 0011's save with it.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      stored.add("0010");
      stored.add("0011");
      finish();
      await saving;
      await expect(waited).resolves.toBe("saved");
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
