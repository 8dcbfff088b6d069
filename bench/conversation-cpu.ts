/**
 * CPU per conversation (issue 44.8): what one load conversation costs the worker that runs it — the number that bounds
 * a burst (`bench/load.ts` prints the floor it sets). One worker process, `createTempo` as deployed (the memory store,
 * the Postgres thread lock) on a real PostgreSQL 15, its model the strict OpenAI double answering as the offline policy
 * at once (0 ms per call: no wait, and the real ChatOpenAI client's cost counted, as in production). After one warm-up
 * conversation it runs N conversations one after another — the arrange request, then every card approved — and each
 * one's CPU time (user + system, `process.cpuUsage` in the worker) is printed as median, p10 and p90. CPU time, not
 * wall time, so other processes on the machine change the figure little; compare runs as ratios all the same.
 *
 *   npx tsx bench/conversation-cpu.ts                      # 20 conversations
 *   npx tsx bench/conversation-cpu.ts 40                   # 40 conversations
 *   npx tsx bench/conversation-cpu.ts 20 --profile /tmp/p  # and a V8 CPU profile of the worker in /tmp/p
 *
 * With `--profile DIR` the worker writes a V8 CPU profile of the measured conversations (start-up and warm-up left
 * out) into DIR, and the bench prints where its self time went: by package (pg, the LangGraph / LangChain packages,
 * openai, …) and Tempo's own hottest functions.
 */
import { mkdir, readdir, readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { percentile, runLoadProbe } from "../tests/load/load-probe.js";
import { scheduleBrain, startOpenAIDouble } from "../tests/support/openai-double/index.js";
import { realPostgresAvailable, startRealTestPostgres } from "../tests/support/postgres.js";

/** The command line: conversations, and where a profile goes. */
function readArguments(argv: readonly string[]): { conversations: number; profileDir?: string } {
  const at = argv.indexOf("--profile");
  const profileDir = at < 0 ? undefined : argv[at + 1];
  if (at >= 0 && (!profileDir || profileDir.startsWith("--")))
    throw new Error("--profile needs a directory for the CPU profile.");
  const positional = at < 0 ? [...argv] : argv.filter((_, index) => index !== at && index !== at + 1);
  const conversations = Number(positional[0] ?? 20);
  if (!Number.isInteger(conversations) || conversations < 1)
    throw new Error(`conversations must be a whole number ≥ 1, got ${positional[0]}.`);
  return { conversations, profileDir: profileDir && path.resolve(profileDir) };
}

/** A V8 `.cpuprofile`: the nodes of the call tree and the sampled node of every tick. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package under node_modules, Tempo's bundle, node itself, or V8's own work. */
function placeOf(url: string, functionName: string): string {
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    if (rest[0] === ".cache") return "tempo";
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) return "node (built-in modules)";
  if (!url) return functionName ? `(${functionName.replace(/^\((.*)\)$/, "$1")})` : "(native)";
  return "other";
}

/** Self time of a profile by place, and of Tempo's own functions. */
function summarise(profile: CpuProfile): { total: number; places: Map<string, number>; tempo: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const places = new Map<string, number>();
  const tempo = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const frame = byId.get(id)!;
    if (frame.functionName === "(idle)") return;
    total += micros;
    const place = placeOf(frame.url, frame.functionName);
    places.set(place, (places.get(place) ?? 0) + micros);
    if (place === "tempo") {
      const name = `${frame.functionName || "(anonymous)"}:${frame.lineNumber + 1}`;
      tempo.set(name, (tempo.get(name) ?? 0) + micros);
    }
  });
  return { total, places, tempo };
}

/** The top `count` entries of `shares` as lines of ms and per cent of `total`. */
function topLines(shares: Map<string, number>, total: number, count: number): string[] {
  return [...shares]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, micros]) =>
        `  ${(micros / 1000).toFixed(0).padStart(7)} ms ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`,
    );
}

async function main(): Promise<number> {
  const { conversations, profileDir } = readArguments(process.argv.slice(2));
  if (!realPostgresAvailable()) {
    console.log("PostgreSQL 15 is not installed here (/usr/lib/postgresql/15/bin): this bench needs it.");
    return 1;
  }
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const profilesBefore = new Set(profileDir ? await readdir(profileDir) : []);
  const loadBefore = loadavg()[0]!;
  const server = await startRealTestPostgres();
  const double = await startOpenAIDouble({ brain: scheduleBrain });
  try {
    const result = await runLoadProbe({
      url: server.url,
      conversations: 0,
      workers: 0,
      loneRuns: conversations,
      prefix: "cpu",
      modelBaseUrl: double.baseUrl,
      profileDir,
      timeoutMs: 20 * 60_000,
    });
    // runLoadProbe threw on a failed lone conversation; every one here ended with its cards approved.
    const outcomes = result.lone;
    const cpu = outcomes.map((outcome) => outcome.cpuMs ?? Number.NaN);
    const wall = outcomes.map((outcome) => outcome.ms);
    const calls = double.requests.length / (conversations + 1);
    console.log(
      `CPU per conversation, ${conversations} conversations one after another (createTempo on PostgreSQL 15, the strict OpenAI double answering at once, ${outcomes[0]!.cards} card(s) approved each, ${calls.toFixed(1)} model calls each)`,
    );
    console.log(
      `  CPU:  median ${percentile(cpu, 0.5).toFixed(0)} ms, p10 ${percentile(cpu, 0.1).toFixed(0)} ms, p90 ${percentile(cpu, 0.9).toFixed(0)} ms, mean ${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(0)} ms`,
    );
    console.log(
      `  wall: median ${percentile(wall, 0.5).toFixed(0)} ms (the database's CPU and the double's are not in the CPU figure)`,
    );
    console.log(`  load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`);
    if (profileDir) {
      const written = (await readdir(profileDir)).filter(
        (name) => name.endsWith(".cpuprofile") && !profilesBefore.has(name),
      );
      for (const name of written) {
        const profile = JSON.parse(await readFile(path.join(profileDir, name), "utf8")) as CpuProfile;
        const { total, places, tempo } = summarise(profile);
        console.log(
          `\nprofile ${path.join(profileDir, name)}: ${(total / 1000).toFixed(0)} ms of samples (not idle), self time by place`,
        );
        console.log(topLines(places, total, 14).join("\n"));
        console.log("Tempo's hottest functions (self time):");
        console.log(topLines(tempo, total, 15).join("\n"));
      }
    }
    return 0;
  } finally {
    await double.close();
    await server.stop();
  }
}

process.exitCode = await main();
