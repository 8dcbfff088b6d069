/**
 * What a tool message says happened to its call, kept on the message as data (its `status` and `artifact`), so no
 * reader parses it back from the text the model is shown (docs/design.md#tool-results). LangChain's own shape:
 * `status: "error"` for a call that did not do its work (as LangChain v1's human-in-the-loop middleware answers a
 * rejected call), `artifact` for what only the program reads.
 */
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { newId } from "./ids.js";

/**
 * - `done`: a read (or the agent's own memory tool) ran;
 * - `applied`: a write changed the repository (or had, in an earlier run: answered from the execution log);
 * - `declined`: the user rejected the write;
 * - `held`: the call did not run: a write held back with a batch that had invalid calls, a call its task left
 *   unanswered (a card dropped or replanned: kernel/proposal.ts `closeOpenCalls`), or one on a card answered after its
 *   time ("Not run: …", review/outlived-cards.ts);
 * - `failed`: an error (bad arguments, an unknown tool, the tool failed).
 */
export type CallOutcome = "done" | "applied" | "declined" | "held" | "failed";

/** True for a tool message that set its step back (declined, held, failed): the planner reviews the plan after it. */
export function isSetback(message: BaseMessage): boolean {
  const outcome = callOutcomeOf(message);
  return outcome === "declined" || outcome === "held" || outcome === "failed";
}

/** What a tool message of Tempo's carries as its `artifact`. */
export interface ToolResultArtifact {
  outcome: CallOutcome;
  /** The tool's structured result (`ToolRun.data`), when it gave one. */
  data?: unknown;
}

/** The tool message answering call `call` with `result`, its outcome (and the tool's structured result, `data`) recorded. */
export function toolResultMessage(
  call: { id: string; name: string },
  result: string,
  outcome: CallOutcome,
  data?: unknown,
): ToolMessage {
  const artifact: ToolResultArtifact = data === undefined ? { outcome } : { outcome, data };
  return new ToolMessage({
    id: newId("tool"),
    content: result,
    tool_call_id: call.id,
    name: call.name,
    status: outcome === "done" || outcome === "applied" ? "success" : "error",
    artifact,
  });
}

/** The structured result a tool message carries (`ToolRun.data`); undefined when it has none. */
export function toolResultData(message: BaseMessage): unknown {
  if (message.getType() !== "tool") return undefined;
  return ((message as ToolMessage).artifact as Partial<ToolResultArtifact> | undefined)?.data;
}

/**
 * The recorded outcome of a tool message; undefined for any other message. A thread saved before outcomes were
 * recorded (no artifact) is read from its text, the one place that still does: the texts Tempo wrote then.
 */
export function callOutcomeOf(message: BaseMessage): CallOutcome | undefined {
  if (message.getType() !== "tool") return undefined;
  const recorded = ((message as ToolMessage).artifact as Partial<ToolResultArtifact> | undefined)?.outcome;
  if (recorded) return recorded;
  const text = typeof message.content === "string" ? message.content : "";
  if (text.startsWith("Not applied")) return "declined";
  if (text.startsWith("Not proposed") || text.startsWith("Not run")) return "held";
  if (/^Error\b/i.test(text)) return "failed";
  return "done";
}
