/**
 * `server/served.ts` as langgraph.json loads it: importing the module opens
 * nothing (no pool, no connection), even with a DATABASE_URL that cannot be
 * reached; the server's first request for the graph is what builds it — and a
 * failed build is reported and retried on the next request, not cached.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test, vi } from "vitest";

const saved = {
  DATABASE_URL: process.env.DATABASE_URL,
  OPENAI_API_KEY: process.env.OPENAI_API_KEY,
  OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
};

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test("importing the served module connects to nothing; asking for the graph does, and a failure is retried", async () => {
  // A "database" that counts connections and hangs up on each.
  let connections = 0;
  const database: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => database.listen(0, "127.0.0.1", resolve));
  process.env.DATABASE_URL = `postgres://tempo@127.0.0.1:${(database.address() as AddressInfo).port}/tempo`;
  process.env.OPENAI_API_KEY = "";
  process.env.OPENAI_BASE_URL = "";
  // Fresh, with the environment just set: the worker may have imported the agent for another file.
  vi.resetModules();
  const served = await import("../../server/served.js");
  expect(typeof served.graph).toBe("function");
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(connections).toBe(0);

  const first = await served.graph().then(
    () => "built",
    (error: unknown) => error,
  );
  expect(first).toBeInstanceOf(Error);
  expect(connections).toBeGreaterThan(0);
  await new Promise<void>((resolve) => database.close(() => resolve()));
  // The failure is not cached: with the database gone from the settings, the next request builds the graph.
  delete process.env.DATABASE_URL;
  const graph = await served.graph();
  expect(graph.name).toBe("Tempo");
  expect(await served.graph()).toBe(graph);
});
