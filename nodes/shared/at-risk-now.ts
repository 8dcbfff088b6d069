/**
 * At risk, told once (issue 47 item 6): what a domain's `atRisk` finds on the state as it is now, against what this
 * thread has told already (`atRiskTold`). Deliver asks after a turn's writes; the clock's writes (`clock-writes.ts`)
 * ask after a roll — the two ways the time left before a deadline shrinks.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Language } from "../../contracts/language.js";
import type { NodeDependencies } from "./dependencies.js";
import { toolMoment } from "./now.js";

/** What is at risk now that was not told in this thread yet (`text` undefined when nothing new), and every id at risk. */
export function atRiskNow(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  data: unknown,
  language: Language,
  told: readonly string[],
): { ids: string[]; text?: string } | undefined {
  const { domain } = dependencies;
  if (!domain.atRisk) return undefined;
  const now = toolMoment(dependencies, config);
  const notice = domain.atRisk(now !== undefined && domain.withClock ? domain.withClock(data, now) : data, language);
  if (!notice) return { ids: [] };
  return notice.ids.some((id) => !told.includes(id)) ? notice : { ids: notice.ids };
}
