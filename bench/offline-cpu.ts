/**
 * CPU per conversation of the offline policy (the demo's and the tests' model), in process: a fresh graph on the
 * in-memory schedule per conversation, each request of the sample week sent and every card accepted (a question withdrawn), as the graph
 * tests and the clock sweeps drive it. Printed per request as the median CPU time (user + system) of N rounds after
 * one warm-up round, and as a ratio to the baseline measured in the same process: a plain chat turn ("thanks"), which
 * crosses the graph's run base and the policy's chat reply and nothing of the schedule. CPU time, not wall time, so
 * other processes change the figure little; compare runs as ratios all the same.
 *
 *   npx tsx bench/offline-cpu.ts        # 20 rounds
 *   npx tsx bench/offline-cpu.ts 60     # 60 rounds
 */
import { sampleWeek } from "../tools/schedule/index.js";
import { converse, offlineTempo } from "../tests/graph/support/offline-conversation.js";

const REQUESTS = [
  "thanks",
  "arrange my reviews this week",
  "move the matrix review to Friday 10:00",
  "put the vocabulary list at 14:00 tomorrow",
  "把矩阵复习安排在周五下午3点",
  "move the matrix review right after the robotics club meeting",
];
/** Tuesday 12:00 in Shanghai: the sample week under way. */
const NOW = "2024-03-12T04:00:00.000Z";

const rounds = Number(process.argv[2] ?? 20);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`rounds must be a whole number ≥ 1, got ${process.argv[2]}.`);

/** One conversation: the request, then every card accepted (a question withdrawn); its CPU ms. */
async function conversation(say: string): Promise<number> {
  const started = process.cpuUsage();
  const tempo = await offlineTempo(sampleWeek({ weekly: true }));
  await converse(tempo, say, [], "bench", "student", { now: NOW });
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const say of REQUESTS) await conversation(say);
const times = new Map<string, number[]>(REQUESTS.map((say) => [say, []]));
for (let round = 0; round < rounds; round += 1)
  for (const say of REQUESTS) times.get(say)!.push(await conversation(say));

const base = median(times.get(REQUESTS[0]!)!);
console.log(`offline CPU per conversation, median of ${rounds} rounds after a warm-up (a fresh graph each)`);
for (const say of REQUESTS) {
  const value = median(times.get(say)!);
  console.log(
    `  ${value.toFixed(1).padStart(6)} ms  ×${(value / base).toFixed(2)} the chat turn  ${JSON.stringify(say)}`,
  );
}
