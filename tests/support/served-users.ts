/**
 * Users of a served Tempo (`langgraph dev` with TEMPO_AUTH_JWT_SECRET): real
 * HS256 tokens signed with the server's secret, SDK clients that send them,
 * and the HTTP status a refused request answered.
 */
import { Client } from "@langchain/langgraph-sdk";
import { SignJWT } from "jose";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startLangGraphDev, type LangGraphDevServer } from "./langgraph-dev.js";
import type { TestPostgres } from "./postgres.js";

/** A signed token naming `sub` (none when undefined), by default with the served secret and valid for 10 minutes. */
export function signToken(
  secret: string,
  sub: string | undefined,
  options: { secret?: string; expiresAt?: number } = {},
): Promise<string> {
  const jwt = new SignJWT(sub ? { sub } : {}).setProtectedHeader({ alg: "HS256" }).setIssuedAt();
  return jwt.setExpirationTime(options.expiresAt ?? "10m").sign(new TextEncoder().encode(options.secret ?? secret));
}

/** An SDK client of `server` sending `headers`, never retrying (a refusal is seen as it is). */
export function clientWith(server: LangGraphDevServer, headers: Record<string, string>): Client {
  return new Client({ apiUrl: server.apiUrl, defaultHeaders: headers, callerOptions: { maxRetries: 0 } });
}

/** The HTTP status a request was refused with (0 when it was not refused). */
export async function refusal(request: Promise<unknown>): Promise<number> {
  try {
    await request;
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

/** A served Tempo on its own Postgres: the database, a small pool on it, and `langgraph dev` with tokens on. */
export interface ServedOnPostgres {
  readonly postgres: TestPostgres;
  readonly pool: pg.Pool;
  readonly server: LangGraphDevServer;
}

/**
 * Registers the beforeAll / afterAll that start Postgres (`startPostgres`), a pool on it and `langgraph dev` with
 * TEMPO_AUTH_JWT_SECRET=`secret` and DATABASE_URL on it (the schedules and the execution log there), and `environment`
 * on top (`TEMPO_CLIENT_CLOCK: "on"` for a test that sets the runs' clock), and stop them.
 */
export function useServedOnPostgres(
  secret: string,
  startPostgres: () => Promise<TestPostgres>,
  environment: Record<string, string> = {},
): ServedOnPostgres {
  let postgres: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  let server: LangGraphDevServer | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
    pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    // A client the pool is still closing when the server stops gets 57P01 ("terminating connection due to
    // administrator command"); without a listener, pg throws it as an uncaught error after the tests passed.
    pool.on("error", () => undefined);
    server = await startLangGraphDev({ ...environment, TEMPO_AUTH_JWT_SECRET: secret, DATABASE_URL: postgres.url });
  });
  afterAll(async () => {
    await server?.stop();
    await pool?.end();
    await postgres?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} has not started`);
    return value;
  };
  return {
    get postgres() {
      return started(postgres, "Postgres");
    },
    get pool() {
      return started(pool, "the pool");
    },
    get server() {
      return started(server, "langgraph dev");
    },
  };
}
