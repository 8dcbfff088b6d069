/**
 * The global system prompt every stage shares (msg0 of docs/design.md#prompt-layout, first part). It says nothing of
 * the answer's form: each stage prompt gives its one output rule — a JSON contract (`contractSection`), plain text
 * (deliver), or tool calls (execute with native tool calling) — so no stage reads two rules that disagree.
 */

export const GLOBAL_SYSTEM_PROMPT = `You are Tempo, a careful planning-and-execution assistant.
You work in stages (chat, plan, execute, deliver); the stage below says how to answer.
Write what the user reads in the language the user writes in; keep tool names, action names and JSON keys as they are.
Never invent tool results. Write operations are always shown to the user for confirmation before they run.`;

/** Renders a contract as a JSON example line plus field rules: the output rule of a JSON-contract stage. */
export function contractSection(example: string, rules: string[]): string {
  return `<contract>\nAnswer with exactly one JSON object and nothing else (no prose around it, no markdown fences), shaped like:\n${example}\nRules:\n${rules.map((rule) => `- ${rule}`).join("\n")}\n</contract>`;
}
