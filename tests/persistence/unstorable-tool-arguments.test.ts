/**
 * Text PostgreSQL cannot store in a model's tool arguments (issue 44.4): a NUL (`\u0000`, refused by `text` and
 * `jsonb`) or a lone surrogate (`\ud800`, refused by `jsonb`), in a value, a nested value or a key. The tool's
 * argument check refuses it with an error the model reads as the tool's result — no card shows such a write — and
 * the execution log stores the refused call, so the thread goes on: the model calls again with clean text, the card
 * shows it, and it applies. A `done` whose goal check or answer holds such text is corrected like any invalid output. Played through the whole graph with a scripted model, on Postgres (Tempo's checkpointer,
 * the Postgres execution log, the memory store, the to-do list in Postgres).
 */
import { AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import type { TodoRepository } from "../../tools/todo/repository.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { approveCard, interruptsOf, json, planDone, scripted, stepsOf } from "../support/scripted.js";
import { openDomainsOnDatabase, type DomainsOnDatabase } from "./domains-on-database.js";
import { userMessage } from "./tempo-on-database.js";

const NUL = "\u0000";
const LONE_HIGH = "\ud800";

let callCount = 0;
/** The execute model's native tool call. */
const calling = (name: string, args: Record<string, unknown>) =>
  new AIMessage({ content: "", tool_calls: [{ id: `call-${(callCount += 1)}`, name, args, type: "tool_call" }] });

/** The tool messages of the thread, as "name: content". */
function toolResults(messages: BaseMessage[]): string[] {
  return messages
    .filter((message) => message.getType() === "tool")
    .map((message) => `${(message as ToolMessage).name}: ${String(message.content)}`);
}

for (const target of postgresTargets()) {
  describe(`${target.kind} postgres: unstorable text in a model's tool arguments`, () => {
    let server: TestPostgres | undefined;
    let tempo: DomainsOnDatabase | undefined;
    beforeAll(async () => {
      server = await target.start();
    });
    afterAll(async () => {
      await tempo?.close();
      await server?.stop();
    });

    test("a read and writes holding a NUL or a lone surrogate are refused as tool errors; the model calls again and the write applies", async () => {
      const execute = scripted([
        // A read with a NUL in a key it does not even use: refused, and logged.
        calling("list_todos", { status: "all", [`note${NUL}`]: "x" }),
        // A write whose title holds a NUL: refused before any card.
        calling("add_todo", { title: `Call${NUL} mom` }),
        // Reads the list clean (the step's tool errors start again from none).
        calling("list_todos", { status: "all" }),
        // A lone surrogate: refused too.
        calling("add_todo", { title: `Call ${LONE_HIGH}mom` }),
        calling("add_todo", { title: "Call mom" }),
        // The step's end and the answer holding a NUL: an output to correct (they would fail where they are stored).
        calling("done", { goal_check: `the to-do is on the list${NUL}`, answer: `Added${NUL} it.` }),
        calling("done", { goal_check: "the to-do is on the list" }),
      ]);
      tempo = await openDomainsOnDatabase(server!.url, {
        domains: "todo",
        models: {
          default: scripted([json({ intent: "task", reply: "", reason: "a change to the list" })]),
          plan: scripted([planDone(stepsOf("Add the to-do"), { speak: "One step.", complexity: "simple" })]),
          execute,
          deliver: scripted(["Added."]),
          toolCalling: "native",
        },
      });
      const config: RunnableConfig = {
        configurable: { thread_id: `unstorable-${target.kind}`, user_id: "student-unstorable" },
      };
      let result: object = await tempo.graph.invoke(userMessage('Add "Call mom" to my to-do list'), config);
      result = await tempo.graph.invoke(approveCard(result), config); // the plan
      const card = interruptsOf(result)[0]?.value as {
        action_requests: Array<{ name: string; args: Record<string, unknown> }>;
      };
      // The only card is the clean write's.
      expect(card.action_requests).toEqual([
        expect.objectContaining({ name: "add_todo", args: { title: "Call mom" } }),
      ]);
      result = await tempo.graph.invoke(approveCard(result), config);
      expect(result).toMatchObject({ phase: "done" });

      const results = toolResults((result as { messages: BaseMessage[] }).messages);
      expect(results.slice(0, 4)).toEqual([
        expect.stringMatching(
          /^list_todos: Error: invalid arguments for list_todos: note\\u0000 \(a key\): holds a NUL character \(\\u0000\), which cannot be stored/,
        ),
        expect.stringMatching(
          /^add_todo: Error: invalid arguments for add_todo: title: holds a NUL character \(\\u0000\), which cannot be stored/,
        ),
        expect.stringMatching(/^list_todos: to-do items \(all\): 4 of 4/),
        expect.stringMatching(
          /^add_todo: Error: invalid arguments for add_todo: title: holds an unpaired UTF-16 surrogate, which cannot be stored/,
        ),
      ]);
      expect((await tempo.repositoryOf<TodoRepository>("todo").load("student-unstorable")).items.at(-1)).toEqual({
        id: "todo-5",
        title: "Call mom",
        done: false,
      });
      // The refused read is in the log, its text made storable (writes refused before a card never reach the log);
      // one write applied.
      const log = await readExecutionLog(tempo.database.pool, `unstorable-${target.kind}`);
      expect(log.filter((entry) => !entry.ok).map((entry) => [entry.tool, entry.arguments])).toEqual([
        ["list_todos", { status: "all", "note\ufffd": "x" }],
      ]);
      expect(log.filter((entry) => entry.applied).map((entry) => [entry.tool, entry.arguments])).toEqual([
        ["add_todo", { title: "Call mom" }],
      ]);
    });
  });
}
