/**
 * Graph-level tools every domain gets: the scratchpad (docs/design.md#working-memory) and
 * mid-invocation memory retrieval (docs/design.md#long-term-memory).
 * They touch only the agent's own memory, so they run without confirmation.
 */
import type { BaseStore } from "@langchain/langgraph";
import { z } from "zod";
import type { TempoState, TempoUpdate } from "../../kernel/state.js";
import type { ToolDomain } from "../../tools/domain.js";
import { renderEpisode, searchEpisodes, searchFacts } from "../../memory/long-term.js";

export interface MemoryToolContext {
  state: TempoState;
  store: BaseStore | undefined;
  userId: string;
  /** The tool domain (its packs: nodes/execute/packs.ts). */
  domain: ToolDomain;
  /** The run's clock as ISO text (`runMoment`: `configurable.now`, else the graph's): what a write is stamped with. */
  now: string;
}

export interface MemoryTool {
  name: string;
  description: string;
  schema: z.ZodType<Record<string, unknown>>;
  run(args: Record<string, unknown>, context: MemoryToolContext): Promise<{ content: string; update?: TempoUpdate }>;
}

const MAX_SCRATCHPAD_CHARACTERS = 4_000;

export const MEMORY_TOOLS: readonly MemoryTool[] = [
  {
    name: "update_working_memory",
    description: "Replaces your scratchpad (done, decisions, open questions), shown in later rounds.",
    schema: z.object({
      content: z.string().min(1).max(MAX_SCRATCHPAD_CHARACTERS).describe("The whole new text."),
    }),
    async run(args, { state, now }) {
      const content = String(args.content);
      return {
        content: `working memory updated (${content.length} characters)`,
        // Updated in this round (the round execute is counting now), at the run's clock like the other memory stamps.
        update: { workingMemory: { content, updatedInRound: state.roundsUsed + 1, updatedAt: now } },
      };
    },
  },
  {
    name: "retrieve_facts",
    description: "Searches the user's long-term facts.",
    schema: z.object({
      query: z.string().min(1).describe("What to look for."),
      limit: z.number().int().min(1).max(20).optional().describe("Most facts (default 5)."),
    }),
    async run(args, { store, userId }) {
      if (!store) return { content: "no memory store is configured" };
      const facts = await searchFacts(store, userId, String(args.query), Number(args.limit ?? 5));
      return { content: facts.length ? facts.map((fact) => `- ${fact.text}`).join("\n") : "no matching facts" };
    },
  },
  {
    name: "recall_episodes",
    description: "Searches the user's past tasks (goal, steps, outcome, lessons).",
    schema: z.object({
      query: z.string().min(1).describe("What the task is about."),
      limit: z.number().int().min(1).max(10).optional().describe("Most episodes (default 3)."),
    }),
    async run(args, { store, userId }) {
      if (!store) return { content: "no memory store is configured" };
      const episodes = await searchEpisodes(store, userId, String(args.query), Number(args.limit ?? 3));
      if (episodes.length === 0) return { content: "no matching episodes" };
      return { content: episodes.map((episode) => `- ${renderEpisode(episode)}`).join("\n") };
    },
  },
];

/** True for a tool that searches the long-term store (facts, episodes): offered only where a store is configured. */
export function searchesMemory(tool: Pick<MemoryTool, "name">): boolean {
  return tool.name === "retrieve_facts" || tool.name === "recall_episodes";
}

/** The memory tool named `name`, if any. */
export function findMemoryTool(name: string): MemoryTool | undefined {
  return MEMORY_TOOLS.find((tool) => tool.name === name);
}
