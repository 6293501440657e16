import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { longestFirst } from "./test/longest-first.ts";

/**
 * The sweep files' worker seconds in a sweeps run with current recordings (test/sweeps/recorded.ts),
 * the costliest listed: the route fuzz and the noisy HTTP study as measured on a slow day
 * (321, 266 and 175 s); the recorded files at what a twentieth of their recorded cost,
 * checked afresh, comes to on average (their cost varies with the draw: the yardsticks' 442 s
 * and the people's 347 s with a tenth checked on that day). Without a results cache (a fresh
 * clone) vitest runs the larger files first, and size says little here; longest first, the
 * two workers end close together. A file not listed runs after these, larger first; a stale
 * figure only makes the order less good, never a result different.
 */
const COST_SECONDS: Readonly<Record<string, number>> = {
  "test/sweeps/route-fuzz-postgres.sweep.ts": 321,
  "test/sweeps/route-fuzz-sqlite.sweep.ts": 266,
  "test/sweeps/noisy-http-study.sweep.ts": 175,
  "test/sweeps/people.sweep.ts": 130,
  "test/sweeps/adaptive-targets.sweep.ts": 100,
  "test/sweeps/ideal-searcher.sweep.ts": 60,
  "test/sweeps/honest-numbers.sweep.ts": 40,
  "test/sweeps/debrief-range.sweep.ts": 28,
  "test/sweeps/ranking-general.sweep.ts": 27,
  "test/sweeps/real-pools.sweep.ts": 25,
  "test/sweeps/calibration.sweep.ts": 25,
  "test/sweeps/multiclass-datasets.sweep.ts": 15,
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
