/** The to-do tool domain: the to-do tools over a user's list, loaded from and persisted (as changes) to a `TodoRepository`. */
import { say, type Language } from "../../contracts/language.js";
import type { ToolDomain, ToolPack } from "../domain.js";
import type { TodoRepository } from "./repository.js";
import { diffTodoState, type TodoState } from "./state.js";
import { todoTools } from "./tools.js";

/** Version of the tools (names, kinds, arguments): bump it whenever they change (saved threads then replan). */
export const TODO_DOMAIN_VERSION = "todo-2";

/** What the domain is about, for the system prompt. */
export const TODO_DOMAIN_DESCRIPTION =
  "The user's to-do list: short items (todo-<n>) that are open until marked done; items can be added, completed, reopened and removed.";

/** Reading the list is active when a step starts; changing it too in a plan that writes (a call to its tools brings it in anyway). */
export const TODO_PACKS: readonly ToolPack[] = [
  { name: "todo.read", description: "the to-do list: its items and their ids", tools: ["list_todos"], default: true },
  {
    name: "todo.edit",
    description: "add, complete, reopen or remove a to-do item (each through a card)",
    tools: ["add_todo", "complete_todo", "reopen_todo", "remove_todo"],
    default: "writing",
  },
];

/** Builds the "todo" domain on a repository. */
export function createTodoDomain(options: { repository: TodoRepository; version?: string }): ToolDomain<TodoState> {
  const { repository } = options;
  return {
    name: "todo",
    version: options.version ?? TODO_DOMAIN_VERSION,
    description: TODO_DOMAIN_DESCRIPTION,
    tools: todoTools,
    packs: TODO_PACKS,
    preflight: { tool: "list_todos", arguments: { status: "all" } },
    describeCall: describeTodoCall,
    // No `openItems`: an open to-do is not work a task left undone (adding one leaves it open by design); a
    // declined or failed write says so in its step's summary.
    load: (userId) => repository.load(userId),
    persist: (userId, before, after, persistOptions) =>
      repository.applyChanges(userId, diffTodoState(before, after), persistOptions),
  };
}

/** A to-do write as its card names it, in the user's language; undefined for a call it cannot name (an unknown id). */
export function describeTodoCall(
  state: TodoState,
  tool: string,
  args: Record<string, unknown>,
  language: Language = "en",
): string | undefined {
  if (tool === "add_todo")
    return typeof args.title === "string"
      ? say(language, `Add the to-do ${JSON.stringify(args.title)}`, `添加待办“${args.title}”`)
      : undefined;
  const item = state.items.find((candidate) => candidate.id === args.id);
  if (!item) return undefined;
  const title = JSON.stringify(item.title);
  switch (tool) {
    case "complete_todo":
      return say(language, `Mark the to-do ${title} done`, `把待办“${item.title}”标记为完成`);
    case "reopen_todo":
      return say(language, `Reopen the to-do ${title}`, `重新打开待办“${item.title}”`);
    case "remove_todo":
      return say(language, `Remove the to-do ${title}`, `删除待办“${item.title}”`);
    default:
      return undefined;
  }
}
