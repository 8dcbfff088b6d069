/**
 * Where to-do lists live. Like every domain's repository, it only applies what it is given: the runner claims each
 * write in the execution log and hands the repository its transaction (`PersistOptions.client`), so a write
 * applies once (tools/runner.ts).
 */
import type { PersistOptions } from "../domain.js";
import { applyTodoChanges, parseTodoState, type TodoChange, type TodoState } from "./state.js";

/** Storage of users' to-do lists. */
export interface TodoRepository {
  /** The user's list (a fresh copy); an empty list for a user with none. */
  load(userId: string): Promise<TodoState>;
  /** True once the user has a list (even an emptied one). */
  has(userId: string): Promise<boolean>;
  /** Applies `changes` all or nothing, or throws `TodoConflictError` (nothing applied) when one no longer fits. */
  applyChanges(userId: string, changes: readonly TodoChange[], options: PersistOptions): Promise<void>;
  /** Replaces the user's list with `state` (validated first: `InvalidTodoListError`). */
  seed(userId: string, state: TodoState): Promise<void>;
}

/** To-do lists in process memory (tests, and a runtime with no Postgres). */
export class InMemoryTodoRepository implements TodoRepository {
  private readonly lists = new Map<string, TodoState>();

  async load(userId: string): Promise<TodoState> {
    return structuredClone(this.lists.get(userId) ?? { items: [] });
  }

  async has(userId: string): Promise<boolean> {
    return this.lists.has(userId);
  }

  async applyChanges(userId: string, changes: readonly TodoChange[], _options: PersistOptions): Promise<void> {
    this.lists.set(userId, applyTodoChanges(this.lists.get(userId) ?? { items: [] }, changes));
  }

  async seed(userId: string, state: TodoState): Promise<void> {
    this.lists.set(userId, parseTodoState(structuredClone(state)));
  }
}

/** A few things a student has to do, for a user with no list yet (`TEMPO_SAMPLE_DATA`). */
export function sampleTodos(): TodoState {
  return {
    items: [
      { id: "todo-1", title: "Email the calculus TA about the midterm", done: false },
      { id: "todo-2", title: "Return the linear algebra library books", done: false },
      { id: "todo-3", title: "Buy index cards for flashcards", done: false },
      { id: "todo-4", title: "Print the physics lab sheet", done: true },
    ],
  };
}

/** `repository`, where a user with no list gets the sample list the first time theirs is loaded. */
export function withSampleTodos(repository: TodoRepository, sample: () => TodoState = sampleTodos): TodoRepository {
  return {
    async load(userId) {
      if (!(await repository.has(userId))) await repository.seed(userId, sample());
      return repository.load(userId);
    },
    has: (userId) => repository.has(userId),
    applyChanges: (userId, changes, options) => repository.applyChanges(userId, changes, options),
    seed: (userId, state) => repository.seed(userId, state),
  };
}
