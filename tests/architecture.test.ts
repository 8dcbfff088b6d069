/**
 * The house (docs/design.md#layout): three layers, arrows pointing one way.
 *
 * - the foundation: `config/`, `errors/`, `contracts/`, `database/` — import nothing above them;
 * - the agent: `kernel/` (state, channels, transitions, routing, ownership, commands), `nodes/`, `graphs/` (the
 *   builder), `review/` (a card's building, reading its answer, approvals, applying), `prompts/`, `models/`,
 *   `offline/` (the offline policies: a model), `memory/`, `tools/`, `streaming/` (the events nodes emit), `ui/` (the
 *   Generative UI components and their props, which the nodes push) — never the edge;
 * - the server edge: `server/` (the guarded graph, admission, input checks, run options, thread locks, ending a
 *   thread, execution state, the composition root, the served entry, SSE), `checkpoints/`, `auth/`, `cli/`,
 *   `eval/` (`npm run eval`: the scenarios measured on a model server).
 *
 * No file of the kernel imports a node or the builder, `review/` imports no node (nodes call it; `server/` and `auth/`
 * ask it), and no two folders import each other. The offline model reads the tools and the foundation only, and only
 * the composition root (`server/`) reaches it: `tools/` holds tools.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const FOUNDATION = ["config", "errors", "contracts", "database"];
const AGENT = [
  "kernel",
  "nodes",
  "graphs",
  "review",
  "prompts",
  "models",
  "offline",
  "memory",
  "tools",
  "streaming",
  "ui",
];
const EDGE = ["server", "checkpoints", "auth", "cli", "eval"];
const SOURCE_FOLDERS = [...FOUNDATION, ...AGENT, ...EDGE];

type Import = { from: string; to: string };

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

/** Every relative import (static, `export … from`, dynamic) of the source folders, as repo-relative file paths. */
function imports(): Import[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    sourceFiles(path.join(ROOT, folder)).flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => ({
        from: path.relative(ROOT, file),
        to: path.relative(ROOT, path.resolve(path.dirname(file), match[1]!)),
      }));
    }),
  );
}

const folderOf = (file: string) => file.split(path.sep)[0]!;
const layerOf = (folder: string) =>
  FOUNDATION.includes(folder) ? 0 : AGENT.includes(folder) ? 1 : EDGE.includes(folder) ? 2 : undefined;

describe("the house", () => {
  const all = imports();

  test("the scan sees the code (a broken scan would pass everything)", () => {
    expect(all.length).toBeGreaterThan(300);
    expect(all).toContainEqual({ from: path.join("server", "tempo-graph.ts"), to: path.join("graphs", "tempo.js") });
  });

  test("every source file is in a known folder of a layer", () => {
    const topLevel = readdirSync(ROOT).filter(
      (name) => statSync(path.join(ROOT, name)).isDirectory() && sourceFiles(path.join(ROOT, name)).length > 0,
    );
    const others = ["node_modules", "tests", "bench", "scripts", "docs", ".git", ".ci", ".tempo", ".langgraph_api"];
    expect(topLevel.filter((name) => !others.includes(name) && layerOf(name) === undefined)).toEqual([]);
  });

  test("arrows point down: the foundation imports no layer above it, the agent never imports the server edge", () => {
    const upward = all.filter(({ from, to }) => (layerOf(folderOf(to)) ?? 0) > (layerOf(folderOf(from)) ?? 0));
    expect(upward).toEqual([]);
  });

  test("no file of the kernel imports a node, the builder or anything above the kernel", () => {
    const kernelImports = all.filter(({ from }) => folderOf(from) === "kernel");
    expect(kernelImports.length).toBeGreaterThan(5);
    expect(
      kernelImports.filter(({ to }) =>
        ["nodes", "graphs", "review", "prompts", "models", "offline", "memory", "tools", ...EDGE].includes(
          folderOf(to),
        ),
      ),
    ).toEqual([]);
  });

  test("the offline model reads the tools, the kernel and the foundation only; only the composition root reaches it", () => {
    const fromOffline = all.filter(({ from, to }) => folderOf(from) === "offline" && folderOf(to) !== "offline");
    expect(fromOffline.map(({ to }) => folderOf(to))).toContain("tools");
    expect(fromOffline.filter(({ to }) => ![...FOUNDATION, "kernel", "tools"].includes(folderOf(to)))).toEqual([]);
    const intoOffline = all.filter(({ from, to }) => folderOf(to) === "offline" && folderOf(from) !== "offline");
    expect(intoOffline).toContainEqual({
      from: path.join("server", "create-tempo.ts"),
      to: path.join("offline", "registry.js"),
    });
    expect(intoOffline.filter(({ from }) => folderOf(from) !== "server")).toEqual([]);
  });

  test("each domain's offline policy reads its own domain's tools only, never another domain's", () => {
    const domainOf = (file: string, folder: string) => {
      const parts = file.split(path.sep);
      return parts[0] === folder && parts.length > 2 ? parts[1] : undefined;
    };
    const crossing = all.filter(({ from, to }) => {
      const policy = domainOf(from, "offline");
      const tool = domainOf(to, "tools");
      return policy !== undefined && tool !== undefined && tool !== policy;
    });
    expect(all.some(({ from, to }) => domainOf(from, "offline") === "todo" && domainOf(to, "tools") === "todo")).toBe(
      true,
    );
    expect(crossing).toEqual([]);
  });

  test("review/ sits between nodes/ and tools/: nodes call it, it imports no node, no builder and no tool calls it", () => {
    const reviewImports = all.filter(({ from }) => folderOf(from) === "review");
    expect(reviewImports.length).toBeGreaterThan(5);
    expect(reviewImports.filter(({ to }) => ["nodes", "graphs"].includes(folderOf(to)))).toEqual([]);
    expect(
      all.filter(
        ({ from, to }) =>
          folderOf(to) === "review" && ["tools", "memory", "models", "prompts", "streaming"].includes(folderOf(from)),
      ),
    ).toEqual([]);
    expect(
      all.filter(({ from, to }) => folderOf(from) === "nodes" && folderOf(to) === "review").length,
    ).toBeGreaterThan(3);
  });

  test("no file imports itself through others: the files' imports have no cycle, in any folder", () => {
    const importsOf = new Map<string, string[]>();
    for (const { from, to } of all) importsOf.set(from, [...(importsOf.get(from) ?? []), to.replace(/\.js$/, ".ts")]);
    // Depth-first, with the path kept: a file met again while it is still on the path closes a cycle.
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      if (done.has(file)) return;
      for (const next of importsOf.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of importsOf.keys()) visit(file, []);
    expect(importsOf.size).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });

  test("no two folders import each other", () => {
    const edges = new Set(
      all
        .filter(({ from, to }) => folderOf(from) !== folderOf(to))
        .map(({ from, to }) => `${folderOf(from)} → ${folderOf(to)}`),
    );
    const both = [...edges].filter((edge) => edges.has(edge.split(" → ").reverse().join(" → ")));
    expect(both).toEqual([]);
  });

  test("a card's decision kinds are review/'s: only review/ (at most 5 files) and the CLI name one", () => {
    // Issue 45: a new kind (approve / edit / reject, the legacy accept / ignore / response) is taught in one room.
    // Comments and single-quoted messages are left out: a file that only mentions a kind in prose needs no change for
    // a new one (as scripts/walk.ts counts them).
    const namesKind =
      /\btype:\s*"(approve|reject|edit|accept|ignore|response)"|\bCardAnswer\b|\bDecisionType\b|\bDECISION_TYPES\b|\bHumanResponse\b/;
    const naming = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
      .filter((file) =>
        namesKind.test(readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$|'(?:[^'\\\n]|\\.)*'/gm, "")),
      )
      .map((file) => path.relative(ROOT, file));
    expect(naming.filter((file) => folderOf(file) === "review").length).toBeGreaterThan(0);
    // The terminal chat reads typed words into kinds; every other client (the eval's scripted user, a reply by
    // message, auth's settling run) builds its answer with review/resume.ts's builders, and every card's reader takes
    // an answer through its verdict (`verdictOf`), so a new kind is taught to review/ and the terminal chat's
    // reading of typed words alone (the CLI's check-in builds its approval with the builders too).
    expect(naming.filter((file) => folderOf(file) !== "review")).toEqual([path.join("cli", "card-answer.ts")]);
    expect(naming.filter((file) => folderOf(file) === "review").length).toBeLessThanOrEqual(5);
  });

  test("execute and the checkpointer are split by concern: none of their files is longer than 300 lines", () => {
    // Issue 45: one job a file. Scoped to the folders split for it (every file of checkpoints/, retention's too).
    const split = [
      ...sourceFiles(path.join(ROOT, "nodes", "execute")),
      ...sourceFiles(path.join(ROOT, "checkpoints")),
      path.join(ROOT, "kernel", "migrations.ts"),
    ];
    const lengths = split.map((file) => ({
      file: path.relative(ROOT, file),
      lines: readFileSync(file, "utf8").trimEnd().split("\n").length,
    }));
    expect(lengths.length).toBeGreaterThan(15);
    expect(lengths.filter(({ lines }) => lines > 300)).toEqual([]);
  });

  test("the request reader's parts are reached through its face alone", () => {
    // tools/schedule/reading/ exports what its files share with each other; what the rest of the code may use is what
    // tools/schedule/request-parsing.ts re-exports, so a part can be reworked without reading every importer.
    const reading = path.join("tools", "schedule", "reading") + path.sep;
    const face = path.join("tools", "schedule", "request-parsing.ts");
    const into = all.filter(({ to }) => to.startsWith(reading));
    expect(into.filter(({ from }) => from === face).length).toBeGreaterThan(5);
    expect(into.filter(({ from }) => from !== face && !from.startsWith(reading))).toEqual([]);
  });

  test("no source file is longer than 800 lines, but the week's model, one class", () => {
    // One job a file, everywhere: the request reader had grown to 3,980 lines, the offline execute stage to 2,288, before
    // each was split by job. WeekModel (tools/schedule/week-model.ts) is one class whose methods keep its caches of
    // the score in step; it is the one file allowed more.
    const LONGEST = 800;
    const lengths = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder))).map((file) => ({
      file: path.relative(ROOT, file),
      lines: readFileSync(file, "utf8").trimEnd().split("\n").length,
    }));
    expect(lengths.length).toBeGreaterThan(300);
    const long = lengths.filter(({ lines }) => lines > LONGEST);
    expect(long.map(({ file }) => file)).toEqual([path.join("tools", "schedule", "week-model.ts")]);
  });
});
