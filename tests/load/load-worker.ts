/**
 * One worker process of the load probe (`load-probe.ts`): `createTempo` as a deployment runs it — settings read from
 * the environment (DATABASE_URL, the pool and run-gate variables), the offline policy, the memory store, the
 * Postgres thread lock — driving many conversations at once.
 *
 *   node <bundle> '{"threads":["a","b"],"warmUp":true}'
 *
 * Prints `{"ready":true}` once the graph is built (and a warm-up conversation ran, with `warmUp`), then waits for a
 * line on stdin; on it runs every thread's conversation at once (profiled, with `profileDir`) and prints one JSON line: `{ conversations, cpuMs }`,
 * each conversation `{ threadId, ms, cards, error? }`, `cpuMs` the CPU time the process spent on them. With
 * `sequential`, the conversations run one after another instead (the lone times), each with its own `cpuMs`.
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTempo, type Tempo } from "../../server/create-tempo.js";
import { readSettings } from "../../config/environment.js";
import { conversation, type ConversationOutcome } from "./load-conversation.js";

interface WorkerArguments {
  threads: string[];
  warmUp?: boolean;
  sequential?: boolean;
  /** Where to write a CPU profile of the conversations (`<pid>.cpuprofile`); absent: none. */
  profileDir?: string;
}

/** Starts the V8 profiler in this process; the returned function stops it and writes the profile into `directory`. */
async function startProfile(directory: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  await post("Profiler.enable");
  await post("Profiler.start");
  return async () => {
    const { profile } = await post<{ profile: object }>("Profiler.stop");
    session.disconnect();
    await writeFile(path.join(directory, `${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

const args = JSON.parse(process.argv[2] ?? "{}") as WorkerArguments;
const tempo: Tempo = await createTempo(readSettings());
try {
  if (args.warmUp) await conversation(tempo.graph, `warm-up-${process.pid}`);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once("line", () => resolve()));
  // Reading stdin keeps the process alive: stop, so it exits once its Tempo is closed.
  lines.close();
  process.stdin.destroy();
  const stopProfile = args.profileDir ? await startProfile(args.profileDir) : undefined;
  const cpuBefore = process.cpuUsage();
  let conversations: ConversationOutcome[] = [];
  if (args.sequential)
    for (const threadId of args.threads) {
      // One at a time, each conversation's own CPU time is known too.
      const before = process.cpuUsage();
      const outcome = await conversation(tempo.graph, threadId);
      const spent = process.cpuUsage(before);
      conversations.push({ ...outcome, cpuMs: (spent.user + spent.system) / 1000 });
    }
  else conversations = await Promise.all(args.threads.map((threadId) => conversation(tempo.graph, threadId)));
  const cpu = process.cpuUsage(cpuBefore);
  await stopProfile?.();
  process.stdout.write(`${JSON.stringify({ conversations, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
} finally {
  await tempo.close();
}
