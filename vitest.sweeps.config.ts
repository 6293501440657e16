import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { longestFirst } from "./test/longest-first.ts";

/**
 * The sweep files' worker seconds in a clean-clone CI run (2c5ee51, 2-core machine), the
 * costliest listed. Without a results cache (a fresh clone) vitest runs the larger files
 * first, and size says little here: real-pools (37 lines, 341 s) and the route fuzz (about
 * 10 lines, 131-174 s each) would start last, so one worker ran alone for the stage's last
 * 100 s. Longest first, the two workers end within seconds of each other. A file not listed
 * runs after these, larger first; a stale figure only makes the order less good, never a
 * result different.
 */
const COST_SECONDS: Readonly<Record<string, number>> = {
  "test/sweeps/people.sweep.ts": 1006,
  // 864 s at 2c5ee51; its searchers about 1.7x faster since (486 s at 37ae546, about 80 s
  // more with the fair bound of the panel's other people, 35 s with the LPM bound).
  "test/sweeps/ideal-searcher.sweep.ts": 600,
  "test/sweeps/real-pools.sweep.ts": 341,
  "test/sweeps/adaptive-targets.sweep.ts": 267,
  "test/sweeps/calibration.sweep.ts": 246,
  "test/sweeps/route-fuzz-postgres.sweep.ts": 174,
  "test/sweeps/route-fuzz-sqlite.sweep.ts": 131,
  "test/sweeps/noisy-http-study.sweep.ts": 83,
  "test/sweeps/multiclass-datasets.sweep.ts": 76,
  "test/sweeps/debrief-range.sweep.ts": 29,
  "test/sweeps/honest-numbers.sweep.ts": 24,
};

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
    // One module graph per worker, as npm test (vitest.config.ts says why that holds): the
    // engine is imported and compiled once per worker instead of once per file.
    isolate: false,
    // A larger young generation for the engine's particle arrays (allocated per answer): on
    // a fair-quadratic people cell it ran 3-5% faster (14.2-14.7 s -> 13.5-14.0 s); results
    // are the same, the collector only runs less often.
    execArgv: ["--max-semi-space-size=64"],
    sequence: { sequencer: longestFirst(COST_SECONDS) },
    // Tells test/server/helpers.ts that this is the sweeps run: the slow server files that
    // test/sweeps/postgres/*.sweep.ts import then run every test on PostgreSQL (npm test runs
    // their SQLite tests and a PostgreSQL smoke).
    env: { ELICIT_TEST_TIER: "sweeps", ELICIT_DIST: "1" },
    // The compiled CLI for the sweeps that spawn it, as npm test (test/build-dist.ts).
    globalSetup: ["test/build-dist.ts"],
  },
});
