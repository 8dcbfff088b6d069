/**
 * Child process of the plug-in crash tests: Tempo serving `schedule,todo` from their plug-ins on the test's database
 * (domains-on-database.ts), driving one thread.
 *
 *   node --import tsx tests/persistence/domains-child.ts '{ "url", "threadId", "mode": "start" | "continue", "request"? }'
 *
 * - start: sends `request`, accepts the plan card, stops at the first write card;
 * - continue: accepts the open card (or continues after a crash) and every card after, to the end.
 *
 * `TEMPO_TEST_KILL_AT` makes it SIGKILL itself during the first confirmed write: "before-persist" (inside the
 * transaction that claims the write, before the domain applies it) or "after-persist" (the change and its log entry
 * committed). Prints one JSON line: `{ ok, card, phase }` or `{ ok: false, code, message }`.
 */
import type { ToolDomain } from "../../tools/domain.js";
import type { ChildArguments } from "./child-runner.js";
import { continueToEnd, openDomainsOnDatabase, requestUntilWriteCard } from "./domains-on-database.js";
import { die, killingLog } from "./kill-switch.js";
import { cardOf } from "./tempo-on-database.js";

const killAt = process.env.TEMPO_TEST_KILL_AT;

/** Kills the process when the first write is about to be applied (inside its claiming transaction). */
function killingDomain(domain: ToolDomain): ToolDomain {
  return { ...domain, persist: async () => die() };
}

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArguments;
const tempo = await openDomainsOnDatabase(args.url, {
  domains: "schedule,todo",
  wrapDomain: killAt === "before-persist" ? killingDomain : undefined,
  wrapExecutionLog: killAt === "after-persist" ? killingLog : undefined,
});
let output: Record<string, unknown>;
try {
  const result =
    args.mode === "start"
      ? await requestUntilWriteCard(tempo, args.threadId, args.request ?? "")
      : await continueToEnd(tempo, args.threadId);
  output = { ok: true, card: cardOf(result) ?? null, phase: (result as { phase?: string }).phase ?? null };
} catch (error) {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : null;
  output = { ok: false, code, message: error instanceof Error ? error.message : String(error) };
} finally {
  await tempo.close();
}
process.stdout.write(`${JSON.stringify(output)}\n`);
