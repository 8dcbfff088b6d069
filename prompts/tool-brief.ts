/**
 * The tool brief in the system prompt: each tool's name, kind, description
 * and a compact argument list rendered from its zod schema
 * (`name?: type — description`; `?` marks optional arguments). Compact on
 * purpose: the brief is in every prompt, and raw JSON schemas (with their
 * bounds and nesting) cost several times the tokens for the same meaning.
 */
import { z } from "zod";
import { offeredToolNames, offeredTools, packDefaultLabel, type ToolDomain } from "../tools/domain.js";

/** A tool as the brief shows it. */
export interface BriefTool {
  name: string;
  description: string;
  schema: z.ZodType;
  kind: string;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  description?: string;
}

const REASONABLE_BOUND = 1_000_000;

/** Renders the domain's tools (and any graph-level tools) for a system prompt: what each does and its arguments. */
export function toolBrief(domain: ToolDomain, extraTools: readonly BriefTool[] = []): string {
  const lines = [...domain.tools, ...extraTools].map(
    (tool) => `- ${tool.name} [${tool.kind}]: ${tool.description}\n  arguments: ${renderArguments(tool.schema)}`,
  );
  return `<tools domain="${domain.name}">\n${domain.description}\n${lines.join("\n")}\n</tools>`;
}

/**
 * The tools as a planner needs them: each one's name, kind and first sentence, no arguments — the planner writes
 * steps, never calls; the execute stage gets the whole brief (or the bound schemas). A quarter of the whole brief.
 */
export function plannerToolBrief(domain: ToolDomain): string {
  const lines = offeredTools(domain).map((tool) => `- ${tool.name} [${tool.kind}]: ${firstSentence(tool.description)}`);
  const brief = `<tools domain="${domain.name}">\n${domain.description}\n${lines.join("\n")}\n</tools>`;
  if (!domain.packs) return brief;
  // The packs a step may name (`packs` of a plan step): it starts with them instead of the defaults.
  const packs = domain.packs.map(
    (pack) => `- ${pack.name}${packDefaultLabel(pack)}: ${offeredToolNames(domain, pack).join(", ")}`,
  );
  return `${brief}\n<packs>\nA step may name the tool packs it needs ("packs"); without, it gets the defaults.\n${packs.join("\n")}\n</packs>`;
}

function firstSentence(text: string): string {
  return /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim())?.[0] ?? text.trim();
}

/** Each schema's rendering: a zod schema does not change, and the brief is in every prompt of every turn. */
const rendered = new WeakMap<z.ZodType, string>();

/** "task_id: string — Id of …; limit?: integer 1-100 — …", or "none". */
export function renderArguments(schema: z.ZodType): string {
  let text = rendered.get(schema);
  if (text === undefined) {
    text = renderSchema(schema);
    rendered.set(schema, text);
  }
  return text;
}

function renderSchema(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { unrepresentable: "any" }) as JsonSchema;
  const properties = Object.entries(json.properties ?? {});
  if (properties.length === 0) return "none";
  const required = new Set(json.required ?? []);
  return properties
    .map(
      ([name, property]) =>
        `${name}${required.has(name) ? "" : "?"}: ${typeOf(property)}${property.description ? ` — ${property.description.replace(/\.$/, "")}` : ""}`,
    )
    .join("; ");
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array") return `${schema.items ? typeOf(schema.items) : "any"}[]`;
  if (type === "object" && schema.properties) {
    const required = new Set(schema.required ?? []);
    return `{ ${Object.entries(schema.properties)
      .map(([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(property)}`)
      .join(", ")} }`;
  }
  if ((type === "integer" || type === "number") && (bounded(schema.minimum) || bounded(schema.maximum))) {
    return `${type} ${bounded(schema.minimum) ? schema.minimum : ""}-${bounded(schema.maximum) ? schema.maximum : ""}`;
  }
  return type;
}

function bounded(value: number | undefined): value is number {
  return value !== undefined && Math.abs(value) < REASONABLE_BOUND;
}
