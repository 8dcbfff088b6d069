/**
 * A stage contract as a strict structured-output schema (docs/design.md#stage-contracts): the JSON Schema
 * subset OpenAI's structured outputs accept with `strict: true` — and so do gateways and servers that copy
 * its checks. Every object lists every property in `required` and has `additionalProperties: false`; a field
 * the contract may leave out becomes nullable instead; an open record (a tool call's `arguments`, whose keys
 * depend on the tool) becomes a string holding the JSON object; keywords outside the subset (`default`,
 * `propertyNames`, `patternProperties`, `oneOf`, length and range bounds, …) are dropped. The zod contract
 * still checks everything after the call: {@link fromStrictOutput} turns the strict answer back into the
 * contract's shape (nulls dropped, so defaults apply), and the contract parses argument text itself.
 */
import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/** Keywords kept as they are (the zod contract still enforces the dropped ones); objects' own keywords are rebuilt below. */
const KEPT = new Set(["type", "description", "enum", "const", "anyOf", "items", "$ref", "$defs", "title"]);

/** Strict schemas by contract: a contract is converted once, not on every call that uses it. */
const converted = new WeakMap<z.ZodType, JsonSchema>();

/** The strict structured-output schema of a zod contract. */
export function strictJsonSchema(schema: z.ZodType): JsonSchema {
  let strict = converted.get(schema);
  if (!strict) {
    const { $schema: _dialect, ...root } = z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: "any",
    }) as JsonSchema;
    strict = strictNode(root);
    converted.set(schema, strict);
  }
  return strict;
}

function strictNode(node: JsonSchema): JsonSchema {
  if (isOpenObject(node)) {
    const description = [node.description, "A JSON object, written as text."].filter(Boolean).join(" ");
    return { type: "string", description };
  }
  const out: JsonSchema = {};
  for (const [given, value] of Object.entries(node)) {
    // oneOf is outside the subset; for a contract's alternatives anyOf says the same.
    const key = given === "oneOf" ? "anyOf" : given;
    if (!KEPT.has(key)) continue;
    if (key === "anyOf") out.anyOf = (value as JsonSchema[]).map(strictNode);
    else if (key === "items") out.items = strictNode(value as JsonSchema);
    else if (key === "$defs")
      out.$defs = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, def]) => [name, strictNode(def)]),
      );
    else out[key] = value;
  }
  if (node.type === "object" || node.properties) {
    const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((node.required as string[] | undefined) ?? []);
    out.type = "object";
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        required.has(name) ? strictNode(property) : nullable(strictNode(property)),
      ]),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** An object whose keys are not known in advance (a zod record, `z.object({}).passthrough()`). */
function isOpenObject(node: JsonSchema): boolean {
  if (node.type !== "object") return false;
  const named = node.properties && Object.keys(node.properties as object).length > 0;
  return !named && node.additionalProperties !== false;
}

/** `node`, or null: how a strict schema says a field may be left out. */
function nullable(node: JsonSchema): JsonSchema {
  if (
    node.type === "null" ||
    (Array.isArray(node.anyOf) && node.anyOf.some((option) => (option as JsonSchema).type === "null"))
  )
    return node;
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: "null" }] };
  const { description, ...rest } = node;
  return { ...(description ? { description } : {}), anyOf: [rest, { type: "null" }] };
}

/**
 * A strict answer in the contract's shape: object fields that are null are dropped, so the contract's defaults
 * and optional fields apply as if the model had left them out. (No contract field is null on purpose.)
 */
export function fromStrictOutput(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromStrictOutput);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, fromStrictOutput(field)]),
  );
}
