/**
 * The writes the clock makes due (`ToolDomain.clock`, issue 47): run at the start of an invocation, before the
 * request is read, so that the first request after the schedule's window has passed sees the week of now — and its
 * answer says what moved to history and what became missed. Each write goes through the runner (logged, persisted once,
 * on the state as it is stored now); none waits for a card, since the clock is nobody's decision. A deadline the roll
 * put at risk (a review missed, the days before the exam gone) is told with it, once, as deliver tells a write's.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import type { Language } from "../../contracts/language.js";
import { TempoError } from "../../errors/index.js";
import { runTool } from "../../tools/runner.js";
import type { NodeDependencies } from "./dependencies.js";
import { newToolCallId } from "./messages.js";
import { atRiskNow } from "./at-risk-now.js";
import { toolMoment } from "./now.js";

/** Most clock writes one invocation makes (a year's gap in a week's window is 53 rolls). */
export const MAX_CLOCK_WRITES = 60;

/** What the clock's writes did: the words for the answer, and the items at risk after them (for `atRiskTold`). */
export interface ClockCatchUp {
  text: string;
  /** Every item at risk after the writes, when the domain checks for risk; told in `text` when one was not yet. */
  atRisk?: string[];
}

/**
 * Runs the writes the clock makes due for the run's user at the run's moment (`toolMoment`), and returns what they
 * did in `language`, with what they put at risk that `told` (the thread's `atRiskTold`) does not hold yet — undefined
 * when none was due, the domain has no clock, or the run has no moment.
 */
export async function catchUpWithClock(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  language: Language,
  told: readonly string[] = [],
): Promise<ClockCatchUp | undefined> {
  const { domain } = dependencies;
  const now = toolMoment(dependencies, config);
  if (!domain.clock || now === undefined) return undefined;
  const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
  const results: unknown[] = [];
  for (let written = 0; written < MAX_CLOCK_WRITES; written += 1) {
    const loaded = await domain.load(userId);
    // A clock behind what the data already records (the machine's clock went back) moves nothing: it is said.
    if (written === 0 && domain.clock.behind) {
      const behind = domain.clock.behind(loaded, now, language);
      if (behind !== undefined) return { text: behind };
    }
    const call = domain.clock.due(loaded, now);
    if (call === undefined) break;
    let outcome: Awaited<ReturnType<typeof runTool>>;
    try {
      outcome = await runTool(
        domain,
        { userId, threadId, stepId: null, now },
        { id: newToolCallId(), ...call },
        dependencies.executionLog,
      );
    } catch (error) {
      // Nothing stored to move on (a user without a saved week), or another request moved it first: the request is
      // read on the state as it is, and a later one rolls what is due.
      if (error instanceof TempoError && (error.code === "SCHEDULE_CONFLICT" || error.code === "DOMAIN_CONFLICT"))
        break;
      throw error;
    }
    // Refused (another request moved the window first, or the tool would not): that request tells its own rolls.
    if (!outcome.ok || !outcome.applied) break;
    results.push(outcome.data);
  }
  if (results.length === 0) return undefined;
  const after = await domain.load(userId);
  const text = domain.clock.told(after, results, language);
  // The at-risk check (an exact search) runs only here, after the clock wrote — at most once a roll, so once a week —
  // since only a roll changes what a deadline has left without a write of the user's: the days before it go, and
  // reviews placed on them become missed, to place again. A request in the same week rolls nothing and checks nothing.
  const risk = atRiskNow(dependencies, config, after, language, told);
  if (risk === undefined) return { text };
  return { text: risk.text ? `${text}\n\n${risk.text}` : text, atRisk: risk.ids };
}
