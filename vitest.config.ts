import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { longestFirst } from "./test/longest-first.ts";

/**
 * The costliest files' worker seconds under `npm test` (30f6fda, 2-core machine), set-up
 * included: each from the end of the file before it on its worker to its own end, so a
 * `beforeAll` or a `describe` body that computes (multiclass-fractional's tables, the
 * report's studies) counts. Started first, the two workers end together (test/longest-first.ts).
 */
const COST_SECONDS: Readonly<Record<string, number>> = {
  "test/server/replay-cache.test.ts": 26,
  "test/cli/adaptive-cli.test.ts": 19,
  "test/server/honest-numbers.test.ts": 18,
  "test/cli/elicit-cli.test.ts": 16,
  "test/elicit/multiclass-fractional.test.ts": 13,
  "test/elicit/adaptive/engine.test.ts": 13,
  "test/report/report.test.ts": 13,
  "test/elicit/quadratic.test.ts": 11,
  "test/readme/readme-check.test.ts": 10,
  "test/server/upload-study.test.ts": 9,
  "test/experiments/ranking.test.ts": 9,
  "test/elicit/adaptive/learned-lapse.test.ts": 8,
  "test/experiments/reproduce-people.test.ts": 8,
  "test/elicit/multiclass.test.ts": 7,
};

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
    // The CLI's tests spawn the compiled CLI, built from the current source before they run
    // (test/build-dist.ts says why).
    globalSetup: ["test/build-dist.ts"],
    sequence: { sequencer: longestFirst(COST_SECONDS) },
    env: { ELICIT_DIST: "1" },
  },
});
