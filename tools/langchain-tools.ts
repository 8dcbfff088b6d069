/**
 * One adapter from Tempo's tool specs — a domain's tools, the graph's memory
 * tools, the execute stage's control actions — to LangChain tools (`tool()`
 * with the same zod schema), for models that call tools natively
 * (`bindTools`). The model only proposes calls: Tempo's execute stage runs
 * them itself (arguments checked against the schema first, writes always
 * through a card), so a bound tool's own function refuses to run.
 */
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { z } from "zod";
import { TempoError } from "../errors/index.js";
import type { ToolDomain } from "./domain.js";

/** What a tool is, for a model: its name, what it does, and the schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  schema: z.ZodType;
}

/** A LangChain tool with `spec`'s name, description and zod schema; calls go through Tempo's execute stage. */
export function asLangChainTool(spec: ToolSpec): StructuredToolInterface {
  return tool(
    async () => {
      // Called directly, a write would skip its card: refused as an unapproved write, nothing is run.
      throw new TempoError("WRITE_NOT_APPROVED", `${spec.name} runs only through Tempo's execute stage (a write after its card is answered); a bound tool is not called directly. Nothing was run.`, {
        tool: spec.name,
      });
    },
    { name: spec.name, description: spec.description, schema: spec.schema as z.ZodObject },
  ) as StructuredToolInterface;
}

/** The domain's tools, and any graph-level ones, as LangChain tools, in order. */
export function langChainTools(domain: ToolDomain, extra: readonly ToolSpec[] = []): StructuredToolInterface[] {
  return [...domain.tools, ...extra].map(asLangChainTool);
}
