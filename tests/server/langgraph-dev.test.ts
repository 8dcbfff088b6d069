/**
 * `langgraph dev` serves the graph from langgraph.json: the server starts on
 * a free port, answers /ok, and a whole conversation runs through the SDK
 * client (threads, runs, interrupts resumed with command.resume, state, history).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freePort } from "../support/postgres.js";

let server: ChildProcess;
let apiUrl: string;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  server = spawn("npx", ["--no-install", "@langchain/langgraph-cli", "dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--n-jobs-per-worker", "2"], {
    cwd: process.cwd(),
    env: { ...process.env, LANGGRAPH_CLI_NO_ANALYTICS: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", DATABASE_URL: "" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`langgraph dev exited early:\n${output}`);
    const ok = await fetch(`${apiUrl}/ok`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`langgraph dev did not answer /ok in 90 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 120_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    process.kill(-server.pid, "SIGTERM");
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (server.pid && server.exitCode === null) process.kill(-server.pid, "SIGKILL");
        resolve(undefined);
      }, 5_000);
      server.once("exit", () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
});

test("the dev server answers /ok and runs a whole conversation through the SDK", async () => {
  expect(await (await fetch(`${apiUrl}/ok`)).json()).toEqual({ ok: true });
  const client = new Client({ apiUrl });
  const assistants = await client.assistants.search({ graphId: "tempo" });
  expect(assistants.length).toBeGreaterThan(0);
  // Studio renders these: the input is { messages }, the configuration has user_id and max_rounds.
  const schemas = await client.assistants.getSchemas(assistants[0]!.assistant_id);
  expect(Object.keys((schemas.input_schema as { properties?: object } | null)?.properties ?? {})).toEqual(["messages"]);
  expect(Object.keys((schemas.config_schema as { properties?: object } | null)?.properties ?? {}).sort()).toEqual(["max_rounds", "user_id"]);

  const thread = await client.threads.create();
  const config = { configurable: { user_id: "sdk-student" } };
  await client.runs.wait(thread.thread_id, "tempo", { input: { messages: [{ role: "user", content: "Arrange my review week" }] }, config });
  let state = await client.threads.getState(thread.thread_id);
  const first = state.tasks[0]?.interrupts[0]?.value as { action_request: { action: string } };
  expect(first.action_request.action).toBe("confirm_plan");

  const actions: string[] = [];
  for (let turn = 0; turn < 20 && state.tasks.some((task) => task.interrupts.length > 0); turn += 1) {
    actions.push((state.tasks[0]?.interrupts[0]?.value as { action_request: { action: string } }).action_request.action);
    await client.runs.wait(thread.thread_id, "tempo", { command: { resume: { type: "accept", args: null } }, config });
    state = await client.threads.getState(thread.thread_id);
  }
  expect(actions).toEqual(["confirm_plan", ...Array(8).fill("place")]);
  const values = state.values as { phase: string; finalAnswer: string };
  expect(values.phase).toBe("done");
  expect(values.finalAnswer).toContain("Your review week is arranged.");

  const history = await client.threads.getHistory(thread.thread_id, { limit: 200 });
  expect(history.length).toBeGreaterThan(20);
}, 120_000);
