/**
 * Running one tool call in execute: through the execution log with its call and result on the stream, and the step's
 * setbacks after its result (the `maxToolErrorsPerStep`-th failure in a row fails the step; `runCalls` counts a
 * reply's failures once).
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { TempoState, TempoUpdate } from "../../kernel/state.js";
import { emit } from "../../streaming/events.js";
import { runTool, type RunToolOptions, type ToolRunContext } from "../../tools/runner.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import type { RoundCall } from "../shared/messages.js";
import { failStep } from "../../kernel/transitions.js";
import { sayReport } from "../../contracts/report-words.js";
import type { WorkflowSettings } from "../../config/configuration.js";

/**
 * The step's setbacks after a tool result: a success clears the error count; the
 * `maxToolErrorsPerStep`-th failure in a row fails the step (and so finishes the task).
 */
export function afterToolResult(
  state: TempoState,
  ok: boolean,
  tool: string,
  content: string,
  settings: WorkflowSettings,
): TempoUpdate {
  const toolErrors = ok ? 0 : state.stepSetbacks.toolErrors + 1;
  if (toolErrors < settings.maxToolErrorsPerStep) return { stepSetbacks: { ...state.stepSetbacks, toolErrors } };
  const last = content.replace(/\s+/g, " ").slice(0, 160);
  return failStep(state, sayReport("en", "toolErrorsInARow", { count: toolErrors, tool, last }));
}

/** Runs a tool call through the execution log, with its call and result on the stream. */
export async function runReported(
  call: RoundCall,
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  options: RunToolOptions = {},
) {
  emit(config, { kind: "tool_call", node: "execute", id: call.id, name: call.name, arguments: call.arguments });
  const outcome = await runTool(dependencies.domain, context, call, dependencies.executionLog, options);
  emit(config, {
    kind: "tool_result",
    node: "execute",
    id: call.id,
    name: call.name,
    ok: outcome.ok,
    content: outcome.content,
    ...(outcome.data === undefined ? {} : { data: outcome.data }),
  });
  return outcome;
}
