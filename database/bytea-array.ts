/**
 * A fast reader of `bytea[]` columns in text form. PostgresSaver reads a checkpoint's channel blobs and pending writes
 * as arrays of bytea (`array_agg(array[channel::bytea, type::bytea, blob])`), and node-postgres parses those with
 * `postgres-array`, one character at a time into strings, then each element from hex: about 4 % of a conversation's
 * CPU. Postgres writes a bytea element in hex as `"\\x0a1b…"` (quoted, its backslash escaped) or `NULL`, so each
 * element is found with `indexOf` and decoded by `Buffer.from(…, "hex")`. Anything else (the old escape output,
 * explicit bounds) goes to node-postgres's own parser.
 */
import pg from "pg";

/** OID of `bytea[]`. */
export const BYTEA_ARRAY_OID = 1001;

/** Thrown inside {@link parseByteaArray} for text it does not read fast; it then falls back. */
class NotHexArray extends Error {}

/** `bytea[]` text (any number of dimensions) as nested arrays of Buffers and nulls, like node-postgres's parser. */
export function parseByteaArray(text: string): unknown[] {
  let index = 0;
  const readArray = (): unknown[] => {
    index += 1; // "{"
    const elements: unknown[] = [];
    if (text[index] === "}") {
      index += 1;
      return elements;
    }
    for (;;) {
      const first = text[index];
      if (first === "{") elements.push(readArray());
      else if (first === '"' && text.startsWith("\\\\x", index + 1)) {
        const end = text.indexOf('"', index + 4);
        if (end < 0 || (end - index - 4) % 2 !== 0) throw new NotHexArray();
        elements.push(Buffer.from(text.slice(index + 4, end), "hex"));
        index = end + 1;
      } else if (text.startsWith("NULL", index)) {
        elements.push(null);
        index += 4;
      } else throw new NotHexArray();
      const separator = text[index];
      index += 1;
      if (separator === "}") return elements;
      if (separator !== ",") throw new NotHexArray();
    }
  };
  try {
    if (text[0] !== "{") throw new NotHexArray();
    const parsed = readArray();
    if (index !== text.length) throw new NotHexArray();
    return parsed;
  } catch (error) {
    if (!(error instanceof NotHexArray)) throw error;
    return (pg.types.getTypeParser(BYTEA_ARRAY_OID as never, "text") as (value: string) => unknown[])(text);
  }
}

/** node-postgres's type parsers, with {@link parseByteaArray} for `bytea[]` in text form (a pool's `types`). */
export const tempoTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === BYTEA_ARRAY_OID && format !== "binary") return parseByteaArray;
    return pg.types.getTypeParser(oid as never, format);
  },
} as pg.CustomTypesConfig;
