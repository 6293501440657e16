/**
 * Benchmark (not a test): `npm run bench:adaptive`. Time to the next adaptive question,
 * measured between consecutive questions of simulated elicitations (belief update after the
 * answer, candidates, selection), against issue 10's targets: p99 under 50 ms for binary and
 * for DLPM / LPM with k <= 4, under 250 ms for QPME k = 5 and fair QPME k = 3, m = 3.
 */
import { adaptiveProcedure } from "../src/elicit/adaptive/engine.ts";
import { binaryLinearFamily } from "../src/elicit/adaptive/families/binary.ts";
import { fairQuadraticFamily, fairToW } from "../src/elicit/adaptive/families/fair.ts";
import { multiclassLinearFamily } from "../src/elicit/adaptive/families/multiclass.ts";
import { quadraticFamily, quadraticToW } from "../src/elicit/adaptive/families/quadratic.ts";
import type { AdaptiveFamily } from "../src/elicit/adaptive/family.ts";
import { randomFairSetting, randomFairTruth } from "../src/elicit/fair/simulate.ts";
import { randomSphereTruth } from "../src/elicit/quadratic/simulate.ts";
import { runProcedure } from "../src/elicit/session.ts";
import { randomMulticlassTruth } from "../src/experiments/simulate-multiclass.ts";
import { syntheticPopulation } from "../src/geometry/binary/synthetic.ts";
import { createSpace } from "../src/geometry/multiclass/space.ts";
import { findSphere } from "../src/geometry/multiclass/sphere.ts";
import { createRng } from "../src/math/rng.ts";
import { quantile } from "../src/math/stats.ts";
import { type NoiseModel, noisyAnswer } from "../src/oracle/noise.ts";
import { syntheticMulticlassPool } from "../src/population/multiclass.ts";

interface Case {
  readonly name: string;
  readonly target: number;
  readonly family: () => AdaptiveFamily<unknown, unknown>;
  readonly truth: (rng: ReturnType<typeof createRng>) => Float64Array;
  readonly tolerance: number;
  readonly budget: number;
}

/**
 * Run `runs` elicitations (exact answers, then 5% flips with the human model) and collect
 * the time from each answer to the next question. A first, uncounted elicitation warms the
 * JIT, as a running server is warm; its first gap (a fresh process's first question) is
 * returned as `cold` and printed beside the verdict.
 */
function measure(c: Case, runs: number): { gaps: number[]; cold: number } {
  const family = c.family();
  const gaps: number[] = [];
  let cold = Number.NaN;
  const rng = createRng(`bench-${c.name}`);
  for (let r = -1; r < runs; r++) {
    const warmUp = r < 0;
    // The warm-up's truth comes from its own stream: the counted runs keep their truths.
    const truth = c.truth(warmUp ? createRng(`bench-warm-up-${c.name}`) : rng);
    const noisy = r % 2 !== 0;
    const noise: NoiseModel = noisy ? { kind: "flip", probability: 0.05 } : { kind: "none" };
    const answerRng = createRng(r);
    let last = performance.now();
    const procedure = adaptiveProcedure(family, {
      tolerance: c.tolerance,
      budget: c.budget,
      model: noisy ? "flips:0.05" : "exact",
      seed: r,
    });
    runProcedure(procedure, (q) => {
      const now = performance.now();
      // The first gap includes the belief's initialisation; it counts too.
      if (!warmUp) gaps.push(now - last);
      else if (Number.isNaN(cold)) cold = now - last;
      const f = (p: unknown) => {
        const x = family.features(p);
        let v = 0;
        for (let i = 0; i < x.length; i++) v += truth[i]! * x[i]!;
        return v;
      };
      const a = noisyAnswer(noise, f(q.first), f(q.second), answerRng);
      last = performance.now();
      return a;
    });
  }
  return { gaps, cold };
}

const unitFrom = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float64Array.from(xs, (x) => x / n);
};

const cases: Case[] = [
  {
    name: "binary LPM",
    target: 50,
    family: () => binaryLinearFamily(syntheticPopulation(5)) as AdaptiveFamily<unknown, unknown>,
    truth: (rng) => {
      const t = rng.uniform(0, Math.PI / 2);
      return Float64Array.of(Math.cos(t), Math.sin(t));
    },
    tolerance: 0.02,
    budget: 30,
  },
];
for (const k of [3, 4]) {
  const pool = syntheticMulticlassPool(k);
  cases.push({
    name: `DLPM k = ${k}`,
    target: 50,
    family: () =>
      multiclassLinearFamily("diagonal-linear", pool) as AdaptiveFamily<unknown, unknown>,
    truth: (rng) => unitFrom(randomMulticlassTruth("diagonal-linear", k, rng)),
    tolerance: 0.01,
    budget: 40,
  });
  const sphere = findSphere(createSpace("offdiag-confusion", pool));
  cases.push({
    name: `LPM k = ${k}`,
    target: 50,
    family: () =>
      multiclassLinearFamily("linear", pool, { sphere }) as AdaptiveFamily<unknown, unknown>,
    truth: (rng) => unitFrom(randomMulticlassTruth("linear", k, rng)),
    tolerance: 0.01,
    budget: 100,
  });
}

{
  const k = 5;
  cases.push({
    name: "QPME k = 5",
    target: 250,
    family: () => quadraticFamily(k) as AdaptiveFamily<unknown, unknown>,
    truth: (rng) => quadraticToW(randomSphereTruth(k, rng)),
    tolerance: 0.01,
    budget: 250,
  });
}
{
  const k = 3;
  const groups = 3;
  const tau = randomFairSetting(k, groups, "bench-fair").tau;
  cases.push({
    name: "fair k = 3, m = 3",
    target: 250,
    family: () => fairQuadraticFamily(k, tau) as AdaptiveFamily<unknown, unknown>,
    truth: (rng) => fairToW(randomFairTruth(k, groups, rng).truth, groups),
    tolerance: 0.01,
    budget: 300,
  });
}

const runs = Number(process.argv[2] ?? 4);
// Optional: only the families whose name contains this text (`npm run bench:adaptive -- 4 LPM`).
const only = process.argv[3];
console.log(
  `next adaptive question, ${runs} runs per family (half noise-free with the exact model, half 5% flips with the flips:0.05 model)`,
);
console.log("(after one uncounted warm-up elicitation; cold: a fresh process's first question)");
console.log("family           questions   median    p99       target    verdict   cold");
for (const c of cases) {
  if (only !== undefined && !c.name.includes(only)) continue;
  const { gaps, cold } = measure(c, runs);
  const p50 = quantile(gaps, 0.5);
  const p99 = quantile(gaps, 0.99);
  // BENCH_GAPS=1 prints every gap (the first of each run includes the belief's set-up).
  if (process.env.BENCH_GAPS) console.log(gaps.map((g) => g.toFixed(1)).join(" "));
  console.log(
    `${c.name.padEnd(16)} ${String(gaps.length).padStart(9)}   ${p50.toFixed(1).padStart(6)} ms ${p99.toFixed(1).padStart(6)} ms  < ${c.target} ms   ${(p99 < c.target ? "ok" : "MISSED").padEnd(9)} ${cold.toFixed(1)} ms`,
  );
}
