/**
 * `npx tsx bench/hostile-text.ts`: what a message written to hold the server costs. Every reader of a user's text runs
 * on the event loop every thread shares, so a reader whose time grows with the square of a text holds all of them.
 *
 * 1. **The request reader** (`parseScheduleRequest`) on runs of politeness, closing marks and spaces at 25 000,
 *    50 000 and 100 000 characters (the message limit), beside an ordinary text of the same length ("move the essay to
 *    friday" and words), in the same process. Printed: milliseconds at each length, the growth from 25 000 to 100 000
 *    characters (linear: about 4; quadratic: about 16; on millisecond figures mostly noise), and the ratio to the
 *    ordinary text at 100 000 (linear: a few; quadratic: thousands).
 * 2. **A write card answered with feedback at the message limit**, through the offline graph (the confirm node reads
 *    standing preferences from it, the execute node reads it and fits it into its prompt): milliseconds of that turn,
 *    beside the same turn answered with a short feedback in the same process.
 *
 * Goal: every run below 50 times the ordinary text at 100 000 characters (exit 2 when missed). Times are this machine's: the reader's the fastest of seven runs, a turn's one run after a warm-up.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { halfPlacedWeek, offlineTempo } from "../tests/graph/support/offline-conversation.js";
import { parseScheduleRequest } from "../tools/schedule/request-parsing.js";
import { goalMissed } from "./support/goal.js";

/** The hostile runs: each the piece repeated after a request. */
const RUNS: ReadonlyArray<{ name: string; text: (length: number) => string }> = [
  { name: '"please " after a move', text: (length) => fill("move the essay to friday ", "please ", length) },
  { name: "请 after a move", text: (length) => fill("把作文移到周五", "请", length) },
  { name: '"." then a word', text: (length) => `${fill("keep thursday free", ".", length - 1)}x` },
  { name: "。 then a word", text: (length) => `${fill("我周二的复习没做", "。", length - 1)}吧` },
  { name: "spaces then a word", text: (length) => `${fill("move the essay to friday", " ", length - 1)}x` },
  // A move asked as a question ("can the essay go to friday?") whose task and place never end.
  { name: '"go to " after "can the "', text: (length) => `${fill("can the ", "go to ", length - 1)}x` },
];
const ORDINARY = (length: number) => fill("move the essay to friday ", "and then some words ", length);
const LENGTHS = [25_000, 50_000, 100_000] as const;
/**
 * Above this many times the ordinary text's time at 100 000 characters a reader is not linear: a linear one is within
 * a few times it, a quadratic one thousands of times (a growth on millisecond figures is mostly the machine's noise).
 */
const RATIO_GOAL = 50;
const ONE_RUN_MS = 200;

function fill(start: string, piece: string, length: number): string {
  return start + piece.repeat(Math.ceil((length - start.length) / piece.length)).slice(0, length - start.length);
}

/**
 * The fastest of seven runs of `work`, in milliseconds (a millisecond figure is mostly the machine's noise); one run
 * when it took longer than {@link ONE_RUN_MS} (a quadratic reader takes seconds a run at 100 000 characters).
 */
function timed(work: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 7; run += 1) {
    const started = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - started);
    if (fastest > ONE_RUN_MS) break;
  }
  return fastest;
}

async function timedAsync(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function readerFigures(): boolean {
  console.log("## The request reader (ms at 25 000 / 50 000 / 100 000 characters)");
  const ordinary = LENGTHS.map((length) => timed(() => parseScheduleRequest(ORDINARY(length))));
  console.log(`ordinary text: ${ordinary.map((ms) => ms.toFixed(1)).join(" / ")}`);
  let met = true;
  for (const run of RUNS) {
    parseScheduleRequest(run.text(LENGTHS[0]));
    const times = LENGTHS.map((length) => timed(() => parseScheduleRequest(run.text(length))));
    const growth = times[2]! / Math.max(times[0]!, 0.1);
    const ratio = times[2]! / Math.max(ordinary[2]!, 0.1);
    met &&= ratio < RATIO_GOAL;
    console.log(
      `${run.name}: ${times.map((ms) => ms.toFixed(1)).join(" / ")}; growth ×${growth.toFixed(1)}; ` +
        `×${ratio.toFixed(1)} the ordinary text`,
    );
  }
  return met;
}

/** One thread at the first write card of "Arrange my reviews": the turn that answers it with `feedback`, timed. */
async function feedbackTurn(feedback: string, thread: string): Promise<number> {
  const { graph } = await offlineTempo(halfPlacedWeek());
  const config = { configurable: { thread_id: thread, user_id: "student" } };
  await graph.invoke({ messages: [new HumanMessage("Arrange my reviews")] }, config);
  await graph.invoke(new Command({ resume: [{ type: "accept", args: null }] }), config);
  return timedAsync(() => graph.invoke(new Command({ resume: [{ type: "response", args: feedback }] }), config));
}

async function cardFigures(): Promise<void> {
  console.log("\n## A write card answered with feedback of 99 000 characters (ms of the turn)");
  await feedbackTurn("never on Monday", "warm-up");
  const short = await feedbackTurn("never on Monday", "short");
  console.log(`short feedback ("never on Monday"): ${short.toFixed(0)}`);
  for (const [index, run] of RUNS.entries()) {
    const ms = await feedbackTurn(`never on Monday ${run.text(99_000)}`, `run-${index}`);
    console.log(`${run.name}: ${ms.toFixed(0)} (×${(ms / short).toFixed(1)} the short feedback)`);
  }
}

const linear = readerFigures();
await cardFigures();
console.log(`\nGoal (every run below ×${RATIO_GOAL} the ordinary text at 100 000): ${linear ? "met" : "NOT met"}`);
if (!linear) goalMissed();
