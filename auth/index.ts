/**
 * The `auth` entry of `langgraph.json`: Tempo's handler built from the
 * environment, loaded once by the LangGraph server at start. It says at start
 * which mode it runs in, so an open server is never open by surprise.
 */
import { readAuthSettings } from "../config/environment.js";
import { servedGraph } from "../server/served.js";
import { AppliedCards } from "./applied-cards.js";
import { createTempoAuth } from "./tempo-auth.js";
import { tokensRequired } from "./tokens.js";

export { createTempoAuth, OWNER_KEY } from "./tempo-auth.js";
export {
  AuthenticationError,
  createTokenVerifier,
  tokensRequired,
  type TokenUser,
  type TokenVerifier,
} from "./tokens.js";

const settings = readAuthSettings();

/**
 * Cards the execution log holds as applied are settled before a read (`applied-cards.ts`), with the served graph's
 * log: the same module instance the server loads for `./server/served.ts:graph`, built on first use.
 */
export const appliedCards = new AppliedCards(async () => (await servedGraph()).dependencies.executionLog);

/** The handler `langgraph.json` points at (`./auth/index.ts:auth`). */
export const auth = createTempoAuth(settings, undefined, appliedCards);

console.warn(
  tokensRequired(settings)
    ? `[tempo] auth: bearer tokens required (${[settings.jwtSecret ? "HS256 secret" : "", settings.jwksUrl ? `JWKS ${settings.jwksUrl}` : ""].filter(Boolean).join(", ")}); the user is the token's sub.`
    : `[tempo] auth: OPEN single-user mode — every request acts as "${settings.userId}" (TEMPO_USER_ID). ` +
        "Set TEMPO_AUTH_JWT_SECRET or TEMPO_AUTH_JWKS_URL before exposing this server to anyone else.",
);
