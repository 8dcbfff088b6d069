/** The to-do domain: a small second tool domain, and the worked example of docs/writing-a-domain.md. */
export {
  createTodoDomain,
  describeTodoCall,
  TODO_DOMAIN_DESCRIPTION,
  TODO_DOMAIN_VERSION,
  TODO_PACKS,
} from "./domain.js";
export { todoPlugin } from "./plugin.js";
export { PostgresTodoRepository, TODO_MIGRATION_STATEMENTS } from "./postgres-repository.js";
export { InMemoryTodoRepository, sampleTodos, withSampleTodos, type TodoRepository } from "./repository.js";
export {
  applyTodoChanges,
  diffTodoState,
  InvalidTodoListError,
  nextTodoId,
  parseTodoState,
  TodoConflictError,
  type TodoChange,
  type TodoItem,
  type TodoState,
} from "./state.js";
export {
  addTodoTool,
  completeTodoTool,
  listTodosTool,
  removeTodoTool,
  reopenTodoTool,
  todoLine,
  todoTools,
  type TodoListData,
  type TodoWriteData,
} from "./tools.js";
