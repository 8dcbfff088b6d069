/**
 * Users of a served Tempo (`langgraph dev` with TEMPO_AUTH_JWT_SECRET): real
 * HS256 tokens signed with the server's secret, SDK clients that send them,
 * and the HTTP status a refused request answered.
 */
import { Client } from "@langchain/langgraph-sdk";
import { SignJWT } from "jose";
import type { LangGraphDevServer } from "./langgraph-dev.js";

/** A signed token naming `sub` (none when undefined), by default with the served secret and valid for 10 minutes. */
export function signToken(secret: string, sub: string | undefined, options: { secret?: string; expiresAt?: number } = {}): Promise<string> {
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
