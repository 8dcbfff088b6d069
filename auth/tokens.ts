/**
 * Bearer tokens of the served API, verified with `jose` (no crypto of our
 * own): HS256 with a shared secret (TEMPO_AUTH_JWT_SECRET), or RS256 / ES256
 * signed by an identity provider's keys (TEMPO_AUTH_JWKS_URL). The user is
 * the `sub` claim. A token must carry `sub` and `exp`; unsigned (`alg: none`),
 * wrongly signed, expired, not-yet-valid tokens, and tokens of another issuer
 * or audience (when those are configured) are refused.
 */
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import type { AuthSettings } from "../config/environment.js";
import { TempoError } from "../errors/index.js";

/** Algorithms accepted with a shared secret. */
export const SECRET_ALGORITHMS = ["HS256"];
/** Algorithms accepted from an identity provider's key set. */
export const KEY_SET_ALGORITHMS = ["RS256", "ES256"];

/** Who a verified token names. */
export interface TokenUser {
  /** The `sub` claim. */
  identity: string;
  /** The token's `scope` / `permissions` claim, as a list. */
  permissions: string[];
}

/** Verifies a compact JWT; throws `AuthenticationError` when it cannot be trusted. */
export type TokenVerifier = (token: string) => Promise<TokenUser>;

/** A request without valid credentials (answered 401). */
export class AuthenticationError extends TempoError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("UNAUTHENTICATED", message, undefined, options);
    this.name = "AuthenticationError";
  }
}

/** True when the settings require tokens (a secret or a key set is configured). */
export function tokensRequired(settings: AuthSettings): boolean {
  return settings.jwtSecret !== undefined || settings.jwksUrl !== undefined;
}

/** The verifier for `settings`; only for settings that require tokens. */
export function createTokenVerifier(settings: AuthSettings): TokenVerifier {
  const secret = settings.jwtSecret ? new TextEncoder().encode(settings.jwtSecret) : undefined;
  const keySet = settings.jwksUrl ? createRemoteJWKSet(new URL(settings.jwksUrl)) : undefined;
  const claims = { issuer: settings.issuer, audience: settings.audience, requiredClaims: ["sub", "exp"] };
  return async (token) => {
    let algorithm: string | undefined;
    try {
      algorithm = decodeProtectedHeader(token).alg;
    } catch (error) {
      throw new AuthenticationError("The bearer token is not a JWT.", { cause: error });
    }
    let payload: JWTPayload;
    try {
      if (secret && algorithm !== undefined && SECRET_ALGORITHMS.includes(algorithm)) {
        payload = (await jwtVerify(token, secret, { ...claims, algorithms: SECRET_ALGORITHMS })).payload;
      } else if (keySet && algorithm !== undefined && KEY_SET_ALGORITHMS.includes(algorithm)) {
        payload = (await jwtVerify(token, keySet, { ...claims, algorithms: KEY_SET_ALGORITHMS })).payload;
      } else {
        const accepted = [...(secret ? SECRET_ALGORITHMS : []), ...(keySet ? KEY_SET_ALGORITHMS : [])];
        throw new AuthenticationError(
          `Tokens signed with ${algorithm ?? "no algorithm"} are not accepted here; use ${accepted.join(" or ")}.`,
        );
      }
    } catch (error) {
      if (error instanceof AuthenticationError) throw error;
      throw new AuthenticationError(reasonOf(error), { cause: error });
    }
    if (typeof payload.sub !== "string" || payload.sub.trim() === "")
      throw new AuthenticationError("The token has no subject (`sub`): it names no user.");
    return { identity: payload.sub, permissions: permissionsOf(payload) };
  };
}

/** A message a caller can act on, for jose's verification errors. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The token has expired; get a new one.";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The token's signature does not verify.";
  if (error instanceof errors.JWTClaimValidationFailed)
    return `The token's ${error.claim} claim is not accepted (${error.reason}).`;
  if (error instanceof errors.JWKSNoMatchingKey) return "No key of the identity provider matches the token.";
  if (error instanceof errors.JOSEAlgNotAllowed) return "The token's algorithm is not accepted.";
  return `The token could not be verified (${error instanceof Error ? error.message : String(error)}).`;
}

/** `permissions` (a list) or `scope` (space-separated), as a list of strings. */
function permissionsOf(payload: JWTPayload): string[] {
  if (Array.isArray(payload.permissions))
    return payload.permissions.filter((permission): permission is string => typeof permission === "string");
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter(Boolean);
  return [];
}
