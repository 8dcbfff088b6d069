/** The to-do domain as a plug-in (`tools/plugin.ts`): its repository (Postgres or memory), and sample list (its offline policy: `offline/todo/`). */
import type { DomainPlugin } from "../plugin.js";
import { createTodoDomain } from "./domain.js";
import { PostgresTodoRepository } from "./postgres-repository.js";
import { InMemoryTodoRepository, withSampleTodos, type TodoRepository } from "./repository.js";
import type { TodoState } from "./state.js";

export const todoPlugin: DomainPlugin<TodoState, TodoRepository> = {
  name: "todo",
  summary: "a to-do list: add, complete, reopen and remove items",
  async build({ pool, sampleData }) {
    let base: TodoRepository;
    if (pool) {
      const postgres = new PostgresTodoRepository(pool);
      await postgres.migrate();
      base = postgres;
    } else {
      base = new InMemoryTodoRepository();
    }
    const repository = sampleData ? withSampleTodos(base) : base;
    return { domain: createTodoDomain({ repository }), repository };
  },
  demoRequest: 'Add "Book a study room for Thursday" to my to-do list.',
};
