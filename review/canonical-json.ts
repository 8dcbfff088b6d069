/**
 * The one canonical JSON of Tempo's review (issue 45): an object's keys sorted at every depth, so two values that
 * differ only in key order read the same. The echoed arguments of an answer are compared with the card's in it
 * (`resume.ts`), and an approval records its call in it (`approvals.ts`: stored approvals keep this exact text).
 * The schedule's own canonical form (`tools/schedule/canonical-form.ts`) is another thing: typed builders that give
 * tasks a fixed key order, below this room (tools/ does not import review/).
 */

/** `value` as JSON with every object's keys sorted (undefined properties left out, as `JSON.stringify` does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
