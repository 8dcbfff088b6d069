/**
 * The served twin of bench/concurrency.ts (issue 25.5): the same races sent as runs of the LangGraph server
 * (`langgraph dev`, tokens on, the schedules on a PostgreSQL 15 server when installed, else the embedded one), under
 * a multitask strategy, each repetition on a fresh thread of its own user:
 * - `task+yes`: a task request and "yes" sent back to back (both created before the plan card exists);
 * - `plan@Nms`: the plan card accepted anonymously, the same accept sent again N ms later (0, 20, 100, 500);
 * - `accept@Nms`: the same on the first write card (the offline policy's whole step on one 8-write card).
 *
 * Prints per case: runs, forks, unseen approvals (a card approved — a write applied, or the plan card by the
 * "yes" — that was raised after the answer was created: the server's UUIDv7 run id against the card's
 * checkpoint time), late answers (the same for a card raised before the answer was created: the next card was up
 * when the repeat was sent, and an anonymous answer answers the card that is up), the smallest margin of a late
 * answer after its card, and outcomes other than "ok". Figures are printed, not asserted
 * (tests/server/unseen-answers.test.ts asserts the cases).
 *
 *   npx tsx bench/concurrency-served.ts                 # 10 repetitions per case, enqueue and reject
 *   npx tsx bench/concurrency-served.ts 20 enqueue      # 20 repetitions, enqueue only
 */
import pg from "pg";
import { startLangGraphDev } from "../tests/support/langgraph-dev.js";
import { postgresTargets } from "../tests/support/postgres.js";
import { repeatedAccept, taskAndYes, type RaceResult, type Strategy } from "../tests/support/served-answers.js";
import { clientWith, signToken } from "../tests/support/served-users.js";

const REPETITIONS = Number(process.argv[2] ?? 10);
const STRATEGIES = (process.argv[3]?.split(",") ?? ["enqueue", "reject"]) as Strategy[];
const OFFSETS_MS = [0, 20, 100, 500];
const SECRET = "concurrency-served-bench-secret-0123456789";

/** Counts for one case. */
interface CaseCounts {
  runs: number;
  forks: number;
  unseen: number;
  late: number;
  lateByMs?: number;
  outcomes: Record<string, number>;
}

function add(counts: CaseCounts, result: RaceResult): void {
  counts.runs += result.outcomes.length;
  counts.forks += result.forks;
  counts.unseen += result.unseen;
  counts.late += result.late;
  if (result.lateByMs !== undefined)
    counts.lateByMs = Math.min(counts.lateByMs ?? Number.POSITIVE_INFINITY, result.lateByMs);
  for (const outcome of result.outcomes)
    if (outcome !== "ok") counts.outcomes[outcome] = (counts.outcomes[outcome] ?? 0) + 1;
}

function line(label: string, counts: CaseCounts): string {
  const outcomes = Object.entries(counts.outcomes)
    .map(([name, count]) => `${name} ${count}`)
    .join(", ");
  const margin = counts.lateByMs === undefined ? "" : ` (${counts.lateByMs} ms or more after the card)`;
  return `  ${label.padEnd(14)} runs ${String(counts.runs).padStart(4)}  forks ${String(counts.forks).padStart(3)}  unseen approvals ${String(counts.unseen).padStart(3)}  late answers ${String(
    counts.late,
  ).padStart(3)}${margin}  not ok: ${outcomes || "none"}`;
}

const target = postgresTargets().at(-1)!;
const postgres = await target.start();
const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
const server = await startLangGraphDev({ TEMPO_AUTH_JWT_SECRET: SECRET, DATABASE_URL: postgres.url });
let users = 0;
const newUser = async () => {
  users += 1;
  const user = `bench-${users}`;
  return { user, client: clientWith(server, { authorization: `Bearer ${await signToken(SECRET, user)}` }) };
};
try {
  for (const strategy of STRATEGIES) {
    const started = Date.now();
    console.log(
      `langgraph dev, schedules on ${target.kind} postgres, multitask strategy ${strategy}, ${REPETITIONS} repetitions:`,
    );
    const empty = (): CaseCounts => ({ runs: 0, forks: 0, unseen: 0, late: 0, outcomes: {} });
    const taskAndYesCounts = empty();
    for (let index = 0; index < REPETITIONS; index += 1)
      add(taskAndYesCounts, await taskAndYes((await newUser()).client, strategy));
    console.log(line("task+yes", taskAndYesCounts));
    for (const at of ["plan", "write"] as const) {
      for (const offsetMs of OFFSETS_MS) {
        const counts = empty();
        for (let index = 0; index < REPETITIONS; index += 1) {
          const { user, client } = await newUser();
          add(counts, await repeatedAccept(client, pool, user, { at, offsetMs, strategy }));
        }
        console.log(line(`${at === "plan" ? "plan" : "accept"}@${offsetMs}ms`, counts));
      }
    }
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
} finally {
  await server.stop();
  await pool.end();
  await postgres.stop();
}
