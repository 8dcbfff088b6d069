/**
 * Runs `tempo-child.ts` in a new Node process and collects what it did. The script is bundled once per test process
 * (esbuild, the packages left to node_modules) and the child runs the bundle with plain `node`: the same code as
 * `node --import tsx` runs, started in about a third of the time (no loader hooks, no per-file transform) — the
 * kill-point sweep starts a child for every save point.
 */
import { spawn } from "node:child_process";
import { rename } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const CHILD_SCRIPT = fileURLToPath(new URL("./tempo-child.ts", import.meta.url));
/** The child that answers a batch card with given decisions (batch-child.ts). */
export const BATCH_CHILD_SCRIPT = fileURLToPath(new URL("./batch-child.ts", import.meta.url));
/** The child that serves every registered domain through their plug-ins (domains-child.ts). */
export const DOMAINS_CHILD_SCRIPT = fileURLToPath(new URL("./domains-child.ts", import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where the bundles are kept (under node_modules, so the bundles' package imports resolve as the sources' do). */
const BUNDLE_DIR = path.join(PROJECT_ROOT, "node_modules", ".cache", "tempo-test-children");
const bundles = new Map<string, Promise<string>>();

/**
 * `script` bundled into one ES module, built once per test process: written aside, then renamed over the last build
 * (one file per script is left, as a cache is; test processes building at once each rename a complete file).
 */
export function bundled(script: string): Promise<string> {
  let bundle = bundles.get(script);
  if (!bundle) {
    const outfile = path.join(BUNDLE_DIR, `${path.basename(script, ".ts")}.mjs`);
    const written = `${outfile}.${process.pid}.tmp`;
    bundle = build({
      entryPoints: [script],
      outfile: written,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "silent",
    }).then(async () => {
      await rename(written, outfile);
      return outfile;
    });
    bundles.set(script, bundle);
  }
  return bundle;
}

/** What the child was asked to do (see tempo-child.ts). */
export interface ChildArguments {
  url: string;
  threadId: string;
  mode: "start" | "arrange" | "continue" | "resume-at" | "answer";
  checkpointId?: string;
  untilNextCard?: boolean;
  startAt?: number;
  /** One card carries all of the plan's writes (the offline policy's default) instead of one card per write. */
  oneCard?: boolean;
  /** false: build the schedule domain without its refinement step (tempo-child.ts; the kill-point sweep). */
  refine?: boolean;
  /** The user's request (domains-child.ts's start). */
  request?: string;
  /** The decisions that answer the open card (batch-child.ts's answer), one a write. */
  decisions?: unknown[];
  /** The run's clock, ISO (`configurable.now`; batch-child.ts). */
  now?: string;
  /** Print the checkpointer's saves (`saves` in the output), to count a run's kill points. */
  reportSaves?: boolean;
}

/** A checkpoint save the child made, in order: `put` (a checkpoint) or `putWrites` (a task's pending writes). */
export type SaveKind = "put" | "putWrites";

/** How a child ended. */
export interface ChildResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The JSON line it printed, if any. */
  output?: {
    ok: boolean;
    code?: string | null;
    card?: string | null;
    phase?: string | null;
    message?: string;
    saves?: SaveKind[];
    /** Writes the child's domain was asked to persist, and writes it applied (batch-child.ts). */
    persists?: number;
    applied?: number;
  };
  stderr: string;
}

/**
 * Spawns the child with `killAt` as TEMPO_TEST_KILL_AT (see tempo-child.ts); kills it (and fails) after `timeoutMs`.
 * `script` is another child script of this folder taking the same JSON argument (domains-child.ts).
 */
export async function runChild(
  args: ChildArguments,
  killAt?: string,
  timeoutMs = 600_000,
  script = CHILD_SCRIPT,
): Promise<ChildResult> {
  const entry = await bundled(script);
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.TEMPO_TEST_KILL_AT;
    if (killAt) env.TEMPO_TEST_KILL_AT = killAt;
    const child = spawn(process.execPath, [entry, JSON.stringify(args)], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`child ${args.mode} of ${args.threadId} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (exitCode, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").filter(Boolean).at(-1);
      let output: ChildResult["output"];
      try {
        output = line ? (JSON.parse(line) as ChildResult["output"]) : undefined;
      } catch {
        output = undefined;
      }
      resolve({ exitCode, signal, output, stderr });
    });
  });
}

/** Runs `jobs` at most `limit` at a time (the kill-point sweeps' children), their results in order. */
export async function inPool<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await jobs[index]!();
      }
    }),
  );
  return results;
}
