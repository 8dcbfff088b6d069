/**
 * The to-do tools' data read back from their text (`tools/todo/tools.ts`), for a reader that has only the text: a
 * model-server double, which receives each tool result as OpenAI sends it. Programs in process read the data itself.
 */
import type { TodoItem } from "../../tools/todo/state.js";
import type { TodoListData, TodoStatusFilter, TodoWriteData } from "../../tools/todo/tools.js";

/** `todo-3 "Buy index cards" (open)`: an item as `todoLine` writes it. */
const ITEM = /^(\S+) ("(?:[^"\\]|\\.)*") \((open|done)\)$/;

function itemOf(line: string): TodoItem | undefined {
  const match = ITEM.exec(line);
  if (!match) return undefined;
  return { id: match[1]!, title: JSON.parse(match[2]!) as string, done: match[3] === "done" };
}

/** A write's verb in its text, by tool. */
const WRITE_VERBS: Readonly<Record<string, string>> = {
  add_todo: "added",
  complete_todo: "marked",
  reopen_todo: "reopened",
  remove_todo: "removed",
};

/** The data a to-do tool gives beside `content`, read back from the text; undefined for a failure or other text. */
export function parseTodoToolData(name: string, content: string): TodoListData | TodoWriteData | undefined {
  if (content.startsWith("error:")) return undefined;
  if (name === "list_todos") {
    const [heading = "", ...lines] = content.split("\n");
    const head = /^to-do items \((open|done|all)\): (\d+) of (\d+)$/.exec(heading);
    if (!head) return undefined;
    const items = lines.map((line) => itemOf(line.replace(/^- /, "")));
    if (items.some((item) => item === undefined) || items.length !== Number(head[2])) return undefined;
    return { status: head[1] as TodoStatusFilter, items: items as TodoItem[], total: Number(head[3]) };
  }
  const verb = WRITE_VERBS[name];
  if (verb === undefined || !content.startsWith(`${verb} to-do `)) return undefined;
  const item = itemOf(content.slice(`${verb} to-do `.length));
  return item ? { item } : undefined;
}
