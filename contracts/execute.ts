/**
 * The execute stage's contract (docs/design.md#stage-contracts): one ReAct decision per visit — as a JSON object in text
 * (`ExecuteDecisionSchema`), or, for models that call tools natively, as tool calls: the domain's and memory
 * tools, and the control actions (`CONTROL_TOOLS`) read back into the same decision.
 */
import { z } from "zod";
import { fromJsonText } from "./json-extraction.js";
import { parseContract, type ContractParse } from "./parse-contract.js";
import { unstorableTextIn } from "./storable-text.js";

export const ToolCallRequestSchema = z.object({
  name: z.string().trim().min(1).describe("Name of the tool to call, exactly as listed."),
  arguments: z
    .preprocess(argumentsFromText, z.record(z.string(), z.unknown()))
    .default({})
    .describe("Arguments for the tool, matching its schema."),
});

/**
 * Arguments given as JSON text (OpenAI's own function-call shape, and the strict structured-output schema, where an open
 * record must be a string: contracts/strict-schema.ts) read as the object they hold; "" as no arguments.
 */
function argumentsFromText(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? {} : fromJsonText(value);
}

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
    answer: z
      .string()
      .default("")
      .describe(
        "With done (or then=done): the final answer to the user, as it is; leave empty to have the summary written after.",
      ),
    not_carried_out: z
      .string()
      .default("")
      .describe(
        "With next_plan or done: when the step ends without doing what it asks (nothing matches, nothing fits), why, in one sentence; empty when it was done.",
      ),
    then: z
      .enum(["next_plan", "done"])
      .nullish()
      .describe(
        "With confirm: how the step ends once the user approves every write unchanged and each applies — next_plan or done, goal_check saying why. A rejection, an edit or a failed write brings the decision back to you instead.",
      ),
    tool_call: ToolCallRequestSchema.nullish().describe("The tool to call, for continue and confirm."),
    tool_calls: z
      .array(ToolCallRequestSchema)
      .max(MAX_CALLS_PER_DECISION)
      .optional()
      .describe(
        "Several tool calls at once, run in order (instead of tool_call): the writes among them go to the user as one card, decided one by one.",
      ),
  })
  .superRefine((decision, context) => {
    if ((decision.action === "next_plan" || decision.action === "done") && decision.goal_check.trim() === "") {
      context.addIssue({
        code: "custom",
        path: ["goal_check"],
        message: `goal_check is required when action is ${decision.action}`,
      });
    }
    if (decision.then && decision.action !== "confirm") {
      context.addIssue({
        code: "custom",
        path: ["then"],
        message: "then is only for action confirm (the step's end once its writes apply)",
      });
    }
    if (decision.then && decision.goal_check.trim() === "") {
      context.addIssue({
        code: "custom",
        path: ["goal_check"],
        message: `goal_check is required with then=${decision.then}`,
      });
    }
    if (decision.action === "confirm" && !decision.tool_call && !decision.tool_calls?.length) {
      context.addIssue({
        code: "custom",
        path: ["tool_call"],
        message: "tool_call (or tool_calls) is required when action is confirm",
      });
    }
    if (decision.action === "ask_user" && decision.speak.trim() === "") {
      context.addIssue({
        code: "custom",
        path: ["speak"],
        message: "speak must hold the question when action is ask_user",
      });
    }
    const unstorable = unstorableDecisionText(decision);
    if (unstorable) context.addIssue({ code: "custom", path: [unstorable.field], message: unstorable.message });
  })
  .describe("Decision of the execute stage");

export type ExecuteDecision = z.infer<typeof ExecuteDecisionSchema>;
export type ToolCallRequest = z.infer<typeof ToolCallRequestSchema>;

/**
 * The decision's own text (speak, reason, goal_check, answer, not_carried_out) holding text Postgres cannot store — a NUL, an unpaired
 * surrogate — which would fail where the step's summary and the answer are stored: an output to correct. Its tool
 * calls' arguments are not looked at here: each tool's argument check refuses them as that call's error.
 */
function unstorableDecisionText(
  decision: Pick<ExecuteDecision, "speak" | "reason" | "goal_check" | "answer" | "not_carried_out">,
): { field: string; message: string } | undefined {
  const found = unstorableTextIn({
    speak: decision.speak,
    reason: decision.reason,
    goal_check: decision.goal_check,
    answer: decision.answer,
    not_carried_out: decision.not_carried_out,
  });
  return found && { field: found.where, message: `holds ${found.problem}, which cannot be stored; write it without` };
}

/** The tool calls of a decision, in order: `tool_call` first, then `tool_calls`. */
export function decisionCalls(decision: ExecuteDecision): ToolCallRequest[] {
  return [...(decision.tool_call ? [decision.tool_call] : []), ...(decision.tool_calls ?? [])];
}

// ── Native tool calling ─────────────────────────────────────────────────

const GoalCheckSchema = z.string().trim().min(1).describe("How it is met, citing tool results.");
const NotCarriedOutSchema = z.string().optional().describe("Why, if the step ends undone.");

/**
 * The execute stage's control actions as tools, for models that call tools natively: the decision's
 * non-tool actions, with the same rules as the JSON contract (goal_check required to finish, a question to ask).
 */
export const CONTROL_TOOLS = [
  {
    name: "ask_user",
    description: "Asks the user, only when you cannot go on otherwise.",
    schema: z.object({ question: z.string().trim().min(1).describe("The question.") }),
  },
  {
    name: "next_plan",
    description: "The step's done_when is met. Beside writes: once they are approved unchanged and applied.",
    schema: z.object({ goal_check: GoalCheckSchema, not_carried_out: NotCarriedOutSchema }),
  },
  {
    name: "done",
    description: "The whole goal is met. Beside writes: once they are approved unchanged and applied.",
    schema: z.object({
      goal_check: GoalCheckSchema,
      not_carried_out: NotCarriedOutSchema,
      answer: z.string().optional().describe("The final answer; omit to have it written after."),
    }),
  },
] as const;

/** The control action tool of that name (one of CONTROL_TOOLS). */
function controlTool(name: string): (typeof CONTROL_TOOLS)[number] {
  return CONTROL_TOOLS.find((candidate) => candidate.name === name)!;
}

/** True for the name of a control action tool. */
export function isControlTool(name: string): boolean {
  return CONTROL_TOOLS.some((control) => control.name === name);
}

/**
 * Reads a natively tool-calling model's reply as an execute decision. Tool calls of the domain or of memory
 * become one decision calling them in order (writes go to a card in the execute node); a control call alone
 * asks, finishes the step or the task, its arguments checked against its schema. A reply with no call is
 * read as the JSON contract (the named fallback: a model that answered in text); anything else is corrected.
 */
export function decisionFromToolCalls(
  text: string,
  calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>,
): ContractParse<ExecuteDecision> {
  const read = readToolCalls(text, calls);
  const unstorable = read.ok ? unstorableDecisionText(read.value) : undefined;
  return unstorable ? { ok: false, problem: `the decision's ${unstorable.field} ${unstorable.message}` } : read;
}

/** `decisionFromToolCalls` before the check of the decision's own text. */
function readToolCalls(
  text: string,
  calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>,
): ContractParse<ExecuteDecision> {
  const speak = text.trim();
  const toolCalls = calls
    .filter((call) => !isControlTool(call.name))
    .map((call) => ({ name: call.name, arguments: call.args ?? {} }));
  const control = calls.find((call) => isControlTool(call.name));
  if (toolCalls.length > 0) {
    // next_plan / done beside the calls: the step's end once the writes apply (writes among the calls go to a card).
    const ending =
      control && control.name !== "ask_user"
        ? controlTool(control.name).schema.safeParse(control.args ?? {})
        : undefined;
    const fields = ending?.success ? (ending.data as { goal_check: string; answer?: string }) : undefined;
    const then = fields
      ? {
          then: control!.name as "next_plan" | "done",
          goal_check: fields.goal_check,
          answer: fields.answer?.trim() ?? "",
        }
      : {};
    return {
      ok: true,
      value: {
        speak,
        action: "continue",
        reason: "",
        goal_check: "",
        answer: "",
        not_carried_out: "",
        ...then,
        tool_calls: toolCalls,
      },
    };
  }
  if (!control) {
    const parsed = parseContract(ExecuteDecisionSchema, text);
    if (parsed.ok) return parsed;
    return {
      ok: false,
      problem: `${parsed.problem}, and no tool was called (call a tool, or next_plan / done / ask_user)`,
    };
  }
  const definition = controlTool(control.name);
  const checked = definition.schema.safeParse(control.args ?? {});
  if (!checked.success) {
    const issues = checked.error.issues
      .map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`)
      .join("; ");
    return { ok: false, problem: `the ${control.name} call's arguments did not fit its schema (${issues})` };
  }
  const args = checked.data as { question?: string; goal_check?: string };
  // What the user is told is the reply's text; a `speak` argument (not in the schema) is read when a model sends one.
  const spoken = (control.args as { speak?: unknown } | undefined)?.speak;
  if (control.name === "ask_user")
    return {
      ok: true,
      value: {
        speak: args.question!,
        action: "ask_user",
        reason: speak,
        goal_check: "",
        answer: "",
        not_carried_out: "",
      },
    };
  return {
    ok: true,
    value: {
      speak: (typeof spoken === "string" ? spoken : speak).trim(),
      action: control.name as "next_plan" | "done",
      reason: "",
      goal_check: args.goal_check!,
      answer: (args as { answer?: string }).answer?.trim() ?? "",
      not_carried_out: (args as { not_carried_out?: string }).not_carried_out?.trim() ?? "",
    },
  };
}
