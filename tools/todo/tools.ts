/**
 * The to-do tools: one read (`list_todos`) and four writes (`add_todo`, `complete_todo`, `reopen_todo`,
 * `remove_todo`). Pure functions over `TodoState`; each gives its result as text for the model and as data
 * (`ToolRun.data`) for programs: the offline policy reads the data.
 */
import { z } from "zod";
import { PLAIN_NAME_RULE, plainNameField } from "../../contracts/plain-name.js";
import type { DomainTool, ToolRun } from "../domain.js";
import { MAX_TODO_ITEMS, MAX_TODO_TITLE_LENGTH, nextTodoId, type TodoItem, type TodoState } from "./state.js";

/** Which items `list_todos` lists. */
export type TodoStatusFilter = "open" | "done" | "all";

/** What `list_todos` gives as data. */
export interface TodoListData {
  status: TodoStatusFilter;
  /** The items listed, in list order. */
  items: TodoItem[];
  /** Items in the whole list (open and done). */
  total: number;
}

/** What a to-do write gives as data: the item as it is after the write (as it was, for a removal). */
export interface TodoWriteData {
  item: TodoItem;
}

/** The line naming an item: `todo-3 "Buy index cards" (open)`. */
export function todoLine(item: TodoItem): string {
  return `${item.id} ${JSON.stringify(item.title)} (${item.done ? "done" : "open"})`;
}

function failed(message: string): ToolRun<TodoState> {
  return { ok: false, content: `error: ${message}` };
}

const idField = z.string().trim().min(1).describe("Id of a to-do item (todo-<n>, from list_todos).");

/** The item `id` of `state`, or a failure that lists the ids there are. */
function itemOf(state: TodoState, id: string): TodoItem | ToolRun<TodoState> {
  const item = state.items.find((candidate) => candidate.id === id);
  if (item) return item;
  const ids = state.items.map((candidate) => candidate.id).join(", ") || "none";
  return failed(`no to-do item has the id ${JSON.stringify(id)} (ids: ${ids}); call list_todos with status=all`);
}

function isItem(value: TodoItem | ToolRun<TodoState>): value is TodoItem {
  return "id" in value;
}

/** `state` with `item` in place of the item of its id. */
function withItem(state: TodoState, item: TodoItem): TodoState {
  return { items: state.items.map((candidate) => (candidate.id === item.id ? item : candidate)) };
}

export const listTodosTool: DomainTool<TodoState, { status: TodoStatusFilter }> = {
  name: "list_todos",
  description: "Lists the user's to-do items with their ids: the open ones (default), the done ones, or all.",
  schema: z.object({
    status: z.enum(["open", "done", "all"]).default("open").describe("Which items: open (default), done or all."),
  }),
  kind: "read",
  run(state, args) {
    const items = state.items.filter((item) => args.status === "all" || item.done === (args.status === "done"));
    const heading = `to-do items (${args.status}): ${items.length} of ${state.items.length}`;
    const data: TodoListData = {
      status: args.status,
      items: items.map((item) => ({ ...item })),
      total: state.items.length,
    };
    return { ok: true, content: [heading, ...items.map((item) => `- ${todoLine(item)}`)].join("\n"), data };
  },
};

export const addTodoTool: DomainTool<TodoState, { title: string }> = {
  name: "add_todo",
  description: "Adds an open item to the user's to-do list; the list gives it its id.",
  schema: z.object({
    title: plainNameField(MAX_TODO_TITLE_LENGTH).describe(
      `What is to be done, as the user said it (at most ${MAX_TODO_TITLE_LENGTH} characters). ${PLAIN_NAME_RULE}`,
    ),
  }),
  kind: "write",
  run(state, args) {
    const same = state.items.find((item) => !item.done && item.title.toLowerCase() === args.title.toLowerCase());
    if (same) return failed(`the open to-do ${todoLine(same)} already says that; nothing was added`);
    if (state.items.length >= MAX_TODO_ITEMS)
      return failed(`the list holds ${MAX_TODO_ITEMS} items, its most; remove done items first`);
    const item: TodoItem = { id: nextTodoId(state), title: args.title, done: false };
    const data: TodoWriteData = { item };
    return { ok: true, content: `added to-do ${todoLine(item)}`, state: { items: [...state.items, item] }, data };
  },
};

/** A write that sets an item's done flag to `done` (complete_todo, reopen_todo). */
function doneFlagTool(
  name: string,
  description: string,
  done: boolean,
  verb: string,
): DomainTool<TodoState, { id: string }> {
  return {
    name,
    description,
    schema: z.object({ id: idField }),
    kind: "write",
    run(state, args) {
      const found = itemOf(state, args.id);
      if (!isItem(found)) return found;
      if (found.done === done) return failed(`the to-do ${todoLine(found)} is already ${done ? "done" : "open"}`);
      const item = { ...found, done };
      return {
        ok: true,
        content: `${verb} to-do ${todoLine(item)}`,
        state: withItem(state, item),
        data: { item } satisfies TodoWriteData,
      };
    },
  };
}

export const completeTodoTool = doneFlagTool("complete_todo", "Marks an open to-do item done.", true, "marked");

export const reopenTodoTool = doneFlagTool("reopen_todo", "Opens a done to-do item again.", false, "reopened");

export const removeTodoTool: DomainTool<TodoState, { id: string }> = {
  name: "remove_todo",
  description: "Removes an item from the to-do list for good (to record it as finished, use complete_todo).",
  schema: z.object({ id: idField }),
  kind: "write",
  run(state, args) {
    const found = itemOf(state, args.id);
    if (!isItem(found)) return found;
    return {
      ok: true,
      content: `removed to-do ${todoLine(found)}`,
      state: { items: state.items.filter((item) => item.id !== found.id) },
      data: { item: found } satisfies TodoWriteData,
    };
  },
};

/** Every to-do tool, in the order the model is shown them. */
export const todoTools: ReadonlyArray<DomainTool<TodoState>> = [
  listTodosTool,
  addTodoTool,
  completeTodoTool,
  reopenTodoTool,
  removeTodoTool,
];
