/**
 * Tempo's `Auth` handler for the LangGraph server (`langgraph.json` → `auth`):
 * who a request is (`authenticate`), and what that user may do with each
 * resource (`on`).
 *
 * - Authentication: with a secret or a key set configured, every request needs
 *   `Authorization: Bearer <JWT>` (see `tokens.ts`) — or the JWT in
 *   `x-api-key`, the header Agent Inbox fills from its "LangSmith API key"
 *   field; the user is its `sub`.
 *   With neither, the server is open to one user, `TEMPO_USER_ID` (local
 *   development).
 * - Threads: creating one stamps `metadata.owner`; reading, searching,
 *   history, copying, deleting, cancelling and runs are filtered by owner, so
 *   another user's thread answers 404 and is left as it was. The owner cannot
 *   be changed through metadata.
 * - No route around a card: runs whose command carries `update` or `goto` are
 *   refused; a state update (`threads.updateState`) reaches the graph only for
 *   the thread's owner, and the graph's run guard refuses all but ending the
 *   thread (values null, as END: Agent Inbox's "Mark as resolved"); a run's
 *   `configurable.user_id` naming someone else is refused before the run
 *   exists, and so is one whose `max_rounds`, `time_zone` or `now` cannot work, or whose `now` is off the
 *   server's clock while the server takes no client clock (`TEMPO_CLIENT_CLOCK`) (`422`, INVALID_CONFIGURATION),
 *   before the server stores it in the thread's config; so is an input message that is not the user's own (an
 *   assistant, tool or system message), one removing a message, one over the size limits, and text Postgres cannot
 *   store (NUL, an unpaired surrogate) in the input, the configurable or the metadata (`422`, INVALID_INPUT).
 * - Assistants are shared configurations: anyone may list and read them, only
 *   the owner may change or delete one, and none may carry another user's
 *   `user_id`.
 * - Store: only namespaces under the caller's own `["tempo", "users", <user>]`.
 * - Crons: not served (refused).
 * - Runs: only on a thread (stateless runs are refused: a card needs a thread
 *   to be answered on); a run always starts from the thread's latest
 *   checkpoint: a `checkpoint_id` (useStream sends the head it last read) is
 *   kept as what the sender saw and checked by the run (`startFromLatestCheckpoint`).
 * - Anything else: refused.
 * - Routes the per-resource rules do not reach (`/internal/*`, thread-less and
 *   cross-thread run streams and joins, useStream's protocol routes, crons)
 *   are guarded by path in `authenticate`: see `served-routes.ts`.
 */
import { Command } from "@langchain/langgraph";
import { Auth, HTTPException, isStudioUser } from "@langchain/langgraph-sdk/auth";
import { checkConfigurable, clientClockProblem, DEFAULT_WORKFLOW_SETTINGS } from "../config/configuration.js";
import type { AuthSettings } from "../config/environment.js";
import { ConfigurationError, TempoError } from "../errors/index.js";
import { CARRY_ON_ONLY_KEY, SEEN_CHECKPOINT_KEY } from "../server/run-options.js";
import { namespaceLabel } from "../memory/namespaces.js";
import type { AppliedCards } from "./applied-cards.js";
import { guardServedRoute, RunOwners } from "./served-routes.js";
import { AuthenticationError, createTokenVerifier, tokensRequired, type TokenVerifier } from "./tokens.js";
import { endsThread } from "../server/end-thread.js";
import {
  checkConfigurableIds,
  checkInputContent,
  checkMessageInput,
  checkRunMetadata,
  deeperThanAllowed,
  MAX_INPUT_DEPTH,
} from "../server/input-check.js";

/** The metadata key that records a thread's (or an assistant's) owner. */
export const OWNER_KEY = "owner";

type Metadata = Record<string, unknown>;
interface User {
  identity: string;
  permissions?: string[];
}

/**
 * Builds the handler for `settings`; `verifier` replaces the token check (tests); `appliedCards` settles a write card
 * the execution log holds as applied before a thread is read (`applied-cards.ts`).
 */
export function createTempoAuth(settings: AuthSettings, verifier?: TokenVerifier, appliedCards?: AppliedCards) {
  const verify = tokensRequired(settings) ? (verifier ?? createTokenVerifier(settings)) : undefined;
  // Run id → the user whose request created it: who may join it without naming its thread (served-routes.ts).
  const runOwners = new RunOwners();

  return (
    new Auth()
      .authenticate(async (request: Request) => {
        if (!verify) {
          await guardServedRoute(request, settings.userId, runOwners);
          await appliedCards?.beforeRead(request, settings.userId);
          return { identity: settings.userId, permissions: [] };
        }
        const token = tokenOf(request);
        if (!token)
          throw unauthorized(
            "This Tempo server needs `Authorization: Bearer <JWT>` (or the JWT in `x-api-key`) on every request.",
          );
        let user: { identity: string; permissions: string[] };
        try {
          const verified = await verify(token);
          user = { identity: verified.identity, permissions: verified.permissions };
        } catch (error) {
          throw unauthorized(
            error instanceof AuthenticationError ? error.message : "The bearer token could not be verified.",
          );
        }
        await guardServedRoute(request, user.identity, runOwners);
        await appliedCards?.beforeRead(request, user.identity);
        return user;
      })
      // Threads: owned from creation on; every other action sees only the caller's own.
      .on("threads:create", ({ user, value }) => {
        signedIn(user, verify);
        refuseDeepNesting({ metadata: value.metadata });
        refuseUnusableInput(() => checkThreadMetadata(value.metadata));
        value.metadata = { ...(value.metadata ?? {}), [OWNER_KEY]: user.identity };
        return ownedBy(user);
      })
      .on("threads:create_run", ({ user, value }) => {
        signedIn(user, verify);
        const kwargs = (value.kwargs ?? {}) as RunKwargs;
        if ((hasValue(kwargs.command?.update) || hasValue(kwargs.command?.goto)) && !endsThread(kwargs.command)) {
          throw forbidden(
            'A run\'s command may only answer the pending card (`resume`) or end the thread (`goto: "__end__"` alone); other `update` and `goto` are refused.',
          );
        }
        refuseDeepNesting({
          input: kwargs.input,
          command: kwargs.command,
          config: kwargs.config,
          metadata: value.metadata,
        });
        refuseUnusableInput(() => {
          checkInputContent(kwargs.input, DEFAULT_WORKFLOW_SETTINGS);
          // A card's answer is held to the input's limits too: storable text, its size and the whole input's.
          if (kwargs.command?.resume !== undefined && kwargs.command.resume !== null)
            checkInputContent(new Command({ resume: kwargs.command.resume }), DEFAULT_WORKFLOW_SETTINGS);
          checkMessageInput(kwargs.input);
          checkConfigurableIds(kwargs.config?.configurable);
          checkRunMetadata(value.metadata, DEFAULT_WORKFLOW_SETTINGS);
        });
        refuseOtherUser(kwargs.config?.configurable?.user_id, user);
        refuseInvalidConfigurable(kwargs.config?.configurable, settings);
        if (!hasValue(value.thread_id)) {
          throw forbidden(
            "Tempo runs on a thread (a card is answered on it): create one with POST /threads and run on /threads/{thread_id}/runs; stateless runs (/runs, /runs/wait, /runs/stream, /runs/batch) are refused.",
          );
        }
        startFromLatestCheckpoint(kwargs);
        if (typeof value.run_id === "string") runOwners.record(value.run_id, user.identity);
        // A thread the run creates (`if_not_exists: "create"`) is owned by the caller too.
        value.metadata = { ...(value.metadata ?? {}), [OWNER_KEY]: user.identity };
        return ownedBy(user);
      })
      .on("threads:update", ({ user, value }) => {
        signedIn(user, verify);
        // Metadata edits carry `metadata`, cancellations `action`; a request with neither is a state update, which the
        // server hands the graph: its run guard refuses every one but ending the thread (values null, as END), and
        // only the owner gets that far (the filter below).
        refuseDeepNesting({ metadata: value.metadata });
        refuseUnusableInput(() => checkThreadMetadata(value.metadata));
        refuseOwnerChange(value.metadata, user);
        return ownedBy(user);
      })
      .on(["threads:read", "threads:search", "threads:delete"], ({ user }) => {
        signedIn(user, verify);
        return ownedBy(user);
      })
      // Assistants: shared to read; an assistant never carries another user's identity.
      .on("assistants:create", ({ user, value }) => {
        signedIn(user, verify);
        refuseDeepNesting({ config: value.config, metadata: value.metadata });
        refuseUnusableInput(() => checkConfigurableIds(value.config?.configurable ?? undefined));
        refuseOtherUser(value.config?.configurable?.user_id, user);
        refuseInvalidConfigurable(value.config?.configurable, settings);
        value.metadata = { ...(value.metadata ?? {}), [OWNER_KEY]: user.identity };
        return ownedBy(user);
      })
      .on("assistants:update", ({ user, value }) => {
        signedIn(user, verify);
        refuseDeepNesting({ config: value.config, metadata: value.metadata });
        refuseUnusableInput(() => checkConfigurableIds(value.config?.configurable ?? undefined));
        refuseOtherUser(value.config?.configurable?.user_id, user);
        refuseInvalidConfigurable(value.config?.configurable, settings);
        refuseOwnerChange(value.metadata, user);
        return ownedBy(user);
      })
      .on("assistants:delete", ({ user }) => {
        signedIn(user, verify);
        return ownedBy(user);
      })
      .on(["assistants:read", "assistants:search"], ({ user }) => {
        signedIn(user, verify);
        return true;
      })
      // Memory: a user's items live under ["tempo", "users", <user>]; nothing else is reachable.
      .on("store", ({ user, value }) => {
        signedIn(user, verify);
        const own = ["tempo", "users", namespaceLabel(user.identity)];
        const namespace = (value as { namespace?: string[] | null }).namespace ?? [];
        if (namespace.length < own.length || own.some((label, index) => namespace[index] !== label)) {
          throw forbidden(`The store holds your memory under ${JSON.stringify(own)}; address a namespace under it.`);
        }
        return true;
      })
      .on("crons", () => {
        throw forbidden("Tempo does not serve crons.");
      })
      .on("*", () => {
        throw forbidden("This action is not allowed.");
      })
  );
}

/** The request's token: `Authorization: Bearer <JWT>`, else `x-api-key` (what Agent Inbox and the SDK's apiKey send). */
function tokenOf(request: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec((request.headers.get("authorization") ?? "").trim());
  return bearer?.[1] ?? (request.headers.get("x-api-key")?.trim() || undefined);
}

type RunKwargs = {
  input?: unknown;
  command?: { update?: unknown; goto?: unknown; resume?: unknown };
  config?: { configurable?: Record<string, unknown> };
};

/**
 * A run starts from the thread's latest checkpoint. `langgraph dev` copies a run's `configurable` into the
 * thread's stored config (`dist/storage/ops.mjs`, `Runs.put`) and merges that into every later run, so a
 * `checkpoint_id` left there would start them all from that checkpoint, where every answer is stale. Agent Chat UI
 * (useStream) sends the thread's head as it last read it with every submit: that is what its user saw, so it is kept
 * as the run's seen checkpoint (`SEEN_CHECKPOINT_KEY`, which the run checks compare with the latest — an answer
 * sent from an older view is STALE_RESUME) and `checkpoint_id` is set to `undefined` on every run, which also
 * overrides one a thread's stored config holds (the server merges the run's `configurable` last and stores the
 * result). A run addressed into a subgraph (`checkpoint_ns`, `checkpoint_map`) is refused.
 */
function startFromLatestCheckpoint(kwargs: RunKwargs): void {
  const configurable = kwargs.config?.configurable ?? {};
  const checkpointNamespace = configurable.checkpoint_ns;
  const checkpointMap = configurable.checkpoint_map;
  if (
    (hasValue(checkpointMap) &&
      !(typeof checkpointMap === "object" && Object.keys(checkpointMap as object).length === 0)) ||
    (hasValue(checkpointNamespace) && checkpointNamespace !== "")
  ) {
    throw forbidden(
      "A run starts from the thread's latest checkpoint: `checkpoint_ns` / `checkpoint_map` are refused. Send the run without them.",
    );
  }
  const seen =
    typeof configurable.checkpoint_id === "string" && configurable.checkpoint_id !== ""
      ? configurable.checkpoint_id
      : undefined;
  // A read's carry-on run (auth/applied-cards.ts) is carry-on only; the mark is cleared by every other run, so the one
  // the thread's stored config keeps never reaches them.
  const carryOnOnly = kwargs.input == null && configurable[CARRY_ON_ONLY_KEY] === true ? true : undefined;
  kwargs.config = {
    ...kwargs.config,
    configurable: {
      ...configurable,
      checkpoint_id: undefined,
      [SEEN_CHECKPOINT_KEY]: seen,
      [CARRY_ON_ONLY_KEY]: carryOnOnly,
    },
  };
}

/** The filter that limits an action to the caller's own resources. */
function ownedBy(user: User): Record<string, string> {
  return { [OWNER_KEY]: user.identity };
}

/** With tokens required, the unauthenticated Studio user (x-auth-scheme: langsmith) gets nothing. */
function signedIn(user: User, verify: TokenVerifier | undefined): void {
  if (verify && isStudioUser(user as Parameters<typeof isStudioUser>[0])) {
    throw forbidden("Sign in with a bearer token: the Studio header is not accepted by this server.");
  }
}

/** A `user_id` set by the caller must be the caller's own. */
function refuseOtherUser(userId: unknown, user: User): void {
  if (hasValue(userId) && userId !== user.identity) {
    throw forbidden(
      "configurable.user_id names another user; runs and assistants act only as the signed-in user (leave user_id out).",
    );
  }
}

/**
 * A run's (or an assistant's) `configurable` values must work (`checkConfigurable`: `max_rounds`, `time_zone`, `now`),
 * checked here because this is before the server stores anything: it keeps a run's `configurable` in the thread's
 * config and merges it into every later run, so a bad value the graph refused would fail every later run of the
 * thread. Refused with `422` and the typed error as JSON (`INVALID_CONFIGURATION`, the field, the form it takes).
 * So is a `now` off the server's clock (`clientClockProblem`) unless the server takes a client clock
 * (`TEMPO_CLIENT_CLOCK=on`): the run's moment rolls the user's week on, with no card.
 */
function refuseInvalidConfigurable(
  configurable: Record<string, unknown> | null | undefined,
  settings: Pick<AuthSettings, "clientClock">,
): void {
  try {
    checkConfigurable(configurable ?? undefined);
    // The run's moment is the server's unless the server takes a client clock (config/configuration.ts).
    const offClock = settings.clientClock ? undefined : clientClockProblem(configurable ?? undefined, new Date());
    if (offClock) throw offClock;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw unprocessable({
      error: error.name,
      code: error.code,
      message: `${error.message} Nothing was stored or run.`,
      ...error.details,
    });
  }
}

/**
 * A request body nested deeper than the graph's input check allows is refused (422) before the server stores it:
 * `langgraph dev` keeps its threads and runs in a file it writes with a recursive serializer, which a few thousand
 * levels overflow (RangeError), and from then on it saved no thread or run, so a restart lost them.
 */
function refuseDeepNesting(parts: Record<string, unknown>): void {
  for (const [name, part] of Object.entries(parts)) {
    const where = deeperThanAllowed(part, name);
    if (where === undefined) continue;
    throw unprocessable({
      error: "TempoError",
      code: "INVALID_INPUT",
      message: `The request nests deeper than ${MAX_INPUT_DEPTH} levels (at ${where}); nothing was stored or run.`,
    });
  }
}

/**
 * A run's input, configurable and metadata pass the graph's own input checks (`server/input-check.ts`) before the
 * server stores the run (422, the typed error as JSON), so no run fails on them and the thread keeps its status: input
 * messages are the user's own (an assistant, tool or system message is refused: `checkMessageKinds`), the input is
 * a `{ messages }` object whose last message has text (`checkMessageInput`: not a number or a string, not an empty or
 * content-less message, not an unknown slash command), none removes a message, each within the size limits, with no text Postgres cannot store (a NUL, an unpaired surrogate); the same
 * for the configurable's strings and keys — which the server keeps in the thread's config and merges into every later
 * run, so one the graph refused failed every later run of the thread — and the run's metadata. A card's answer
 * (`command.resume`) is held to the same text and size limits here (one over them was stored with the run and written
 * into the thread as a refusal note); what it says (does it fit the card) is left to the graph, which raises the card
 * again with the reason.
 */
function refuseUnusableInput(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof TempoError)) throw error;
    throw unprocessable({ error: error.name, code: error.code, message: error.message, ...error.details });
  }
}

/**
 * A thread's metadata (`threads:create`, `threads:update`) is held to the run metadata's bounds (`checkRunMetadata`:
 * the input's size limit in all, storable text and keys): the server keeps it with the thread and returns it with every
 * read and search, and merged an update's into it, so ten megabytes sent once were carried by each listing after.
 */
function checkThreadMetadata(metadata: unknown): void {
  try {
    checkRunMetadata(metadata, DEFAULT_WORKFLOW_SETTINGS);
  } catch (error) {
    if (!(error instanceof TempoError)) throw error;
    throw new TempoError(
      "INVALID_INPUT",
      error.message.replace("The run metadata", "The thread's metadata"),
      error.details,
    );
  }
}

/** Metadata may not hand a resource to someone else. */
function refuseOwnerChange(metadata: Metadata | null | undefined, user: User): void {
  if (metadata && OWNER_KEY in metadata && metadata[OWNER_KEY] !== user.identity)
    throw forbidden("The owner of a thread or assistant cannot be changed.");
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

function unauthorized(message: string): HTTPException {
  return new HTTPException(401, { message, headers: { "WWW-Authenticate": 'Bearer realm="tempo"' } });
}

/** A 422 whose body is `body` as JSON: a request refused for what it holds. */
function unprocessable(body: Record<string, unknown>): HTTPException {
  return new HTTPException(422, { message: JSON.stringify(body), headers: { "content-type": "application/json" } });
}

function forbidden(message: string): HTTPException {
  return new HTTPException(403, { message });
}
