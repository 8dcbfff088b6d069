/**
 * A tool domain as a plug-in: everything the runtime needs to serve a domain's tools — on a repository (in memory,
 * or on Postgres with its tables migrated) and its sample data — built from one object, so the composition root
 * (`server/create-tempo.ts`) names no domain. The plug-ins a build can serve are listed once, in
 * `tools/registry.ts`; `TEMPO_DOMAINS` picks which ones run. A domain's offline policy is a model, not a tool: it is
 * the domain's offline plug-in (`offline/plugin.ts`), registered by this plug-in's `name` in `offline/registry.ts`.
 */
import type pg from "pg";
import type { ToolDomain } from "./domain.js";

/** What a plug-in is built on. */
export interface DomainBuildOptions {
  /** Postgres, when there is one: the plug-in migrates its own tables on it. Without it, data lives in memory. */
  pool?: pg.Pool;
  /** Give a user with no data the domain's sample data (`TEMPO_SAMPLE_DATA`). */
  sampleData: boolean;
}

/** A plug-in once built: the domain the graph takes, and its repository (for code and tests that seed or read it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default lets plug-ins of any state share one registry
export interface BuiltDomain<TState = any, TRepository = unknown> {
  domain: ToolDomain<TState>;
  repository: TRepository;
}

/** One tool domain, ready to be served. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default lets plug-ins of any state share one registry
export interface DomainPlugin<TState = any, TRepository = unknown> {
  /** The name `TEMPO_DOMAINS` uses, and the domain's own `name`. */
  name: string;
  /** One line for people: what the domain does. */
  summary: string;
  /** Builds the domain on Postgres (its tables migrated) or in memory. */
  build(options: DomainBuildOptions): Promise<BuiltDomain<TState, TRepository>>;
  /** A request that shows the domain at work: `npm run demo` sends it, on a thread of its own, for every served domain. */
  demoRequest?: string;
}
