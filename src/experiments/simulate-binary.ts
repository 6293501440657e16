import type { RatioMethod } from "../elicit/binary/fractional.ts";
import type { BinaryPoint } from "../elicit/binary/point.ts";
import { type BinaryResult, type BinarySpec, binaryProcedure } from "../elicit/binary/spec.ts";
import {
  type BinaryError,
  type BinaryTruth,
  elicitationError,
  truthValue,
} from "../elicit/binary/truth.ts";
import { runProcedure } from "../elicit/session.ts";
import type { BinaryPopulation } from "../geometry/binary/population.ts";
import type { ThresholdClassifier } from "../geometry/binary/threshold-classifier.ts";
import type { Rng } from "../math/rng.ts";
import { impliedQ0 } from "../metrics/binary-fractional.ts";
import { normalizeLinear } from "../metrics/binary-linear.ts";
import type { NoiseModel } from "../oracle/noise.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import type { Answer, Question } from "../search/question.ts";
import type { ShrinkStep } from "../search/unimodal-search.ts";

/** The JSON report of one simulated elicitation (the `elicit simulate --json` contract). */
export interface BinaryRunReport {
  readonly family: BinarySpec["family"];
  readonly strategy: BinarySpec["strategy"];
  /** binary-linear-fractional: how p11 was found (`grid` or `pole`). */
  readonly ratio?: RatioMethod;
  readonly tolerance: number;
  readonly seed: number;
  readonly population: string;
  readonly truth: Record<string, number>;
  readonly elicited: Record<string, number>;
  readonly queries: number;
  readonly error: BinaryError;
  readonly classifier: ThresholdClassifier;
  /** The replayable session: spec, seed and the answer log. */
  readonly session: {
    readonly spec: BinarySpec;
    readonly seed: number;
    readonly answers: Answer[];
  };
}

/** The metric of a truth or result in the `--truth` key format. */
export function metricRecord(x: BinaryTruth | BinaryResult): Record<string, number> {
  switch (x.family) {
    case "binary-linear": {
      const m = normalizeLinear(x.metric);
      return { tp: m.tp, tn: m.tn };
    }
    case "binary-linear-fractional":
      return { ...x.metric };
    case "binary-threshold":
      return { a0: x.a0 };
  }
}

/** Optional observers of a run (the demo prints every step). */
export interface RunObservers {
  readonly onQuestion?: (
    q: Question<BinaryPoint>,
    answer: Answer,
    values: [number, number],
  ) => void;
  readonly onShrink?: (step: ShrinkStep) => void;
}

/**
 * One simulated elicitation: a stakeholder with metric `truth` and the given noise answers
 * the procedure of `spec` on `population`.
 * @example simulateBinary(spec, { family: "binary-linear", metric: { tp: 0.6, tn: 0.8 } }, pop, { kind: "none" }, 1)
 */
export function simulateBinary(
  spec: BinarySpec,
  truth: BinaryTruth,
  population: BinaryPopulation,
  noise: NoiseModel,
  seed: number,
  observers: RunObservers = {},
): BinaryRunReport {
  const value = truthValue(truth);
  const oracle = simulatedOracle(value, noise, seed);
  const ask = (q: Parameters<typeof oracle.ask>[0]) => {
    const answer = oracle.ask(q);
    if (observers.onQuestion) {
      const entry = oracle.log[oracle.log.length - 1]!;
      observers.onQuestion(entry.question, answer, [entry.values[0], entry.values[1]]);
    }
    return answer;
  };
  const run = runProcedure(binaryProcedure(spec, population, observers.onShrink), ask);
  const result = run.result;
  return {
    family: spec.family,
    strategy: spec.strategy,
    ...(result.family === "binary-linear-fractional" ? { ratio: result.ratio } : {}),
    tolerance: spec.tolerance,
    seed,
    population: population.description,
    truth: metricRecord(truth),
    elicited: metricRecord(result),
    queries: oracle.count(),
    error: elicitationError(truth, result, population),
    classifier: result.classifier,
    session: { spec, seed, answers: [...run.answers] },
  };
}

/**
 * A random true metric as the papers' experiments draw them: a uniform angle in the
 * quadrant for LPMs (increasing; decreasing when `monotone` says so), a uniform `a0` for the
 * threshold family, and for LFPMs `p11 ~ U[0,1]`, `q11 ~ U[p11 - 1, p11]`,
 * `q00 ~ U[p00 - 1, p00]` with `q0` from Assumption 2 (so the metric is bounded and increasing).
 * @example randomBinaryTruth("binary-linear", createRng(1), 0.5)
 */
export function randomBinaryTruth(
  family: BinarySpec["family"],
  rng: Rng,
  zeta: number,
  monotone: "increasing" | "decreasing" = "increasing",
): BinaryTruth {
  switch (family) {
    case "binary-linear": {
      const theta = rng.uniform(0, Math.PI / 2) + (monotone === "decreasing" ? Math.PI : 0);
      return { family, metric: { tp: Math.cos(theta), tn: Math.sin(theta) } };
    }
    case "binary-threshold":
      return { family, a0: rng.next() };
    case "binary-linear-fractional": {
      const p11 = rng.next();
      const p00 = 1 - p11;
      const q11 = p11 - rng.next();
      const q00 = p00 - rng.next();
      return { family, metric: { p11, p00, q11, q00, q0: impliedQ0(p11, p00, q11, q00, zeta) } };
    }
  }
}
