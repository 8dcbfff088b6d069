/** Ids of the messages Tempo makes (nodes and transitions alike). */
import { randomUUID } from "node:crypto";

/** A fresh message id. */
export function newId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
