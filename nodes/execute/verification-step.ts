/**
 * The plan's closing check, made by the code (issue 49 item 1): the domain's verification step ("Verify the
 * schedule"), reached when every write the task proposed applied, is ended from what the backend stores, with no
 * model call — the model would only confirm what the code already knows. Only for a plan that arranges the week
 * (run mode `first_full` or `global_reopt`: the data answers its whole question); a scoped request, or a task with a
 * write declined, failed or left unapplied, or with none, goes to the model as before: there is something to tell that
 * the data alone does not.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { languageOf, stepStatusInChinese } from "../../contracts/language.js";
import { WHY_OPEN } from "../../contracts/why-open.js";
import {
  workspaceMessages,
  type PlanStep,
  type StepEnding,
  type TempoState,
  type TempoUpdate,
} from "../../kernel/state.js";
import { readWriteFacts, taskMessages } from "../../review/write-facts.js";
import { emitStatus } from "../../streaming/events.js";
import { findTool, isRefinementStep, isVerificationStep, verifiedItems, type ToolDomain } from "../../tools/domain.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { stateAsRun } from "../shared/live-state.js";
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
  if (!domain.verification || !isVerificationStep(domain, step.content) || !arrangesWeek(state)) return undefined;
  const index = state.planSteps.indexOf(step);
  if (state.planSteps.slice(0, index).some((earlier) => earlier.status !== "done")) return undefined;
  const writes = writeCalls(domain, taskMessages(state));
  if (writes.length === 0) return undefined;
  const { facts } = await writeFactsOf(state, dependencies, config);
  if (facts.applied.length !== writes.length || facts.approvedNotApplied.length > 0) return undefined;
  const language = languageOf(state.messages);
  const checked = domain.verification.check(await stateAsRun(state, dependencies, config), language);
  const { summary, heading } = checked;
  emitStatus(config, "execute", state.messages, `Checked in code: ${summary}`, `已按存储的日程核对：${heading}`);
  const done = state.planSteps.map((each) => (each === step ? { ...each, status: "done" as const, summary } : each));
  const last = nextPendingIndex(done) === -1;
  // The answer: what the data shows, then each step as it ended (a deliver call would only restate them) — with its
  // summary in the user's language: the summaries are the tools' and the model's words, often English, so another
  // language tells them through the domain (`stepSummary`), and without it leaves them out.
  const zh = language === "zh";
  const told = (summary: string) =>
    language === "en" ? summary : domain.stepSummary ? domain.stepSummary(summary, language) : "";
  const answer = [
    heading,
    ...done.map((each) => {
      // The check's own summary is said from its data where the domain says it (`told`).
      const summary =
        each === step && checked.told !== undefined ? checked.told : each.summary ? told(each.summary) : "";
      return `- [${zh ? stepStatusInChinese(each.status) : each.status}] ${each.content}${summary ? ` — ${summary}` : ""}`;
    }),
  ].join("\n");
  return endStep(
    state,
    { action: last ? "done" : "next_plan", goalCheck: summary, answer: last ? answer : "" },
    [],
    dependencies,
    config,
  );
}

/** True in a plan that arranges the week (`first_full`, `global_reopt`): the data answers its whole question. */
function arrangesWeek(state: Pick<TempoState, "runMode">): boolean {
  return state.runMode === "first_full" || state.runMode === "global_reopt";
}

/** The task's write facts (`readWriteFacts`). */
async function writeFactsOf(state: TempoState, dependencies: NodeDependencies, config: LangGraphRunnableConfig) {
  const { threadId, userId } = ensureConfiguration(config, dependencies.settings);
  return { facts: await readWriteFacts(state, dependencies.domain, dependencies.executionLog, threadId, userId) };
}

/** The write calls the model made in `messages`. */
function writeCalls(domain: ToolDomain, messages: readonly BaseMessage[]) {
  return callsOf(messages).filter((call) => findTool(domain, call.name)?.kind === "write");
}

/** Every tool call `messages` make, in order. */
function callsOf(messages: readonly BaseMessage[]) {
  return messages.flatMap((message) => (message as AIMessage).tool_calls ?? []);
}

/**
 * The update that ends an arranging step in code (issue 49 item 2) — a step of a plan that arranges the week (run mode
 * `first_full` or `global_reopt`), neither the refinement nor the verification, whose writes were all the domain's
 * placing writes (`Verification.placing`: a model that placed by hand) and all applied, when nothing is left open:
 * the step's goal is met, and the model would only read the week back to confirm it. Undefined when the model is to
 * go on: something still open (it may fit elsewhere, or the model says why not), a write of another kind (a move
 * asked for alongside), one declined, failed or not applied yet.
 */
export async function arrangedInCode(
  state: TempoState,
  step: PlanStep,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate | undefined> {
  const { domain } = dependencies;
  const placing = domain.verification?.placing;
  if (!placing || !domain.openItems || state.pending || !arrangesWeek(state)) return undefined;
  if (isRefinementStep(domain, step.content) || isVerificationStep(domain, step.content)) return undefined;
  const writes = writeCalls(domain, workspaceMessages(state));
  if (writes.length === 0 || writes.some((call) => !placing.tools.includes(call.name))) return undefined;
  // Writes a listing the model tells the ending of proposed (a reschedule's card): the model ends the step.
  if (callsOf(workspaceMessages(state)).some((call) => placing.notByHand?.includes(call.name))) return undefined;
  const { facts } = await writeFactsOf(state, dependencies, config);
  const applied = new Set(facts.applied.map((fact) => fact.id));
  if (writes.some((call) => !call.id || !applied.has(call.id))) return undefined;
  const data = await stateAsRun(state, dependencies, config);
  // The verification's own open items (with several domains served, a to-do is not the step's to place).
  const openItems = verifiedItems(domain.verification!, domain.openItems(data));
  const open = openItems.length;
  if (open > 0 && placing.stillFit(data).length > 0) return undefined;
  const language = languageOf(state.messages);
  // In the words the reports read (English, as the check's own summary).
  const checked = domain.verification!.check(data, language);
  const shown = checked.summary;
  // Each open item named with why (the task report reads "id (why)" as its reason).
  const why = openItems.map((item) => `${item.id} (${WHY_OPEN.fitsNowhere})`).join(", ");
  const summary = open === 0 ? shown : `${shown}; ${why}`;
  emitStatus(
    config,
    "execute",
    state.messages,
    `Checked in code: ${summary}`,
    // With nothing open, the check's own first line (missed reviews without a place are told there).
    `已按存储的日程核对：${open === 0 ? checked.heading : `还有 ${open} 个复习任务待安排，目前的空闲时间放不下`}`,
  );
  const last = nextPendingIndex(state.planSteps.filter((each) => each !== step)) === -1;
  return endStep(
    state,
    { action: last ? "done" : "next_plan", goalCheck: summary, answer: "" },
    workspaceMessages(state),
    dependencies,
    config,
  );
}

/**
 * `ending` of the current step by the model, with the domain's check of the data as its summary when the step is the
 * domain's verification: the closing check says what the stored week shows (how many are still pending, how many of
 * them fit), never a model's "every review that fits was placed" over reviews that fit. Other steps: `ending`.
 */
export async function checkedEnding(
  state: TempoState,
  ending: StepEnding,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<StepEnding> {
  const { domain } = dependencies;
  const step = state.planSteps.find((candidate) => candidate.id === state.currentStepId);
  if (!domain.verification || !step || !isVerificationStep(domain, step.content)) return ending;
  const { summary } = domain.verification.check(
    await stateAsRun(state, dependencies, config),
    languageOf(state.messages),
  );
  return { ...ending, goalCheck: summary };
}
