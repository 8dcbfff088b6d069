/**
 * `npm run double` — the strict OpenAI-compatible server double (tests/support/openai-double/) on its own, so a
 * person can point Tempo (or any client) at it and see what a strict server refuses: it checks every request
 * against OpenAI's documented rules (answering 400 with OpenAI's error body when one breaks them) and answers as the
 * offline policy would. Each request is printed: its stage, and the refusal if any. Ctrl-C stops it.
 *
 *   npm run double                 # a free port, printed
 *   npm run double -- --port 8000  # this port
 *   npm run double -- --latency-ms 4000  # a slow model: every answer waits 4 s (progress in a client can be seen)
 *   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 OPENAI_API_KEY=unused npm start
 *
 * It answers as the offline model of the domains `TEMPO_DOMAINS` names (schedule when unset), as Tempo does: give it
 * the same `TEMPO_DOMAINS` as the Tempo it serves (`TEMPO_DOMAINS=schedule,todo npm run double`).
 */
import path from "node:path";
import { setTimeout as wait } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { readSettings } from "../config/environment.js";
import { offlineBrain, startOpenAIDouble } from "../tests/support/openai-double/index.js";

/** The port a `--port N` argument names, or 0 (a free one). */
export function portArgument(argv: readonly string[]): number {
  const at = argv.indexOf("--port");
  if (at < 0) return 0;
  const port = Number(argv[at + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port needs a port number (0-65535), got ${argv[at + 1] ?? "nothing"}.`);
  return port;
}

/** The milliseconds a `--latency-ms N` argument names (each answer waits them), or 0. */
export function latencyArgument(argv: readonly string[]): number {
  const at = argv.indexOf("--latency-ms");
  if (at < 0) return 0;
  const milliseconds = Number(argv[at + 1]);
  if (!Number.isInteger(milliseconds) || milliseconds < 0 || milliseconds > 600_000)
    throw new Error(`--latency-ms needs milliseconds (0-600000), got ${argv[at + 1] ?? "nothing"}.`);
  return milliseconds;
}

/** Serves the double until SIGINT / SIGTERM, printing each request as it comes. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const latency = latencyArgument(argv);
  const { domains } = readSettings();
  const double = await startOpenAIDouble(
    { brain: offlineBrain(domains), ...(latency > 0 ? { latency: () => wait(latency) } : {}) },
    portArgument(argv),
  );
  let seen = 0;
  const report = setInterval(() => {
    for (; seen < double.requests.length; seen += 1) {
      const request = double.requests[seen]!;
      console.log(
        request.refusal
          ? `#${request.index} ${request.stage}: refused (${request.refusal.message})`
          : `#${request.index} ${request.stage}: answered`,
      );
    }
  }, 200);
  console.log(
    `strict OpenAI double listening: OPENAI_BASE_URL=${double.baseUrl} (any OPENAI_API_KEY), answering for ${domains.join(", ")}` +
      `${latency > 0 ? `, answering after ${latency} ms` : ""}; Ctrl-C stops it`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      clearInterval(report);
      void double.close().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
