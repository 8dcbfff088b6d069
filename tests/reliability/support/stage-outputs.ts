/**
 * Generated model outputs for the plan and execute stages, each tagged with
 * whether it satisfies the stage's JSON contract. The tag comes from how the
 * output was built (a valid decision, rendered plainly or wrapped in prose;
 * or a decision broken in one known way), not from the project's parser, so
 * the correction-loop oracle is independent of the code under test.
 *
 * Contract-valid outputs still include the hostile ones: tool calls to
 * unknown tools or with invalid arguments, write tools sent with action
 * "continue", 100 KB texts.
 */
import fc from "fast-check";

/** One scripted model output. */
export interface StageOutput {
  /** The text the model returns. */
  text: string;
  /** True when the output satisfies the stage contract (the graph must not ask for a correction). */
  valid: boolean;
  /** What kind of output this is, for failure messages and coverage counts. */
  kind: string;
}

/** Size of the "huge" outputs. */
export const HUGE_CHARACTERS = 100 * 1024;

/** Prose models put around their JSON; no braces, so it never holds a JSON object of its own. */
const PROSE_BEFORE = [
  "Sure! Here is my decision:",
  "Okay.",
  "思考完毕，输出如下：",
  "Let me think about this step by step. The answer is",
];
const PROSE_AFTER = ["Let me know if that works.", "", "Hope this helps!", "（以上）"];

/** Short user-visible text without braces (braces would add JSON candidates of their own). */
const text = fc.string({ minLength: 1, maxLength: 40 }).map((value) => value.replace(/[{}]/g, "·").trim() || "ok");

/** A huge text without braces: 100 KB of mixed words and characters. */
const hugeText = fc
  .constantFrom("lorem ipsum ", "长文本", "x", '"quoted" ')
  .map((unit) => unit.repeat(Math.ceil(HUGE_CHARACTERS / unit.length)).slice(0, HUGE_CHARACTERS));

type Decision = Record<string, unknown>;

/** Renders a valid decision the ways models do: bare, fenced, inside prose, with unknown extra fields. */
function renderValid(decision: fc.Arbitrary<Decision>, kind: string): fc.Arbitrary<StageOutput> {
  return fc
    .tuple(
      decision,
      fc.constantFrom("bare", "fenced", "prose", "extra_fields"),
      fc.constantFrom(...PROSE_BEFORE),
      fc.constantFrom(...PROSE_AFTER),
    )
    .map(([value, style, before, after]) => {
      const json = JSON.stringify(
        style === "extra_fields" ? { ...value, confidence: 0.9, thoughts: ["a", "b"] } : value,
      );
      const rendered =
        style === "fenced" ? "```json\n" + json + "\n```" : style === "prose" ? `${before}\n${json}\n${after}` : json;
      return { text: rendered, valid: true, kind: `${kind}/${style}` };
    });
}

/** Cuts a valid decision's JSON short, anywhere before its last character. */
function truncated(decision: fc.Arbitrary<Decision>, kind: string): fc.Arbitrary<StageOutput> {
  return fc.tuple(decision, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })).map(([value, cut]) => {
    const json = JSON.stringify(value);
    return { text: json.slice(0, Math.floor(cut * json.length)), valid: false, kind: `${kind}/truncated` };
  });
}

/** Outputs that are invalid for any stage. */
const garbage: fc.Arbitrary<StageOutput> = fc.oneof(
  fc.constantFrom("", "   ", "\n\n").map((value) => ({ text: value, valid: false, kind: "empty" })),
  fc
    .constantFrom("[NEXT_PLAN]", "I will now add the note for you.", "DONE", "null", "42", "true", '"plan_done"')
    .map((value) => ({ text: value, valid: false, kind: "no_json" })),
  fc
    .constantFrom('[{"action": "done"}]', "[]", '["continue"]')
    .map((value) => ({ text: value, valid: false, kind: "json_array" })),
  fc.constant({
    text: '{"intent": "task", "reply": "", "reason": "wrong stage"}',
    valid: false,
    kind: "other_stage_contract",
  }),
  hugeText.map((value) => ({ text: value, valid: false, kind: "huge_garbage" })),
);

// ── plan ──────────────────────────────────────────────────────────────────

const planStep = fc.record({ content: text, done_when: text });
const planDone = fc.record({
  speak: text,
  action: fc.constant("plan_done"),
  reason: text,
  complexity: fc.constantFrom("simple", "moderate", "complex"),
  plan_steps: fc.array(planStep, { minLength: 1, maxLength: 3 }),
});
const planContinue = fc.record({ speak: text, action: fc.constant("continue"), reason: text });
const planAsk = fc.record({ speak: text, action: fc.constant("ask_user"), reason: text });
const planValidDecision = fc.oneof(
  { weight: 5, arbitrary: planDone },
  { weight: 2, arbitrary: planContinue },
  { weight: 1, arbitrary: planAsk },
);

/** A plan decision broken in one known way. */
const planBroken: fc.Arbitrary<StageOutput> = fc.oneof(
  fc
    .tuple(
      planDone,
      fc.constantFrom<[string, unknown]>(
        ["action", 42],
        ["action", null],
        ["speak", 7],
        ["speak", null],
        ["plan_steps", "do it"],
        ["plan_steps", [{ content: "only content" }]],
        ["plan_steps", [{ content: "  ", done_when: "x" }]],
        ["complexity", "huge"],
        ["need_thinking", "yes"],
        ["reason", ["a"]],
      ),
    )
    .map(([value, [field, wrong]]) => ({
      text: JSON.stringify({ ...value, [field]: wrong }),
      valid: false,
      kind: `plan/wrong_type:${field}`,
    })),
  fc
    .tuple(planDone, fc.constantFrom("execute", "PLAN_DONE", "confirm", "next_plan", "done", ""))
    .map(([value, action]) => ({
      text: JSON.stringify({ ...value, action }),
      valid: false,
      kind: "plan/unknown_action",
    })),
  planDone.map((value) => ({
    text: JSON.stringify({ ...value, plan_steps: [] }),
    valid: false,
    kind: "plan/plan_done_without_steps",
  })),
  planAsk.map((value) => ({
    text: JSON.stringify({ ...value, speak: "" }),
    valid: false,
    kind: "plan/ask_user_without_question",
  })),
);

/** Any plan-stage output, valid or not. */
export const planOutput: fc.Arbitrary<StageOutput> = fc.oneof(
  { weight: 10, arbitrary: renderValid(planValidDecision, "plan") },
  {
    weight: 1,
    arbitrary: fc.tuple(planDone, hugeText).map(([value, huge]) => ({
      text: JSON.stringify({ ...value, speak: huge }),
      valid: true,
      kind: "plan/huge_valid",
    })),
  },
  { weight: 3, arbitrary: truncated(planValidDecision, "plan") },
  { weight: 6, arbitrary: planBroken },
  { weight: 3, arbitrary: garbage },
);

// ── execute ───────────────────────────────────────────────────────────────

const act = (action: fc.Arbitrary<string>, toolCall: fc.Arbitrary<unknown>) =>
  fc.record({ speak: text, action, reason: text, tool_call: toolCall });
const readCall = fc.constant({ name: "list_notes", arguments: {} });
const addCall = text.map((value) => ({ name: "add_note", arguments: { text: value } }));
const removeCall = fc.integer({ min: 1, max: 3 }).map((number) => ({ name: "remove_note", arguments: { number } }));
const writeCall = fc.oneof(addCall, removeCall);
const badWriteCall = fc.constantFrom(
  { name: "add_note", arguments: { text: 5 } },
  { name: "add_note", arguments: {} },
  { name: "add_note", arguments: { text: "" } },
  { name: "remove_note", arguments: { number: "one" } },
  { name: "remove_note", arguments: { number: -1 } },
);
const unknownCall = fc
  .constantFrom("delete_everything", "add_notes", "ADD_NOTE", "sql", "list notes")
  .map((name) => ({ name, arguments: { text: "x" } }));
const memoryCall = fc.oneof(
  text.map((content) => ({ name: "update_working_memory", arguments: { content } })),
  fc.constant({ name: "update_working_memory", arguments: { content: "" } }),
);
const finish = (action: "next_plan" | "done") =>
  fc.record({
    speak: fc.constantFrom("", "Step finished."),
    action: fc.constant(action),
    reason: text,
    goal_check: text,
  });

/** Contract-valid execute decisions, the hostile ones included, each with its kind. */
const executeValidDecision: fc.Arbitrary<[Decision, string]> = fc.oneof(
  {
    weight: 3,
    arbitrary: act(fc.constantFrom("continue", "confirm"), readCall).map(
      (value) => [value, "execute/read_tool"] as [Decision, string],
    ),
  },
  {
    weight: 1,
    arbitrary: act(fc.constant("continue"), fc.constantFrom(null, undefined)).map(
      (value) => [value, "execute/think"] as [Decision, string],
    ),
  },
  {
    weight: 3,
    arbitrary: act(fc.constant("confirm"), writeCall).map(
      (value) => [value, "execute/write_confirm"] as [Decision, string],
    ),
  },
  {
    weight: 3,
    arbitrary: act(fc.constant("continue"), writeCall).map(
      (value) => [value, "execute/write_with_continue"] as [Decision, string],
    ),
  },
  {
    weight: 2,
    arbitrary: act(fc.constantFrom("continue", "confirm"), badWriteCall).map(
      (value) => [value, "execute/write_invalid_arguments"] as [Decision, string],
    ),
  },
  {
    weight: 2,
    arbitrary: act(fc.constantFrom("continue", "confirm"), unknownCall).map(
      (value) => [value, "execute/unknown_tool"] as [Decision, string],
    ),
  },
  {
    weight: 1,
    arbitrary: act(fc.constant("continue"), memoryCall).map(
      (value) => [value, "execute/memory_tool"] as [Decision, string],
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ speak: text, action: fc.constant("ask_user"), reason: text })
      .map((value) => [value, "execute/ask_user"] as [Decision, string]),
  },
  { weight: 2, arbitrary: finish("next_plan").map((value) => [value, "execute/next_plan"] as [Decision, string]) },
  { weight: 2, arbitrary: finish("done").map((value) => [value, "execute/done"] as [Decision, string]) },
);

/** An execute decision broken in one known way. */
const executeBroken: fc.Arbitrary<StageOutput> = fc.oneof(
  fc
    .tuple(fc.constantFrom("next_plan", "done"), fc.constantFrom<unknown>(undefined, "", "   "))
    .map(([action, goalCheck]) => ({
      text: JSON.stringify({
        speak: "Finished.",
        action,
        reason: "looks done",
        ...(goalCheck === undefined ? {} : { goal_check: goalCheck }),
      }),
      valid: false,
      kind: `execute/${action}_without_goal_check`,
    })),
  fc.constant({
    text: JSON.stringify({ speak: "Adding it.", action: "confirm", reason: "asked" }),
    valid: false,
    kind: "execute/confirm_without_tool_call",
  }),
  fc.constant({
    text: JSON.stringify({ speak: "", action: "ask_user", reason: "unsure" }),
    valid: false,
    kind: "execute/ask_user_without_question",
  }),
  fc.constantFrom("plan_done", "finish", "call_tool", "CONTINUE", "", "stop").map((action) => ({
    text: JSON.stringify({ speak: "x", action, goal_check: "g", tool_call: { name: "list_notes", arguments: {} } }),
    valid: false,
    kind: "execute/unknown_action",
  })),
  fc
    .constantFrom<[string, unknown]>(
      ["action", 1],
      ["speak", 3],
      ["speak", null],
      ["goal_check", null],
      ["reason", { why: "x" }],
      ["tool_call", "add_note"],
      ["tool_call", ["add_note"]],
      ["tool_call", { name: "", arguments: {} }],
      ["tool_call", { name: 5, arguments: {} }],
      ["tool_call", { name: "add_note", arguments: "text=x" }],
      ["tool_call", { name: "add_note", arguments: ["x"] }],
      ["tool_call", { arguments: { text: "x" } }],
    )
    .map(([field, wrong]) => ({
      text: JSON.stringify({
        speak: "Adding.",
        action: "confirm",
        reason: "asked",
        goal_check: "",
        tool_call: { name: "add_note", arguments: { text: "x" } },
        [field]: wrong,
      }),
      valid: false,
      kind: `execute/wrong_type:${field}`,
    })),
);

/** Any execute-stage output, valid or not. */
export const executeOutput: fc.Arbitrary<StageOutput> = fc.oneof(
  { weight: 12, arbitrary: executeValidDecision.chain(([value, kind]) => renderValid(fc.constant(value), kind)) },
  {
    weight: 1,
    arbitrary: fc.tuple(act(fc.constant("continue"), writeCall), hugeText).map(([value, huge]) => ({
      text: JSON.stringify({ ...value, speak: huge }),
      valid: true,
      kind: "execute/huge_valid_write_with_continue",
    })),
  },
  {
    weight: 3,
    arbitrary: truncated(
      executeValidDecision.map(([value]) => value),
      "execute",
    ),
  },
  { weight: 6, arbitrary: executeBroken },
  { weight: 3, arbitrary: garbage },
);

/** A human answer to a card, chosen by the test. */
export type CardAnswer = "accept" | "edit" | "response" | "ignore";

export const cardAnswer: fc.Arbitrary<CardAnswer> = fc.constantFrom<CardAnswer>(
  "accept",
  "accept",
  "edit",
  "response",
  "ignore",
);
