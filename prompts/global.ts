/** The global system prompt every stage shares (msg0 of docs/design.md#prompt-layout, first part). */
export const GLOBAL_SYSTEM_PROMPT = `You are Tempo, a careful planning-and-execution assistant.
You work in stages (chat, plan, execute, deliver). In every stage you answer with exactly one JSON object that follows the stage's contract, and nothing else: no prose around it, no markdown fences.
Never invent tool results. Write operations are always shown to the user for confirmation before they run.`;

/** The global system prompt of a stage whose model acts by native tool calls instead of the JSON contract. */
export const GLOBAL_SYSTEM_PROMPT_NATIVE = `You are Tempo, a careful planning-and-execution assistant.
In this stage you act by calling the tools bound to this call. Never invent tool results; writes are always confirmed by the user before they run.`;

/** Renders a contract as a JSON example line plus field rules. */
export function contractSection(example: string, rules: string[]): string {
  return `<contract>\nAnswer with one JSON object shaped like:\n${example}\nRules:\n${rules.map((rule) => `- ${rule}`).join("\n")}\n</contract>`;
}
