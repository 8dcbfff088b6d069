/** The kill switch of the crash tests' child processes: die at once (SIGKILL, no cleanup), or right after a write commits. */
import type { PostgresExecutionLog } from "../../checkpoints/index.js";

/** Kills this process at once, as a crash would: no finally blocks, no pool shutdown. */
export function die(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
}

/** `log`, killing the process right after the first write and its log entry committed (`applyOnce` resolved). */
export function killingLog(log: PostgresExecutionLog): PostgresExecutionLog {
  const applyOnce = log.applyOnce!;
  return Object.assign(Object.create(log) as PostgresExecutionLog, {
    applyOnce: async (...args: Parameters<typeof applyOnce>) => {
      const claimed = await applyOnce(...args);
      die();
      return claimed;
    },
  });
}
