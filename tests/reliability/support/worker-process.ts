/**
 * Child processes running a TypeScript entry point with `node --import tsx`, in their own process group so that a
 * kill reaches whatever the entry point started. Their stdout is read as JSON lines.
 */
import { spawn } from "node:child_process";
import { TSX_NODE_ARGS } from "../../support/tsx.js";

export interface WorkerProcess {
  pid: number;
  /** JSON objects printed so far, one per line. */
  events: Array<Record<string, unknown>>;
  /** Everything printed on stderr (and non-JSON stdout). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` to the whole process group (default SIGKILL); no-op after exit. */
  kill(signal?: NodeJS.Signals): void;
  /** Resolves with the first event matching `predicate`; rejects if the process exits first. */
  waitFor(predicate: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Starts `node --import tsx <script> ...args` from the repository root. */
export function startWorker(script: string, args: string[], environment: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, script, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...environment },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start node --import tsx ${script}`);
  const events: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    predicate: (event: Record<string, unknown>) => boolean;
    resolve: (event: Record<string, unknown>) => void;
  }> = [];
  let stderr = "";
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      try {
        const event = JSON.parse(line) as Record<string, unknown>;
        events.push(event);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(event)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(event);
          }
        }
      } catch {
        stderr += `${line}\n`;
      }
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const pid = child.pid;
  return {
    pid,
    events,
    output: () => stderr,
    exited,
    kill(signal = "SIGKILL") {
      if (done) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // already gone
      }
    },
    waitFor(predicate) {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ predicate, resolve });
        exited.then(({ code, signal }) =>
          reject(new Error(`worker exited (code ${code}, signal ${signal}) before the expected event:\n${stderr}`)),
        );
      });
    },
  };
}
