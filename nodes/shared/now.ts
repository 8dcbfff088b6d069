/**
 * The "now" every stage prompt carries (one line: `Now: Thu 2024-03-14 14:30 (Asia/Shanghai)`), so that "today",
 * "tomorrow" and "this Thursday" have something to anchor to. The moment is `configurable.now` (an ISO date-time, for
 * tests and replays), else the graph's clock (`NodeDependencies.now`), else the system clock; the time zone is
 * `configurable.time_zone`, else the domain's (`ToolDomain.timeZone`: the schedule window's), else UTC.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { isTimeZone, localClock, nowLine } from "../../contracts/clock.js";
import { ensureConfiguration } from "../../config/configuration.js";
import type { NodeDependencies } from "./dependencies.js";

/** The stage prompts' "now" line for this run. */
export async function stageNow(dependencies: NodeDependencies, config: LangGraphRunnableConfig): Promise<string> {
  const { userId, timeZone } = ensureConfiguration(config, dependencies.settings);
  const moment = runMoment(dependencies, config);
  return nowLine(localClock(moment, timeZone ?? (await domainTimeZone(dependencies, userId)) ?? "UTC"));
}

/** The moment this run takes as now: `configurable.now`, else the graph's clock, else the system clock. */
export function runMoment(dependencies: NodeDependencies, config: LangGraphRunnableConfig): Date {
  return toolMoment(dependencies, config) ?? new Date();
}

/**
 * The clock the tools keep to (`ToolRunContext.now`: nothing is written into a slot that has started):
 * `configurable.now`, else the graph's clock. The served graph and the terminal are built with the system clock
 * (`server/create-tempo.ts`, `cli/chat.ts`); a graph built without one (a test's) gives its tools no past.
 */
export function toolMoment(dependencies: NodeDependencies, config: LangGraphRunnableConfig): Date | undefined {
  return ensureConfiguration(config, dependencies.settings).now ?? dependencies.now?.();
}

/** `{ now }` for a tool run's context (`toolMoment`), or nothing when the graph has no clock. */
export function toolClock(dependencies: NodeDependencies, config: LangGraphRunnableConfig): { now?: Date } {
  const now = toolMoment(dependencies, config);
  return now === undefined ? {} : { now };
}

/** The domain's time zone for the user, when it has one `Intl` knows. */
async function domainTimeZone(dependencies: NodeDependencies, userId: string): Promise<string | undefined> {
  const { domain } = dependencies;
  if (!domain.timeZone) return undefined;
  const zone = await domain.timeZone(userId);
  return zone !== undefined && isTimeZone(zone) ? zone : undefined;
}
