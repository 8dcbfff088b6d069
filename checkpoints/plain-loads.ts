/**
 * The saver's serializer: LangGraph's own `JsonPlusSerializer` (what PostgresSaver writes and reads by default), with
 * a faster read. Its reader rebuilds every object and array of a stored value through an awaited call per node —
 * thousands of promises for one load of a thread's writes, each one through the process's async hooks — only to find
 * the records it turns back into objects, all of which carry an `lc` key. Here the parsed value is walked once,
 * without promises, and kept as parsed where the rebuild would give the same JSON (issue 44.8: about a tenth of a
 * conversation's allocations were this rebuild). The records the load conversation stores are revived as the official
 * reader revives them: a LangChain object (`lc: 1`, a message) through `load` of its JSON, an `undefined` record as
 * undefined. Any other record (Set, Map, RegExp, Error, bytes, a delta snapshot, a LangChain object holding another
 * record) and any `__proto__` key (the rebuild assigns it, which sets the prototype) send the whole value through the
 * official reader unchanged. Writing is not touched: what is stored stays byte for byte the same.
 */
import { load } from "@langchain/core/load";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";

/** Where a record sits in the parsed value: its holder (an object or an array) and its key there. */
interface Slot {
  holder: Record<string | number, unknown>;
  key: string | number;
}

/** `JsonPlusSerializer` that reads without the per-node rebuild (see the module comment). */
export class CheckpointSerializer extends JsonPlusSerializer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official signature returns any
  protected override async _loads(data: string): Promise<any> {
    // A box around the value, so that a record at the top has a slot like any other.
    const box: unknown[] = [JSON.parse(data)];
    const objects = recordsToRevive(box);
    if (objects === undefined) return super._loads(data);
    await Promise.all(
      objects.map(async ({ holder, key }) => {
        holder[key] = await load(JSON.stringify(holder[key]));
      }),
    );
    return box[0];
  }
}

/**
 * Walks the parsed value in `box`: sets each `undefined` record to undefined in place and returns the slots of the
 * LangChain objects to revive with `load` (once their own fields are revived, as the official reader does) — or
 * undefined when the value holds anything the official reader must rebuild itself.
 */
export function recordsToRevive(box: unknown[]): Slot[] | undefined {
  const objects: Slot[] = [];
  const pending: Array<Slot & { inObject: boolean }> = [
    { holder: box as unknown as Slot["holder"], key: 0, inObject: false },
  ];
  while (pending.length > 0) {
    const { holder, key, inObject } = pending.pop()!;
    const value = holder[key];
    if (value === null || typeof value !== "object") continue;
    const node = value as Slot["holder"];
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) pending.push({ holder: node, key: index, inObject });
      continue;
    }
    const keys = Object.keys(node);
    if (keys.includes("__proto__")) return undefined;
    const isObject = node.lc === 1 && node.type === "constructor" && Array.isArray(node.id);
    if (!keys.includes("lc")) {
      for (const child of keys) pending.push({ holder: node, key: child, inObject });
    } else if (node.lc === 2 && node.type === "undefined") {
      // Its fields are revived and dropped: kept only when reviving them could do nothing else.
      if (!keys.every((child) => child === "lc" || isPlainJson(node[child]))) return undefined;
      holder[key] = undefined;
    } else if (isObject && !inObject) {
      objects.push({ holder, key });
      for (const child of keys) if (child !== "lc") pending.push({ holder: node, key: child, inObject: true });
    } else return undefined;
  }
  return objects;
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
