/**
 * The saver's serializer: LangGraph's own `JsonPlusSerializer` (what PostgresSaver writes and reads by default), with
 * one shortcut when reading. Its reader rebuilds every object and array of a stored value through an awaited call per
 * node — thousands of promises for one load of a thread's writes, each one through the process's async hooks — only
 * to find the records it turns back into objects, all of which carry an `lc` key (LangChain objects, `undefined`,
 * Set, Map, RegExp, Error, bytes, delta snapshots). A value without any `lc` key rebuilds to exactly the JSON it
 * parses to, so it is returned as parsed (issue 44.8: about a tenth of a conversation's allocations were this
 * rebuild). Any other value, and one with a `__proto__` key (the rebuild assigns it, which sets the prototype), goes
 * through the official reader unchanged. Writing is not touched: what is stored stays byte for byte the same.
 */
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";

/** `JsonPlusSerializer` that reads a value with no `lc` record without rebuilding it (see the module comment). */
export class CheckpointSerializer extends JsonPlusSerializer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official signature returns any
  protected override async _loads(data: string): Promise<any> {
    // The text test only skips a parse when a record is certain to be there; the walk decides for every other value.
    if (!data.includes('"lc"')) {
      const parsed: unknown = JSON.parse(data);
      if (isPlainJson(parsed)) return parsed;
    }
    return super._loads(data);
  }
}

/** True when no object in `value` has an `lc` or a `__proto__` key: the official reader would rebuild it as it is. */
export function isPlainJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    for (const key of Object.keys(next)) {
      if (key === "lc" || key === "__proto__") return false;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return true;
}
