/**
 * A call's bad arguments as data: each problem by its field, what is wrong (too big, too small, missing, not usable),
 * the bound it broke and the value given. The model reads the precise check in the tool message's text
 * (`checkToolArguments`); a person is told from this data, in plain words of their own language, by the domain's
 * words for its fields (the schedule's: `tools/schedule/argument-words.ts`) — never the schema's raw message.
 */
import type { z } from "zod";

/** One problem of a call's arguments. */
export interface ArgumentIssue {
  /** The field's path ("duration", "moves.0.day"); "" for the arguments as a whole. */
  field: string;
  problem: "too_big" | "too_small" | "missing" | "not_usable";
  /** The bound a number broke (at most, at least). */
  limit?: number;
  /** The value given, as JSON, cut at 40 characters. */
  given?: string;
}

/** A failed call's data: the tool and its arguments' problems. */
export interface InvalidArguments {
  invalidArguments: { tool: string; issues: ArgumentIssue[] };
}

/** `issue` of a zod check as data, `given` the value given as JSON ("" when none was). */
export function argumentIssueOf(issue: z.core.$ZodIssue, given: string): ArgumentIssue {
  const field = issue.path.map(String).join(".");
  const bound = (value: unknown) =>
    typeof value === "number" || typeof value === "bigint" ? Number(value) : undefined;
  const base = { field, ...(given ? { given } : {}) };
  if (issue.code === "too_big" && bound(issue.maximum) !== undefined)
    return { ...base, problem: "too_big", limit: bound(issue.maximum)! };
  if (issue.code === "too_small" && bound(issue.minimum) !== undefined)
    return { ...base, problem: "too_small", limit: bound(issue.minimum)! };
  return { ...base, problem: given === "" && issue.code === "invalid_type" ? "missing" : "not_usable" };
}

/** True for a failed call's data that holds its arguments' problems. */
export function isInvalidArguments(data: unknown): data is InvalidArguments {
  const inner = (data as { invalidArguments?: { tool?: unknown; issues?: unknown } } | null)?.invalidArguments;
  return typeof inner?.tool === "string" && Array.isArray(inner.issues);
}
