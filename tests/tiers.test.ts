/**
 * The unit tier (`npm run test:unit`) is offline and in-process: no unit-tier test file, nor any test helper it
 * imports, starts Postgres or a child process. A new test that does belongs in `INTEGRATION_TESTS`
 * (`vitest.config.ts`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { INTEGRATION_TESTS } from "../vitest.config.js";

const root = fileURLToPath(new URL("../", import.meta.url));

/**
 * What starts a database or a process: Tempo's database room, Postgres helpers, child processes, and the composition
 * root's functions that open a database (`createTempo`, `createServedGraph`; `createTempoDependencies` alone does not).
 */
const STARTS_SOMETHING =
  /from "[^"]*(?:\/database\/[^"]*|support\/postgres\.js|node:child_process|child-process\.js|worker-process\.js|langgraph-dev\.js)"|from "(?:pg|@electric-sql\/[^"]+)"|\b(?:createTempo|createServedGraph)\(/;

function testFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return name.endsWith(".test.ts") ? [path.relative(root, full).split(path.sep).join("/")] : [];
  });
}

/** A glob of `INTEGRATION_TESTS` (a path, or `dir/**\/*.test.ts`) as a regular expression. */
function globPattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*\//g, "(?:.*/)?")
    .replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}$`);
}

/** The file and every test helper it imports, transitively (relative imports inside tests/). */
function withTestHelpers(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(path.join(root, file), "utf8");
  const helpers = [...source.matchAll(/from "(\.{1,2}\/[^"]+)\.js"/g)]
    .map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), `${match[1]}.ts`)))
    .filter((helper) => helper.startsWith("tests/"));
  return [file, ...helpers.flatMap((helper) => withTestHelpers(helper, seen))];
}

describe("test tiers", () => {
  const integration = INTEGRATION_TESTS.map(globPattern);
  const files = testFiles(path.join(root, "tests"));
  const unit = files.filter((file) => !integration.some((pattern) => pattern.test(file)));

  test("no unit-tier test, nor a helper it imports, starts Postgres or a child process", () => {
    // This file names the functions in its own checks, so it is left out of them.
    const offenders = unit
      .filter((file) => file !== "tests/tiers.test.ts")
      .filter((file) =>
        withTestHelpers(file).some((source) => STARTS_SOMETHING.test(readFileSync(path.join(root, source), "utf8"))),
      );
    expect(unit.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });

  test("the guard knows today's composition root: a file calling createTempo starts a database", () => {
    const source = readFileSync(path.join(root, "server/create-tempo.ts"), "utf8");
    expect(source).toMatch(/export async function createTempo\(/);
    expect(source).toMatch(/export async function createServedGraph\(/);
    expect(STARTS_SOMETHING.test("const tempo = await createTempo(readSettings());")).toBe(true);
    expect(STARTS_SOMETHING.test("const dependencies = await createTempoDependencies(settings);")).toBe(false);
  });

  test("the integration tier holds the Postgres tests", () => {
    expect(files.filter((file) => integration.some((pattern) => pattern.test(file)))).toEqual(
      expect.arrayContaining([
        "tests/persistence/cross-process.test.ts",
        "tests/database/pool.test.ts",
        "tests/server/langgraph-dev.test.ts",
      ]),
    );
  });
});
