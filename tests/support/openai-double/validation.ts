/**
 * The request checks of the OpenAI server double: what OpenAI's chat completions endpoint answers with a 400
 * (`invalid_request_error`), in OpenAI's words as far as they are known — the first problem found, like OpenAI.
 *
 * Strict schemas (`response_format.json_schema.strict`, `tools[].function.strict`) are held to the subset
 * OpenAI's structured-outputs guide documents: the root an object (not `anyOf`); every object with
 * `additionalProperties: false` and every property in `required`; `anyOf`, `$ref` / `$defs`, `enum`, `const`
 * allowed; the composition and object keywords it does not support (`allOf`, `oneOf`, `not`, `if` / `then` /
 * `else`, `dependentRequired`, `dependentSchemas`, `patternProperties`, `propertyNames`, `unevaluatedProperties`,
 * …) refused. Keywords OpenAI documents only as unsupported for fine-tuned models (`minLength`, `maxLength`) pass.
 */

/** One chat message as the OpenAI API carries it. */
export interface ChatMessage {
  role?: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: unknown } }>;
  tool_call_id?: string;
  name?: string;
  [key: string]: unknown;
}

/** A tool as the request lists it. */
export interface ChatTool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown; strict?: boolean };
}

/** The request body of `POST /v1/chat/completions`, parsed. */
export interface ChatRequestBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  response_format?: { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** A request OpenAI refuses: the 400 body's error fields. */
export interface RequestProblem {
  message: string;
  param: string | null;
  code: string | null;
}

/** OpenAI's limit on tool-call ids (`messages[].tool_calls[].id`, `messages[].tool_call_id`). */
export const MAX_TOOL_CALL_ID = 40;
/** OpenAI's rule for function (and response-format) names. */
export const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const ROLES = ["system", "assistant", "user", "function", "tool", "developer"];

/** Keywords a strict schema may not use (OpenAI's structured outputs). */
const NOT_PERMITTED = [
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minProperties",
  "maxProperties",
  "contains",
  "minContains",
  "maxContains",
  "prefixItems",
  "uniqueItems",
];

/** The first problem OpenAI would refuse `body` for, or undefined for a valid request. */
export function requestProblem(body: ChatRequestBody): RequestProblem | undefined {
  return (
    messagesProblem(body.messages) ??
    toolsProblem(body.tools) ??
    toolChoiceProblem(body) ??
    responseFormatProblem(body.response_format) ??
    conversationProblem(body.messages!)
  );
}

function problem(message: string, param: string | null, code: string | null = null): RequestProblem {
  return { message, param, code };
}

function tooLong(param: string, value: string, max: number): RequestProblem {
  return problem(
    `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${value.length} instead.`,
    param,
    "string_above_max_length",
  );
}

function nameProblem(param: string, name: unknown): RequestProblem | undefined {
  if (typeof name !== "string")
    return problem(`Missing required parameter: '${param}'.`, param, "missing_required_parameter");
  if (name.length > 64) return tooLong(param, name, 64);
  if (!FUNCTION_NAME.test(name))
    return problem(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      "invalid_value",
    );
  return undefined;
}

/** Each message on its own: role, content, tool-call ids, names and arguments. */
function messagesProblem(messages: ChatMessage[] | undefined): RequestProblem | undefined {
  if (!Array.isArray(messages))
    return problem("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (messages.length === 0)
    return problem(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "messages",
      "empty_array",
    );
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (message === null || typeof message !== "object")
      return problem(
        `Invalid type for '${at}': expected an object, but got ${typeof message} instead.`,
        at,
        "invalid_type",
      );
    if (message.role === undefined)
      return problem(`Missing required parameter: '${at}.role'.`, `${at}.role`, "missing_required_parameter");
    if (!ROLES.includes(message.role))
      return problem(
        `Invalid value: '${message.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${at}.role`,
        "invalid_value",
      );
    const calls = message.tool_calls;
    const contentOptional = message.role === "assistant" && (calls?.length ?? 0) > 0;
    if ((message.content === undefined || message.content === null) && !contentOptional) {
      if (message.role === "assistant")
        return problem(`Invalid value for '${at}.content': expected a string, got null.`, `${at}.content`, null);
      return problem(`Missing required parameter: '${at}.content'.`, `${at}.content`, "missing_required_parameter");
    }
    if (
      message.content !== undefined &&
      message.content !== null &&
      typeof message.content !== "string" &&
      !Array.isArray(message.content)
    ) {
      return problem(
        `Invalid type for '${at}.content': expected one of a string or array of objects, but got ${typeof message.content} instead.`,
        `${at}.content`,
        "invalid_type",
      );
    }
    if (message.role === "tool") {
      if (typeof message.tool_call_id !== "string")
        return problem(
          `Missing required parameter: '${at}.tool_call_id'.`,
          `${at}.tool_call_id`,
          "missing_required_parameter",
        );
      if (message.tool_call_id.length > MAX_TOOL_CALL_ID)
        return tooLong(`${at}.tool_call_id`, message.tool_call_id, MAX_TOOL_CALL_ID);
    }
    if (calls !== undefined && message.role !== "assistant")
      return problem(
        `Invalid parameter: 'tool_calls' is only allowed on messages with role 'assistant'.`,
        `${at}.tool_calls`,
        null,
      );
    for (const [position, call] of (calls ?? []).entries()) {
      const where = `${at}.tool_calls[${position}]`;
      if (typeof call.id !== "string")
        return problem(`Missing required parameter: '${where}.id'.`, `${where}.id`, "missing_required_parameter");
      if (call.id.length > MAX_TOOL_CALL_ID) return tooLong(`${where}.id`, call.id, MAX_TOOL_CALL_ID);
      if (call.type !== "function")
        return problem(`Missing required parameter: '${where}.type'.`, `${where}.type`, "missing_required_parameter");
      const named = nameProblem(`${where}.function.name`, call.function?.name);
      if (named) return named;
      const args = call.function?.arguments;
      if (typeof args !== "string")
        return problem(
          `Missing required parameter: '${where}.function.arguments'.`,
          `${where}.function.arguments`,
          "missing_required_parameter",
        );
      if (!isJson(args))
        return problem(
          `Invalid '${where}.function.arguments': expected a valid JSON string.`,
          `${where}.function.arguments`,
          "invalid_value",
        );
    }
  }
  return undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function toolsProblem(tools: ChatTool[] | undefined): RequestProblem | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools))
    return problem("Invalid type for 'tools': expected an array of objects.", "tools", "invalid_type");
  if (tools.length === 0)
    return problem(
      "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "tools",
      "empty_array",
    );
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (tool.type !== "function")
      return problem(
        `Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`,
        `${at}.type`,
        "invalid_value",
      );
    const named = nameProblem(`${at}.function.name`, tool.function?.name);
    if (named) return named;
    const name = tool.function!.name!;
    if (seen.has(name)) return problem(`Invalid 'tools': duplicate function name '${name}'.`, "tools", null);
    seen.add(name);
    const schema = tool.function!.parameters;
    if (schema === undefined) continue;
    const found = schemaProblem(schema, tool.function!.strict === true);
    if (found)
      return problem(
        `Invalid schema for function '${name}': ${found}`,
        `${at}.function.parameters`,
        "invalid_function_parameters",
      );
  }
  return undefined;
}

/** The names a `tool_choice` may name. */
function toolChoiceProblem(body: ChatRequestBody): RequestProblem | undefined {
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  if (!body.tools?.length)
    return problem(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      "tool_choice",
      null,
    );
  if (typeof choice === "string") {
    if (["none", "auto", "required"].includes(choice)) return undefined;
    return problem(
      `Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`,
      "tool_choice",
      "invalid_value",
    );
  }
  const name = (choice as { function?: { name?: string } }).function?.name;
  if ((choice as { type?: string }).type !== "function" || typeof name !== "string")
    return problem(
      "Missing required parameter: 'tool_choice.function.name'.",
      "tool_choice.function.name",
      "missing_required_parameter",
    );
  if (!body.tools.some((tool) => tool.function?.name === name))
    return problem(`Invalid value for 'tool_choice': function '${name}' not found in 'tools'.`, "tool_choice", null);
  return undefined;
}

function responseFormatProblem(format: ChatRequestBody["response_format"]): RequestProblem | undefined {
  if (format === undefined) return undefined;
  if (!["text", "json_object", "json_schema"].includes(format.type ?? "")) {
    return problem(
      `Invalid value: '${String(format.type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
      "response_format.type",
      "invalid_value",
    );
  }
  if (format.type !== "json_schema") return undefined;
  const spec = format.json_schema;
  if (!spec)
    return problem(
      "Missing required parameter: 'response_format.json_schema'.",
      "response_format.json_schema",
      "missing_required_parameter",
    );
  const named = nameProblem("response_format.json_schema.name", spec.name);
  if (named) return named;
  if (spec.schema === undefined) return undefined;
  const found = schemaProblem(spec.schema, spec.strict === true);
  return found
    ? problem(`Invalid schema for response_format '${spec.name}': ${found}`, "response_format", null)
    : undefined;
}

/** Python's tuple repr, as OpenAI's messages print a schema path: `()`, `('items',)`, `('properties', 'a')`. */
function contextOf(path: string[]): string {
  if (path.length === 0) return "()";
  const items = path.map((part) => `'${part}'`);
  return path.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

/**
 * The first reason `schema` is not a valid function / response-format schema: always a root of type object;
 * with `strict`, also the structured-outputs subset. Undefined when valid.
 */
export function schemaProblem(schema: unknown, strict: boolean): string | undefined {
  const root = schema as Record<string, unknown>;
  if (root === null || typeof root !== "object" || Array.isArray(root)) return "schema must be a JSON Schema object.";
  if (root.type !== "object")
    return `schema must be a JSON Schema of 'type: "object"', got 'type: "${root.type === undefined ? "None" : String(root.type)}"'.`;
  if (root.anyOf !== undefined && strict)
    return "In context=(), 'anyOf' is not permitted at the root: the root must be an object.";
  return strict ? strictProblem(root, []) : undefined;
}

function strictProblem(node: unknown, path: string[]): string | undefined {
  if (typeof node === "boolean")
    return `In context=${contextOf(path)}, schema must be a JSON Schema object, got a boolean.`;
  if (node === null || typeof node !== "object" || Array.isArray(node))
    return `In context=${contextOf(path)}, schema must be a JSON Schema object.`;
  const schema = node as Record<string, unknown>;
  const where = `In context=${contextOf(path)}`;
  for (const keyword of NOT_PERMITTED) if (keyword in schema) return `${where}, '${keyword}' is not permitted.`;
  if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#"))
    return `${where}, '$ref' must point inside the schema ('#/...'), got '${schema.$ref}'.`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") || schema.properties !== undefined) {
    if (schema.additionalProperties !== false)
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined || (schema.required !== undefined && !Array.isArray(schema.required))) {
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
    const extra = required.find((key) => !(key in properties));
    if (extra !== undefined) return `${where}, 'required' names '${extra}', which is not in properties.`;
    for (const [key, child] of Object.entries(properties)) {
      const found = strictProblem(child, [...path, "properties", key]);
      if (found) return found;
    }
  }
  if (schema.items !== undefined) {
    const found = strictProblem(schema.items, [...path, "items"]);
    if (found) return found;
  }
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf)) return `${where}, 'anyOf' must be an array.`;
    for (const [index, child] of schema.anyOf.entries()) {
      const found = strictProblem(child, [...path, "anyOf", String(index)]);
      if (found) return found;
    }
  }
  for (const defsKey of ["$defs", "definitions"]) {
    const defs = schema[defsKey] as Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(defs ?? {})) {
      const found = strictProblem(child, [...path, defsKey, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The conversation's tool rounds: every `tool` message answers a call of the assistant message with tool calls
 * just before it (other tool messages between), and every such call is answered before the next other message.
 */
function conversationProblem(messages: ChatMessage[]): RequestProblem | undefined {
  let open: { index: number; ids: string[]; answered: Set<string> } | undefined;
  const unanswered = () => {
    const missing = open!.ids.filter((id) => !open!.answered.has(id));
    return missing.length === 0
      ? undefined
      : problem(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
          `messages.[${open!.index}].role`,
        );
  };
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (!open || !open.ids.includes(message.tool_call_id!)) {
        return problem(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      open.answered.add(message.tool_call_id!);
      continue;
    }
    if (open) {
      const found = unanswered();
      if (found) return found;
      open = undefined;
    }
    if (message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0)
      open = { index, ids: message.tool_calls!.map((call) => call.id!), answered: new Set() };
  }
  return open ? unanswered() : undefined;
}

/** Things OpenAI accepts but a careful client would not send (reported, not refused). */
export function requestNotes(body: ChatRequestBody): string[] {
  const notes: string[] = [];
  for (const [index, message] of (body.messages ?? []).entries()) {
    const text =
      typeof message.content === "string"
        ? message.content
        : (message.content ?? []).map((part) => part.text ?? "").join("");
    if (text.trim() === "" && !(message.role === "assistant" && message.tool_calls?.length))
      notes.push(`messages[${index}] (${message.role}) has empty content`);
  }
  return notes;
}
