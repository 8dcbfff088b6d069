/**
 * The Tempo graph: wiring only. Nodes hold the logic, `kernel/routing.ts` the
 * decisions. Dependencies (models, tool domain, settings, execution log) are
 * injected; the server's `buildTempoGraph` (`server/tempo-graph.ts`) compiles
 * it with a checkpointer and a store behind Tempo's run checks. Every node writes
 * only the fields it changes (`writeChangesOnly`), so a checkpoint stores
 * what changed.
 *
 *   START → recall → chat ─┬─ chat reply → memorize → END
 *                          ├─ pending answer → confirm | ask_user
 *                          └─ task → plan ⇄ plan → confirm (interrupt) → execute ⇄ execute → deliver → memorize → END
 *                                                     └─ dropped → memorize → END
 *
 * Phase changes and the routers come from one table, `transitions.ts`.
 */
import { END, START, StateGraph } from "@langchain/langgraph";
import { endingOpenerStatus } from "../streaming/progress-ui.js";
import { DEFAULT_WORKFLOW_SETTINGS, type WorkflowSettings } from "../config/configuration.js";
import { stagePromptBudgets, type StageModels } from "../models/stage-models.js";
import { createAskUserNode } from "../nodes/ask-user.js";
import { createChatNode } from "../nodes/chat.js";
import { createConfirmNode } from "../nodes/confirm/index.js";
import type { NodeDependencies } from "../nodes/shared/dependencies.js";
import { WriteApprovals } from "../review/approvals.js";
import { WriteBatches } from "../review/write-batches.js";
import { createDeliverNode } from "../nodes/deliver/index.js";
import { createExecuteNode } from "../nodes/execute/index.js";
import { createToolOffers } from "../nodes/execute/tool-offer.js";
import { createMemorizeNode } from "../nodes/memorize.js";
import { createPlanNode } from "../nodes/plan/index.js";
import { createRecallNode } from "../nodes/recall.js";
import type { ToolDomain } from "../tools/domain.js";
import type { ExecutionLog } from "../tools/runner.js";
import { MemoryExecutionLog } from "../tools/memory-execution-log.js";
import { writeChangesOnly } from "../kernel/changed-writes.js";
import {
  branchAfterAskUser,
  branchAfterChat,
  branchAfterConfirm,
  branchAfterExecute,
  branchAfterPlan,
  destinationsAfter,
  NODE,
} from "../kernel/routing.js";
import { TempoAnnotation, TempoConfigurableAnnotation, TempoInputAnnotation } from "../kernel/state.js";

/**
 * Bumped when the graph's behaviour changes in a way that invalidates saved plans. 3: a write card's writes are the
 * tool calls of its proposal's assistant message (`pending.messageId`), and approved ones wait there unanswered. A
 * thread saved by version 2 waiting on a card (`pending.tools`) is replanned when it resumes, not misread; one
 * stopped between a card's answer and its writes (`answeredWrites`) has them applied once (execute, until graph@4).
 */
export const GRAPH_VERSION = "3";

/** What the graph is built from: the agent's dependencies (persistence and run checks are the server's). */
export interface TempoBuilderOptions {
  /** One model for every stage, or per-stage models with a default. */
  models: StageModels;
  /** The tool domain (e.g. `createScheduleDomain(...)`). */
  domain: ToolDomain;
  /** Workflow settings; defaults apply to anything left out. */
  settings?: Partial<WorkflowSettings>;
  /**
   * Records every tool call and makes confirmed writes apply once per tool-call id; the one place "was this write
   * applied?" is answered. Default: a log in this process's memory (`MemoryExecutionLog`).
   */
  executionLog?: ExecutionLog;
  /**
   * The batches of approved writes applying now, by thread (`review/apply.ts`): a cancelled run's batch stops before
   * the thread's next run applies any. Default: this graph's own.
   */
  writeBatches?: WriteBatches;
  /** The clock every stage prompt's "now" is read from (`configurable.now` overrides it per run); default the system clock. */
  now?: () => Date;
}

/** The uncompiled graph, for callers that compile it themselves (e.g. with their own checkpointer). */
export function createTempoBuilder(options: TempoBuilderOptions) {
  const settings = { ...DEFAULT_WORKFLOW_SETTINGS, ...options.settings };
  const dependencies: NodeDependencies = {
    // Every prompt a stage's model is sent is fitted within the stage's budget (models/model-call.ts fitStagePrompt).
    models: { promptBudget: stagePromptBudgets(settings.context.promptBudget), ...options.models },
    domain: options.domain,
    settings,
    workflowVersion: `graph@${GRAPH_VERSION}/${options.domain.name}@${options.domain.version}`,
    executionLog: options.executionLog ?? new MemoryExecutionLog(),
    approvals: new WriteApprovals(),
    writeBatches: options.writeBatches ?? new WriteBatches(),
    ...(options.now ? { now: options.now } : {}),
  };
  // What execute offers per set of active packs, built once: the plan request begins with the same head.
  const offers = createToolOffers(dependencies);
  return (
    new StateGraph({ stateSchema: TempoAnnotation, input: TempoInputAnnotation }, TempoConfigurableAnnotation)
      // Memory at invocation start: TaskState, relevant facts and episodes, this thread's conversation memory.
      .addNode(NODE.recall, writeChangesOnly(endingOpenerStatus(createRecallNode(dependencies))))
      // Entry: classify the message, or take it as the answer to a pending interaction.
      .addNode(NODE.chat, writeChangesOnly(endingOpenerStatus(createChatNode(dependencies))))
      .addNode(NODE.plan, writeChangesOnly(endingOpenerStatus(createPlanNode(dependencies, offers))))
      // Human confirmation of a plan or a write tool; the only node besides ask_user that interrupts.
      .addNode(NODE.confirm, writeChangesOnly(endingOpenerStatus(createConfirmNode(dependencies))))
      .addNode(NODE.askUser, writeChangesOnly(endingOpenerStatus(createAskUserNode(dependencies))))
      .addNode(NODE.execute, writeChangesOnly(endingOpenerStatus(createExecuteNode(dependencies, offers))))
      .addNode(NODE.deliver, writeChangesOnly(endingOpenerStatus(createDeliverNode(dependencies))))
      // Memory at invocation end, and compression of older turns.
      .addNode(NODE.memorize, writeChangesOnly(endingOpenerStatus(createMemorizeNode(dependencies))))
      .addEdge(START, NODE.recall)
      .addEdge(NODE.recall, NODE.chat)
      // Each node's destinations are derived from the phase × event table (kernel/transitions.ts).
      .addConditionalEdges(NODE.chat, branchAfterChat, destinationsAfter(NODE.chat))
      .addConditionalEdges(NODE.plan, branchAfterPlan, destinationsAfter(NODE.plan))
      .addConditionalEdges(NODE.confirm, branchAfterConfirm, destinationsAfter(NODE.confirm))
      .addConditionalEdges(NODE.askUser, branchAfterAskUser, destinationsAfter(NODE.askUser))
      .addConditionalEdges(NODE.execute, branchAfterExecute, destinationsAfter(NODE.execute))
      // The summary ends the task; memorize ends the invocation.
      .addEdge(NODE.deliver, NODE.memorize)
      .addEdge(NODE.memorize, END)
  );
}
