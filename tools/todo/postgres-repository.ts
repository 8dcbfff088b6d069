/**
 * A `TodoRepository` on Postgres: `tempo_todo_lists` (one row a user: whose list exists, and the row every write of
 * that user locks first) and `tempo_todo_items` (one row an item, in list order). Every statement is parameterised;
 * the tables are migrated idempotently under an advisory lock.
 */
import type pg from "pg";
import { inTransaction, onceUntilFailure, runMigration } from "../../database/index.js";
import type { PersistOptions, TransactionClient } from "../domain.js";
import type { TodoRepository } from "./repository.js";
import { applyTodoChanges, parseTodoState, type TodoChange, type TodoItem, type TodoState } from "./state.js";

/** The migration, statement by statement; each is idempotent. */
export const TODO_MIGRATION_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS tempo_todo_lists (
    user_id text PRIMARY KEY,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS tempo_todo_items (
    user_id text NOT NULL REFERENCES tempo_todo_lists (user_id) ON DELETE CASCADE,
    item_id text NOT NULL,
    position integer NOT NULL,
    title text NOT NULL,
    done boolean NOT NULL DEFAULT false,
    PRIMARY KEY (user_id, item_id)
  )`,
];

interface ItemRow {
  item_id: string;
  title: string;
  done: boolean;
}

/** Something that runs queries: the pool, or a client inside a transaction. */
type Queryable = Pick<pg.Pool, "query"> | TransactionClient;

/** To-do lists in Postgres, per user. */
export class PostgresTodoRepository implements TodoRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Creates the tables if needed (idempotent, under an advisory lock); the other methods call it once by themselves. */
  readonly migrate = onceUntilFailure(() => runMigration(this.pool, "tempo_todo_migrate", TODO_MIGRATION_STATEMENTS));

  async load(userId: string): Promise<TodoState> {
    await this.migrate();
    return { items: await readItems(this.pool, userId) };
  }

  async has(userId: string): Promise<boolean> {
    await this.migrate();
    const found = await this.pool.query("SELECT 1 FROM tempo_todo_lists WHERE user_id = $1", [userId]);
    return (found.rowCount ?? 0) > 0;
  }

  /** Applies the changes, all or nothing: in the runner's transaction (`options.client`), or in one of its own. */
  async applyChanges(userId: string, changes: readonly TodoChange[], options: PersistOptions): Promise<void> {
    // Migrated at build; never from inside the caller's transaction (the migration's lock takes another connection).
    await this.migrate();
    const apply = async (client: Queryable) => {
      // The list row first, locked: one user's writes apply one after another.
      await client.query("INSERT INTO tempo_todo_lists (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING", [
        userId,
      ]);
      await client.query("SELECT 1 FROM tempo_todo_lists WHERE user_id = $1 FOR UPDATE", [userId]);
      const stored = await readItems(client, userId);
      // Checks every change against the stored list first (TodoConflictError): nothing is written unless all fit.
      applyTodoChanges({ items: stored }, changes);
      for (const change of changes) {
        if (change.kind === "remove") {
          await client.query("DELETE FROM tempo_todo_items WHERE user_id = $1 AND item_id = $2", [userId, change.id]);
        } else if (change.kind === "update") {
          await client.query("UPDATE tempo_todo_items SET title = $3, done = $4 WHERE user_id = $1 AND item_id = $2", [
            userId,
            change.item.id,
            change.item.title,
            change.item.done,
          ]);
        } else {
          // After the last item: positions only grow (a removal leaves a gap, never a tie).
          await client.query(
            "INSERT INTO tempo_todo_items (user_id, item_id, position, title, done) SELECT $1, $2, coalesce(max(position), -1) + 1, $3, $4 FROM tempo_todo_items WHERE user_id = $1",
            [userId, change.item.id, change.item.title, change.item.done],
          );
        }
      }
      await client.query("UPDATE tempo_todo_lists SET updated_at = now() WHERE user_id = $1", [userId]);
    };
    if (options.client) await apply(options.client);
    else await inTransaction(this.pool, apply);
  }

  /** Validates `state` and replaces the user's list with it, in one transaction. */
  async seed(userId: string, state: TodoState): Promise<void> {
    const valid = parseTodoState(state);
    await this.migrate();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        "INSERT INTO tempo_todo_lists (user_id) VALUES ($1) ON CONFLICT (user_id) DO UPDATE SET updated_at = now()",
        [userId],
      );
      await client.query("DELETE FROM tempo_todo_items WHERE user_id = $1", [userId]);
      for (const [position, item] of valid.items.entries()) {
        await client.query(
          "INSERT INTO tempo_todo_items (user_id, item_id, position, title, done) VALUES ($1, $2, $3, $4, $5)",
          [userId, item.id, position, item.title, item.done],
        );
      }
    });
  }
}

/** The user's items in list order. */
async function readItems(queryable: Queryable, userId: string): Promise<TodoItem[]> {
  const result = (await queryable.query(
    "SELECT item_id, title, done FROM tempo_todo_items WHERE user_id = $1 ORDER BY position, item_id",
    [userId],
  )) as pg.QueryResult<ItemRow>;
  return result.rows.map((row) => ({ id: row.item_id, title: row.title, done: row.done }));
}
