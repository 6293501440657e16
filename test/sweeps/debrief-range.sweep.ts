import "../server/debrief-range.test.ts";

// Issue 11 item 5 over 50 simulated participants: test/server/debrief-range.test.ts runs a few
// under npm test and 50 here (its RUNS; the sweeps tier sets ELICIT_TEST_TIER=sweeps).
