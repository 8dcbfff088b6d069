/**
 * Prompt size over one long execution, side by side in one run: Tempo's
 * execute stage versus a plain ReAct loop that keeps the whole history
 * (LangGraph's prebuilt agent), with the same scripted model decisions and
 * the same tool results. Prompt tokens per model call are counted with the
 * real o200k tokenizer (bundled, no download).
 *
 * Twice: with the JSON contract in text (`TEMPO_TOOL_CALLING=json`), and with
 * native tool calling (the model answers with `tool_calls`). Native calls
 * also send the bound tools with every request, so on that run both sides
 * count them (the plain loop: the same domain's tools, as a ReAct agent over
 * that domain binds them; Tempo: those, plus the agent and control tools it binds) as
 * OpenAI's chat models read them: rendered into the system
 * prompt as a TypeScript-like `namespace functions` (the format of OpenAI's
 * token-counting cookbook; an estimate, not a provider's count). The JSON the
 * request carries is counted too, as an upper bound.
 *
 *   npx tsx bench/context.ts [rounds=100]
 *
 * Goals, for both runs: Tempo's prompt at round 100 within 1.2× of round 10;
 * Tempo's total prompt tokens over the run at most 1/5 of the plain loop's.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { MemorySaver } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { buildTempoGraph } from "../server/tempo-graph.js";
import { countMessageTokens, tiktokenCounter } from "../memory/tokens.js";
import { createNotesDomain } from "../tests/support/notes-domain.js";

const ROUNDS = Number(process.argv[2] ?? 100);
const CHECKPOINTS = [10, 50, 100].filter((round) => round <= ROUNDS);

/** The shared tool trace: round i reads note page i, a realistic ~150-token result. */
function pageResult(round: number): string {
  return Array.from(
    { length: 8 },
    (_, line) =>
      `${round * 8 + line + 1}. Review note ${round}-${line}: chapter ${line + 1} exercises, due ${1 + (line % 7)} days`,
  ).join("\n");
}

type BindableTool = Parameters<typeof convertToOpenAITool>[0];
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  description?: string;
};

/** How bound tools are counted: "rendered" as the model reads them (namespace functions), or the "json" a request carries. */
let toolCounting: "rendered" | "json" = "rendered";

/** Tokens of bound tools, per {@link toolCounting}. */
function toolTokens(tools: BindableTool[]): number {
  const definitions = tools.map((entry) => convertToOpenAITool(entry).function);
  if (toolCounting === "json")
    return tiktokenCounter.count(JSON.stringify(tools.map((entry) => convertToOpenAITool(entry))));
  const typeOf = (schema: JsonSchema): string => {
    if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
    if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
    const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
    if (type === "array") return `${schema.items ? typeOf(schema.items) : "any"}[]`;
    return type === "integer" ? "number" : type;
  };
  const rendered = definitions.map(({ name, description, parameters }) => {
    const properties = Object.entries((parameters as JsonSchema).properties ?? {});
    const required = new Set((parameters as JsonSchema).required ?? []);
    const fields = properties.map(
      ([field, schema]) =>
        `${schema.description ? `// ${schema.description}\n` : ""}${field}${required.has(field) ? "" : "?"}: ${typeOf(schema)},`,
    );
    return `// ${description ?? ""}\ntype ${name} = (${fields.length ? `_: {\n${fields.join("\n")}\n}` : ""}) => any;`;
  });
  return tiktokenCounter.count(
    `# Tools\n\n## functions\n\nnamespace functions {\n\n${rendered.join("\n\n")}\n\n} // namespace functions`,
  );
}

async function tempoPromptTokens(mode: "json" | "native"): Promise<number[]> {
  const notes = Array.from({ length: (ROUNDS + 1) * 8 }, (_, index) => `note ${index}`);
  const domain = createNotesDomain({ bench: notes });
  // A read tool whose result follows the shared trace.
  let round = 0;
  domain.tools = [
    ...domain.tools,
    {
      name: "read_page",
      kind: "read",
      description: "Reads one page of notes.",
      schema: z.object({ page: z.number().int().describe("Page number.") }),
      run: () => ({ ok: true, content: pageResult(++round) }),
    },
  ];
  const execute = fakeModel();
  for (let index = 1; index <= ROUNDS; index += 1) {
    execute.respond(
      mode === "native"
        ? new AIMessage({
            content: `Reading page ${index}.`,
            tool_calls: [{ id: `call-${index}`, name: "read_page", args: { page: index }, type: "tool_call" }],
          })
        : new AIMessage(
            JSON.stringify({
              speak: `Reading page ${index}.`,
              action: "continue",
              reason: "need the next page",
              tool_call: { name: "read_page", arguments: { page: index } },
            }),
          ),
    );
  }
  execute.respond(
    mode === "native"
      ? new AIMessage({
          content: "",
          tool_calls: [{ id: "call-done", name: "done", args: { goal_check: "all pages read" }, type: "tool_call" }],
        })
      : new AIMessage(JSON.stringify({ action: "done", goal_check: "all pages read" })),
  );
  // Record what execute binds: those tools go with every request made through the binding.
  const bindings: BindableTool[][] = [];
  const bindTools = execute.bindTools.bind(execute);
  execute.bindTools = (tools: Parameters<typeof bindTools>[0]) => {
    bindings.push(tools);
    return bindTools(tools);
  };
  const chat = fakeModel().respond(new AIMessage(JSON.stringify({ intent: "task" })));
  const plan = fakeModel().respond(
    new AIMessage(
      JSON.stringify({
        action: "plan_done",
        plan_steps: [{ content: "Read every page of notes", done_when: "all pages are read" }],
      }),
    ),
  );
  const deliver = fakeModel().respond(new AIMessage("Read all pages."));
  const graph = buildTempoGraph({
    models: { default: chat, chat, plan, execute, deliver, toolCalling: mode },
    domain,
    checkpointer: new MemorySaver(),
  });
  const config = {
    configurable: { thread_id: "bench", user_id: "bench", max_rounds: ROUNDS + 5 },
    recursionLimit: ROUNDS * 3 + 50,
  };
  await graph.invoke({ messages: [new HumanMessage("Read all my note pages")] }, config);
  await graph.invoke(
    new (await import("@langchain/langgraph")).Command({ resume: { type: "accept", args: null } }),
    config,
  );
  if (process.env.BENCH_BREAKDOWN)
    for (const message of execute.calls[ROUNDS - 1]!.messages as BaseMessage[])
      console.error(
        message.getType(),
        countMessageTokens([message], tiktokenCounter),
        process.env.BENCH_BREAKDOWN === "full"
          ? String(message.content)
          : String(message.content).slice(0, 60).replace(/\n/g, " "),
      );
  // The tools execute binds on this graph (nodes/execute/tool-offer.ts), as they were bound: one offer (one step,
  // one set of packs), so every execute call carries the same tools.
  const names = new Set(bindings.map((tools) => tools.map((entry) => convertToOpenAITool(entry).function.name).join()));
  if (mode === "native" && names.size !== 1) throw new Error(`expected one set of bound tools, saw ${names.size}`);
  const bound = mode === "native" ? toolTokens(bindings[0]!) : 0;
  return execute.calls
    .slice(0, ROUNDS)
    .map((call) => countMessageTokens(call.messages as BaseMessage[], tiktokenCounter) + bound);
}

async function reactPromptTokens(mode: "json" | "native"): Promise<number[]> {
  let round = 0;
  const readPage = tool(async () => pageResult(++round), {
    name: "read_page",
    description: "Reads one page of notes.",
    schema: z.object({ page: z.number().int().describe("Page number.") }),
  });
  const model = fakeModel();
  for (let index = 1; index <= ROUNDS; index += 1)
    model.respond(
      new AIMessage({
        content: `Reading page ${index}.`,
        tool_calls: [{ id: `call-${index}`, name: "read_page", args: { page: index }, type: "tool_call" }],
      }),
    );
  model.respond(new AIMessage("All pages read."));
  const agent = createReactAgent({
    llm: model,
    tools: [readPage],
    prompt: "You are a careful assistant. Read every page of notes with the read_page tool.",
  });
  await agent.invoke({ messages: [new HumanMessage("Read all my note pages")] }, { recursionLimit: ROUNDS * 3 + 50 });
  // The plain loop is an agent over the same domain: it carries the domain's tools (read_page among them), as Tempo does.
  const domainTools = createNotesDomain({}).tools.map((spec) =>
    tool(async () => "", { name: spec.name, description: spec.description, schema: spec.schema }),
  );
  const bound = mode === "native" ? toolTokens([...domainTools, readPage]) : 0;
  return model.calls
    .slice(0, ROUNDS)
    .map((call) => countMessageTokens(call.messages as BaseMessage[], tiktokenCounter) + bound);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const at = (values: number[], round: number) => values[round - 1] ?? Number.NaN;

const runs = [
  { mode: "json", counting: "rendered", how: "JSON contract in text" },
  { mode: "native", counting: "rendered", how: "native tool calling, bound tools counted as rendered for the model" },
  {
    mode: "native",
    counting: "json",
    how: "native tool calling, bound tools counted as the JSON a request carries (upper bound)",
  },
] as const;
for (const { mode, counting, how } of runs) {
  toolCounting = counting;
  const [tempo, react] = await Promise.all([tempoPromptTokens(mode), reactPromptTokens(mode)]);
  console.log(
    `Prompt tokens per model call over one ${ROUNDS}-round execution, ${how} (tokenizer: ${tiktokenCounter.name})\n`,
  );
  console.log(`| round | Tempo | plain ReAct | Tempo / ReAct |`);
  console.log(`| ---: | ---: | ---: | ---: |`);
  for (const round of CHECKPOINTS)
    console.log(
      `| ${round} | ${at(tempo, round)} | ${at(react, round)} | ${(at(tempo, round) / at(react, round)).toFixed(3)} |`,
    );
  console.log(`| total | ${sum(tempo)} | ${sum(react)} | ${(sum(tempo) / sum(react)).toFixed(3)} |`);
  const last = CHECKPOINTS.at(-1)!;
  const growth = at(tempo, last) / at(tempo, 10);
  console.log(
    `\nTempo round ${last} / round 10: ${growth.toFixed(3)}× (goal ≤ 1.2×) → ${growth <= 1.2 ? "met" : "NOT met"}`,
  );
  console.log(
    `Tempo total / plain total: ${(sum(tempo) / sum(react)).toFixed(3)} (goal ≤ 0.200) → ${sum(tempo) / sum(react) <= 0.2 ? "met" : "NOT met"}\n`,
  );
}
