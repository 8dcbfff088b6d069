/**
 * The one place that reads the environment. Everything else takes these
 * settings as parameters.
 *
 * | variable                  | default              | what it sets                                             |
 * |---------------------------|----------------------|----------------------------------------------------------|
 * | OPENAI_API_KEY            | (none)               | model API key; with no key and no base URL → offline policy |
 * | OPENAI_BASE_URL           | (none)               | any OpenAI-compatible server (vLLM, Ollama, DeepSeek...)  |
 * | TEMPO_MODEL               | gpt-4o-mini          | default model name for every stage                       |
 * | TEMPO_MODEL_<STAGE>       | TEMPO_MODEL          | per-stage model (CHAT, PLAN, PLAN_DEEP, EXECUTE, DELIVER, MEMORY) |
 * | TEMPO_STRUCTURED_OUTPUT   | auto                 | on / off / auto (on for api.openai.com, off with a base URL) |
 * | TEMPO_TOOL_CALLING        | auto                 | auto / native / json: execute by native tool calls (auto: when the model has bindTools) or the JSON contract in text |
 * | TEMPO_SHARED_HEAD         | on                   | on / off: the plan request binds the execute tools (tool_choice "none") so plan and execute share one cached head |
 * | TEMPO_MODEL_TIMEOUT_MS    | 20000                | per model request attempt                                |
 * | TEMPO_MODEL_MAX_RETRIES   | 1                    | retries with backoff on timeouts, dropped connections, 5xx, 429 (never 400/401/403/404) |
 * | DATABASE_URL              | (none)               | Postgres; unset → embedded Postgres (PGlite)             |
 * | TEMPO_DATA_DIR            | ./.tempo/pgdata      | embedded Postgres data folder                            |
 * | TEMPO_DB_SCHEMA           | public               | schema of the checkpoint tables                          |
 * | TEMPO_DB_STATEMENT_TIMEOUT| 30                   | seconds a statement may run (0: no limit)                |
 * | TEMPO_DB_LOCK_TIMEOUT     | 5                    | seconds a statement may wait for a lock (0: no limit)    |
 * | TEMPO_DB_QUERY_TIMEOUT    | 15                   | seconds any database call waits for the server's answer, on the client (0: no limit) |
 * | TEMPO_DB_POOL_SIZE        | 10                   | connections of a process's pool (plus 1 thread-lock connection and the memory pool) |
 * | TEMPO_MEMORY_POOL_SIZE    | 8                    | connections of a process's memory-store pool              |
 * | TEMPO_MAX_RUNS            | TEMPO_DB_POOL_SIZE   | runs one process computes at once; the rest wait, round-robin by user |
 * | TEMPO_MAX_RUNS_PER_USER   | half TEMPO_MAX_RUNS  | runs of one user a process computes at once (at least 1)  |
 * | TEMPO_RUN_QUEUE_WAIT      | 600                  | seconds a run waits for its turn, then SERVER_BUSY        |
 * | TEMPO_THREAD_WAIT         | 10                   | seconds a message waits for the run before it on its thread |
 * | TEMPO_MAX_ROUNDS          | 60                   | execute rounds (model decisions) per task                |
 * | TEMPO_MAX_CORRECTIONS     | 3                    | invalid model outputs in a row before the run stops      |
 * | TEMPO_DOMAINS             | schedule             | the tool domains served, by plug-in name, comma-separated (tools/registry.ts) |
 * | TEMPO_SAMPLE_DATA         | true                 | give a user with an empty schedule the sample week       |
 * | TEMPO_USER_ID             | local-user           | user id of the terminal chat and the demo                |
 */
import { ConfigurationError } from "../errors/index.js";
import { DEFAULT_USER_ID, DEFAULT_WORKFLOW_SETTINGS, type WorkflowSettings } from "./configuration.js";

/** The tool domains served when `TEMPO_DOMAINS` is not set. */
export const DEFAULT_DOMAIN_NAMES: readonly string[] = ["schedule"];

export const MODEL_STAGES = ["chat", "plan", "plan_deep", "execute", "deliver", "memory"] as const;

export interface ModelSettings {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  /** Per-stage model names. */
  stageModels: Partial<Record<(typeof MODEL_STAGES)[number], string>>;
  structuredOutput: "auto" | "on" | "off";
  /** How the execute stage's model acts: native tool calls, the JSON contract in text, or auto (native when the model can bind tools; the default). */
  toolCalling?: "auto" | "native" | "json";
  /**
   * `TEMPO_SHARED_HEAD`: with native tool calling, the plan request binds the execute tools (`tool_choice` "none") and
   * begins with the execute requests' head, so a provider's prompt cache reuses it (on, the default); off: the plan
   * request binds none and has its own shorter head (a server that refuses `tool_choice` "none", or fewer plan tokens).
   */
  sharedHead?: boolean;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * Model call bounds (docs/design.md#model-failures). A model that never answers is told after at most
 * (1 + retries) × timeout + the wait between attempts: 2 × 20 s + ≤ 2 s backoff = 42 s by default; a 429's
 * Retry-After is honoured up to RETRY_AFTER_LIMIT_MS (5 s), so no path passes 20 + 5 + 20 = 45 s.
 */
export const DEFAULT_MODEL_TIMEOUT_MS = 20_000;
export const DEFAULT_MODEL_MAX_RETRIES = 1;
/** The longest Retry-After of a 429 that is waited for; a longer one ends the call at once (MODEL_UNAVAILABLE, naming the wait). */
export const RETRY_AFTER_LIMIT_MS = 5_000;

/** Default `statement_timeout` of Tempo's connections, in ms. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** Default `lock_timeout` of Tempo's connections, in ms. */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/** Default client-side bound of every database call (node-postgres `query_timeout`), in ms: a frozen server ends a call after it. */
export const DEFAULT_QUERY_TIMEOUT_MS = 15_000;

/**
 * Default longest wait of a run for its turn (`TEMPO_RUN_QUEUE_WAIT`), in ms: a bound against a stuck process, not a
 * load shedder — a burst of 100 conversations on one worker is computed one turn after another, and its last runs
 * wait minutes on a busy machine (bench/load.ts: about 6 min for 200 on 2 workers sharing 2 cores with other work).
 */
export const DEFAULT_RUN_QUEUE_WAIT_MS = 600_000;

/** Default connections of a process's memory-store pool (`TEMPO_MEMORY_POOL_SIZE`). */
export const DEFAULT_MEMORY_POOL_SIZE = 8;

export interface DatabaseSettings {
  databaseUrl?: string;
  dataDir?: string;
  schema?: string;
  /** `statement_timeout` of Tempo's connections, in ms (0: none). */
  statementTimeoutMs: number;
  /** `lock_timeout` of Tempo's connections, in ms (0: none). */
  lockTimeoutMs: number;
  /** Client-side bound of every database call (`query_timeout`), in ms (0: none). */
  queryTimeoutMs: number;
  /** Connections of the process's pool (default 10, `DEFAULT_POOL_SIZE`); the thread lock adds one connection of its own. */
  poolSize?: number;
  /** Connections of the process's memory-store pool (default 8). */
  memoryPoolSize?: number;
}

/** How many runs one process computes at once (docs/operations.md#connection-plan). */
export interface RunSettings {
  /** Runs computing at once; the rest wait their turn, round-robin by user. Default: the pool size. */
  maxConcurrentRuns?: number;
  /** Runs of one user computing at once. Default: half of `maxConcurrentRuns`, at least 1 (`defaultMaxRunsPerUser`). */
  maxRunsPerUser?: number;
  /** Longest a run waits for its turn before SERVER_BUSY, in ms. Default 600 000. */
  queueWaitMs: number;
}

export interface TempoSettings {
  models: ModelSettings;
  database: DatabaseSettings;
  workflow: WorkflowSettings;
  /** The run gate of `createTempo` (default: as many runs at once as the pool has connections, 600 s of waiting). */
  runs?: RunSettings;
  /** The tool domains served, by plug-in name (`TEMPO_DOMAINS`; the plug-ins are listed in `tools/registry.ts`). */
  domains: string[];
  sampleData: boolean;
  userId: string;
  /**
   * Whether the served graph takes a client's `configurable.now` as the run's moment (`TEMPO_CLIENT_CLOCK=on`: tests,
   * replays, the served check-in's `--now`); otherwise one more than `CLIENT_CLOCK_TOLERANCE_MS` off the server's
   * clock is refused at admission and ignored in the graph.
   */
  clientClock?: boolean;
}

type Environment = Record<string, string | undefined>;

/** Reads Tempo's settings from an environment (default `process.env`), with defaults and checks. */
export function readSettings(environment: Environment = process.env): TempoSettings {
  const value = (name: string) => {
    const raw = environment[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };
  const stageModels: ModelSettings["stageModels"] = {};
  for (const stage of MODEL_STAGES) {
    const name = value(`TEMPO_MODEL_${stage.toUpperCase()}`);
    if (name) stageModels[stage] = name;
  }
  const structuredOutput = value("TEMPO_STRUCTURED_OUTPUT") ?? "auto";
  if (!["auto", "on", "off"].includes(structuredOutput)) {
    throw new ConfigurationError(`TEMPO_STRUCTURED_OUTPUT must be auto, on or off, got "${structuredOutput}".`);
  }
  const toolCalling = value("TEMPO_TOOL_CALLING") ?? "auto";
  if (!["auto", "native", "json"].includes(toolCalling)) {
    throw new ConfigurationError(`TEMPO_TOOL_CALLING must be auto, native or json, got "${toolCalling}".`);
  }
  const sharedHead = value("TEMPO_SHARED_HEAD") ?? "on";
  if (!["on", "off"].includes(sharedHead)) {
    throw new ConfigurationError(`TEMPO_SHARED_HEAD must be on or off, got "${sharedHead}".`);
  }
  return {
    models: {
      apiKey: value("OPENAI_API_KEY"),
      baseUrl: value("OPENAI_BASE_URL"),
      model: value("TEMPO_MODEL") ?? "gpt-4o-mini",
      stageModels,
      structuredOutput: structuredOutput as ModelSettings["structuredOutput"],
      toolCalling: toolCalling as ModelSettings["toolCalling"],
      sharedHead: sharedHead === "on",
      timeoutMs: positiveInteger(value("TEMPO_MODEL_TIMEOUT_MS"), "TEMPO_MODEL_TIMEOUT_MS", DEFAULT_MODEL_TIMEOUT_MS),
      maxRetries: positiveInteger(
        value("TEMPO_MODEL_MAX_RETRIES"),
        "TEMPO_MODEL_MAX_RETRIES",
        DEFAULT_MODEL_MAX_RETRIES,
        0,
      ),
    },
    database: {
      databaseUrl: value("DATABASE_URL"),
      dataDir: value("TEMPO_DATA_DIR"),
      schema: value("TEMPO_DB_SCHEMA"),
      statementTimeoutMs: seconds(
        value("TEMPO_DB_STATEMENT_TIMEOUT"),
        "TEMPO_DB_STATEMENT_TIMEOUT",
        DEFAULT_STATEMENT_TIMEOUT_MS,
      ),
      lockTimeoutMs: seconds(value("TEMPO_DB_LOCK_TIMEOUT"), "TEMPO_DB_LOCK_TIMEOUT", DEFAULT_LOCK_TIMEOUT_MS),
      queryTimeoutMs: seconds(value("TEMPO_DB_QUERY_TIMEOUT"), "TEMPO_DB_QUERY_TIMEOUT", DEFAULT_QUERY_TIMEOUT_MS),
      poolSize: optionalInteger(value("TEMPO_DB_POOL_SIZE"), "TEMPO_DB_POOL_SIZE"),
      memoryPoolSize: positiveInteger(
        value("TEMPO_MEMORY_POOL_SIZE"),
        "TEMPO_MEMORY_POOL_SIZE",
        DEFAULT_MEMORY_POOL_SIZE,
        2,
      ),
    },
    runs: {
      maxConcurrentRuns: optionalInteger(value("TEMPO_MAX_RUNS"), "TEMPO_MAX_RUNS"),
      maxRunsPerUser: optionalInteger(value("TEMPO_MAX_RUNS_PER_USER"), "TEMPO_MAX_RUNS_PER_USER"),
      queueWaitMs: seconds(value("TEMPO_RUN_QUEUE_WAIT"), "TEMPO_RUN_QUEUE_WAIT", DEFAULT_RUN_QUEUE_WAIT_MS),
    },
    workflow: {
      ...DEFAULT_WORKFLOW_SETTINGS,
      threadWaitMs: seconds(value("TEMPO_THREAD_WAIT"), "TEMPO_THREAD_WAIT", DEFAULT_WORKFLOW_SETTINGS.threadWaitMs),
      maxRounds: positiveInteger(value("TEMPO_MAX_ROUNDS"), "TEMPO_MAX_ROUNDS", DEFAULT_WORKFLOW_SETTINGS.maxRounds),
      maxCorrections: positiveInteger(
        value("TEMPO_MAX_CORRECTIONS"),
        "TEMPO_MAX_CORRECTIONS",
        DEFAULT_WORKFLOW_SETTINGS.maxCorrections,
      ),
    },
    domains: (value("TEMPO_DOMAINS") ?? DEFAULT_DOMAIN_NAMES.join(","))
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
    sampleData: (value("TEMPO_SAMPLE_DATA") ?? "true") !== "false",
    userId: value("TEMPO_USER_ID") ?? DEFAULT_USER_ID,
    clientClock: clientClockFrom(value("TEMPO_CLIENT_CLOCK")),
  };
}

/** `TEMPO_CLIENT_CLOCK`: `on` takes a client's `configurable.now`; `off` (the default) keeps to the server's clock. */
function clientClockFrom(raw: string | undefined): boolean {
  if (raw === undefined || raw === "off") return false;
  if (raw === "on") return true;
  throw new ConfigurationError(`TEMPO_CLIENT_CLOCK must be on or off, got "${raw}".`);
}

/** A duration given in seconds (decimals allowed, 0 for none), in whole milliseconds. */
function seconds(raw: string | undefined, name: string, fallbackMs: number): number {
  if (raw === undefined) return fallbackMs;
  const parsed = Number(raw);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new ConfigurationError(`${name} must be a number of seconds ≥ 0, got "${raw}".`);
  return Math.round(parsed * 1000);
}

/** A whole number ≥ 1 when set; undefined (the default, decided by its reader) when not. */
function optionalInteger(raw: string | undefined, name: string): number | undefined {
  return raw === undefined ? undefined : positiveInteger(raw, name, 1);
}

function positiveInteger(raw: string | undefined, name: string, fallback: number, minimum = 1): number {
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < minimum)
    throw new ConfigurationError(`${name} must be an integer ≥ ${minimum}, got "${raw}".`);
  return parsed;
}

/** How the served API authenticates callers (see `auth/`). */
export interface AuthSettings {
  /** HS256 shared secret: tokens signed with it are accepted, user = `sub`. */
  jwtSecret?: string;
  /** JSON Web Key Set of an identity provider: RS256 / ES256 tokens signed by its keys are accepted. */
  jwksUrl?: string;
  /** Required `iss` claim, when set. */
  issuer?: string;
  /** Required `aud` claim, when set. */
  audience?: string;
  /** The one user of open (single-user) development mode, when neither secret nor JWKS is set. */
  userId: string;
  /** A client's `configurable.now` is taken (`TEMPO_CLIENT_CLOCK=on`); otherwise refused off the server's clock. */
  clientClock?: boolean;
}

/**
 * Reads the served API's auth settings:
 *
 * | variable              | default    | what it sets                                                  |
 * |-----------------------|------------|---------------------------------------------------------------|
 * | TEMPO_AUTH_JWT_SECRET | (none)     | HS256 secret; with it every request needs `Authorization: Bearer <JWT>` |
 * | TEMPO_AUTH_JWKS_URL   | (none)     | identity provider's JWKS (RS256 / ES256 tokens)               |
 * | TEMPO_AUTH_ISSUER     | (none)     | required `iss`                                                |
 * | TEMPO_AUTH_AUDIENCE   | (none)     | required `aud`                                                |
 * | TEMPO_USER_ID         | local-user | the one user of open development mode (neither of the first two set) |
 */
export function readAuthSettings(environment: Environment = process.env): AuthSettings {
  const value = (name: string) => {
    const raw = environment[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };
  const jwtSecret = value("TEMPO_AUTH_JWT_SECRET");
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigurationError(
      "TEMPO_AUTH_JWT_SECRET must be at least 32 characters (a 256-bit HS256 key); generate one with `openssl rand -hex 32`.",
    );
  }
  const jwksUrl = value("TEMPO_AUTH_JWKS_URL");
  if (jwksUrl !== undefined && !URL.canParse(jwksUrl))
    throw new ConfigurationError(`TEMPO_AUTH_JWKS_URL must be a URL, got "${jwksUrl}".`);
  return {
    jwtSecret,
    jwksUrl,
    issuer: value("TEMPO_AUTH_ISSUER"),
    audience: value("TEMPO_AUTH_AUDIENCE"),
    userId: value("TEMPO_USER_ID") ?? DEFAULT_USER_ID,
    clientClock: clientClockFrom(value("TEMPO_CLIENT_CLOCK")),
  };
}
