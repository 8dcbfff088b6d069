/** The persistence tests' child runner reads all a child printed, however late its last output arrives. */
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { runChild } from "./child-runner.js";

const LOUD_CHILD = fileURLToPath(new URL("./loud-child.ts", import.meta.url));

test("a child's JSON line printed after 4 MB of output, just before it exits, is read every time", async () => {
  const results = await Promise.all(
    Array.from({ length: 16 }, () =>
      runChild({ url: "unused", threadId: "loud", mode: "start" }, undefined, 600_000, LOUD_CHILD),
    ),
  );
  expect(results.map((result) => [result.exitCode, result.output])).toEqual(
    results.map(() => [0, { ok: true, card: "loud", phase: null }]),
  );
});
