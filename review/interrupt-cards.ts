/**
 * The cards Tempo raises and their building (contract: contracts/cards.ts): the plan card, the
 * write-tool card (one write, or a batch of several) and the question, each in LangChain v1's HITL shape with
 * the legacy `HumanInterrupt` fields, and a markdown description a person
 * can read.
 */
import {
  ANSWER_FIELD,
  ASK_USER_ACTION,
  CONFIRM_PLAN_ACTION,
  PLAN_STEPS_FIELD,
  type Card,
  type CardKind,
  type HumanInterrupt,
} from "../contracts/cards.js";
import type { DecisionType, ReadableCard } from "./resume.js";
import type { Language } from "../contracts/language.js";
import { planStepsText } from "../contracts/plan.js";
import type { PlanStep, ProposedWrite, TempoState } from "../kernel/state.js";
import { findTool, type ToolDomain } from "../tools/domain.js";
import { editForm } from "./card-hints.js";
import { renderPlan } from "../prompts/plan-list.js";

const CONFIRM_DECISIONS: readonly DecisionType[] = ["approve", "edit", "reject"];
const CONFIRM_CONFIG = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };
/** A write whose arguments are a record the backend kept (a candidate's write): approved or rejected, never edited. */
const FIXED_DECISIONS: readonly DecisionType[] = ["approve", "reject"];

/** A write as its card decides it: `fixed` when its tool is a candidate's write (`DomainTool.candidateOf`). */
type CardWrite = ProposedWrite & { fixed?: true };

/**
 * The arguments a card shows of `tool`: for a fixed write with shown arguments (`ProposedWrite.shown`: the record's
 * name and when, in words), those — Agent Chat UI and Agent Inbox draw a card's arguments even where nothing can be
 * edited, and its record is JSON no person reads; else its arguments. An answer's echo is compared with what the card
 * showed (resume.ts), and an approval applies the call as proposed, record and all.
 */
function shownArguments(tool: CardWrite): Record<string, unknown> {
  return tool.fixed && tool.shown ? tool.shown : tool.arguments;
}

/** `tools` marked `fixed` where their tool's arguments are a record no person types. */
function asCardWrites<T extends readonly ProposedWrite[]>(tools: T, domain: ToolDomain): { [K in keyof T]: CardWrite } {
  return tools.map((tool) =>
    findTool(domain, tool.name)?.candidateOf === undefined ? tool : { ...tool, fixed: true as const },
  ) as { [K in keyof T]: CardWrite };
}

/** The words of Tempo's own on a card, per language (what the tools and the user wrote is shown as it is). */
const WORDS = {
  en: {
    planFor: "Plan for: ",
    planHow:
      "You can run it as it is, edit the steps first (one a line: what to do — done when: how to tell), or turn it down with a reason to have it revised.",
    why: "**Why:** ",
    step: (index: number, total: number) => `**Step ${index} of ${total}:** `,
    change: (index: number, total: number) => `Change ${index} of ${total}: `,
    all: (total: number) => `**All ${total} changes proposed together:**`,
    batchHow:
      "Decide each change on its own — apply it, edit it or turn it down; the ones you apply go in order. An answer that decides only this change applies this one alone, and the others come back on the next card.",
    writeHow:
      "You can apply it as it is, edit its arguments first, or turn it down (with a reason, the plan is reviewed; without one, this change is left out).",
    refused: "Your last answer could not be used: ",
  },
  zh: {
    planFor: "计划：",
    planHow:
      "可以直接执行，也可以先修改步骤（每行一步：要做什么 — 完成标志：怎样算完成），或说明原因拒绝，计划会重新修订。",
    why: "**原因**：",
    step: (index: number, total: number) => `**第 ${index} 步（共 ${total} 步）**：`,
    change: (index: number, total: number) => `第 ${index} 项修改（共 ${total} 项）：`,
    all: (total: number) => `**一起提出的全部 ${total} 项修改**：`,
    batchHow:
      "请逐项决定：应用、修改或拒绝；应用的修改按顺序执行。只回答这一项的答复只应用这一项，其余的会在下一张卡片上再问。",
    writeHow: "可以直接应用，也可以先修改参数，或拒绝（说明原因时会重新审视计划；不说明时这项修改会被略过）。",
    refused: "上一次的回答无法使用：",
  },
} as const;

/** One action of a card, as a node describes it. */
export interface CardAction {
  name: string;
  args: Record<string, unknown>;
  description: string;
  /** The decisions a human may give (review/resume.ts's `DECISION_TYPES`). */
  allowed: readonly string[];
  argsSchema?: Record<string, unknown>;
}

/**
 * Builds a card from its actions (v1, snake_case: what Agent Chat UI and Agent Inbox read) and its legacy
 * HumanInterrupt fields. Legacy clients see one action: for a card of several, `legacy` must describe them all, since
 * one legacy answer decides every one.
 */
export function buildCard(
  kind: CardKind,
  actions: readonly [CardAction, ...CardAction[]],
  legacy: HumanInterrupt,
): Card {
  const requests = actions.map((action) => ({
    name: action.name,
    args: action.args,
    description: action.description,
    arguments: action.args,
  }));
  const configs = actions.map((action) => ({
    action_name: action.name,
    allowed_decisions: [...action.allowed],
    ...(action.argsSchema ? { args_schema: action.argsSchema } : {}),
  }));
  return { kind, action_requests: requests, review_configs: configs, ...legacy };
}

/** Where execution stands when a write is proposed: step `index` (from 1) of `total`. */
export interface StepPosition {
  index: number;
  total: number;
  content: string;
}

/**
 * The plan confirmation card: approve, edit the steps, or reject (with feedback: revise it). Its one argument,
 * `steps`, is the plan as text, one step a line (`planStepsText`): both clients show a text argument as it is in an
 * edit box, where a list would be one line of JSON.
 */
export function planInterrupt(goal: string, plan: PlanStep[], language: Language = "en"): Card {
  const words = WORDS[language];
  const args = {
    [PLAN_STEPS_FIELD]: planStepsText(
      plan.map((step) => ({ content: step.content, done_when: step.doneWhen })),
      language,
    ),
  };
  const description = [
    `${words.planFor}${goal}`,
    renderPlan(plan, { doneWhen: "markdown", language }),
    words.planHow,
  ].join("\n\n");
  return buildCard("confirm_plan", [{ name: CONFIRM_PLAN_ACTION, args, description, allowed: CONFIRM_DECISIONS }], {
    action_request: { action: CONFIRM_PLAN_ACTION, args },
    config: CONFIRM_CONFIG,
    description,
  });
}

/** The write-tool card: what the write does, why, and where the plan stands. */
export function toolInterrupt(
  tool: CardWrite,
  step: StepPosition | null = null,
  argsSchema?: Record<string, unknown>,
  language: Language = "en",
): Card {
  const description = writeDescription(tool, step, WORDS[language]);
  return buildCard("confirm_tool", [writeAction(tool, description, argsSchema)], {
    action_request: { action: tool.name, args: shownArguments(tool) },
    config: tool.fixed ? { ...CONFIRM_CONFIG, allow_edit: false } : CONFIRM_CONFIG,
    description,
  });
}

/**
 * A batch card: several writes proposed at once, one action request each, decided one by one (a v1 resume has
 * one decision per write). A lone legacy answer naming the first write decides it alone, so the legacy fields show that write,
 * and the rest come back on the next card: what a client shows is what its answer applies. Each action's description
 * opens with "Change k of n" in plain words (Agent Inbox previews a description's first characters as plain text);
 * the first also lists every change by number, since Agent Chat UI shows the first description for every action.
 */
export function batchInterrupt(
  tools: readonly [CardWrite, ...CardWrite[]],
  step: StepPosition | null = null,
  argsSchemas: ReadonlyMap<string, Record<string, unknown>> = new Map(),
  language: Language = "en",
): Card {
  const words = WORDS[language];
  const total = tools.length;
  const list = tools.map((tool, index) => `${index + 1}. ${tool.summary}`).join("\n");
  const actions = tools.map((tool, index) => {
    const lines = [`${words.change(index + 1, total)}${tool.summary}`];
    if (tool.reason.trim()) lines.push(`${words.why}${tool.reason.trim()}`);
    if (step) lines.push(`${words.step(step.index, step.total)}${step.content}`);
    if (index === 0) {
      lines.push(`${words.all(total)}\n\n${list}`);
      lines.push(words.batchHow);
    }
    return writeAction(tool, lines.join("\n\n"), argsSchemas.get(tool.name));
  });
  return buildCard("confirm_tool", actions as [CardAction, ...CardAction[]], {
    action_request: { action: tools[0].name, args: shownArguments(tools[0]) },
    config: tools[0].fixed ? { ...CONFIRM_CONFIG, allow_edit: false } : CONFIRM_CONFIG,
    description: actions[0]!.description,
  });
}

/** The write card for `tools` on `state`'s step: one write's card, or a batch card of several; edit forms in `language`. */
export function writeCard(
  tools: readonly [ProposedWrite, ...ProposedWrite[]],
  state: Pick<TempoState, "planSteps" | "currentStepId">,
  domain: ToolDomain,
  language: Language,
): Card {
  const schemas = new Map<string, Record<string, unknown>>();
  const writes = asCardWrites(tools, domain);
  for (const tool of writes) {
    const definition = findTool(domain, tool.name);
    // A write no person edits has no edit form.
    if (definition && !tool.fixed && !schemas.has(tool.name))
      schemas.set(tool.name, editForm(definition.schema, language));
  }
  const step = stepPosition(state);
  return writes.length === 1
    ? toolInterrupt(writes[0], step, schemas.get(writes[0].name), language)
    : batchInterrupt(writes, step, schemas, language);
}

/** Where execution stands, for the write card: the current step and its position. */
function stepPosition(state: Pick<TempoState, "planSteps" | "currentStepId">): StepPosition | null {
  const index = state.planSteps.findIndex((step) => step.id === state.currentStepId);
  return index === -1
    ? null
    : { index: index + 1, total: state.planSteps.length, content: state.planSteps[index]!.content };
}

/** A write's markdown: what it does (its first line plain, for previews), why, where the plan stands, and how to answer. */
function writeDescription(tool: ProposedWrite, step: StepPosition | null, words: (typeof WORDS)[Language]): string {
  const lines = [tool.summary];
  if (tool.reason.trim()) lines.push(`${words.why}${tool.reason.trim()}`);
  if (step) lines.push(`${words.step(step.index, step.total)}${step.content}`);
  lines.push(words.writeHow);
  return lines.join("\n\n");
}

/**
 * What a write card of `tools` is read as (`ReadableCard`): the actions and decisions `toolInterrupt` /
 * `batchInterrupt` give it, without its descriptions and edit forms. An answer is read against this; the card
 * itself is built only to be raised (review/human-response.ts's `UnbuiltCard`).
 */
export function writeCardOutline(
  tools: readonly [ProposedWrite, ...ProposedWrite[]],
  domain: ToolDomain,
): ReadableCard {
  const writes = asCardWrites(tools, domain);
  return {
    kind: "confirm_tool",
    action_requests: writes.map((tool) => ({ name: tool.name, args: shownArguments(tool) })),
    review_configs: writes.map((tool) => ({ allowed_decisions: [...decisionsOf(tool)] })),
  };
}

/** The decisions a write's card allows. */
function decisionsOf(tool: CardWrite): readonly DecisionType[] {
  return tool.fixed ? FIXED_DECISIONS : CONFIRM_DECISIONS;
}

/** One write as a card's action request. */
function writeAction(tool: CardWrite, description: string, argsSchema?: Record<string, unknown>): CardAction {
  return {
    name: tool.name,
    args: shownArguments(tool),
    description,
    allowed: decisionsOf(tool),
    ...(argsSchema ? { argsSchema } : {}),
  };
}

/** A question: answered with text (v1: an edit of its `answer` field; legacy: a response). */
export function questionInterrupt(question: string): Card {
  return buildCard(
    "ask_user",
    [{ name: ASK_USER_ACTION, args: { [ANSWER_FIELD]: "" }, description: question, allowed: ["edit"] }],
    {
      action_request: { action: ASK_USER_ACTION, args: { question } },
      config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
      description: question,
    },
  );
}

/**
 * `card` raised again after its last answer was refused (the served graph does that instead of failing the run, which
 * would strand the thread): the reason opens its first description — what Agent Inbox shows — and the legacy one.
 */
export function withRefusal(card: Card, refusal: string | undefined, language: Language = "en"): Card {
  return refusal ? withNote(card, `${WORDS[language].refused}${refusal}`) : card;
}

/**
 * `card` with what the clock did at the start of this request (`TempoState.movedOn`: the window moved on to the week
 * of now, or the clock is behind what the schedule recorded) opening its first description and the legacy one: the
 * person reads it before deciding a card made on that clock, not only in the answer after it. Unchanged without one.
 */
export function withClockNote(card: Card, movedOn: string | null | undefined): Card {
  return movedOn ? withNote(card, movedOn) : card;
}

/** `card` with `note` opening its first description — what Agent Inbox shows — and the legacy one. */
function withNote(card: Card, note: string): Card {
  const requests = card.action_requests.map((request, index) =>
    index === 0 ? { ...request, description: `${note}\n\n${request.description}` } : request,
  );
  return {
    ...card,
    action_requests: requests,
    description: `${note}\n\n${card.description ?? ""}`.trimEnd(),
  };
}
