/** Validating a model's raw output against a stage contract. */
import type { z } from "zod";
import { extractJsonObject } from "./json-extraction.js";

export type ContractParse<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Parses `raw` (text or an already-structured object) against `schema`, describing what is wrong when it fails. */
export function parseContract<T>(schema: z.ZodType<T>, raw: unknown): ContractParse<T> {
  const candidate = typeof raw === "string" ? extractJsonObject(raw) : raw;
  if (candidate === undefined || candidate === null) {
    const text = typeof raw === "string" ? raw.trim() : "";
    return { ok: false, problem: text === "" ? "the output was empty" : "no JSON object was found in the output" };
  }
  const result = schema.safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
  return { ok: false, problem: `the JSON did not match the contract (${issues})` };
}
