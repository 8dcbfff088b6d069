/**
 * docs/benchmarks.md's figures written from the benches' output (issue 49 item 5, bench/support/docs-figures.ts): on a
 * small page, a block is replaced by the run's command, date and output; the prose and other blocks stay as they
 * are; a failed run keeps its block; a run with no block is named. And the real page: every bench has its block.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { blocksIn, figureBlock, withBenchFigures, type BenchOutput } from "../../bench/support/docs-figures.js";
import { GOAL_MISSED_EXIT_CODE, runEnding } from "../../bench/support/goal.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const context = { date: "2026-11-29", machine: "2 logical cores (Test CPU), Node.js v20.0.0" };
const run = (name: string, output: string, ok = true): BenchOutput => ({
  name,
  command: `npx tsx bench/${name}.ts`,
  ok,
  seconds: 1.25,
  output,
});

const PAGE = [
  "# Benchmarks",
  "",
  "## peer",
  "",
  "What the peer bench measures: prose that stays.",
  "",
  "<!-- bench-output: peer -->",
  "old figures: 1 call",
  "<!-- /bench-output -->",
  "",
  "## context",
  "",
  "<!-- bench-output: context -->",
  "old context figures",
  "<!-- /bench-output -->",
  "",
  "The end.",
  "",
].join("\n");

describe("the figures generator", () => {
  test("a run's block gets its command, date, machine and output; prose and other blocks stay", () => {
    const written = withBenchFigures(PAGE, [run("peer", "npm warn noise\n| run | calls |\n| Tempo | 4 |\n")], context);
    expect(written.updated).toEqual(["peer"]);
    expect(written.failed).toEqual([]);
    expect(written.missing).toEqual([]);
    expect(written.page).toBe(
      PAGE.replace(
        "<!-- bench-output: peer -->\nold figures: 1 call\n<!-- /bench-output -->",
        [
          "<!-- bench-output: peer -->",
          "`npx tsx bench/peer.ts` — run on 2026-11-29 (2 logical cores (Test CPU), Node.js v20.0.0; 1.3 s), written by `npm run bench -- --docs peer`:",
          "",
          "```text",
          "| run | calls |",
          "| Tempo | 4 |",
          "```",
          "<!-- /bench-output -->",
        ].join("\n"),
      ),
    );
    // Written twice, the page is the same: nothing accumulates.
    expect(withBenchFigures(written.page, [run("peer", "| run | calls |\n| Tempo | 4 |")], context).page).toBe(
      written.page,
    );
  });

  test("a failed run keeps the last figures; a run with no block is named; `$` in output is kept as is", () => {
    const written = withBenchFigures(
      PAGE,
      [run("peer", "Error: boom", false), run("context", "cost $& $1 rounds"), run("load", "p95 3 s")],
      context,
    );
    expect(written.updated).toEqual(["context"]);
    expect(written.failed).toEqual(["peer"]);
    expect(written.missing).toEqual(["load"]);
    expect(written.page).toContain("old figures: 1 call");
    expect(written.page).toContain("cost $& $1 rounds");
    expect(written.page).not.toContain("old context figures");
  });

  test("a run that missed its goal (exit code 2) is written, and its block says the goal was not met", () => {
    expect(runEnding(GOAL_MISSED_EXIT_CODE, false)).toEqual({ ok: true, goalMissed: true });
    expect(runEnding(0, false)).toEqual({ ok: true, goalMissed: false });
    expect(runEnding(1, false)).toEqual({ ok: false, goalMissed: false });
    expect(runEnding(GOAL_MISSED_EXIT_CODE, true)).toEqual({ ok: false, goalMissed: false });
    const missed = { ...run("context", "ratio 0.25 (goal 0.2)"), ...runEnding(GOAL_MISSED_EXIT_CODE, false) };
    const written = withBenchFigures(PAGE, [missed, run("peer", "| Tempo | 4 |")], context);
    expect(written.updated).toEqual(["peer", "context"]);
    expect(written.page).toContain("ratio 0.25 (goal 0.2)");
    expect(written.page).toContain("`npm run bench -- --docs context` (**goal not met** in this run):");
    expect(written.page).not.toMatch(/--docs peer` \(\*\*goal not met/);
  });

  test("output holding a code fence gets a longer fence", () => {
    const block = figureBlock(run("peer", "before\n```\nafter"), context);
    expect(block).toContain("````text\nbefore\n```\nafter\n````");
  });
});

test("docs/benchmarks.md has a figures block for every bench script in bench/", () => {
  const benches = readdirSync(path.join(ROOT, "bench"))
    .filter((file) => file.endsWith(".ts") && file !== "run-all.ts")
    .map((file) => file.slice(0, -".ts".length));
  const page = readFileSync(path.join(ROOT, "docs/benchmarks.md"), "utf8");
  expect(blocksIn(page).sort()).toEqual(benches.sort());
});
