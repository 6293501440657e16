import type { Rng } from "../../math/rng.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { simulatedOracle } from "../../oracle/simulated-oracle.ts";
import type { Answer } from "../../search/question.ts";
import { runProcedure } from "../session.ts";
import type { RatePoint } from "./lpme.ts";
import {
  evaluateQuadratic,
  normalizeQuadratic,
  type QuadraticMetric,
  quadraticError,
  randomQuadraticMetric,
  validateQuadratic,
} from "./metric.ts";
import { qpmePairsRegion, regionHolds } from "./pair-region.ts";
import {
  defaultVarrho,
  PAPER_RHO,
  type QpmeDiagnostics,
  type QpmeOptions,
  qpmeProcedure,
} from "./qpme.ts";

/** The JSON report of one simulated quadratic elicitation (issue 5's contract). */
export interface QuadraticRunReport {
  readonly family: "quadratic";
  readonly space: "diagonal-rates";
  readonly synthetic: "sphere";
  readonly k: number;
  readonly strategy: string;
  readonly tolerance: number;
  readonly rho: number;
  readonly varrho: number;
  readonly seed: number;
  readonly truth: QuadraticMetric;
  readonly elicited: QuadraticMetric;
  readonly queries: number;
  readonly error: { readonly a: number; readonly B: number };
  readonly warnings: string[];
  readonly diagnostics: QpmeDiagnostics;
  /**
   * With `gradients: "pairs"`: the 90% credible region (`qpmePairsRegion`), its radius in
   * `max(||a - a'||_2, ||B - B'||_F)` and per part, and whether it holds the truth.
   */
  readonly region?: {
    readonly credibility: number;
    readonly radius: number;
    readonly a: number;
    readonly B: number;
    readonly holdsTruth: boolean;
  };
  readonly session: { readonly seed: number; readonly answers: Answer[] };
}

/**
 * Parse `--truth '{"a":[...],"B":[[...],...]}'` for k classes; the metric is normalised to
 * `||a||^2 + ||B||_F^2 = 1` (scale does not change preferences).
 * @example parseQuadraticTruth('{"a":[1,0],"B":[[-1,0],[0,-1]]}', 2).a // [0.577.., 0]
 */
export function parseQuadraticTruth(text: string, k: number): QuadraticMetric {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RangeError('--truth must be JSON like {"a":[...],"B":[[...],...]}');
  }
  const r = raw as { a?: unknown; B?: unknown };
  if (!Array.isArray(r.a) || !Array.isArray(r.B) || !r.B.every((row) => Array.isArray(row))) {
    throw new RangeError('--truth needs "a" (k numbers) and "B" (k x k numbers)');
  }
  const m: QuadraticMetric = {
    a: (r.a as unknown[]).map(Number),
    B: (r.B as unknown[][]).map((row) => row.map(Number)),
  };
  validateQuadratic(m, k);
  return normalizeQuadratic(m);
}

/**
 * Draw a truth "as the paper's experiments do" (see `randomQuadraticMetric`, paper sampler)
 * for the synthetic sphere of radius `rho` around o = 1/k.
 * @example const truth = randomSphereTruth(3, createRng(1)); // { a, B } for k = 3
 */
export function randomSphereTruth(
  k: number,
  rng: Rng,
  rho = PAPER_RHO,
  varrho = defaultVarrho(rho),
): QuadraticMetric {
  return randomQuadraticMetric(k, rng, {
    centre: new Array<number>(k).fill(1 / k),
    rho,
    varrho,
    sampling: "paper",
  });
}

/**
 * One simulated QPME elicitation on the synthetic sphere against a stakeholder whose metric
 * is `truth` (normalised first).
 * @example simulateQuadratic(truth, { tolerance: 0.01, strategy: STRATEGIES.lazy }, { kind: "none" }, 1).error
 */
export function simulateQuadratic(
  truth: QuadraticMetric,
  options: QpmeOptions,
  noise: NoiseModel,
  seed: number,
): QuadraticRunReport {
  const k = truth.a.length;
  validateQuadratic(truth, k);
  const t = normalizeQuadratic(truth);
  const oracle = simulatedOracle((p: RatePoint) => evaluateQuadratic(t, p.point), noise, seed);
  const run = runProcedure(qpmeProcedure(k, options), oracle.ask);
  const rho = options.rho ?? PAPER_RHO;
  const pairs = options.gradients === "pairs";
  const region = pairs
    ? qpmePairsRegion(run.result, { reconstruction: options.reconstruction })
    : undefined;
  return {
    family: "quadratic",
    space: "diagonal-rates",
    synthetic: "sphere",
    k,
    strategy: pairs ? "pairs" : options.strategy.name,
    tolerance: options.tolerance,
    rho,
    varrho: options.varrho ?? defaultVarrho(rho),
    seed,
    truth: t,
    elicited: run.result.metric,
    queries: run.result.questions,
    error: quadraticError(t, run.result.metric),
    warnings: run.result.warnings,
    diagnostics: run.result.diagnostics,
    ...(region === undefined
      ? {}
      : {
          region: {
            credibility: region.credibility,
            radius: region.radius,
            a: region.a,
            B: region.B,
            holdsTruth: regionHolds(region, t, run.result.metric),
          },
        }),
    session: { seed, answers: [...run.answers] },
  };
}
