/**
 * Runs every bench script in bench/ (schedule-tools, context, model-calls, peer,
 * persistence, load, then any other, alphabetically) one after the other, each as its own
 * child process (`npx tsx bench/<name>.ts`), captures what it prints, and
 * writes bench/RESULTS.md with the figures, the machine (CPU model, cores,
 * memory, Node version, OS) and the date. A bench that fails is recorded
 * with its exit code and output; the others still run. A run of some benches
 * only writes its report to .tempo/bench-RESULTS.md (untracked), so the
 * tracked report always holds a whole run. With `--docs` it also writes the
 * figures of each bench that ended well into its block of docs/benchmarks.md
 * (bench/support/docs-figures.ts), the command beside them.
 *
 *   npm run bench                 # every bench → bench/RESULTS.md
 *   npm run bench -- load context # only these → .tempo/bench-RESULTS.md
 *   npm run bench -- --docs peer  # ... and their figures into docs/benchmarks.md
 *   npm run bench -- --limit 30 persistence  # one bench may run 30 min (default 10)
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cleanedOutput, withBenchFigures } from "./support/docs-figures.js";
import { runEnding } from "./support/goal.js";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(BENCH_DIR, "RESULTS.md");
const PARTIAL_RESULTS_FILE = path.join(BENCH_DIR, "..", ".tempo", "bench-RESULTS.md");
const DOCS_FILE = path.join(BENCH_DIR, "..", "docs", "benchmarks.md");
/** Benches run first, in this order; any other bench script follows alphabetically. */
const PREFERRED_ORDER = ["schedule-tools", "context", "model-calls", "peer", "persistence", "throughput", "load"];
/** A bench running longer than this is stopped and recorded as such (`--limit MINUTES` sets it). */
const BENCH_TIME_LIMIT_MS = limitArgument(process.argv.slice(2)) * 60_000;

/** `--limit MINUTES`: how long one bench may run (default 10 min; a loaded machine may need more). */
function limitArgument(argv: readonly string[]): number {
  const at = argv.indexOf("--limit");
  if (at < 0) return 10;
  const minutes = Number(argv[at + 1]);
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new Error(`--limit needs minutes (a number > 0), got ${argv[at + 1] ?? "nothing"}.`);
  return minutes;
}

interface BenchRun {
  name: string;
  seconds: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
}

/** The bench scripts in bench/, in running order (this runner excluded). */
function benchNames(only: readonly string[]): string[] {
  const self = path.basename(fileURLToPath(import.meta.url), ".ts");
  const names = readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -".ts".length))
    .filter((name) => name !== self);
  const rank = (name: string) =>
    PREFERRED_ORDER.includes(name) ? PREFERRED_ORDER.indexOf(name) : PREFERRED_ORDER.length;
  const ordered = names.sort((left, right) => rank(left) - rank(right) || left.localeCompare(right));
  const unknown = only.filter((name) => !ordered.includes(name));
  if (unknown.length > 0)
    throw new Error(`No bench named ${unknown.join(", ")} in bench/ (there are: ${ordered.join(", ")}).`);
  return only.length > 0 ? ordered.filter((name) => only.includes(name)) : ordered;
}

/** Runs one bench in its own process group, echoing its output live, and records it. */
function runBench(name: string): Promise<BenchRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("npx", ["--no-install", "tsx", path.join(BENCH_DIR, `${name}.ts`)], {
      cwd: path.dirname(BENCH_DIR),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    let timedOut = false;
    const capture = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      const text = chunk.toString("utf8");
      output += text;
      stream.write(text);
    };
    child.stdout.on("data", (chunk: Buffer) => capture(chunk, process.stdout));
    child.stderr.on("data", (chunk: Buffer) => capture(chunk, process.stderr));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, BENCH_TIME_LIMIT_MS);
    child.once("error", reject);
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ name, seconds: Number(process.hrtime.bigint() - started) / 1e9, exitCode, signal, timedOut, output });
    });
  });
}

/** The machine the figures come from. */
function machine(): string[] {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  return [
    `- CPU: ${model}, ${cpus.length} logical cores`,
    `- memory: ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `- Node.js ${process.version} on ${os.type()} ${os.release()} (${os.arch()})`,
  ];
}

function status(run: BenchRun): string {
  if (run.timedOut) return `stopped after ${BENCH_TIME_LIMIT_MS / 60_000} min`;
  if (run.exitCode === 0) return "ok";
  if (runEnding(run.exitCode, run.timedOut).goalMissed) return "goal not met";
  return run.signal ? `killed by ${run.signal}` : `failed (exit code ${run.exitCode})`;
}

function report(runs: readonly BenchRun[], startedAt: Date): string {
  const lines = [
    "# Bench results",
    "",
    "Written by `npm run bench` (`bench/run-all.ts`): every bench script in `bench/` run one after the other, each in its own",
    "process. Figures are printed by the benches, not asserted; rerun on your machine to compare.",
    "",
    `Date: ${startedAt
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC")}`,
    "",
    "Machine:",
    "",
    ...machine(),
    "",
    "| bench | status | time |",
    "| --- | --- | ---: |",
    ...runs.map((run) => `| [${run.name}](#${run.name}) | ${status(run)} | ${run.seconds.toFixed(1)} s |`),
  ];
  for (const run of runs) {
    lines.push(
      "",
      `## ${run.name}`,
      "",
      `\`npx tsx bench/${run.name}.ts\` — ${status(run)}, ${run.seconds.toFixed(1)} s`,
      "",
      "```text",
      cleanedOutput(run.output) || "(no output)",
      "```",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Writes the figures of the runs that ended well into their blocks of docs/benchmarks.md, and says what it did. */
function writeDocs(runs: readonly BenchRun[], startedAt: Date): void {
  const cpus = os.cpus();
  const written = withBenchFigures(
    readFileSync(DOCS_FILE, "utf8"),
    runs.map((run) => ({
      name: run.name,
      command: `npx tsx bench/${run.name}.ts`,
      ...runEnding(run.exitCode, run.timedOut),
      seconds: run.seconds,
      output: run.output,
    })),
    {
      date: startedAt.toISOString().slice(0, 10),
      machine: `${cpus.length} logical cores (${cpus[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU"}), Node.js ${process.version}`,
    },
  );
  writeFileSync(DOCS_FILE, written.page);
  console.log(`docs/benchmarks.md: figures of ${written.updated.join(", ") || "no bench"} written`);
  if (written.failed.length > 0) console.log(`  kept the last figures of ${written.failed.join(", ")} (they failed)`);
  const missedGoals = runs.filter((run) => runEnding(run.exitCode, run.timedOut).goalMissed).map((run) => run.name);
  if (missedGoals.length > 0) console.log(`  written as "goal not met": ${missedGoals.join(", ")}`);
  if (written.missing.length > 0)
    console.log(
      `  no block for ${written.missing.join(", ")}: add "<!-- bench-output: NAME -->" … "<!-- /bench-output -->" to its section`,
    );
}

async function main(): Promise<void> {
  const docs = process.argv.includes("--docs");
  const argv = process.argv.slice(2);
  const limitAt = argv.indexOf("--limit");
  const chosen = argv.filter(
    (argument, index) => argument !== "--docs" && (limitAt < 0 || (index !== limitAt && index !== limitAt + 1)),
  );
  const names = benchNames(chosen);
  const resultsFile = chosen.length === 0 ? RESULTS_FILE : PARTIAL_RESULTS_FILE;
  const startedAt = new Date();
  const runs: BenchRun[] = [];
  for (const name of names) {
    console.log(`\n━━ bench/${name}.ts ━━`);
    const run = await runBench(name);
    runs.push(run);
    console.log(`━━ ${name}: ${status(run)} in ${run.seconds.toFixed(1)} s`);
  }
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, report(runs, startedAt));
  console.log(`\nwrote ${path.relative(process.cwd(), resultsFile)}`);
  if (docs) writeDocs(runs, startedAt);
  const failed = runs.filter((run) => status(run) !== "ok");
  if (failed.length > 0) {
    console.error(`failed: ${failed.map((run) => `${run.name} (${status(run)})`).join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
