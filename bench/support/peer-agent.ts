/**
 * The peer Tempo is measured against (issue 49 item 1): a plain LangChain v1 agent — `createAgent` with
 * `humanInTheLoopMiddleware` — given Tempo's own schedule tools (the domain's tools, with the names, descriptions and
 * argument schemas Tempo's execute stage binds, `argumentsSchema`) and a `ChatOpenAI` at an OpenAI-compatible URL.
 * Every write tool interrupts for approval; the reads run at once. The tools really run, on the same repository
 * Tempo's domain would use (`runTool`, one call at a time: a batch of writes applies in order, as a card's does).
 *
 * {@link peerBrain} is the scripted model for the server double: what a competent model does for the demo task —
 * read (`propose_arrangement`), place every placement it proposed in one reply (one batch, approved through one
 * interrupt), then answer.
 */
import { ChatOpenAI } from "@langchain/openai";
import { Command, MemorySaver, type Interrupt } from "@langchain/langgraph";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { createAgent, humanInTheLoopMiddleware, type HITLRequest, type InterruptOnConfig } from "langchain";
import { offeredTools, type ToolDomain } from "../../tools/domain.js";
import { argumentsSchema } from "../../tools/langchain-tools.js";
import { runTool } from "../../tools/runner.js";
import { contentText, type Brain, type BrainCall } from "../../tests/support/openai-double/brain.js";
import type { ChatMessage } from "../../tests/support/openai-double/validation.js";

/** The peer's system prompt: what a plain agent for this domain would be told, and no more. */
export const PEER_SYSTEM_PROMPT =
  "You help a student arrange review sessions in their study week. Read the schedule with the tools before changing " +
  "it; every change is shown to the student for approval. When done, say briefly what changed.";

/** Where the peer runs: its model server, its user, and which of the domain's tools it gets (default: all). */
export interface PeerOptions {
  domain: ToolDomain;
  baseUrl: string;
  apiKey?: string;
  model?: string;
  userId: string;
  /** Only these tools (by name), e.g. the ones the task uses; default every tool of the domain. */
  tools?: readonly string[];
  /** The clock the tools run on (a write in the past is refused). */
  now?: Date;
}

/** The domain's tools as the peer's LangChain tools: the same schemas Tempo binds, each run through `runTool`, one at a time. */
export function peerTools(options: PeerOptions): StructuredToolInterface[] {
  let queue: Promise<unknown> = Promise.resolve();
  // As Tempo offers them: a candidate's write (a whole record as its argument) is no model's to type.
  const chosen = offeredTools(options.domain).filter((spec) => !options.tools || options.tools.includes(spec.name));
  return chosen.map(
    (spec) =>
      tool(
        async (args: Record<string, unknown>, config: { toolCall?: { id?: string } }) => {
          const run = queue.then(() =>
            runTool(
              options.domain,
              { userId: options.userId, threadId: "peer", stepId: null, ...(options.now ? { now: options.now } : {}) },
              { id: config.toolCall?.id ?? `peer-${spec.name}`, name: spec.name, arguments: args },
            ),
          );
          queue = run.catch(() => undefined);
          return (await run).content;
        },
        { name: spec.name, description: spec.description, schema: argumentsSchema(spec.schema) },
      ) as StructuredToolInterface,
  );
}

/** The peer agent: createAgent + humanInTheLoopMiddleware (every write tool interrupts), a MemorySaver. */
export function createPeerAgent(options: PeerOptions) {
  const tools = peerTools(options);
  const writes = new Set(options.domain.tools.filter((spec) => spec.kind === "write").map((spec) => spec.name));
  const interruptOn: Record<string, InterruptOnConfig> = Object.fromEntries(
    tools
      .filter((each) => writes.has(each.name))
      .map((each) => [each.name, { allowedDecisions: ["approve", "edit", "reject"] }]),
  );
  return createAgent({
    model: new ChatOpenAI({
      model: options.model ?? "gpt-4o-mini",
      apiKey: options.apiKey ?? "unused",
      configuration: { baseURL: options.baseUrl },
      maxRetries: 0,
    }),
    tools,
    systemPrompt: PEER_SYSTEM_PROMPT,
    middleware: [humanInTheLoopMiddleware({ interruptOn })],
    checkpointer: new MemorySaver(),
  });
}

/** What a peer run did: the interrupts it raised (their action requests) and its final answer. */
export interface PeerRun {
  cards: Array<Array<{ name: string; args: Record<string, unknown> }>>;
  answer: string;
}

/** Runs `message` through the peer on a fresh thread, approving every interrupt (at most `limit`). */
export async function runPeer(
  agent: ReturnType<typeof createPeerAgent>,
  message: string,
  threadId: string,
  limit = 10,
): Promise<PeerRun> {
  const config = { configurable: { thread_id: threadId } };
  const cards: PeerRun["cards"] = [];
  let result = (await agent.invoke({ messages: [{ role: "user", content: message }] }, config)) as object;
  for (; cards.length < limit;) {
    const pending = ((result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [])[0];
    if (!pending) break;
    const requests = (pending.value as HITLRequest).actionRequests;
    cards.push(requests.map((request) => ({ name: request.name, args: request.args })));
    result = (await agent.invoke(
      new Command({ resume: { decisions: requests.map(() => ({ type: "approve" })) } }),
      config,
    )) as object;
  }
  const messages = (result as { messages?: Array<{ content?: unknown }> }).messages ?? [];
  const last = messages.at(-1)?.content;
  return { cards, answer: typeof last === "string" ? last : JSON.stringify(last ?? "") };
}

/** `task <id> on day <d> slots <a>-<b>` lines of a propose_arrangement listing: the placements it proposes. */
export function proposedPlacements(listing: string): BrainCall[] {
  return [...listing.matchAll(/^\s*- task (\S+) on day (\d+) slots (\d+)-\d+/gm)].map((match) => ({
    name: "place",
    arguments: { task_id: match[1]!, day: Number(match[2]), slot_start: Number(match[3]) },
  }));
}

/** The tool messages after the last user message, with the name of the call each answers. */
function toolResults(messages: readonly ChatMessage[]): Array<{ name: string; content: string }> {
  const since = messages.map((message) => message.role).lastIndexOf("user");
  const names = new Map<string, string>();
  const results: Array<{ name: string; content: string }> = [];
  for (const message of messages.slice(since + 1)) {
    for (const call of message.tool_calls ?? []) if (call.id) names.set(call.id, call.function?.name ?? "");
    if (message.role === "tool" && message.tool_call_id)
      results.push({ name: names.get(message.tool_call_id) ?? "", content: contentText(message.content) });
  }
  return results;
}

/**
 * The peer's scripted model: asks for the arrangement (`propose_arrangement`), then places what it proposed in one
 * reply (8 `place` calls on the sample week: one interrupt), then answers with what the writes said. Nothing to place
 * (or the tools missing): it answers at once.
 */
export const peerBrain: Brain = (request) => {
  const messages = request.body.messages ?? [];
  const tools = new Set((request.body.tools ?? []).map((each) => each.function?.name ?? ""));
  const results = toolResults(messages);
  const proposal = results.find((result) => result.name === "propose_arrangement");
  const placed = results.filter((result) => result.name === "place");
  if (!proposal && tools.has("propose_arrangement"))
    return { content: null, toolCalls: [{ name: "propose_arrangement", arguments: {} }] };
  const places = proposal ? proposedPlacements(proposal.content) : [];
  if (placed.length === 0 && places.length > 0 && tools.has("place")) return { content: null, toolCalls: places };
  const applied = placed.filter((result) => result.content.startsWith("placed task"));
  return applied.length > 0
    ? `Placed ${applied.length} review(s):\n${applied.map((result) => `- ${result.content}`).join("\n")}`
    : "Nothing to place: every review is already in the week.";
};
