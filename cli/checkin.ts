/**
 * `npm run checkin`: the daily check-in from the terminal (issue 47 item 6, docs/week-in-the-life.md; on a served
 * Tempo, `--server <url>` sends it as a run there: cli/checkin-served.ts — the LangGraph server serves no crons, so an
 * OS scheduler runs it each morning). One request on the day's check-in thread: the clock moves the window on when its last
 * day has passed (the answer says what moved to history and what became missed); the check-in goes ahead with its own
 * plan — the missed reviews proposed again first, then the reviews still to place — so the first write card (the
 * missed reviews' new places, when any was missed) waits there for the student: `npm start -- --thread <id>` opens
 * it. A deadline or an exam the time left is proved not to hold is told (`ToolDomain.atRisk`), with the change that
 * recovers the most.
 *
 *   npm run checkin -- [--user <id>] [--now <date-time>]
 *   TEMPO_TOKEN=<JWT> npm run checkin -- --server <url> [--now <date-time>]
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { localClock } from "../contracts/clock.js";
import { readSettings } from "../config/environment.js";
import { ACCEPT_EVERY_ACTION } from "../review/resume.js";
import { createTempo, type Tempo } from "../server/create-tempo.js";
import { parseChatArguments } from "./arguments.js";
import { servedCheckinCommand, serverArgument } from "./checkin-served.js";
import { renderError } from "./render.js";
import type { ToolDomain } from "../tools/domain.js";
import { CHECKIN_REQUEST, waitingOn, type CheckinOutcome } from "./checkin-request.js";

export { CHECKIN_REQUEST, type CheckinOutcome } from "./checkin-request.js";

/** A served domain, as the check-in reads it for what is at risk. */
export type CheckinDomain = Pick<ToolDomain, "load" | "atRisk" | "withClock">;

/** The day's check-in thread of a user: one a day, so a second check-in that day finds the first one's card. */
export function checkinThreadId(userId: string, now: Date, timeZone = "UTC"): string {
  return `checkin-${userId}-${localClock(now, timeZone).date}`;
}

/**
 * Runs the check-in request at `now` for `userId` on the graph, goes ahead with its own plan (the plan card of the
 * check-in's request is approved: each write still waits on its card), and leaves the first write card waiting; with
 * `domains`, it tells what is at risk on the week after it.
 */
export async function runCheckin(
  graph: Pick<Tempo["graph"], "invoke" | "getState">,
  userId: string,
  now: Date,
  timeZone?: string,
  domains: readonly CheckinDomain[] = [],
): Promise<CheckinOutcome> {
  const threadId = checkinThreadId(userId, now, timeZone);
  const config = { configurable: { thread_id: threadId, user_id: userId, now: now.toISOString() } };
  const state = await graph.getState(config);
  // A card from an earlier check-in today still waits: it is shown again, not asked twice.
  if ((state.tasks ?? []).some((task) => task.interrupts.length > 0))
    return withRisk(outcomeOf(threadId, state.values, state), userId, now, domains);
  let result = (await graph.invoke({ messages: [new HumanMessage(CHECKIN_REQUEST)] }, config)) as Record<
    string,
    unknown
  >;
  // The check-in's own plan goes ahead: the student finds the missed reviews' card, not a plan to approve.
  if (waitingOn(await graph.getState(config)).join() === "confirm_plan")
    result = (await graph.invoke(new Command({ resume: ACCEPT_EVERY_ACTION }), config)) as Record<string, unknown>;
  return withRisk(outcomeOf(threadId, result, await graph.getState(config)), userId, now, domains);
}

/** `outcome` with what is at risk on the user's week now, told by the first domain that finds something. */
async function withRisk(
  outcome: CheckinOutcome,
  userId: string,
  now: Date,
  domains: readonly CheckinDomain[],
): Promise<CheckinOutcome> {
  for (const domain of domains) {
    if (!domain.atRisk) continue;
    const data: unknown = await domain.load(userId);
    const notice = domain.atRisk(domain.withClock ? domain.withClock(data, now) : data, "en");
    if (notice) return { ...outcome, atRisk: notice.text };
  }
  return outcome;
}

function outcomeOf(
  threadId: string,
  values: Record<string, unknown>,
  state: { tasks?: ReadonlyArray<{ interrupts: ReadonlyArray<{ value?: unknown }> }> },
): CheckinOutcome {
  const messages = (values.messages ?? []) as Array<{ getType(): string; content: unknown }>;
  const waiting = waitingOn(state);
  const movedOn = typeof values.movedOn === "string" ? values.movedOn : undefined;
  return {
    threadId,
    ...(movedOn ? { movedOn } : {}),
    said: messages.filter((message) => message.getType() === "ai").map((message) => String(message.content)),
    waiting,
  };
}

async function main(): Promise<void> {
  const { server, rest } = serverArgument(process.argv.slice(2));
  const options = parseChatArguments(rest);
  if (server !== undefined) {
    await servedCheckinCommand(server, options);
    return;
  }
  const settings = readSettings();
  const userId = options.userId ?? settings.userId;
  const now = options.now === undefined ? new Date() : new Date(options.now);
  const tempo = await createTempo(settings);
  try {
    const zone = await tempo
      .repositoryOf<{ timeZone(user: string): Promise<string | undefined> }>("schedule")
      .timeZone(userId);
    const domains = [...tempo.domains.values()].map((built) => built.domain);
    const outcome = await runCheckin(tempo.graph, userId, now, zone, domains);
    if (outcome.movedOn) process.stdout.write(`${outcome.movedOn}\n\n`);
    for (const text of outcome.said) process.stdout.write(`${text}\n\n`);
    if (outcome.atRisk) process.stdout.write(`${outcome.atRisk}\n\n`);
    process.stdout.write(
      outcome.waiting.length > 0
        ? `A card waits on thread ${outcome.threadId} (${outcome.waiting.join(", ")}): npm start -- --thread ${outcome.threadId}\n`
        : `Nothing waits for you on thread ${outcome.threadId}.\n`,
    );
  } finally {
    await tempo.close();
  }
}

if (process.argv[1]?.endsWith("checkin.ts"))
  main().catch((error: unknown) => {
    console.error(renderError(error));
    process.exitCode = 1;
  });
