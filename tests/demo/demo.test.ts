/**
 * `npm run demo` as a user runs it: `node --import tsx scripts/demo.ts` as a child
 * process with no model key and no DATABASE_URL (embedded Postgres in a
 * temporary TEMPO_DATA_DIR, started from a copy of an initialised cluster).
 * It exits 0 and its output shows every stage of the conversation.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { embeddedTemplateDir } from "../support/postgres.js";
import { ScriptProcess } from "../cli/child-process.js";

let directory: string;
let demo: ScriptProcess | undefined;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-demo-"));
  // A fresh PGlite cluster takes seconds to initialise; a copy of the cached one is ready at once.
  await fs.cp(await embeddedTemplateDir(), path.join(directory, "pgdata"), { recursive: true });
});

afterAll(async () => {
  await demo?.stop();
  if (directory) await fs.rm(directory, { recursive: true, force: true });
});

test("npm run demo runs the whole conversation offline and says where the state lives", async () => {
  const dataDir = path.join(directory, "pgdata");
  demo = ScriptProcess.start("scripts/demo.ts", [], {
    cwd: process.cwd(),
    env: { ...process.env, TEMPO_DATA_DIR: dataDir, DATABASE_URL: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
  });
  demo.endInput();
  expect(await demo.exitCode(600_000), demo.transcript()).toBe(0);
  const output = demo.stdout;

  // Setup: the offline policy on the embedded Postgres in the given folder.
  expect(output).toContain("model: offline policy");
  expect(output).toContain(`state: embedded Postgres (PGlite) in ${dataDir}`);
  expect(output).toContain("user> Help me arrange next week's review sessions.");

  // The plan card, numbered, answered by the script.
  // Three steps: place, refine (the offline arrange refines by default), verify.
  expect(output).toMatch(
    /┌─ Plan\n│ Plan for: Help me arrange next week's review sessions\.\n│ 1\. Place .*\n│ {4}done when: .*\n│ 2\. Refine the week: .*\n│ {4}done when: .*\n│ 3\. Verify the schedule\n│ {4}done when: .*\n└/,
  );
  expect(output).toContain("· Plan confirmed");

  // Execution: progress through the steps, read tools, then the week's placements on ONE batch card, each applied.
  // The week's overview is in the prompts' live state: the place step asks the backend for the arrangement, once.
  expect(output).toContain("· Executing step 1 of 3");
  expect(output).toContain("→ propose_arrangement {");
  expect(output).not.toMatch(/→ (get_overview|list_tasks|find_free) /);
  const batchCards =
    output.match(
      /┌─ Confirm \d+ writes\n│ \d+ changes proposed together:\n│ 1\. Place ".*" on (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec), \d\d:\d\d–\d\d:\d\d\n│ {4}arguments: \{"task_id":"[\w-]+"/g,
    ) ?? [];
  expect(batchCards).toHaveLength(1);
  const writes = Number(/┌─ Confirm (\d+) writes/.exec(output)?.[1]);
  // The sample week's eight pending reviews all fit: one card for the week instead of eight.
  expect(writes).toBe(8);
  expect(output).toMatch(/│ Why: .*\n│ Step 1 of 3: .*\n└─ a accept all/);
  expect(output).toContain(`demo answers: approve all ${writes}`);
  expect(output.match(/← placed task [\w-]+ on day \d/g)?.length).toBe(writes);

  // Refinement: the backend's candidates are listed once; the placements were polished before they were proposed,
  // so no candidate raises the score, no card is raised, and the code ends the step.
  expect(output).toContain(
    "· Executing step 2 of 3: Refine the week: choose the backend's best changes until none helps",
  );
  // The code's one listing, kept to the reviews the task placed (task_ids: issue 46).
  expect(output.match(/→ propose_candidates \{"k":3,"place_pending":false,"task_ids":\["[^\]]+\]\}/g)?.length).toBe(1);
  expect(output).not.toMatch(/┌─ Confirm write:/);
  expect(output.match(/demo answers: approve\n/g)?.length).toBe(1);
  expect(output).toMatch(
    /\[done\] Refine the week: .* — nothing to refine: health score 99\.5; stopped: no change raises the score any more/,
  );
  expect(output).toContain("· Executing step 3 of 3: Verify the schedule");

  // The summary and the end state: two cards answered (the plan, the week), a few rounds of the budget.
  expect(output).toContain("tempo> Your review week is arranged.");
  expect(output).toMatch(/\[done\] Verify the schedule/);
  const rounds = /phase: done; steps: done, done, done; cards answered: 2; rounds used: (\d+) of 60/.exec(output);
  expect(rounds, output).not.toBeNull();
  expect(Number(rounds![1])).toBeLessThanOrEqual(10);

  // Where the state lives and how to resume it.
  expect(output).toContain("The conversation is checkpointed in Postgres; any process can resume it:");
  expect(output).toMatch(/npm start -- --thread demo-\w+ --user demo-student-\w+/);
  expect(output).toMatch(/graph\.getState\(\{ configurable: \{ thread_id: "demo-\w+" \} \}\)/);
});
