/**
 * The Tempo graph: wiring only. Nodes hold the logic, `routing.ts` the
 * decisions. Dependencies (models, checkpointer, store, tool domain) are
 * injected; `buildTempoGraph` returns the compiled graph. Every node writes
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
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import { END, START, StateGraph } from "@langchain/langgraph";
import { DEFAULT_WORKFLOW_SETTINGS, type WorkflowSettings } from "../config/configuration.js";
import type { StageModels } from "../models/stage-models.js";
import { createAskUserNode } from "../nodes/ask-user.js";
import { createChatNode } from "../nodes/chat.js";
import { createConfirmNode } from "../nodes/confirm/index.js";
import type { NodeDependencies } from "../nodes/shared/dependencies.js";
import { WriteApprovals } from "../nodes/confirm/approvals.js";
import { createDeliverNode } from "../nodes/deliver/index.js";
import { createExecuteNode } from "../nodes/execute/index.js";
import { createMemorizeNode } from "../nodes/memorize.js";
import { createPlanNode } from "../nodes/plan/index.js";
import { createRecallNode } from "../nodes/recall.js";
import type { ToolDomain } from "../tools/domain.js";
import type { ExecutionLog } from "../tools/runner.js";
import { writeChangesOnly } from "./changed-writes.js";
import { branchAfterAskUser, branchAfterChat, branchAfterConfirm, branchAfterExecute, branchAfterPlan, destinationsAfter, NODE } from "./routing.js";
import { TempoCompiledGraph, type CompiledTempo } from "./run-guard.js";
import { LocalThreadLock, type ThreadLock } from "./thread-lock.js";
import { TempoAnnotation, TempoConfigurableAnnotation, TempoInputAnnotation } from "./state.js";

/**
 * Bumped when the graph's behaviour changes in a way that invalidates saved plans. 2: a write card's pending
 * writes are `pending.tools` (one or a batch) and approved writes wait in `answeredWrites`; a thread saved by
 * version 1 (waiting on `pending.tool`, or with an `approvedTool`) is replanned when it resumes, not misread.
 */
export const GRAPH_VERSION = "2";

export interface TempoGraphOptions {
  /** One model for every stage, or per-stage models with a default. */
  models: StageModels;
  /** The tool domain (e.g. `createScheduleDomain(...)`). */
  domain: ToolDomain;
  /** Required for interrupts; `PostgresSaver` in production, `MemorySaver` in unit tests. */
  checkpointer?: BaseCheckpointSaver | boolean;
  /** Memory store (`PostgresStore` / `InMemoryStore`). */
  store?: BaseStore;
  /** Workflow settings; defaults apply to anything left out. */
  settings?: Partial<WorkflowSettings>;
  /** Records every tool call and makes confirmed writes apply once per tool-call id. */
  executionLog?: ExecutionLog;
  /**
   * Holds a thread for the whole run, so two runs never fork it: `createThreadLock(database)` for workers that share
   * a Postgres. Default: an in-process lock (enough for one process, and for the embedded database).
   */
  threadLock?: ThreadLock;
}

/** The uncompiled graph, for callers that compile it themselves (e.g. with their own checkpointer). */
export function createTempoBuilder(options: Omit<TempoGraphOptions, "checkpointer" | "store">) {
  const dependencies: NodeDependencies = {
    models: options.models,
    domain: options.domain,
    settings: { ...DEFAULT_WORKFLOW_SETTINGS, ...options.settings },
    workflowVersion: `graph@${GRAPH_VERSION}/${options.domain.name}@${options.domain.version}`,
    executionLog: options.executionLog,
    approvals: new WriteApprovals(),
  };
  return (
    new StateGraph({ stateSchema: TempoAnnotation, input: TempoInputAnnotation }, TempoConfigurableAnnotation)
      // Memory at invocation start: TaskState, relevant facts and episodes, this thread's conversation memory.
      .addNode(NODE.recall, writeChangesOnly(createRecallNode(dependencies)))
      // Entry: classify the message, or take it as the answer to a pending interaction.
      .addNode(NODE.chat, writeChangesOnly(createChatNode(dependencies)))
      .addNode(NODE.plan, writeChangesOnly(createPlanNode(dependencies)))
      // Human confirmation of a plan or a write tool; the only node besides ask_user that interrupts.
      .addNode(NODE.confirm, writeChangesOnly(createConfirmNode(dependencies)))
      .addNode(NODE.askUser, writeChangesOnly(createAskUserNode(dependencies)))
      .addNode(NODE.execute, writeChangesOnly(createExecuteNode(dependencies)))
      .addNode(NODE.deliver, writeChangesOnly(createDeliverNode(dependencies)))
      // Memory at invocation end, and compression of older turns.
      .addNode(NODE.memorize, writeChangesOnly(createMemorizeNode(dependencies)))
      .addEdge(START, NODE.recall)
      .addEdge(NODE.recall, NODE.chat)
      // Each node's destinations are derived from the phase × event table (graphs/transitions.ts).
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

/**
 * The Tempo graph, typed as the graph LangGraph compiles from `createTempoBuilder` (its stream modes, events and
 * state types); at run time it is a `TempoCompiledGraph` (`run-guard.ts`), that graph's subclass whose methods run
 * Tempo's run checks first. The subclass declares `stream` and `streamEvents` loosely (LangGraph's are generic and
 * overloaded), so this type, not the class, is what callers see.
 */
export type TempoGraph = CompiledTempo;

/** Builds and compiles the Tempo graph with its dependencies. */
export function buildTempoGraph(options: TempoGraphOptions): TempoGraph {
  const compiled = createTempoBuilder(options).compile({ checkpointer: options.checkpointer, store: options.store, name: "Tempo" });
  // Owner, input and resume checks run before LangGraph writes anything to the thread; one run per thread at a time;
  // a client ending the thread (updateState as END, Agent Inbox's "Mark as resolved") also ends its task.
  return TempoCompiledGraph.from(compiled, {
    settings: { ...DEFAULT_WORKFLOW_SETTINGS, ...options.settings },
    domain: options.domain,
    executionLog: options.executionLog,
    threadLock: options.threadLock ?? new LocalThreadLock(),
  });
}
