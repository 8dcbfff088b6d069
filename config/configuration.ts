/**
 * Tempo's settings: one typed, defaulted object. Nodes read settings only
 * from here (through `ensureConfiguration`), never from `process.env`; the
 * environment is read once, in `config/environment.ts`.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { isIsoDate, isTimeZone } from "../contracts/clock.js";
import { ConfigurationError, TempoError } from "../errors/index.js";

/**
 * Execute rounds per task by default. A round is one model decision — answering a card and applying its writes
 * use none. A week of 20 pending tasks proposed one write a decision takes about 30 (reads, 20 proposals, memory
 * updates, step ends); 60 leaves room for feedback. With batch cards the same week takes under 10.
 */
export const DEFAULT_MAX_ROUNDS = 60;

/** The working-memory reminder (docs/design.md#working-memory-reminder). */
export interface WorkingMemoryReminderSettings {
  enabled: boolean;
  /** Remind when the scratchpad was not updated for more than this many execute rounds. */
  maxRoundsWithoutUpdate: number;
  /** With high token use, remind already after more than this many rounds. */
  minRoundsBeforeCheck: number;
  /** Token use of the prompt budget, in percent, that counts as high. */
  tokenThresholdPercent: number;
}

/** Context engineering: how much history the state and the prompts keep. */
export interface ContextSettings {
  /** Compress the conversation the prompts read (the thread keeps every message) when it holds more messages than this. */
  maxRecentMessages: number;
  /** ...or when the conversation's estimated tokens exceed this. */
  maxRecentTokens: number;
  /** Messages the prompts keep (newest) after a compression. */
  keepRecentMessages: number;
  /** Tool rounds of the current step kept whole in the execute prompt; earlier ones become a summary (docs/design.md#step-context). */
  keepToolRounds: number;
  /** Prompt token budget per stage. */
  promptBudget: { chat: number; plan: number; execute: number; deliver: number };
}

/** Workflow settings (the graph's behaviour, not its dependencies). */
export interface WorkflowSettings {
  /** Execute rounds (model decisions) per task before deliver is forced (docs/design.md#round-budget; see DEFAULT_MAX_ROUNDS). */
  maxRounds: number;
  /** Invalid model outputs in a row before the run stops with a typed error (docs/design.md#correction-loop). */
  maxCorrections: number;
  /** Planning rounds (continue / deep pass) per plan before the planner must finish. */
  maxPlanRounds: number;
  /** Longest user message accepted, in characters; longer ones are refused before they reach the thread. */
  maxMessageCharacters: number;
  /** Largest whole input accepted (every message, or a resume with its values), in characters. */
  maxInputCharacters: number;
  /**
   * How long a new message waits for another run on its thread to end, in ms, before it is refused with THREAD_BUSY
   * (a resume never waits: it answers the card its sender saw, which a running run is replacing).
   */
  threadWaitMs: number;
  /** Failing tool results in a row after which the current step fails. */
  maxToolErrorsPerStep: number;
  /** Writes the user declined in a row after which the current step fails (the user is refusing what it needs). */
  maxRejectionsPerStep: number;
  /**
   * After a finished step with steps left, whether the planner reviews the rest — it may continue, replace the rest,
   * ask, or finish (docs/design.md#replanning): "always"; "when_needed" (the default) — only after a step that met a
   * setback (a write declined or failed, a tool error), a clean step going straight on to the next; or "never".
   */
  replanAfterStep: "always" | "when_needed" | "never";
  workingMemory: WorkingMemoryReminderSettings;
  context: ContextSettings;
}

export const DEFAULT_WORKFLOW_SETTINGS: WorkflowSettings = {
  maxRounds: DEFAULT_MAX_ROUNDS,
  maxCorrections: 3,
  maxPlanRounds: 6,
  maxToolErrorsPerStep: 3,
  maxRejectionsPerStep: 2,
  replanAfterStep: "when_needed",
  maxMessageCharacters: 100_000,
  maxInputCharacters: 200_000,
  threadWaitMs: 10_000,
  workingMemory: { enabled: true, maxRoundsWithoutUpdate: 5, minRoundsBeforeCheck: 3, tokenThresholdPercent: 70 },
  context: {
    maxRecentMessages: 40,
    maxRecentTokens: 8_000,
    keepRecentMessages: 16,
    keepToolRounds: 3,
    promptBudget: { chat: 4_000, plan: 8_000, execute: 12_000, deliver: 6_000 },
  },
};

/** Per-invocation values a caller passes in `configurable`. */
export interface TempoConfigurable {
  thread_id?: string;
  /**
   * Whose data the run sees: domain state, memory namespaces. Programmatic callers set it; on the LangGraph server
   * the authenticated user decides, and a `user_id` that names someone else is refused.
   */
  user_id?: string;
  /** Set by the LangGraph server from its `auth` handler: the authenticated user's identity. */
  langgraph_auth_user_id?: string;
  /** Set by the LangGraph server: the authenticated user (its `identity` is the user id). */
  langgraph_auth_user?: { identity?: string };
  /** Overrides `maxRounds` for this thread's next task. */
  max_rounds?: number;
  /** How long a model call runs before the stream says it is waiting, and how often after, in ms (default 3000). */
  model_status_ms?: number;
  /** The IANA time zone "now" is told in to every stage ("Asia/Shanghai"); default the domain's (the schedule window's), else UTC. */
  time_zone?: string;
  /** The moment the stages take as now, an ISO date-time ("2024-03-14T06:30:00Z"); default the clock (for tests and replays). */
  now?: string;
}

/** What a node needs from the run config: ids and the effective workflow settings. */
export interface RunConfiguration extends WorkflowSettings {
  threadId: string;
  userId: string;
  /** `configurable.time_zone`, checked. */
  timeZone?: string;
  /** `configurable.now`, read. */
  now?: Date;
}

/** The user id used when a caller gives none (single-user local use). */
export const DEFAULT_USER_ID = "local-user";

/** Reads `configurable` with defaults applied; rejects values that cannot work (`checkConfigurable`). */
export function ensureConfiguration(
  config: RunnableConfig | undefined,
  settings: WorkflowSettings = DEFAULT_WORKFLOW_SETTINGS,
): RunConfiguration {
  const configurable = (config?.configurable ?? {}) as TempoConfigurable;
  const userId = runUser(configurable);
  if (typeof userId !== "string" || userId.trim() === "") {
    throw new ConfigurationError("configurable.user_id must be a non-empty string.");
  }
  const [problem] = configurableProblems(configurable);
  if (problem) throw problem;
  const maxRounds = configurable.max_rounds ?? settings.maxRounds;
  const timeZone = configurable.time_zone;
  const now = configurable.now === undefined ? undefined : new Date(configurable.now);
  return {
    ...settings,
    maxRounds,
    userId,
    threadId: String(configurable.thread_id ?? ""),
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(now === undefined ? {} : { now }),
  };
}

/** The largest `configurable.max_rounds` accepted: a budget past it is no bound at all (its recursion limit grows with it). */
export const MAX_ROUNDS_LIMIT = 1_000;

/** The `configurable` values a run may set that are checked here, each with the form it takes (what a refusal names). */
export const CONFIGURABLE_FORMS = {
  max_rounds: `a whole number from 1 to ${MAX_ROUNDS_LIMIT}, such as ${DEFAULT_MAX_ROUNDS}`,
  time_zone: 'an IANA time zone such as "Asia/Shanghai" or "UTC"',
  now: 'an ISO date-time (ISO 8601: a real calendar date, the time, and a zone: "Z" or an offset such as "+08:00"), such as "2024-03-14T06:30:00Z" or "2024-03-14T14:30:00+08:00"',
} as const;

/** A key of {@link CONFIGURABLE_FORMS}. */
export type CheckedConfigurableKey = keyof typeof CONFIGURABLE_FORMS;

/**
 * Throws INVALID_CONFIGURATION (a `ConfigurationError` naming the field and the form it takes) for the first value of
 * `configurable` that cannot work: `max_rounds`, `time_zone`, `now`. A server checks a run's `configurable` with it
 * at admission, before anything of the run is stored.
 */
export function checkConfigurable(configurable: Record<string, unknown> | undefined): void {
  const [problem] = [...reservedKeyProblems(configurable ?? {}), ...configurableProblems(configurable ?? {})];
  if (problem) throw problem;
}

/**
 * A key of `configurable` that LangGraph's runtime sets for itself and a caller never does: every one beginning with
 * "__" (`__pregel_resume_map`, `__pregel_checkpointer`, …). Given from outside, `__pregel_resume_map` answers the
 * card a thread waits on with any message — around every check of a resume — and `__pregel_checkpointer` replaces
 * the run's checkpointer.
 */
export function isReservedConfigurableKey(key: string): boolean {
  return key.startsWith("__");
}

/**
 * Each key of `configurable` a caller may not set (`isReservedConfigurableKey`), as the ConfigurationError naming it
 * (none: []). Not part of `configurableProblems`: a node's own config carries LangGraph's keys.
 */
export function reservedKeyProblems(configurable: Record<string, unknown>): ConfigurationError[] {
  return Object.keys(configurable)
    .filter(isReservedConfigurableKey)
    .map(
      (key) =>
        new ConfigurationError(
          `configurable.${describeValue(key).slice(1, -1)} is LangGraph's own (a key beginning with "__" is set by the graph's runtime, never by a caller); a card is answered with a resume (Command({ resume })), not through the configuration. Send the run without it.`,
          { field: `configurable.${key}`, expected: 'no key beginning with "__"' },
        ),
    );
}

/** Every value of `configurable` that cannot work, each as the ConfigurationError naming it (none: []). */
export function configurableProblems(configurable: Record<string, unknown> | TempoConfigurable): ConfigurationError[] {
  const values = configurable as Record<string, unknown>;
  const problems: ConfigurationError[] = [];
  for (const key of Object.keys(CONFIGURABLE_FORMS) as CheckedConfigurableKey[]) {
    const value = values[key];
    if (value === undefined || VALID_CONFIGURABLE[key](value)) continue;
    problems.push(
      new ConfigurationError(
        `configurable.${key} must be ${CONFIGURABLE_FORMS[key]}; got ${describeValue(value)}. Send the run without it for the default.`,
        {
          field: `configurable.${key}`,
          expected: CONFIGURABLE_FORMS[key],
        },
      ),
    );
  }
  return problems;
}

/**
 * How far a served run's `configurable.now` may be from the server's clock when the server takes no client clock
 * (`TEMPO_CLIENT_CLOCK` unset): a client that stamps its own clock passes; one that moves it does not.
 */
export const CLIENT_CLOCK_TOLERANCE_MS = 5 * 60_000;

/**
 * The ConfigurationError for a `configurable.now` more than `CLIENT_CLOCK_TOLERANCE_MS` from `serverNow`, or
 * undefined (none, or close enough; a `now` that is not a date-time is `configurableProblems`' to name). A served
 * run's moment decides what has passed and rolls the schedule's window on (`tools/schedule/clock-roll.ts`): a client
 * moving it would roll its week forward, the old days gone to history, with no card — so a server takes it only when
 * told to (`TEMPO_CLIENT_CLOCK=on`: tests, replays, the served check-in's `--now`).
 */
export function clientClockProblem(
  configurable: Record<string, unknown> | undefined,
  serverNow: Date,
): ConfigurationError | undefined {
  const now = configurable?.now;
  if (!VALID_CONFIGURABLE.now(now)) return undefined;
  const offMs = new Date(now as string).getTime() - serverNow.getTime();
  if (Math.abs(offMs) <= CLIENT_CLOCK_TOLERANCE_MS) return undefined;
  return new ConfigurationError(
    `configurable.now (${String(now)}) is ${Math.round(Math.abs(offMs) / 60_000)} minutes ${offMs > 0 ? "ahead of" : "behind"} this server's clock (${serverNow.toISOString()}); this server keeps runs to its own clock, so a client cannot roll its week or place into the past by moving it. Send the run without now (or a server started with TEMPO_CLIENT_CLOCK=on for tests and replays takes it).`,
    {
      field: "configurable.now",
      expected: `the server's clock, within ${CLIENT_CLOCK_TOLERANCE_MS / 60_000} minutes (TEMPO_CLIENT_CLOCK=on takes any)`,
    },
  );
}

/** Whether each checked value can work. */
const VALID_CONFIGURABLE: Record<CheckedConfigurableKey, (value: unknown) => boolean> = {
  max_rounds: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ROUNDS_LIMIT,
  time_zone: (value) => typeof value === "string" && value !== "" && isTimeZone(value),
  now: (value) => typeof value === "string" && isIsoDateTime(value),
};

/** ISO 8601 extended date-time with a zone: date, "T", hours and minutes, optional seconds and fraction, "Z" or ±hh:mm. */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * True for an ISO 8601 date-time that names one moment: a real calendar date (2024-02-30 and 2024-13-01 are not —
 * `Date` would roll them over), hours 00–23, minutes and seconds 00–59, and a zone ("Z" or an offset up to ±23:59;
 * a time without one would be read in the server's own zone).
 */
export function isIsoDateTime(text: string): boolean {
  const match = ISO_DATE_TIME.exec(text);
  if (!match || !isIsoDate(match[1]!)) return false;
  const [hours, minutes, seconds, offsetHours, offsetMinutes] = [
    match[2],
    match[3],
    match[4] ?? "0",
    match[5] ?? "0",
    match[6] ?? "0",
  ].map(Number) as [number, number, number, number, number];
  return (
    hours <= 23 &&
    minutes <= 59 &&
    seconds <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59 &&
    !Number.isNaN(Date.parse(text))
  );
}

/** A value as a refusal quotes it: JSON, cut to 80 characters. */
function describeValue(value: unknown): string {
  const text =
    typeof value === "number" && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * The run's user: the server's authenticated user when there is one (a `user_id` naming anyone else is refused
 * with IDENTITY_MISMATCH), otherwise the caller's `user_id` (programmatic use), otherwise the default user.
 */
function runUser(configurable: TempoConfigurable): string {
  const authenticated = configurable.langgraph_auth_user_id ?? configurable.langgraph_auth_user?.identity;
  if (authenticated === undefined || authenticated === null || authenticated === "")
    return configurable.user_id ?? DEFAULT_USER_ID;
  if (configurable.user_id !== undefined && configurable.user_id !== null && configurable.user_id !== authenticated) {
    throw new TempoError(
      "IDENTITY_MISMATCH",
      `configurable.user_id names another user than the one you are signed in as; the server runs every request as its authenticated user. Leave user_id out (or set it to your own id). Nothing was changed.`,
      { userId: configurable.user_id },
    );
  }
  return authenticated;
}
