import { defineConfig } from "vitest/config";

/**
 * Test files of the integration tier: they start Postgres (embedded PGlite or a real PostgreSQL 15 server) or child
 * processes (workers, `langgraph dev`, the terminal chat, the demo), or are slow offline suites (generated model
 * outputs, placement against an exact solver, long feedback conversations). Every other test file is in the unit
 * tier: offline, in-process, fast (`npm run test:unit`). `tests/tiers.test.ts` checks that no unit-tier file
 * starts Postgres or a process.
 */
export const INTEGRATION_TESTS = [
  "tests/graph/checked-head.test.ts",
  "tests/ui/ui-bundle.test.ts",
  "tests/eval/eval.test.ts",
  "tests/checkpoints/**/*.test.ts",
  "tests/database/**/*.test.ts",
  "tests/persistence/**/*.test.ts",
  "tests/load/**/*.test.ts",
  "tests/domains/todo-postgres.test.ts",
  "tests/server/langgraph-dev.test.ts",
  "tests/server/client-ending.test.ts",
  "tests/server/served-graph.test.ts",
  "tests/server/trust-boundary.test.ts",
  "tests/server/identity-routes.test.ts",
  "tests/server/unseen-answers.test.ts",
  "tests/server/served-crash.test.ts",
  "tests/server/served-gate.test.ts",
  "tests/server/served-configurable.test.ts",
  "tests/server/served-checkin.test.ts",
  "tests/reliability/database-faults.test.ts",
  "tests/reliability/database-bounds.test.ts",
  "tests/reliability/faults.test.ts",
  "tests/reliability/hostile-input.test.ts",
  "tests/reliability/one-run-per-thread.test.ts",
  "tests/reliability/security.test.ts",
  "tests/memory/postgres-store.test.ts",
  "tests/memory/preference-isolation.test.ts",
  "tests/memory/preference-lock.test.ts",
  "tests/memory/calendar-threads.test.ts",
  "tests/schedule/postgres-repository.test.ts",
  "tests/cli/chat.test.ts",
  "tests/demo/demo.test.ts",
  "tests/docs/code-blocks.test.ts",
  "tests/models/double-command.test.ts",
  // Offline but slow: together they take longer than the whole unit tier.
  "tests/reliability/model-output-fuzz.test.ts",
  "tests/reliability/hostile-readers.test.ts",
  "tests/graph/offline-placement.test.ts",
  "tests/graph/offline-feedback.test.ts",
  "tests/graph/refinement-decisions.test.ts",
  "tests/graph/kept-messages.test.ts",
  // The clock moved day by day over a week and its turn, each moment's requests through the graph.
  "tests/graph/clock-sweep-oracle.test.ts",
  // A term lived day by day through the graph, on PGlite and PostgreSQL 15.
  "tests/term/term-simulation.test.ts",
  "tests/schedule/event-series-stored.test.ts",
  "tests/schedule/event-series-oracle.test.ts",
];

const ALL_TESTS = ["tests/**/*.test.ts", "tests/**/*.test.tsx"];

export default defineConfig({
  test: {
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // Integration tests start their own Postgres servers; keep parallelism modest on 2-core machines.
    maxWorkers: 2,
    // `vitest run` runs both tiers (what `npm test` and CI run); `--project unit` / `--project integration` one of them.
    projects: [
      // A unit test bounds its own work (budgets, injected clocks), never the wall clock: its timeout only catches a hang,
      // far above what a loaded 2-core machine takes (60 s tripped there).
      {
        extends: true,
        test: { name: "unit", include: ALL_TESTS, exclude: INTEGRATION_TESTS, isolate: false, testTimeout: 600_000 },
      },
      // Test files share a worker's module cache in both tiers (`isolate: false`): an integration file imported the
      // whole agent again in a fresh module graph, about 2 CPU-s a file. A file that needs a module fresh (a
      // per-process cache it must see cold, a module that reads the environment on import) takes it with
      // `vi.resetModules()` and a dynamic import; none changes `process.env` without putting it back.
      { extends: true, test: { name: "integration", include: INTEGRATION_TESTS, isolate: false } },
    ],
  },
});
