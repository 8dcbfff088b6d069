/** The execute stage's contract (seed 003 §5.1): one ReAct decision per visit. */
import { z } from "zod";

export const ToolCallRequestSchema = z.object({
  name: z.string().trim().min(1).describe("Name of the tool to call, exactly as listed."),
  arguments: z.record(z.string(), z.unknown()).default({}).describe("Arguments for the tool, matching its schema."),
});

/** Most tool calls one decision may make (a batch card holds at most this many writes). */
export const MAX_CALLS_PER_DECISION = 40;

export const ExecuteDecisionSchema = z
  .object({
    speak: z.string().default("").describe("Short text shown to the user; the question when action=ask_user."),
    action: z
      .enum(["continue", "ask_user", "confirm", "next_plan", "done"])
      .describe(
        "continue: call a read tool (or just think aloud). confirm: propose a write tool for the user to confirm. ask_user: a question must be answered. next_plan: the current step is finished. done: the whole task is finished.",
      ),
    reason: z.string().default("").describe("One sentence on why this action."),
    goal_check: z
      .string()
      .default("")
      .describe("Required for next_plan and done: how the step's done_when (or the goal) is met, citing tool results."),
    tool_call: ToolCallRequestSchema.nullish().describe("The tool to call, for continue and confirm."),
    tool_calls: z
      .array(ToolCallRequestSchema)
      .max(MAX_CALLS_PER_DECISION)
      .optional()
      .describe("Several tool calls at once, run in order (instead of tool_call): the writes among them go to the user as one card, decided one by one."),
  })
  .superRefine((decision, context) => {
    if ((decision.action === "next_plan" || decision.action === "done") && decision.goal_check.trim() === "") {
      context.addIssue({ code: "custom", path: ["goal_check"], message: `goal_check is required when action is ${decision.action}` });
    }
    if (decision.action === "confirm" && !decision.tool_call && !decision.tool_calls?.length) {
      context.addIssue({ code: "custom", path: ["tool_call"], message: "tool_call (or tool_calls) is required when action is confirm" });
    }
    if (decision.action === "ask_user" && decision.speak.trim() === "") {
      context.addIssue({ code: "custom", path: ["speak"], message: "speak must hold the question when action is ask_user" });
    }
  })
  .describe("Decision of the execute stage");

export type ExecuteDecision = z.infer<typeof ExecuteDecisionSchema>;
export type ToolCallRequest = z.infer<typeof ToolCallRequestSchema>;

/** The tool calls of a decision, in order: `tool_call` first, then `tool_calls`. */
export function decisionCalls(decision: ExecuteDecision): ToolCallRequest[] {
  return [...(decision.tool_call ? [decision.tool_call] : []), ...(decision.tool_calls ?? [])];
}
