/**
 * Runs a domain tool for the graph: validates arguments against the tool's
 * schema, loads the user's domain state, runs the pure tool, and persists a
 * write's change through the domain (idempotent per tool-call id).
 */
import type { DomainTool, ToolDomain } from "./domain.js";
import { findTool } from "./domain.js";

export interface ToolInvocation {
  /** Tool-call id; the idempotency key for writes. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolOutcome {
  ok: boolean;
  content: string;
  /** For writes: whether this call changed the repository (false when already applied or failed). */
  applied: boolean;
}

/** Who and where a tool call runs for. */
export interface ToolRunContext {
  userId: string;
  threadId: string;
  /** The plan step the call belongs to, or null. */
  stepId: string | null;
}

/**
 * The append-only record of tool calls (seed 001's execution_log). The
 * runner writes every call to it; a write whose tool-call id already has a
 * completed entry is not applied again: the recorded outcome is returned.
 */
export interface ExecutionLog {
  /** The recorded outcome of a completed call with this tool-call id, if any. */
  completed(toolCallId: string): Promise<ToolOutcome | undefined>;
  /** Appends one entry. */
  append(entry: ExecutionLogEntry): Promise<void>;
}

export interface ExecutionLogEntry {
  threadId: string;
  userId: string;
  stepId: string | null;
  toolCallId: string;
  tool: string;
  kind: "read" | "write" | "unknown";
  arguments: Record<string, unknown>;
  result: string;
  ok: boolean;
  applied: boolean;
  startedAt: Date;
  finishedAt: Date;
}

export type ArgumentCheck = { ok: true; arguments: Record<string, unknown> } | { ok: false; problem: string };

/** Validates `args` against the tool's schema and returns the parsed arguments or a readable problem. */
export function checkToolArguments(tool: DomainTool<unknown>, args: unknown): ArgumentCheck {
  const result = tool.schema.safeParse(args ?? {});
  if (result.success) return { ok: true, arguments: result.data as Record<string, unknown> };
  const problems = result.error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
    .join("; ");
  return { ok: false, problem: `invalid arguments for ${tool.name}: ${problems}` };
}

/** A tool-call result for a tool the domain does not have. */
export function unknownToolOutcome(domain: ToolDomain, name: string): ToolOutcome {
  const names = domain.tools.map((tool) => tool.name).join(", ");
  return { ok: false, applied: false, content: `Error: unknown tool "${name}". Available tools: ${names}.` };
}

/** Runs one tool call; never throws for bad calls (they become error results), only for repository failures. */
export async function runTool(domain: ToolDomain, context: ToolRunContext, call: ToolInvocation, log?: ExecutionLog): Promise<ToolOutcome> {
  const startedAt = new Date();
  const outcome = await runToolOnce(domain, context.userId, call);
  const tool = findTool(domain, call.name);
  await log?.append({
    threadId: context.threadId,
    userId: context.userId,
    stepId: context.stepId,
    toolCallId: call.id,
    tool: call.name,
    kind: tool?.kind ?? "unknown",
    arguments: call.arguments,
    result: outcome.content,
    ok: outcome.ok,
    applied: outcome.applied,
    startedAt,
    finishedAt: new Date(),
  });
  return outcome;
}

async function runToolOnce(domain: ToolDomain, userId: string, call: ToolInvocation): Promise<ToolOutcome> {
  const tool = findTool(domain, call.name);
  if (!tool) return unknownToolOutcome(domain, call.name);
  const checked = checkToolArguments(tool, call.arguments);
  if (!checked.ok) return { ok: false, applied: false, content: `Error: ${checked.problem}` };
  const before = await domain.load(userId);
  const run = tool.run(before, checked.arguments);
  if (tool.kind === "read" || !run.ok || run.state === undefined) return { ok: run.ok, content: run.content, applied: false };
  const { applied } = await domain.persist(userId, before, run.state, { applyId: call.id });
  if (!applied) return { ok: true, applied: false, content: `${run.content} (this change had already been applied; nothing was applied twice)` };
  return { ok: true, applied: true, content: run.content };
}
