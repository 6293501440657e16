import { honestNumbersSuite } from "./honest-numbers-suite.ts";

// A few participants per strategy; the 50-participant version is test/sweeps/honest-numbers.sweep.ts.
honestNumbersSuite(8);
