/**
 * Runs `tempo-child.ts` in a new Node process and collects what it did. The script is bundled once per test process
 * (esbuild, its packages in the bundle too) and the child runs the bundle with plain `node`: the same code as
 * `node --import tsx` runs, started in a fraction of the time (no loader hooks, no per-file transform, one file read
 * instead of hundreds of package modules resolved and loaded) — the kill-point sweeps start a child for every save
 * point, and what each child takes to start was most of their time.
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

/** The CommonJS packages in an ES module bundle `require` node's own modules: the bundle gives them a `require`. */
const BUNDLE_BANNER =
  'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);';

/**
 * `script` bundled into one ES module, built once per test process: written aside, then renamed over the last build
 * (one file per script and `packages` is left, as a cache is; test processes building at once each rename a complete
 * file). `packages`: "external" leaves the packages to node_modules; "bundle" puts them in the bundle too (the
 * persistence children: a child then starts in about half the time and a third of the CPU, 0.6 s instead of 1 s here).
 */
export function bundled(script: string, packages: "external" | "bundle" = "external"): Promise<string> {
  const key = `${packages}:${script}`;
  let bundle = bundles.get(key);
  if (!bundle) {
    const outfile = path.join(
      BUNDLE_DIR,
      `${path.basename(script, ".ts")}${packages === "bundle" ? ".bundled" : ""}.mjs`,
    );
    const written = `${outfile}.${process.pid}.tmp`;
    bundle = build({
      entryPoints: [script],
      outfile: written,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      // Whitespace and syntax minified, names kept: a child parses and compiles a fifth less before it starts (0.55
      // instead of 0.7 CPU-s here); its errors and stacks still name the sources' functions and classes.
      minifyWhitespace: true,
      minifySyntax: true,
      ...(packages === "external" ? { packages: "external" as const } : { banner: { js: BUNDLE_BANNER } }),
    }).then(async () => {
      await rename(written, outfile);
      return outfile;
    });
    bundles.set(key, bundle);
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
  const entry = await bundled(script, "bundle");
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
    child.on("close", (exitCode, signal) => {
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
