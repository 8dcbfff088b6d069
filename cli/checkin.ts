/**
 * `npm run checkin`: the daily check-in from the terminal (issue 47 item 6, docs/week-in-the-life.md; on a served
 * Tempo, `--server <url>` sends it as a run there: cli/checkin-served.ts — the LangGraph server serves no crons, so an
 * OS scheduler runs it each morning). One request on the day's check-in thread: the clock moves the window on when its last
 * day has passed (the answer says what moved to history and what became missed); the check-in goes ahead with its own
 * plan — the missed reviews proposed again first, then the reviews still to place — so the first write card (the
 * missed reviews' new places, when any was missed) waits there for the student: `npm start -- --thread <id>` opens
 * it. A deadline or an exam the free time left is proved not to hold is told (`ToolDomain.atRisk`), with the change that
 * recovers the most.
 *
 * It speaks the student's language (`checkinLanguage`): the language of the last messages the student wrote in the
 * terminal chat (its thread list, `--threads-file`), else of the week's own names (a week whose tasks and events are
 * named in Chinese is a Chinese student's); English when neither tells. Its request is sent in that language, so the
 * plan, the answers, what the clock moved and what is at risk are said in it, and so are its own closing lines.
 *
 *   npm run checkin -- [--user <id>] [--now <date-time>] [--threads-file <path>]
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
import { isTempoError } from "../errors/index.js";
import { DEFAULT_THREADS_FILE, ThreadRegistry } from "./thread-registry.js";
import { languageOf, say, type Language } from "../contracts/language.js";
import type { ToolDomain } from "../tools/domain.js";
import { CHECKIN_REQUEST, waitingOn, type CheckinOutcome } from "./checkin-request.js";

export { CHECKIN_REQUEST, type CheckinOutcome } from "./checkin-request.js";

/** The check-in's request for a Chinese-speaking student: read as the same request (the cron sends it for them). */
export const CHECKIN_REQUEST_ZH = "补排错过的复习，然后把复习安排到空闲时段";

/**
 * The language a check-in speaks: of `lastMessages` (what the student last wrote, oldest first) when they tell
 * (`languageOf`: the newest that says enough), else Chinese when the stored `week` names things in Chinese, else English.
 */
export function checkinLanguage(lastMessages: readonly string[], week: unknown): Language {
  const written = lastMessages.filter((text) => text.trim() !== "");
  if (written.length > 0) return languageOf(written);
  return languageOf(namesIn(week).join("\n"));
}

/** The `name` fields of a stored week (its tasks, events and classes), wherever they sit. */
function namesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namesIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, entry]) =>
    key === "name" && typeof entry === "string" ? [entry] : namesIn(entry),
  );
}

/** The check-in's own closing line: the card waiting on its thread, or that nothing waits. */
export function waitingLine(
  outcome: Pick<CheckinOutcome, "threadId" | "waiting" | "busy">,
  language: Language,
): string {
  const { threadId, waiting } = outcome;
  if (outcome.busy)
    return say(
      language,
      `Another check-in is running on thread ${threadId} now; the card it leaves will wait there: npm start -- --thread ${threadId}`,
      `另一个每日检查正在会话 ${threadId} 上运行；它留下的卡片会在那里等你：运行“npm start -- --thread ${threadId}”打开它`,
    );
  if (waiting.length === 0)
    return say(language, `Nothing waits for you on thread ${threadId}.`, `会话 ${threadId} 上没有等你处理的事。`);
  return say(
    language,
    `A card waits on thread ${threadId} (${waiting.join(", ")}): npm start -- --thread ${threadId}`,
    `会话 ${threadId} 上有一张卡片等你确认（${waiting.join("、")}）：运行“npm start -- --thread ${threadId}”打开它`,
  );
}

/** A served domain, as the check-in reads it for what is at risk. */
export type CheckinDomain = Pick<ToolDomain, "load" | "atRisk" | "withClock">;

/** The day's check-in thread of a user: one a day, so a second check-in that day finds the first one's card. */
export function checkinThreadId(userId: string, now: Date, timeZone = "UTC"): string {
  return `checkin-${userId}-${localClock(now, timeZone).date}`;
}

/**
 * Runs the check-in request at `now` for `userId` on the graph, goes ahead with its own plan (the plan card of the
 * check-in's request is approved: each write still waits on its card), and leaves the first write card waiting; with
 * `domains`, it tells what is at risk on the week after it. Everything is said in `language` (its request is sent in it).
 */
export async function runCheckin(
  graph: Pick<Tempo["graph"], "invoke" | "getState">,
  userId: string,
  now: Date,
  timeZone?: string,
  domains: readonly CheckinDomain[] = [],
  language: Language = "en",
): Promise<CheckinOutcome> {
  const threadId = checkinThreadId(userId, now, timeZone);
  const config = { configurable: { thread_id: threadId, user_id: userId, now: now.toISOString() } };
  const request = say(language, CHECKIN_REQUEST, CHECKIN_REQUEST_ZH);
  let sent = false;
  let refused = false;
  // Two check-ins of one day may run at once (the cron and a manual run, two machines): they share the day's thread,
  // so one may find it busy, or its card answered, by the other. Each then reads the thread again and goes on from
  // where the other left it — never a second request, never a failure for the other's work.
  for (let attempt = 0; attempt < CHECKIN_ATTEMPTS; attempt += 1) {
    const state = await graph.getState(config);
    const waiting = waitingOn(state);
    try {
      // The check-in's own plan goes ahead: the student finds the missed reviews' card, not a plan to approve.
      if (waiting.join() === "confirm_plan" && latestRequest(state.values) === request) {
        await graph.invoke(new Command({ resume: ACCEPT_EVERY_ACTION }), config);
        continue;
      }
      // A card from an earlier check-in today still waits (shown again, not asked twice), or this one's request ran.
      if (waiting.length > 0 || sent)
        return withRisk(outcomeOf(threadId, state.values, state), userId, now, domains, language);
      // Another check-in's request is on the thread: read again while its run goes on, else tell where it ended.
      if (attempt > 0 && latestRequest(state.values) === request) {
        if ((state.next ?? []).length > 0) continue;
        return withRisk(outcomeOf(threadId, state.values, state), userId, now, domains, language);
      }
      await graph.invoke({ messages: [new HumanMessage(request)] }, config);
      sent = true;
    } catch (error) {
      if (!isTempoError(error) || !OTHER_RUN_CODES.has(error.code)) throw error;
      refused = true;
    }
  }
  const state = await graph.getState(config);
  const outcome = outcomeOf(threadId, state.values, state);
  // Still another's to finish (the plan card it answered shows until its run saves): its card will wait on the thread.
  const finished = outcome.waiting.length > 0 && !(refused && outcome.waiting.join() === "confirm_plan");
  return withRisk(finished ? outcome : { ...outcome, busy: true }, userId, now, domains, language);
}

/** How many times a check-in reads its thread again after finding another run there (each read goes on from it). */
const CHECKIN_ATTEMPTS = 6;

/** The refusals a check-in meets when another check-in of the day is working on the thread, or answered its card. */
const OTHER_RUN_CODES: ReadonlySet<string> = new Set(["THREAD_BUSY", "ALREADY_RESUMED", "STALE_RESUME"]);

/** The text of the thread's latest human message, "" for none. */
function latestRequest(values: Record<string, unknown>): string {
  const messages = (values.messages ?? []) as Array<{ getType(): string; content: unknown }>;
  const latest = messages.findLast((message) => message.getType() === "human");
  return latest === undefined ? "" : String(latest.content);
}

/** `outcome` with what is at risk on the user's week now, told by the first domain that finds something. */
async function withRisk(
  outcome: CheckinOutcome,
  userId: string,
  now: Date,
  domains: readonly CheckinDomain[],
  language: Language,
): Promise<CheckinOutcome> {
  for (const domain of domains) {
    if (!domain.atRisk) continue;
    const data: unknown = await domain.load(userId);
    const notice = domain.atRisk(domain.withClock ? domain.withClock(data, now) : data, language);
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
    const threads = await new ThreadRegistry(options.threadsFile ?? DEFAULT_THREADS_FILE).list(userId);
    const language = checkinLanguage(
      threads.map((entry) => entry.lastMessage).reverse(),
      await domains[0]?.load(userId),
    );
    const outcome = await runCheckin(tempo.graph, userId, now, zone, domains, language);
    if (outcome.movedOn) process.stdout.write(`${outcome.movedOn}\n\n`);
    for (const text of outcome.said) process.stdout.write(`${text}\n\n`);
    if (outcome.atRisk) process.stdout.write(`${outcome.atRisk}\n\n`);
    process.stdout.write(`${waitingLine(outcome, language)}\n`);
  } finally {
    await tempo.close();
  }
}

if (process.argv[1]?.endsWith("checkin.ts"))
  main().catch((error: unknown) => {
    console.error(renderError(error));
    process.exitCode = 1;
  });
