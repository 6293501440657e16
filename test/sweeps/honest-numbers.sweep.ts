import { honestNumbersSuite } from "../server/honest-numbers-suite.ts";

// Issue 11, "tested over 50 simulated participants, in the paper and the default strategy".
honestNumbersSuite(50);
