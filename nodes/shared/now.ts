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
  const { userId, timeZone, now } = ensureConfiguration(config, dependencies.settings);
  const moment = now ?? dependencies.now?.() ?? new Date();
  return nowLine(localClock(moment, timeZone ?? (await domainTimeZone(dependencies, userId)) ?? "UTC"));
}

/** The domain's time zone for the user, when it has one `Intl` knows. */
async function domainTimeZone(dependencies: NodeDependencies, userId: string): Promise<string | undefined> {
  const { domain } = dependencies;
  if (!domain.timeZone) return undefined;
  const zone = await domain.timeZone(userId);
  return zone !== undefined && isTimeZone(zone) ? zone : undefined;
}
