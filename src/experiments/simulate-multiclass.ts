import {
  evaluateFractionalMetric,
  type FractionalMetric,
  ratioStats,
} from "../elicit/multiclass/fractional-grid.ts";
import type { MulticlassPoint } from "../elicit/multiclass/point.ts";
import {
  type MulticlassResult,
  type MulticlassSpec,
  multiclassProcedure,
  usesSphere,
} from "../elicit/multiclass/spec.ts";
import { runProcedure } from "../elicit/session.ts";
import type { MulticlassPool } from "../geometry/multiclass/pool.ts";
import type { Sphere } from "../geometry/multiclass/sphere.ts";
import type { Rng } from "../math/rng.ts";
import { dot, normalizeL1, normalizeL2 } from "../math/vector.ts";
import type { NoiseModel } from "../oracle/noise.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import type { Answer, Question } from "../search/question.ts";

/** The JSON report of one simulated multiclass elicitation. */
export interface MulticlassRunReport {
  readonly family: MulticlassSpec["family"];
  readonly strategy: MulticlassSpec["strategy"];
  readonly tolerance: number;
  readonly seed: number;
  readonly truth: { readonly a: number[]; readonly b?: number[]; readonly b0?: number };
  readonly elicited: { readonly a: number[]; readonly b?: number[]; readonly b0?: number };
  readonly queries: number;
  /** `linf`/`l2` of the (numerator) weights; fractional families add the paper's alpha and sigma. */
  readonly error: {
    readonly linf: number;
    readonly l2: number;
    readonly alphaMean?: number;
    readonly alphaStd?: number;
  };
  readonly sphere?: { readonly radius: number; readonly rho: number };
  /** DLPM: the pairs the pool leaves open wider than the tolerance (`MulticlassResult.unresolved`). */
  readonly unresolved?: MulticlassResult["unresolved"];
  readonly classifier: MulticlassResult["classifier"];
  readonly questions: readonly Question<MulticlassPoint>[];
  readonly session: {
    readonly spec: MulticlassSpec;
    readonly seed: number;
    readonly answers: Answer[];
  };
}

/** Normalise a true metric as the paper does: DLPM to unit L1, LPM to unit L2. */
export function normalizeMulticlassTruth(
  family: MulticlassSpec["family"],
  a: readonly number[],
): number[] {
  return family === "diagonal-linear" ? normalizeL1(a) : normalizeL2(a);
}

/**
 * One simulated multiclass elicitation against a stakeholder with linear metric `a`
 * (over diagonal confusions for DLPM, off-diagonal confusions for LPM).
 * @example simulateMulticlass(spec, [0.2, 0.5, 0.3], pool, undefined, { kind: "none" }, 1)
 */
export function simulateMulticlass(
  spec: MulticlassSpec,
  a: readonly number[] | FractionalMetric,
  pool: MulticlassPool,
  sphere: Sphere | undefined,
  noise: NoiseModel,
  seed: number,
): MulticlassRunReport {
  const fractionalTruth = Array.isArray(a) ? undefined : (a as FractionalMetric);
  const truth = fractionalTruth
    ? fractionalTruth.a
    : normalizeMulticlassTruth(spec.family, a as number[]);
  const value = fractionalTruth
    ? (p: MulticlassPoint) => evaluateFractionalMetric(fractionalTruth, p.point)
    : (p: MulticlassPoint) => dot(truth, p.point);
  const oracle = simulatedOracle(value, noise, seed);
  const run = runProcedure(multiclassProcedure(spec, pool, sphere), oracle.ask);
  const elicited = run.result.metric;
  const fractional = run.result.fractional;
  const stats =
    fractionalTruth && fractional
      ? ratioStats(fractional.metric, fractionalTruth, fractional.samples)
      : undefined;
  let linf = 0;
  let sq = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = Math.abs(truth[i]! - elicited[i]!);
    linf = Math.max(linf, d);
    sq += d * d;
  }
  return {
    family: spec.family,
    strategy: spec.strategy,
    tolerance: spec.tolerance,
    seed,
    truth: fractionalTruth ? { ...fractionalTruth } : { a: truth },
    elicited: fractional ? { ...fractional.metric } : { a: elicited },
    queries: oracle.count(),
    error: {
      linf,
      l2: Math.sqrt(sq),
      ...(stats ? { alphaMean: stats.alpha, alphaStd: stats.sigma } : {}),
    },
    ...(usesSphere(spec.family) && sphere
      ? { sphere: { radius: sphere.radius, rho: sphere.rho } }
      : {}),
    ...(run.result.unresolved ? { unresolved: run.result.unresolved } : {}),
    classifier: run.result.classifier,
    questions: run.questions,
    session: { spec, seed, answers: [...run.answers] },
  };
}

/**
 * A random true metric as the appendix's tables suggest (ALGORITHMS.md A.7): DLPM weights
 * uniform and normalised to sum 1; LPM weights from uniform random angles in the negative
 * orthant (unit norm, all <= 0).
 * @example randomMulticlassTruth("diagonal-linear", 3, createRng(1))
 */
export function randomMulticlassTruth(
  family: MulticlassSpec["family"],
  k: number,
  rng: Rng,
): number[] {
  if (family === "diagonal-linear")
    return normalizeL1(Array.from({ length: k }, () => rng.next() + 1e-3));
  const q = k * k - k;
  const theta = Array.from({ length: q - 1 }, () => rng.uniform(0, Math.PI / 2));
  const u: number[] = [];
  let s = 1;
  for (let i = 0; i < q - 1; i++) {
    u.push(-s * Math.cos(theta[i]!));
    s *= Math.sin(theta[i]!);
  }
  u.push(-s);
  return u;
}
