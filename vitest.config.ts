import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start their own Postgres servers; keep parallelism modest on 2-core machines.
    maxWorkers: 2,
  },
});
