/**
 * The load probe's reading of another process's CPU (`bench/support/process-cpu.ts`): a child's work is counted in
 * its parent's tree while it runs and after it ended (reaped children's time), and a PostgreSQL server started here
 * is found by its data folder.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, test } from "vitest";
import { postgresPid, treeCpuMs } from "../../bench/support/process-cpu.js";
import { realPostgresAvailable, startRealTestPostgres } from "../support/postgres.js";

/** A child node process that spins for `ms` of its own CPU, then exits. */
async function spinningChild(ms: number): Promise<void> {
  const child = spawn(process.execPath, [
    "-e",
    `const end = process.cpuUsage().user + ${ms * 1000}; while (process.cpuUsage().user < end) {}`,
  ]);
  const [code] = (await once(child, "exit")) as [number | null];
  expect(code).toBe(0);
}

describe("the CPU of a process tree (Linux /proc)", () => {
  test("a child's CPU counts in its parent's tree once it ended; an unknown pid gives undefined", async () => {
    const before = treeCpuMs(process.pid)!;
    expect(before).toBeGreaterThan(0);
    await spinningChild(400);
    // The child's own 400 ms (and its start-up) are in this process's reaped children's time.
    expect(treeCpuMs(process.pid)! - before).toBeGreaterThanOrEqual(350);
    expect(treeCpuMs(2 ** 22 + 1)).toBeUndefined();
  });

  test.runIf(realPostgresAvailable() || process.env.TEMPO_REQUIRE_REAL_POSTGRES === "1")(
    "PostgreSQL 15's server process is found from its URL",
    async () => {
      const server = await startRealTestPostgres();
      try {
        const pid = await postgresPid(server.url);
        expect(pid).toBeGreaterThan(0);
        expect(treeCpuMs(pid!)).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    },
  );
});
