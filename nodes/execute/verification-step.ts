/**
 * The plan's closing check, made by the code (issue 49 item 1): the domain's verification step ("Verify the
 * schedule"), reached when every write the task proposed applied, is ended from what the backend stores, with no
 * model call — the model would only confirm what the code already knows. Only for a plan that arranges the week
 * (run mode `first_full` or `global_reopt`: the data answers its whole question); a scoped request, or a task with a
 * write declined, failed or left unapplied, or with none, goes to the model as before: there is something to tell that
 * the data alone does not.
 */
import type { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { languageOf, stepStatusInChinese } from "../../contracts/language.js";
import type { PlanStep, TempoState, TempoUpdate } from "../../kernel/state.js";
import { readWriteFacts, taskMessages } from "../../review/write-facts.js";
import { emitStatus } from "../../streaming/events.js";
import { findTool, isVerificationStep } from "../../tools/domain.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { nextPendingIndex } from "../shared/steps.js";
import { endStep } from "./step-ending.js";

/**
 * The update that ends `step` in code when it is the domain's verification and every earlier step is done and every
 * write of the task applied; undefined when the model is to carry it out.
 */
export async function verifyInCode(
  state: TempoState,
  step: PlanStep,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate | undefined> {
  const { domain } = dependencies;
  if (!domain.verification || !isVerificationStep(domain, step.content)) return undefined;
  if (state.runMode !== "first_full" && state.runMode !== "global_reopt") return undefined;
  const index = state.planSteps.indexOf(step);
  if (state.planSteps.slice(0, index).some((earlier) => earlier.status !== "done")) return undefined;
  const writes = taskMessages(state).flatMap((message) =>
    ((message as AIMessage).tool_calls ?? []).filter((call) => findTool(domain, call.name)?.kind === "write"),
  );
  if (writes.length === 0) return undefined;
  const { threadId, userId } = ensureConfiguration(config, dependencies.settings);
  const facts = await readWriteFacts(state, domain, dependencies.executionLog, threadId);
  if (facts.applied.length !== writes.length || facts.approvedNotApplied.length > 0) return undefined;
  const language = languageOf(state.messages);
  const { summary, heading } = domain.verification.check(await domain.load(userId), language);
  emitStatus(config, "execute", state.messages, `Checked in code: ${summary}`, `已按存储的日程核对：${heading}`);
  const done = state.planSteps.map((each) => (each === step ? { ...each, status: "done" as const, summary } : each));
  const last = nextPendingIndex(done) === -1;
  // The answer: what the data shows, then each step as it ended (a deliver call would only restate them) — with its
  // summary in English; in Chinese the step alone (summaries are the tools' and the model's words, often English).
  const zh = language === "zh";
  const answer = [
    heading,
    ...done.map(
      (each) =>
        `- [${zh ? stepStatusInChinese(each.status) : each.status}] ${each.content}${each.summary && !zh ? ` — ${each.summary}` : ""}`,
    ),
  ].join("\n");
  return endStep(
    state,
    { action: last ? "done" : "next_plan", goalCheck: summary, answer: last ? answer : "" },
    [],
    dependencies,
    config,
  );
}
