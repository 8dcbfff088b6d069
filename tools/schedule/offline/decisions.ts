/** Builders of the execute decisions the offline policy answers with (the execute stage's JSON contract). */

/** An execute decision, as the contract reads it. */
export type Decision = Record<string, unknown>;

/** How a step ends: `next_plan` with steps left, `done` on the last one. */
export type Finish = "next_plan" | "done";

/** A read tool call. */
export function read(speak: string, name: string, args: Record<string, unknown>, reason: string): Decision {
  return { speak, action: "continue", reason, tool_call: { name, arguments: args } };
}

/** A write for the user to confirm. */
export function propose(speak: string, name: string, args: Record<string, unknown>, reason: string): Decision {
  return { speak, action: "confirm", reason, tool_call: { name, arguments: args } };
}

/** Several writes for the user to confirm on one batch card, decided one by one. */
export function proposeAll(speak: string, calls: Array<{ name: string; arguments: Record<string, unknown> }>, reason: string): Decision {
  return { speak, action: "confirm", reason, tool_calls: calls };
}

/** The end of the step, with what was found or done as its summary. */
export function finish(action: Finish, speak: string, goalCheck: string, reason = "the step's condition is met"): Decision {
  return { speak, action, reason, goal_check: goalCheck };
}
