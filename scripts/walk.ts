/**
 * The walk of a card's answer (docs/design.md#the-walk-of-an-answer), measured rather than guessed:
 *
 * 1. **One served Agent Inbox Accept of one write of a batch.** The served graph (`buildTempoGraph` with the served
 *    graph's options: a refused answer asks again, a bad configurable is ignored) raises a card of two writes; the
 *    Accept is Agent Inbox's one-element list echoing the first write (`[{ type: "accept", args: { action, args } }]`).
 *    V8's precise coverage (function call counts, `node:inspector`) is reset just before the resume and read just
 *    after it: every project source file with a function that ran is a file the answer crossed, from the run's
 *    admission (the guarded `stream`) to the applied write and the next card. A first thread runs the same scenario
 *    before, so no module's loading is counted. The LangGraph library and the HTTP layer of `langgraph dev` are not
 *    counted (they are not Tempo's files); the run base — the files a run that answers no card crosses too (the
 *    guard, the checkpoint, state channels, the graph's routing) — is measured the same way with a plain message, and
 *    printed apart, so the answer's own path is what is left; of that, the files of the write's own tool domain
 *    (`tools/<domain>/`, which run however a write is approved) are printed apart too.
 * 2. **What a decision kind touches**: the source files whose code (comments and single-quoted messages left out)
 *    names a decision kind (`type: "approve"`, `"edit"`, `"reject"`, `"accept"`, `"ignore"`, `"response"`) or a type
 *    listing them (`CardAnswer`, `DecisionType`, `DECISION_TYPES`, `HumanResponse`): the files a new kind must be
 *    taught to (an upper bound: a file that only makes an accept, as auth's settling run does, is counted too).
 *
 * Run: `npx tsx scripts/walk.ts` (prints both; `--files` lists the files).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT, SOURCE_FOLDERS, walkAccept } from "./walk-scenario.js";

const folders = (files: readonly string[]) => [...new Set(files.map((file) => path.dirname(file)))].sort();
const topFolders = (files: readonly string[]) => [...new Set(files.map((file) => file.split(path.sep)[0]!))].sort();

/** Source files whose code, comments left out, names a decision kind or a type listing them. */
function decisionKindFiles(): string[] {
  const pattern =
    /\btype:\s*"(approve|reject|edit|accept|ignore|response)"|\bCardAnswer\b|\bDecisionType\b|\bDECISION_TYPES\b|\bHumanResponse\b/;
  const walk = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) return walk(full);
      return name.endsWith(".ts") ? [full] : [];
    });
  return SOURCE_FOLDERS.flatMap((folder) => walk(path.join(ROOT, folder)))
    .filter((file) => {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
        .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
      return pattern.test(code);
    })
    .map((file) => path.relative(ROOT, file))
    .sort();
}

async function main() {
  const list = process.argv.includes("--files");
  const { acceptFiles, baseFiles, own } = await walkAccept();

  const kinds = decisionKindFiles();
  const report = (title: string, files: string[]) => {
    console.log(
      `${title}: ${files.length} files in ${folders(files).length} folders (${topFolders(files).length} top-level)`,
    );
    if (list) for (const file of files) console.log(`  ${file}`);
  };
  report("One served Accept of one write of a batch", acceptFiles);
  report(
    "  of which the run base (a plain message crosses them too)",
    acceptFiles.filter((file) => baseFiles.includes(file)),
  );
  report("  the answer's own path", own);
  // The write's own tool (its domain's files under tools/<domain>/) runs however the write was approved.
  report(
    "  the answer's own path, less the applied tool's domain",
    own.filter((file) => !/^tools[/\\][^/\\]+[/\\]/.test(file)),
  );
  report("A decision kind is named in", kinds);
}

await main();
