/**
 * The Generative UI bundle (issue 48): builds `ui/index.tsx` with the pinned CLI's UI bundler
 * (@langchain/langgraph-ui, as `langgraph dev` does for langgraph.json's "ui") and prints the bytes of each built
 * file (react and the SDK stay external: Agent Chat UI provides them).
 *
 *   npx tsx bench/ui-bundle.ts
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "@langchain/langgraph-ui";

/** Builds the UI into a fresh folder; returns each built file with its bytes and gzipped bytes. */
export async function buildUiBundle(): Promise<Array<{ file: string; bytes: number; gzip: number }>> {
  const cwd = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const output = await mkdtemp(path.join(tmpdir(), "tempo-ui-"));
  try {
    await build({ output, cwd, defs: { tempo: "./ui/index.tsx" }, config: {} });
    const schemas = JSON.parse(await readFile(path.join(output, "schemas.json"), "utf-8")) as Record<
      string,
      { assets: string[] }
    >;
    return await Promise.all(
      (schemas.tempo?.assets ?? []).map(async (asset) => {
        const file = path.join(output, "public", "tempo", asset);
        return { file: asset, bytes: (await stat(file)).size, gzip: gzipSync(await readFile(file)).length };
      }),
    );
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const entry of await buildUiBundle()) console.log(`${entry.file}\t${entry.bytes} B\t${entry.gzip} B gzip`);
}
