/**
 * The to-do domain's data: a user's list of to-do items, in the order they were added. An item is open until it is
 * marked done; its id (`todo-<n>`) is given by the list when it is added and never reused while the list holds it.
 */
import { z } from "zod";
import { TempoError } from "../../errors/index.js";

/** One to-do item. */
export interface TodoItem {
  /** `todo-<n>`. */
  id: string;
  title: string;
  done: boolean;
}

/** A user's to-do list. */
export interface TodoState {
  items: TodoItem[];
}

/** Longest title an item may have. */
export const MAX_TODO_TITLE_LENGTH = 200;

/** Most items one list holds. */
export const MAX_TODO_ITEMS = 500;

const TodoItemSchema = z.object({
  id: z.string().regex(/^todo-\d+$/, "an id is todo-<number>"),
  title: z.string().trim().min(1).max(MAX_TODO_TITLE_LENGTH),
  done: z.boolean(),
});

const TodoStateSchema = z.object({ items: z.array(TodoItemSchema).max(MAX_TODO_ITEMS) });

/** A stored or supplied to-do list breaks the data model (bad shape, two items of one id). */
export class InvalidTodoListError extends TempoError {
  constructor(problems: readonly string[]) {
    super("INVALID_INPUT", `The to-do list is not valid: ${problems.slice(0, 5).join("; ")}.`, {
      problems: [...problems],
    });
    this.name = "InvalidTodoListError";
  }
}

/**
 * A change no longer fits the stored list (another write got there first: the item is gone, or its id was taken).
 * Nothing was applied.
 */
export class TodoConflictError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("DOMAIN_CONFLICT", `${message} Nothing was applied; reload the to-do list and try again.`, details);
    this.name = "TodoConflictError";
  }
}

/** `value` as a valid to-do list (a fresh copy), or an InvalidTodoListError naming every problem. */
export function parseTodoState(value: unknown): TodoState {
  const parsed = TodoStateSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidTodoListError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(list)"}: ${issue.message}`),
    );
  const seen = new Set<string>();
  const twice = parsed.data.items.filter((item) => (seen.has(item.id) ? true : (seen.add(item.id), false)));
  if (twice.length > 0) throw new InvalidTodoListError(twice.map((item) => `two items have the id ${item.id}`));
  return { items: parsed.data.items.map((item) => ({ ...item })) };
}

/** The id the next added item gets: one past the highest number in use. */
export function nextTodoId(state: TodoState): string {
  const highest = state.items.reduce((most, item) => Math.max(most, Number(item.id.slice("todo-".length)) || 0), 0);
  return `todo-${highest + 1}`;
}

/**
 * One change to a list, as persisted: an item added, changed (its title or done flag) or removed. The repository
 * replays them on the stored list.
 */
export type TodoChange =
  { kind: "add"; item: TodoItem } | { kind: "update"; item: TodoItem } | { kind: "remove"; id: string };

/** The changes that turn `before` into `after`, in `after`'s order (removals first). */
export function diffTodoState(before: TodoState, after: TodoState): TodoChange[] {
  const old = new Map(before.items.map((item) => [item.id, item]));
  const kept = new Set(after.items.map((item) => item.id));
  const changes: TodoChange[] = before.items
    .filter((item) => !kept.has(item.id))
    .map((item) => ({ kind: "remove", id: item.id }));
  for (const item of after.items) {
    const was = old.get(item.id);
    if (!was) changes.push({ kind: "add", item: { ...item } });
    else if (was.title !== item.title || was.done !== item.done) changes.push({ kind: "update", item: { ...item } });
  }
  return changes;
}

/** `state` with `changes` applied (a new list); a TodoConflictError when one no longer fits it. */
export function applyTodoChanges(state: TodoState, changes: readonly TodoChange[]): TodoState {
  let items = state.items.map((item) => ({ ...item }));
  for (const change of changes) {
    if (change.kind === "add") {
      if (items.some((item) => item.id === change.item.id))
        throw new TodoConflictError(`The to-do list already has an item ${change.item.id}.`, { id: change.item.id });
      items = [...items, { ...change.item }];
      continue;
    }
    const id = change.kind === "remove" ? change.id : change.item.id;
    if (!items.some((item) => item.id === id))
      throw new TodoConflictError(`The to-do list has no item ${id} any more.`, { id });
    items =
      change.kind === "remove"
        ? items.filter((item) => item.id !== id)
        : items.map((item) => (item.id === id ? { ...change.item } : item));
  }
  return { items };
}
