/**
 * The figures of docs/benchmarks.md, written from the benches' own output so the page cannot drift from them (issue 49
 * item 5). Each bench's figures sit in the page between two markers:
 *
 *   <!-- bench-output: model-calls -->
 *   …the command, when and where it ran, and what it printed…
 *   <!-- /bench-output -->
 *
 * `npm run bench -- --docs [names]` (bench/run-all.ts) runs the benches and replaces the block of each one that ended
 * well (its goal met or not: a missed goal is said in the block); the prose around the blocks is the page's own. A
 * bench that failed keeps its last block; a bench with no block in the page is named, so one is added by hand.
 */

/** What one bench run printed, as bench/run-all.ts records it. */
export interface BenchOutput {
  name: string;
  /** The command it ran as, e.g. `npx tsx bench/peer.ts`. */
  command: string;
  /** True when it ran to the end in time: exit code 0, or the goal-missed code (bench/support/goal.ts). */
  ok: boolean;
  /** True when it ran to the end but missed its goal: its figures are written, marked so. */
  goalMissed?: boolean;
  seconds: number;
  output: string;
}

/** Where and when the figures were taken: the date (YYYY-MM-DD) and the machine in a few words. */
export interface RunContext {
  date: string;
  machine: string;
}

/** One bench's block in the page: start marker, body, end marker. */
const BLOCK = /<!-- bench-output: ([\w-]+) -->\n[\s\S]*?<!-- \/bench-output -->/g;

/** npm's notices are not bench output. */
export function cleanedOutput(output: string): string {
  return output
    .split("\n")
    .filter((line) => !line.startsWith("npm warn"))
    .join("\n")
    .trim();
}

/** The block of one bench: the command beside its figures, then its output as printed. */
export function figureBlock(run: BenchOutput, context: RunContext): string {
  return [
    `<!-- bench-output: ${run.name} -->`,
    `\`${run.command}\` — run on ${context.date} (${context.machine}; ${run.seconds.toFixed(1)} s), written by \`npm run bench -- --docs ${run.name}\`${run.goalMissed ? " (**goal not met** in this run)" : ""}:`,
    "",
    // A fence longer than any backtick run in the output, so the output cannot close it.
    ...(() => {
      const output = cleanedOutput(run.output) || "(no output)";
      const longest = Math.max(2, ...[...output.matchAll(/`+/g)].map((match) => match[0].length));
      const fence = "`".repeat(longest + 1);
      return [`${fence}text`, output, fence];
    })(),
    "<!-- /bench-output -->",
  ].join("\n");
}

/** The benches that have a block in `page`. */
export function blocksIn(page: string): string[] {
  return [...page.matchAll(BLOCK)].map((match) => match[1]!);
}

/**
 * `page` with the block of every run that ended well replaced by its output. `updated`: the benches written;
 * `failed`: runs that did not end well (their block kept); `missing`: runs that ended well with no block in the page.
 */
export function withBenchFigures(
  page: string,
  runs: readonly BenchOutput[],
  context: RunContext,
): { page: string; updated: string[]; failed: string[]; missing: string[] } {
  const present = new Set(blocksIn(page));
  const good = new Map(runs.filter((run) => run.ok).map((run) => [run.name, run]));
  const updated: string[] = [];
  const written = page.replace(BLOCK, (block, name: string) => {
    const run = good.get(name);
    if (!run) return block;
    updated.push(name);
    return figureBlock(run, context);
  });
  return {
    page: written,
    updated,
    failed: runs.filter((run) => !run.ok).map((run) => run.name),
    missing: [...good.keys()].filter((name) => !present.has(name)),
  };
}
