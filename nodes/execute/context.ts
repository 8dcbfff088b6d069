/**
 * The execute prompt (docs/design.md#step-context within docs/design.md#prompt-layout):
 * requirement, plan overview with status markers, the current step, the
 * summaries of done steps and the scratchpad; then the current step's own
 * tool rounds. It is kept under the stage's token budget: system prompt,
 * requirement and plan are never cut; the last tool rounds stay whole and
 * earlier ones become a summary; the conversation excerpt shrinks first.
 * Recalled memory (TaskState, relevant episodes, facts) is included within
 * its own share of the budget, and so is the domain's live state; both are
 * left out on the last rungs.
 */
import type { BaseMessage } from "@langchain/core/messages";
import {
  promptMessages,
  roundsSinceUpdate,
  workspaceMessages,
  type LiveState,
  type PlanStep,
  type TempoState,
} from "../../kernel/state.js";
import { compressToolRounds } from "../../memory/compression.js";
import { countMessageTokens, type TokenCounter } from "../../memory/tokens.js";
import { buildReminder, reminderDue } from "../../memory/working-memory.js";
import { EXECUTE_STAGE_PROMPT, EXECUTE_STAGE_PROMPT_NATIVE } from "../../prompts/execute.js";
import { buildStageMessages } from "../../prompts/stage-messages.js";
import type { WorkflowSettings } from "../../config/configuration.js";
import { memoryContext, preferencesContext } from "../../memory/prompt-memory.js";
import { conversationMessages, requestCalendars } from "../shared/messages.js";
import { ATTACHED_FILES_SECTION, renderAttachedCalendars } from "../../contracts/attached-calendar.js";
import { planOverview, stepContext } from "../shared/steps.js";

export interface ExecutePrompt {
  messages: BaseMessage[];
  /** Measured prompt tokens. */
  tokens: number;
  budget: number;
  /** True when the working-memory reminder was added. */
  reminded: boolean;
}

/** One rung of the shrinking ladder. */
interface Shape {
  conversation: number;
  keepRounds: number;
  resultCharacters?: number;
  /** Recalled memory included. */
  memory: boolean;
}

/**
 * Builds the execute prompt for `step`, within the execute budget. `head` is the shared head of the tools offered
 * (nodes/execute/tool-offer.ts): the first system message, as the plan request has it; the stage prompt follows. With
 * `native`, the model calls tools bound to the call: the stage prompt says so and the head only names the packs.
 */
export function buildExecutePrompt(
  state: TempoState,
  step: PlanStep,
  head: string,
  settings: WorkflowSettings,
  counter: TokenCounter,
  native = false,
  liveState: LiveState = { text: "" },
  now?: string,
): ExecutePrompt {
  const { keepToolRounds, promptBudget } = settings.context;
  const budget = promptBudget.execute;
  const workspace = workspaceMessages(state);
  const ladder: Shape[] = [
    { conversation: 8, keepRounds: keepToolRounds, memory: true },
    { conversation: 4, keepRounds: keepToolRounds, memory: true },
    { conversation: 2, keepRounds: Math.max(1, Math.floor(keepToolRounds / 2)), memory: true },
    { conversation: 0, keepRounds: 1, resultCharacters: 2_000, memory: false },
    { conversation: 0, keepRounds: 1, resultCharacters: 400, memory: false },
  ];
  const memory = memoryContext(state.recalled, ["taskState", "episodes", "facts"], budget / 6, counter);
  // Kept in every shape, like the requirement: the request's calendar files, whole (the conversation only names them).
  const calendars = requestCalendars(state);
  const attached = calendars.length > 0 ? { [ATTACHED_FILES_SECTION]: calendars } : {};
  // Kept in every shape: the preferences bind the tools, so the model must know them whatever else is cut.
  const preferences = preferencesContext(state.recalled, budget / 10, counter);
  const build = (shape: Shape, reminder: string) =>
    buildStageMessages({
      head,
      stagePrompt: native ? EXECUTE_STAGE_PROMPT_NATIVE : EXECUTE_STAGE_PROMPT,
      conversation: shape.conversation > 0 ? conversationMessages(state, shape.conversation) : [],
      // The plan is pinned without statuses; the step context changes with the step, so it goes last with the rest
      // that changes: the system prompt, the tools and the pinned plan stay a byte-identical prefix across the task's
      // execute calls (a provider's prompt cache reuses it).
      pinnedBlocks: { plan: planOverview(state.planSteps) },
      // The domain's live state, read fresh (nodes/shared/live-state.ts): no read tool for what it shows. It changes
      // only when a write applies, so it follows the head, as in the plan request: both share it.
      sharedContext: { live_state: shape.memory ? liveState.text : "" },
      context: {
        requirement: state.goal,
        execution_context: stepContext(state.planSteps, step),
        [ATTACHED_FILES_SECTION]: renderAttachedCalendars(calendars),
        done_step_summaries: state.planSteps
          .filter((candidate) => candidate.status === "done" && candidate.summary)
          .map((candidate) => `- ${candidate.content}: ${candidate.summary}`)
          .join("\n"),
        scratchpad: state.workingMemory.content,
        ...(shape.memory ? memory : {}),
        ...preferences,
        working_memory_reminder: reminder,
      },
      // The live state's data beside its text, for a program reading the prompt (an offline policy); never sent.
      // The attached files beside their text, whole, for the same reader.
      contextData: {
        ...attached,
        ...(shape.memory && liveState.data !== undefined ? { live_state: liveState.data } : {}),
      },
      workspace: compressToolRounds(workspace, shape.keepRounds, shape.resultCharacters),
      stageState: `Rounds used: ${state.roundsUsed} of ${state.maxRounds}.`,
      instruction: "Decide the next action for the current step.",
      now,
    });

  let messages: BaseMessage[] = [];
  let tokens = 0;
  let shape = ladder[0]!;
  for (const candidate of ladder) {
    shape = candidate;
    messages = build(candidate, "");
    tokens = countMessageTokens(messages, counter);
    if (tokens <= budget) break;
  }
  const figures = { tokensUsed: tokens, tokensMax: budget, messagesInHistory: promptMessages(state).length };
  const scratchpad = { memory: state.workingMemory, roundsSinceUpdate: roundsSinceUpdate(state) };
  if (!reminderDue(scratchpad, figures, settings.workingMemory)) return { messages, tokens, budget, reminded: false };
  const withReminder = build(shape, buildReminder(scratchpad, figures));
  return { messages: withReminder, tokens: countMessageTokens(withReminder, counter), budget, reminded: true };
}
