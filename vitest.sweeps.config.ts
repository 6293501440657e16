import { defineConfig } from "vitest/config";

/** The long statistical sweeps (`npm run test:sweeps`, also run by `.ci/run`), kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ["test/sweeps/**/*.sweep.ts"],
    testTimeout: 1_200_000,
    // Tells test/server/helpers.ts that this is the sweeps run: the slow server files that
    // test/sweeps/postgres/*.sweep.ts import then run every test on PostgreSQL (npm test runs
    // their SQLite tests and a PostgreSQL smoke).
    env: { ELICIT_TEST_TIER: "sweeps" },
  },
});
