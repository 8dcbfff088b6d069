/**
 * The terminal chat and the served graph on one database, one student and one thread id (the served graph keeps its
 * threads in the LangGraph server's own checkpointer, as `langgraph dev` does; the week, the execution log and memory
 * are the database's). The chat's "clear tomorrow" card waits while the student, through the served graph, puts the
 * binary tree review on that Monday. Approved in the chat, the card applies as it showed, and the day is looked at
 * again: the review put there since comes on a card of its own — never "Done: cleared the day" with it still there.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PostgresScheduleRepository, type TaskItem } from "../../tools/schedule/index.js";
import { ScriptProcess } from "../cli/child-process.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { postgresTargets } from "../support/postgres.js";
import { useServedGraph } from "../support/served-graph.js";

const targets = postgresTargets();
const target = targets.find((candidate) => candidate.kind === "real") ?? targets[0]!;
const USER = "cli-and-served";
const THREAD = "one-thread-id";
/** Sunday 10 March 2024, 20:00 in Shanghai: the eve of the sample week. */
const NOW = "2024-03-10T20:00:00+08:00";

const on = useServedGraph(() => target.start(), { TEMPO_CLIENT_CLOCK: "on" });
let directory: string;
let chat: ScriptProcess | undefined;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-cli-served-"));
  const repository = new PostgresScheduleRepository(on.pool);
  await repository.migrate();
  await repository.seed(USER, halfPlacedWeek());
});

afterAll(async () => {
  await chat?.stop();
  if (directory) await fs.rm(directory, { recursive: true, force: true });
});

test("a day cleared in the chat while the served graph put a review on it: the chat looks at the day again", async () => {
  chat = ScriptProcess.start(
    "cli/chat.ts",
    ["--user", USER, "--thread", THREAD, "--threads-file", path.join(directory, "threads.json"), "--now", NOW],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        DATABASE_URL: (on.pool.options as { connectionString: string }).connectionString,
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        TEMPO_USER_ID: "",
        TEMPO_DOMAINS: "schedule",
      },
    },
  );
  await chat.waitFor("you> ");
  chat.send("clear tomorrow");
  await chat.waitFor("choice> ");
  chat.send("a");
  expect(await chat.waitFor("choice> ")).toContain('Take "Review limits and continuity" off Mon 11 Mar, 14:00–15:40');

  // Meanwhile, through the served graph: the binary tree review put on Monday.
  const asServer = {
    configurable: { thread_id: THREAD, langgraph_auth_user_id: USER, now: new Date(NOW).toISOString() },
  };
  const { graph } = on.served;
  await graph.invoke({ messages: [new HumanMessage("put the binary tree review on Monday")] }, asServer);
  await graph.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), asServer);
  const served = await graph.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), asServer);
  expect(served.finalAnswer).toContain('Where things are now: "Binary tree review" — Mon 11 Mar, 19:00');

  chat.send("a");
  const again = await chat.waitFor("choice> ");
  expect(again).not.toContain("cleared the day");
  expect(again).toContain('Take "Binary tree review" off Mon 11 Mar, 19:00');
  chat.send("a");
  await chat.waitFor("you> ");
  const week = await new PostgresScheduleRepository(on.pool).load(USER);
  const status = (id: string) => (week.tasks.find((task) => task.id === id) as TaskItem).status;
  expect([status("review-limits"), status("binary-tree-review")]).toEqual(["pending", "pending"]);
});
