/**
 * `npm run double` (scripts/openai-double.ts): the strict OpenAI double started on its own prints where it listens,
 * refuses a request OpenAI would refuse, answers one it would take, says so per request, and stops on Ctrl-C.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, test } from "vitest";
import { latencyArgument, portArgument } from "../../scripts/openai-double.js";

const root = path.resolve(import.meta.dirname, "../..");

test("--port is read as a port, anything else is refused", () => {
  expect(portArgument([])).toBe(0);
  expect(portArgument(["--port", "8000"])).toBe(8000);
  expect(() => portArgument(["--port", "x"])).toThrow(/--port needs a port number/);
  expect(() => portArgument(["--port"])).toThrow(/got nothing/);
});

test("--latency-ms is read as milliseconds a call waits, anything else is refused", () => {
  expect(latencyArgument([])).toBe(0);
  expect(latencyArgument(["--port", "0", "--latency-ms", "4000"])).toBe(4000);
  expect(() => latencyArgument(["--latency-ms", "-1"])).toThrow(/--latency-ms needs milliseconds/);
  expect(() => latencyArgument(["--latency-ms"])).toThrow(/got nothing/);
});

test("npm run double serves the strict double until Ctrl-C", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/openai-double.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = String((await lines.next()).value);
    const baseUrl = /OPENAI_BASE_URL=(\S+)/.exec(first)?.[1];
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const post = (body: unknown) =>
      fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // A message with a role OpenAI does not know: 400 with OpenAI's error body.
    const refused = await post({ model: "m", messages: [{ role: "robot", content: "hi" }] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).not.toBe("");
    const answered = await post({ model: "m", messages: [{ role: "user", content: "hello" }] });
    expect(answered.status).toBe(200);
    expect(String((await lines.next()).value)).toMatch(/^#0 .*: refused \(/);
    expect(String((await lines.next()).value)).toMatch(/^#1 .*: answered$/);
  } finally {
    child.kill("SIGINT");
    const [code] = await exited;
    expect(code).toBe(0);
  }
});
