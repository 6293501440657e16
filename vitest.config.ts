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
    // One module graph per worker, not one per file: the engine is imported and JIT-compiled
    // once per worker instead of 140 times. On the 2-core machine `vitest run` took 356 s
    // instead of 518 s (import 72 s of worker time instead of 150, tests 618 instead of 836).
    // It holds because no test file leaves state behind: each opens its own temp dirs, schemas
    // and ports, and restores any spy or stubbed global it sets (checked with the files in
    // shuffled order too).
    isolate: false,
  },
});
