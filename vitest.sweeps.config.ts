import { defineConfig } from "vitest/config";

/** The long statistical sweeps (`npm run test:sweeps`, also run by `.ci/run`), kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ["test/sweeps/**/*.sweep.ts"],
    testTimeout: 1_200_000,
  },
});
