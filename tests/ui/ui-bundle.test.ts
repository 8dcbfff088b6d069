/**
 * The Generative UI components build with the pinned CLI's UI bundler (@langchain/langgraph-ui 1.5.1, what
 * `langgraph dev` runs for langgraph.json's "ui"): one entrypoint, react kept external for the client to provide.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { buildUiBundle } from "../../bench/ui-bundle.js";

describe("the UI bundle", () => {
  test("langgraph.json registers ui/index.tsx and the pinned bundler builds it", async () => {
    const config = JSON.parse(await readFile(new URL("../../langgraph.json", import.meta.url), "utf-8")) as {
      ui?: Record<string, string>;
    };
    expect(config.ui).toEqual({ tempo: "./ui/index.tsx" });
    const files = await buildUiBundle();
    expect(files.map((entry) => entry.file)).toEqual(["entrypoint.js"]);
    expect(files[0]!.bytes).toBeGreaterThan(1000);
    expect(files[0]!.bytes).toBeLessThan(64 * 1024);
  });
});
