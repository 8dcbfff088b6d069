/**
 * Docs that run (issue 45): every TypeScript block in README.md and docs/ is type-checked against the code it
 * shows, every `npm run` / `npx tsx` a shell block names exists, and the README's "From your code" example runs to
 * its end twice in a row (it closes what it opens, and a second run starts a thread of its own).
 *
 * A block is checked as a module at the repository's root, so `./server/…` imports resolve as they read; a block
 * whose first line is `// tools/todo/tools.ts` (a path) is checked as a file beside that one, so its `./state.js`
 * imports resolve there. Blocks are served to the compiler from memory: nothing is written into the tree.
 */
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

interface CodeBlock {
  file: string;
  line: number;
  language: string;
  text: string;
}

/** The fenced blocks of a Markdown text, with the line each starts on. */
export function codeBlocksOf(file: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const opening = /^```(\w*)/.exec(lines[index]!);
    if (!opening) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    if (end < 0) throw new Error(`${file}:${index + 1}: a code block that is never closed`);
    blocks.push({ file, line: index + 1, language: opening[1]!, text: lines.slice(index + 1, end).join("\n") });
    index = end;
  }
  return blocks;
}

async function documentedBlocks(): Promise<CodeBlock[]> {
  const files = [
    "README.md",
    ...(await readdir(path.join(root, "docs"))).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
  ];
  const blocks = await Promise.all(
    files.map(async (file) => codeBlocksOf(file, await readFile(path.join(root, file), "utf8"))),
  );
  return blocks.flat();
}

/** Where a TypeScript block is checked: beside the file its first line names, or at the root. */
function homeOf(block: CodeBlock, index: number): string {
  const named = /^\/\/ ((?:[\w.-]+\/)+[\w.-]+\.ts)\s*$/.exec(block.text.split("\n")[0]!);
  const folder = named ? path.dirname(path.join(root, named[1]!)) : root;
  return path.join(folder, `__docs_block_${index}__.ts`);
}

/** The compiler's diagnostics for the blocks, each block a module of its own, read with the project's settings. */
function typeCheck(blocks: ReadonlyMap<string, string>): string[] {
  const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const host = ts.createCompilerHost(options);
  const readFromDisk = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => blocks.get(path.resolve(name)) ?? readFromDisk(name);
  host.fileExists = (name) => blocks.has(path.resolve(name)) || fileExists(name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = blocks.get(path.resolve(name));
    return text === undefined
      ? getSourceFile(name, language, onError, create)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram({ rootNames: [...blocks.keys()], options, host });
  return [...blocks.keys()].flatMap((name) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(name)).map((diagnostic) => {
      const where =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
          : 0;
      return `${path.relative(root, diagnostic.file?.fileName ?? name)}:${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    }),
  );
}

describe("the code in README.md and docs/", () => {
  test("every TypeScript block type-checks against the code it shows", async () => {
    const blocks = (await documentedBlocks()).filter(
      (block) => block.language === "ts" || block.language === "typescript",
    );
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    const homes = new Map<string, string>();
    const origins = new Map<string, string>();
    blocks.forEach((block, index) => {
      const home = homeOf(block, index);
      homes.set(home, block.text);
      origins.set(path.relative(root, home), `${block.file}:${block.line}`);
    });
    const problems = typeCheck(homes).map((problem) => {
      const [where] = problem.split(":");
      return `${origins.get(where!) ?? where} → ${problem}`;
    });
    expect(problems).toEqual([]);
  });

  test("a type error in a block is found (the check is not blind)", () => {
    const home = path.join(root, "__docs_block_broken__.ts");
    const problems = typeCheck(
      new Map([
        [
          home,
          'import { createTempo } from "./server/create-tempo.js";\nconst tempo: number = await createTempo();\nexport { tempo };\n',
        ],
      ]),
    );
    expect(problems.join("\n")).toMatch(/__docs_block_broken__\.ts:2: Expected 1 arguments, but got 0/);
  });

  test("every npm script and tsx entry a shell block names exists", async () => {
    const scripts = Object.keys(
      JSON.parse(await readFile(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>,
    );
    const shell = (await documentedBlocks()).filter((block) => ["bash", "sh", "shell", ""].includes(block.language));
    const missing: string[] = [];
    for (const block of shell) {
      for (const [, script] of block.text.matchAll(/npm run ([\w:-]+)/g))
        if (!scripts.includes(script!)) missing.push(`${block.file}:${block.line}: npm run ${script}`);
      for (const [, entry] of block.text.matchAll(/npx tsx ([\w./-]+\.ts)/g))
        if (!existsSync(path.join(root, entry!))) missing.push(`${block.file}:${block.line}: ${entry}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("the README's example from code", () => {
  test("runs to the answer and exits, twice in a row on one database", async () => {
    const [example] = codeBlocksOf("README.md", await readFile(path.join(root, "README.md"), "utf8")).filter(
      (block) => block.language === "ts" && block.text.includes("createTempo"),
    );
    expect(example).toBeDefined();
    // The example imports `./…` from the root: as a file under node_modules/.cache those become absolute paths, and
    // its packages still resolve from the project's node_modules.
    const folder = path.join(root, "node_modules/.cache/tempo-docs");
    await mkdir(folder, { recursive: true });
    const script = path.join(folder, `readme-example-${process.pid}.mts`);
    const dataDir = await mkdtemp(path.join(tmpdir(), "tempo-readme-example-"));
    await writeFile(script, example!.text.replaceAll('from "./', `from "${root}/`));
    const environment = {
      ...process.env,
      TEMPO_DATA_DIR: dataDir,
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      DATABASE_URL: "",
      TEMPO_DOMAINS: "schedule",
    };
    try {
      for (const attempt of [1, 2]) {
        const { stdout } = await run(process.execPath, ["--import", "tsx", script], {
          cwd: root,
          env: environment,
          maxBuffer: 16 * 1024 * 1024,
        });
        expect(stdout, `run ${attempt}`).toMatch(/arranged|already placed/i);
      }
    } finally {
      await rm(script, { force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
