/**
 * Benchmark (not a test): time for one QPME elicitation at k = 5 (target: under 50 ms of
 * computation; the authors' Python takes about 1 s), with a noise-free simulated oracle.
 */

import type { RatePoint } from "../src/elicit/quadratic/lpme.ts";
import { evaluateQuadratic } from "../src/elicit/quadratic/metric.ts";
import { qpmeProcedure } from "../src/elicit/quadratic/qpme.ts";
import { randomSphereTruth } from "../src/elicit/quadratic/simulate.ts";
import { runProcedure } from "../src/elicit/session.ts";
import { createRng } from "../src/math/rng.ts";
import { simulatedOracle } from "../src/oracle/simulated-oracle.ts";
import { STRATEGIES } from "../src/search/strategy.ts";

const rng = createRng(5);
for (const k of [2, 3, 4, 5]) {
  const times: number[] = [];
  let questions = 0;
  for (let t = 0; t < 30; t++) {
    const truth = randomSphereTruth(k, rng);
    const oracle = simulatedOracle(
      (p: RatePoint) => evaluateQuadratic(truth, p.point),
      { kind: "none" },
      t,
    );
    const t0 = performance.now();
    const run = runProcedure(
      qpmeProcedure(k, { tolerance: 0.01, strategy: STRATEGIES.lazy }),
      oracle.ask,
    );
    times.push(performance.now() - t0);
    questions += run.answers.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const target = k === 5 ? `< 50 ms  ${median < 50 ? "ok" : "MISSED"}` : "";
  console.log(
    `QPME k = ${k}: median ${median.toFixed(2)} ms per elicitation (${(questions / 30).toFixed(0)} questions) ${target}`,
  );
}
