import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** The long statistical sweeps (`npm run test:sweeps`, also run by `.ci/run`), kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ["test/sweeps/**/*.sweep.ts"],
    testTimeout: 1_200_000,
    hookTimeout: 120_000,
    // Every core, as npm test: the sweep files are independent (fresh temp dirs, schemas and
    // ports), and on a 2-core machine vitest's default (one worker fewer than the cores) ran
    // them one at a time, which alone made .ci/run miss its 40-minute budget (issue 25).
    maxWorkers: availableParallelism(),
    // Tells test/server/helpers.ts that this is the sweeps run: the slow server files that
    // test/sweeps/postgres/*.sweep.ts import then run every test on PostgreSQL (npm test runs
    // their SQLite tests and a PostgreSQL smoke).
    env: { ELICIT_TEST_TIER: "sweeps" },
  },
});
