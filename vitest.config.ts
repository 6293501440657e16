import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // No set-up hook under 60 s: servers and child processes start slowly on a busy 2-core
    // machine (issue 25: a 10 s hook timed out beside two CPU-bound jobs).
    hookTimeout: 60_000,
    // Every core: vitest's default is one worker fewer than the cores, which on a 2-core
    // machine runs the files one at a time (issue 13: npm test under 3 minutes there). The
    // test files share nothing on disk or in PostgreSQL (fresh temp dirs and schemas, free ports).
    maxWorkers: availableParallelism(),
  },
});
