/**
 * The load probe (issue 44.8): conversations at once over several worker processes — each a `createTempo` on the
 * same DATABASE_URL (`load-worker.ts`) — and a lone conversation's time measured in the same run, before the load.
 * Used by `bench/load.ts` (200 conversations, 2 workers, PostgreSQL 15 at max_connections 100) and by
 * `tests/load/load.test.ts` (small numbers on a server with few connections).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { bundled } from "../persistence/child-runner.js";
import type { ConversationOutcome } from "./load-conversation.js";

const WORKER_SCRIPT = fileURLToPath(new URL("./load-worker.ts", import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Options of {@link runLoadProbe}. */
export interface LoadProbeOptions {
  /** The database every worker uses. */
  url: string;
  /** Conversations at once, over all workers. */
  conversations: number;
  /** Worker processes. */
  workers: number;
  /** Lone conversations timed one after another before the load (the median is the reference); 0: none. Default 3. */
  loneRuns?: number;
  /** Each worker runs one conversation before it reports ready (JIT, caches), as a running server has. Default true. */
  warmUp?: boolean;
  /**
   * An OpenAI-compatible server the workers' models call (OPENAI_BASE_URL); without it they run the offline policy
   * in-process and wait on no model.
   */
  modelBaseUrl?: string;
  /** Environment of the workers beyond DATABASE_URL (pool sizes, run gate). */
  environment?: Record<string, string>;
  /** Thread id prefix (threads of several probes on one database stay apart). */
  prefix?: string;
  /** Longest the probe may take; past it every worker is killed and the probe fails. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * A directory for V8 CPU profiles: each worker profiles the conversations it was told to run (start-up and warm-up
   * left out) and writes `<pid>.cpuprofile` there before it reports.
   */
  profileDir?: string;
}

/** What the probe measured. */
export interface LoadProbeResult {
  /** Every conversation of the load, with its time and error. */
  conversations: ConversationOutcome[];
  /** The lone conversations' times, in ms, in order. */
  loneMs: number[];
  /** The lone conversations, in order, each with its own CPU time. */
  lone: ConversationOutcome[];
  /** From the go signal to the last worker's report, in ms. */
  wallMs: number;
  /** CPU time (user + system) the lone worker spent per lone conversation, in ms. */
  loneCpuMs: number;
  /** CPU time the load's workers spent on the load, all together, in ms. */
  loadCpuMs: number;
}

/** What a worker reports. */
interface WorkerReport {
  conversations: ConversationOutcome[];
  cpuMs: number;
}

/** A started worker: its report once it printed one, and a way to kill it. */
interface Worker {
  ready: Promise<void>;
  report: Promise<WorkerReport>;
  go(): void;
  kill(): void;
}

/** Starts a worker process on `threads` (it prints ready, waits for go, runs them, prints its report). */
async function startWorker(
  options: LoadProbeOptions,
  threads: string[],
  mode: { warmUp: boolean; sequential: boolean },
): Promise<Worker> {
  const entry = await bundled(WORKER_SCRIPT);
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.environment, DATABASE_URL: options.url };
  // The offline policy unless a model server is named: no other model server is ever called.
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  if (options.modelBaseUrl) {
    env.OPENAI_BASE_URL = options.modelBaseUrl;
    env.OPENAI_API_KEY = "load-probe";
  }
  const workerArguments = JSON.stringify({ threads, ...mode, profileDir: options.profileDir });
  const child: ChildProcess = spawn(process.execPath, [entry, workerArguments], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<string>((resolve) =>
    child.once("close", (code, signal) =>
      resolve(`worker exited (${signal ?? code}) before it reported:\n${stderr.slice(-4_000)}`),
    ),
  );
  const lines = createInterface({ input: child.stdout! });
  const reports: Array<(line: string) => void> = [];
  const pending: string[] = [];
  lines.on("line", (line) => {
    const next = reports.shift();
    if (next) next(line);
    else pending.push(line);
  });
  const nextLine = () =>
    Promise.race([
      new Promise<string>((resolve) => {
        const line = pending.shift();
        if (line !== undefined) resolve(line);
        else reports.push(resolve);
      }),
      exited.then((reason) => Promise.reject(new Error(reason))),
    ]);
  const ready = nextLine().then((line) => {
    if (!(JSON.parse(line) as { ready?: boolean }).ready) throw new Error(`worker did not get ready: ${line}`);
  });
  const report = ready.then(nextLine).then((line) => JSON.parse(line) as WorkerReport);
  // A failed start is reported through `ready`; the report then never comes.
  report.catch(() => undefined);
  return {
    ready,
    report,
    go: () => child.stdin!.write("go\n"),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** Runs the lone conversations, then the load; every worker is stopped before it returns (or throws). */
export async function runLoadProbe(options: LoadProbeOptions): Promise<LoadProbeResult> {
  const prefix = options.prefix ?? `load-${process.pid}`;
  const started: Worker[] = [];
  const timeoutMs = options.timeoutMs ?? 600_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the load probe did not finish within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  // Raced by every wait below; marked handled so a timeout between two waits is no unhandled rejection.
  timedOut.catch(() => undefined);
  const bounded = <T>(promise: Promise<T>) => Promise.race([promise, timedOut]);
  try {
    const loneThreads = Array.from({ length: options.loneRuns ?? 3 }, (_, index) => `${prefix}-lone-${index}`);
    let loneReport: WorkerReport = { conversations: [], cpuMs: 0 };
    if (loneThreads.length > 0) {
      const lone = await startWorker(options, loneThreads, { warmUp: true, sequential: true });
      started.push(lone);
      await bounded(lone.ready);
      lone.go();
      loneReport = await bounded(lone.report);
    }
    const loneOutcomes = loneReport.conversations;
    const loneErrors = loneOutcomes.filter((outcome) => outcome.error);
    if (loneErrors.length > 0) throw new Error(`a lone conversation failed: ${loneErrors[0]!.error}`);

    const share = Math.ceil(options.conversations / options.workers);
    const workers: Worker[] = [];
    for (let index = 0; index < options.workers; index += 1) {
      const threads = Array.from(
        { length: Math.max(0, Math.min(options.conversations, (index + 1) * share) - index * share) },
        (_, offset) => `${prefix}-${index * share + offset}`,
      );
      const worker = await startWorker(options, threads, { warmUp: options.warmUp ?? true, sequential: false });
      started.push(worker);
      workers.push(worker);
    }
    // Start-up and warm-up are not measured: the conversations start together once every worker is ready.
    await bounded(Promise.all(workers.map((worker) => worker.ready)));
    const go = performance.now();
    for (const worker of workers) worker.go();
    const reports = await bounded(Promise.all(workers.map((worker) => worker.report)));
    return {
      conversations: reports.flatMap((report) => report.conversations),
      loneMs: loneOutcomes.map((outcome) => outcome.ms),
      lone: loneOutcomes,
      wallMs: performance.now() - go,
      loneCpuMs: loneOutcomes.length > 0 ? loneReport.cpuMs / loneOutcomes.length : Number.NaN,
      loadCpuMs: reports.reduce((sum, report) => sum + report.cpuMs, 0),
    };
  } finally {
    clearTimeout(timer);
    for (const worker of started) worker.kill();
  }
}

/** The `fraction` percentile of `values` (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}
