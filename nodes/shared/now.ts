/**
 * The "now" every stage prompt carries (one line: `Now: Thu 2024-03-14 14:30 (Asia/Shanghai)`), so that "today",
 * "tomorrow" and "this Thursday" have something to anchor to. The moment is `configurable.now` (an ISO date-time, for
 * tests and replays), else the graph's clock (`NodeDependencies.now`), else the system clock; the time zone is the
 * domain's (`ToolDomain.timeZone`: the schedule window's), else `configurable.time_zone`, else UTC. The window's zone
 * wins over the run's: its dates, slot times and clock rule are in it, and the offline policy reads the line in it
 * (`offline/schedule/week-facts.ts`), so "today" and "tomorrow" are the window's days whatever zone the run names.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { isTimeZone, localClock, nowLine } from "../../contracts/clock.js";
import { ensureConfiguration } from "../../config/configuration.js";
import type { NodeDependencies } from "./dependencies.js";

/** The stage prompts' "now" line for this run. */
export async function stageNow(dependencies: NodeDependencies, config: LangGraphRunnableConfig): Promise<string> {
  const { userId, timeZone } = ensureConfiguration(config, dependencies.settings);
  const moment = runMoment(dependencies, config);
  return nowLine(localClock(moment, (await domainTimeZone(dependencies, userId)) ?? timeZone ?? "UTC"));
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
