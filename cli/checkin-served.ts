/**
 * `npm run checkin -- --server <url>`: the daily check-in on a served Tempo (`langgraph dev`, `langgraph up`), sent
 * as a run through `@langchain/langgraph-sdk`, for an OS scheduler (cron, a systemd timer) to run each morning. The
 * LangGraph server Tempo pins serves no crons (`@langchain/langgraph-api` 1.5.1 answers every cron route "Not
 * implemented", and Tempo's auth refuses them): the scheduler is the machine's, the run is the server's.
 *
 * Who: the user the token names (`TEMPO_TOKEN`, a JWT sent as `Authorization: Bearer`, as every served client sends
 * it: docs/front-ends.md); on an open server (no TEMPO_AUTH_* there), its one user. Which thread: the user's
 * check-in thread of the day, a thread of theirs tagged `tempo_checkin: <date>` (the date where the scheduler runs,
 * or `timeZone`), found by a search — which sees only the caller's own threads — or created under the one id the
 * day has for the token's subject, so two check-ins at once (the cron and a hand run) share one thread: the second's
 * run is refused while the first's runs, and it says where the card will wait. The day's second check-in
 * finds the first one's card there and sends nothing.
 *
 * What it answers for the student: only the plan card its own request raised, named by its id (an answer naming a
 * card that is no longer pending is refused as stale), as `npm run checkin` approves its own plan; the write card
 * after it — the missed reviews' new places — waits for the student's client (Agent Chat UI, Agent Inbox). A card
 * that already waited on the thread is never answered.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import { localClock } from "../contracts/clock.js";
import { approveDecision } from "../review/resume.js";
import { ChatUsageError, type ChatArguments } from "./arguments.js";
import { CHECKIN_REQUEST, waitingOn, type CheckinOutcome } from "./checkin-request.js";

/** The metadata key that tags a user's check-in thread with its day (`YYYY-MM-DD`). */
export const CHECKIN_DAY_KEY = "tempo_checkin";

/** The graph id `langgraph.json` serves. */
const ASSISTANT_ID = "tempo";

/** When and where a served check-in runs. */
export interface ServedCheckinOptions {
  /** The run's `configurable.now` (replaying a day, tests); left out, the server's clock is now. */
  now?: Date;
  /** The zone whose date names the day's thread; default the zone of the machine that runs the check-in. */
  timeZone?: string;
  /** Whom the check-in is for (the token's subject), which with the day gives the day's thread its id. */
  who?: string;
}

type ThreadState = Awaited<ReturnType<Client["threads"]["getState"]>>;

/**
 * Sends the check-in request on the caller's check-in thread of the day on the served Tempo `client` talks to, goes
 * ahead with the plan its own request raised, and leaves the first write card waiting for the student.
 */
export async function runServedCheckin(client: Client, options: ServedCheckinOptions = {}): Promise<CheckinOutcome> {
  const moment = options.now ?? new Date();
  const zone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = localClock(moment, zone).date;
  const threadId = await checkinThread(client, day, options.who);
  const state = await client.threads.getState(threadId);
  // A card from an earlier check-in today (or one the student left) still waits: shown again, never answered.
  if (interruptsOf(state).length > 0) return outcomeOf(threadId, state);
  const configurable = options.now === undefined ? {} : { now: options.now.toISOString() };
  // Another check-in of the day at once (the cron and a hand run) has the thread: its run is refused here (the runs'
  // "reject"), and the thread read again tells where the other got to.
  const busy = async (): Promise<CheckinOutcome> => {
    const now = await client.threads.getState(threadId);
    return interruptsOf(now).length > 0 && waitingOn(now).join() !== "confirm_plan"
      ? outcomeOf(threadId, now)
      : { ...outcomeOf(threadId, now), busy: true };
  };
  if (
    !(await ranUnlessBusy(
      client.runs.wait(threadId, ASSISTANT_ID, {
        input: { messages: [{ role: "user", content: CHECKIN_REQUEST }] },
        config: { configurable },
        multitaskStrategy: "reject",
      }),
    ))
  )
    return busy();
  let after = await client.threads.getState(threadId);
  const plan = interruptsOf(after);
  // The check-in's own plan goes ahead (the student finds the missed reviews' card, not a plan to approve), answered
  // by the card's id: if anything answered it meanwhile, this approval is refused as stale and approves nothing.
  if (plan.length === 1 && waitingOn(after).join() === "confirm_plan" && plan[0]!.id) {
    if (
      !(await ranUnlessBusy(
        client.runs.wait(threadId, ASSISTANT_ID, {
          command: { resume: { decisions: [approveDecision()], card_id: plan[0]!.id } },
          config: { configurable },
          multitaskStrategy: "reject",
        }),
      ))
    )
      return busy();
    after = await client.threads.getState(threadId);
  }
  return outcomeOf(threadId, after);
}

/**
 * False when the server refused the run because another run has the thread (the runs' "reject": `langgraph dev`
 * answers 422 "Thread is already running a task"; 409 for a server that says conflict); a run that failed is thrown.
 */
async function ranUnlessBusy(run: Promise<unknown>): Promise<boolean> {
  try {
    await ended(run);
    return true;
  } catch (error) {
    const { status, message } = error as { status?: number; message?: string };
    if (status === 409 || (status === 422 && /already running a task/i.test(message ?? ""))) return false;
    throw error;
  }
}

/**
 * The caller's check-in thread of `day`: found among their own threads, else created (owned by them) under the one id
 * the day has for them (`dayThreadId`), so two check-ins at once make one thread, not two with a card each.
 */
async function checkinThread(client: Client, day: string, who: string | undefined): Promise<string> {
  const found = await client.threads.search({ metadata: { [CHECKIN_DAY_KEY]: day }, limit: 1 });
  if (found[0]) return found[0].thread_id;
  const metadata = { [CHECKIN_DAY_KEY]: day };
  // Not knowing whom it is for, an id of the day alone could be another user's: the server names the thread then.
  if (who === undefined) return (await client.threads.create({ metadata })).thread_id;
  return (await client.threads.create({ threadId: dayThreadId(who, day), ifExists: "do_nothing", metadata })).thread_id;
}

/** A fixed namespace for the check-in threads' ids (a random UUID, chosen once). */
const CHECKIN_NAMESPACE = "4f0d7c52-9a1e-4b7d-8c3e-2a6f1d5b9e07";

/** The UUID (version 5, RFC 9562) of `who`'s check-in thread of `day`: the same for every check-in of theirs that day. */
export function dayThreadId(who: string, day: string): string {
  const namespace = Buffer.from(CHECKIN_NAMESPACE.replaceAll("-", ""), "hex");
  const hash = createHash("sha1")
    .update(Buffer.concat([namespace, Buffer.from(`${who}\n${day}`, "utf8")]))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whom a bearer token names (its `sub`, read without checking: the server checks it), or "" for none. */
export function tokenSubject(token: string | undefined): string {
  if (!token) return "";
  try {
    const { sub } = decodeJwt(token);
    return typeof sub === "string" ? sub : "";
  } catch {
    return "";
  }
}

/** A run's end; a run that failed (the server's `__error__` in its last values) is thrown with the server's words. */
async function ended(run: Promise<unknown>): Promise<void> {
  const values = (await run) as { __error__?: { error?: string; message?: string } } | null;
  if (values?.__error__)
    throw new Error(`The check-in's run failed on the server: ${values.__error__.message ?? values.__error__.error}`);
}

function interruptsOf(state: ThreadState): Array<{ id?: string; value?: unknown }> {
  return (state.tasks ?? []).flatMap((task) => task.interrupts);
}

/** What the thread says now: the answers so far, what the clock moved, the card waiting (its actions). */
function outcomeOf(threadId: string, state: ThreadState): CheckinOutcome {
  const values = (state.values ?? {}) as { messages?: Array<{ type?: string; content?: unknown }>; movedOn?: unknown };
  const movedOn = typeof values.movedOn === "string" ? values.movedOn : undefined;
  return {
    threadId,
    ...(movedOn ? { movedOn } : {}),
    said: (values.messages ?? []).filter((message) => message.type === "ai").map((message) => String(message.content)),
    waiting: waitingOn(state),
  };
}

/** `--server <url>` (or `--server=<url>`) taken out of `argv`; the rest is read as the terminal check-in's flags. */
export function serverArgument(argv: readonly string[]): { server?: string; rest: string[] } {
  const rest: string[] = [];
  let server: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === "--server" || argument.startsWith("--server=")) {
      const value = argument === "--server" ? argv[(index += 1)] : argument.slice("--server=".length);
      if (value === undefined || value.trim() === "" || value.startsWith("--"))
        throw new ChatUsageError("--server needs the served Tempo's URL, such as http://localhost:2024.");
      server = value.trim();
      continue;
    }
    rest.push(argument);
  }
  return server === undefined ? { rest } : { server, rest };
}

/**
 * The served check-in from the command line: `options` are the terminal check-in's flags (only `--now` applies: the
 * user is the token's, the schedule the server's), `environment` gives TEMPO_TOKEN. Prints what the local one prints,
 * with where the card waits.
 */
export async function servedCheckinCommand(
  server: string,
  options: ChatArguments,
  environment: Record<string, string | undefined> = process.env,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<CheckinOutcome> {
  if (options.userId !== undefined)
    throw new ChatUsageError("--user does not apply with --server: the served check-in is the user TEMPO_TOKEN names.");
  if (options.weekFile !== undefined)
    throw new ChatUsageError("--week does not apply with --server: the served schedule is the server's.");
  const token = environment.TEMPO_TOKEN?.trim();
  const { Client } = await import("@langchain/langgraph-sdk");
  // apiKey null: no LANGSMITH_API_KEY / LANGGRAPH_API_KEY of this environment is sent to the server. No retries: a
  // run the server made but whose answer was lost would be sent again, a second check-in request on the thread.
  const client = new Client({
    apiUrl: server,
    apiKey: null,
    defaultHeaders: token ? { authorization: `Bearer ${token}` } : {},
    callerOptions: { maxRetries: 0 },
  });
  const outcome = await runServedCheckin(client, {
    ...(options.now === undefined ? {} : { now: new Date(options.now) }),
    who: tokenSubject(token),
  });
  if (outcome.movedOn) write(`${outcome.movedOn}\n\n`);
  for (const text of outcome.said) write(`${text}\n\n`);
  write(
    outcome.busy
      ? `Another check-in is running on thread ${outcome.threadId} on ${server} now; the card it leaves will wait there: open it in your client (Agent Chat UI, Agent Inbox).\n`
      : outcome.waiting.length > 0
        ? `A card waits on thread ${outcome.threadId} (${outcome.waiting.join(", ")}) on ${server}: open it in your client (Agent Chat UI, Agent Inbox).\n`
        : `Nothing waits for you on thread ${outcome.threadId} on ${server}.\n`,
  );
  return outcome;
}
