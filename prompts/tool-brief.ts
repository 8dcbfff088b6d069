/** The tool brief in the system prompt: each tool's name, kind, description and argument schema. */
import { z } from "zod";
import type { ToolDomain } from "../tools/domain.js";

/** A tool as the brief shows it. */
export interface BriefTool {
  name: string;
  description: string;
  schema: z.ZodType;
  kind: string;
}

/** Renders the domain's tools (and any graph-level tools) for a system prompt. */
export function toolBrief(domain: ToolDomain, extraTools: readonly BriefTool[] = []): string {
  const lines = [...domain.tools, ...extraTools].map((tool) => {
    const schema = JSON.stringify(compactSchema(tool.schema));
    return `- ${tool.name} [${tool.kind}]: ${tool.description}\n  arguments: ${schema}`;
  });
  return `<tools domain="${domain.name}">\n${domain.description}\n${lines.join("\n")}\n</tools>`;
}

/** JSON schema of a tool's arguments without the noise fields a model does not need. */
function compactSchema(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  delete json.additionalProperties;
  return json;
}
