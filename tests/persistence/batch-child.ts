/**
 * Child process of the batch kill-point sweep (batch-kill-points.test.ts): Tempo on the test's database, as
 * `createTempo` builds it (one card for all of a step's writes, threads held across processes), answering the card a
 * thread waits on with given decisions (approve / reject / edit, one a write) at a given clock.
 *
 *   node tests/persistence/batch-child.ts '{ "url", "threadId", "mode": "answer", "decisions": [...], "now" }'
 *
 * `TEMPO_TEST_KILL_AT` names the point where the process crashes (crash-points.ts: `put:K`, `putWrites:K`,
 * `persist:K`, `changed:K`, `applied:K` SIGKILL it there; a `throw-` point throws there, and the process exits on its
 * own). Prints one JSON line: `{ ok, card, phase, saves, persists, applied }` or `{ ok: false, code, message, … }`.
 */
import type { ChildArguments } from "./child-runner.js";
import { answerCrashingAt } from "./crash-points.js";
import { die } from "./kill-switch.js";

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArguments;
const { crashed: _crashed, ...outcome } = await answerCrashingAt(
  args.url,
  { threadId: args.threadId, decisions: args.decisions ?? [], ...(args.now ? { now: args.now } : {}) },
  process.env.TEMPO_TEST_KILL_AT || undefined,
  die,
);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
