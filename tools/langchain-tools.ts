/**
 * One adapter from Tempo's tool specs — a domain's tools, the graph's memory
 * tools, the execute stage's control actions — to LangChain tools (`tool()`
 * with the same zod schema), for models that call tools natively
 * (`bindTools`). The model only proposes calls: Tempo's execute stage runs
 * them itself (arguments checked against the schema first, writes always
 * through a card), so a bound tool's own function refuses to run.
 *
 * What a model (or a card's edit form) is shown of the arguments is
 * {@link argumentsSchema}: the zod schema's JSON schema without what only
 * costs tokens — the `$schema` URL and the safe-integer bounds zod gives every
 * integer. The bound tools go with every execute request, so this is paid on
 * every round.
 */
import { toJsonSchema } from "@langchain/core/utils/json_schema";
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

/** The bounds zod writes for any integer (`z.number().int()`): they say nothing the type does not. */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** The JSON schema of a tool's arguments as a model or an edit form reads it (see the module comment). */
export function argumentsSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _url, ...rest } = toJsonSchema(schema) as Record<string, unknown>;
  return withoutSafeIntegerBounds(rest) as Record<string, unknown>;
}

function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, entry]) => SAFE_INTEGER_BOUNDS[key] !== entry)
      .map(([key, entry]) => [key, withoutSafeIntegerBounds(entry)]),
  );
}

/** Bounds at or above this say nothing a model needs (they guard the server against floods; zod checks them). */
const FLOOD_BOUND = 100;

/**
 * The arguments schema as a model is sent it with every execute request: {@link argumentsSchema} less what zod checks
 * anyway and a model does not need to call the tool right — `additionalProperties: false`, a `pattern` beside its
 * `format` (a date-time is a date-time), lower bounds of 1 (ids are not empty, days and slots count from 1) and flood
 * bounds (at most 400 days, 4,000 characters); and the arguments the code fills itself (`KEPT_BY_CODE` of tools/domain.ts). Arguments are still checked
 * against the whole zod schema before any tool runs (`checkToolArguments`), so nothing is let through.
 */
export function modelArgumentsSchema(schema: z.ZodType): Record<string, unknown> {
  return terse(argumentsSchema(schema)) as Record<string, unknown>;
}

function terse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(terse);
  if (value === null || typeof value !== "object") return value;
  const node = value as Record<string, unknown>;
  const noise = (key: string, entry: unknown) =>
    (key === "additionalProperties" && entry === false) ||
    (key === "pattern" && typeof node.format === "string") ||
    ((key === "minLength" || key === "minItems" || key === "minimum") && entry === 1) ||
    ((key === "maxItems" || key === "maxLength" || key === "maximum") &&
      typeof entry === "number" &&
      entry >= FLOOD_BOUND);
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, entry]) => !noise(key, entry))
      .map(([key, entry]) => [key, key === "properties" ? terseProperties(entry) : terse(entry)]),
  );
}

/** The `properties` map: its keys are argument names, never keywords; each value made terse, those the code keeps left out. */
function terseProperties(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => (entry as { keptByCode?: unknown } | null)?.keptByCode !== true)
      .map(([name, entry]) => [name, terse(entry)]),
  );
}

/** A LangChain tool with `spec`'s name, description and arguments schema; calls go through Tempo's execute stage. */
export function asLangChainTool(spec: ToolSpec): StructuredToolInterface {
  return tool(
    async () => {
      // Called directly, a write would skip its card: refused as an unapproved write, nothing is run.
      throw new TempoError(
        "WRITE_NOT_APPROVED",
        `${spec.name} runs only through Tempo's execute stage (a write after its card is answered); a bound tool is not called directly. Nothing was run.`,
        {
          tool: spec.name,
        },
      );
    },
    { name: spec.name, description: spec.description, schema: modelArgumentsSchema(spec.schema) },
  ) as StructuredToolInterface;
}

/** The domain's tools, and any graph-level ones, as LangChain tools, in order. */
export function langChainTools(domain: ToolDomain, extra: readonly ToolSpec[] = []): StructuredToolInterface[] {
  return [...domain.tools, ...extra].map(asLangChainTool);
}
