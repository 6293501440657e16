import { createRng, type Rng } from "../../math/rng.ts";
import type { NoiseModel } from "../../oracle/noise.ts";
import { simulatedOracle } from "../../oracle/simulated-oracle.ts";
import type { Answer } from "../../search/question.ts";
import { type QuadraticMetric, regularity } from "../quadratic/metric.ts";
import { defaultVarrho, PAPER_RHO } from "../quadratic/qpme.ts";
import { runProcedure } from "../session.ts";
import {
  type FairError,
  type FairMetric,
  type FairPoint,
  fairError,
  fairUtility,
  groupPairs,
  normalizeFair,
  pairKey,
  randomFairMetric,
  randomTau,
  validateFair,
  validateTau,
} from "./metric.ts";
import {
  type FairQpmeOptions,
  fairQpmeProcedure,
  groupPartitions,
  lambdaProcedure,
} from "./qpme.ts";

/** The JSON report of one simulated fair elicitation (issue 5's contract). */
export interface FairRunReport {
  readonly family: "fair-quadratic";
  /** `fair-qpme` (Algorithm 4: a, B and lambda) or `lambda` (Algorithm 5: lambda only). */
  readonly procedure: "fair-qpme" | "lambda";
  readonly space: "diagonal-rates";
  readonly synthetic: "sphere";
  readonly k: number;
  readonly groups: number;
  readonly strategy: string;
  readonly tolerance: number;
  readonly rho: number;
  readonly varrho: number;
  readonly seed: number;
  readonly tau: number[][];
  readonly partitions: number[][];
  readonly truth: FairMetric;
  readonly elicited: FairMetric;
  readonly queries: number;
  readonly error: FairError;
  readonly warnings: string[];
  readonly session: { readonly seed: number; readonly answers: Answer[] };
}

/**
 * The quadratic metric (utility form) QPME sees on `S'_sigma`:
 * `a_q = (1 - lambda) tau^sigma ⊙ a + lambda W^sigma o`, `B_q = -lambda W^sigma` (constant
 * dropped), with `W^sigma = sum_{u in sigma, v not} B^{uv}` (Appendix D eq. (20)).
 * @example sigmaMetric(truth, tau, [0], centre) // the { a, B } QPME recovers on S'_{0}
 */
export function sigmaMetric(
  truth: FairMetric,
  tau: readonly (readonly number[])[],
  sigma: readonly number[],
  centre: readonly number[],
): QuadraticMetric {
  const k = truth.a.length;
  const m = tau.length;
  const inS = new Set(sigma);
  const W = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [u, v] of groupPairs(m)) {
    if (inS.has(u) === inS.has(v)) continue;
    const B = truth.B[pairKey(u, v)];
    if (!B) continue;
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) W[i]![j]! += B[i]![j]!;
  }
  const a = truth.a.map((ai, i) => {
    const tauS = sigma.reduce((s, g) => s + tau[g]![i]!, 0);
    let wo = 0;
    for (let j = 0; j < k; j++) wo += W[i]![j]! * centre[j]!;
    return (1 - truth.lambda) * tauS * ai + truth.lambda * wo;
  });
  return { a, B: W.map((row) => row.map((x) => -truth.lambda * x)) };
}

/**
 * A random truth and tau as the paper's experiments draw them (`randomFairMetric`,
 * `randomTau`: the koyejolab code's sampler), rejected until QPME's regularity assumption
 * holds with constant 1e-2 (the paper's) on every sphere `S'_sigma` used. With `fixedTau`
 * (a dataset's groups) only the metric is drawn.
 * @example const { truth, tau } = randomFairTruth(3, 2, createRng(1));
 */
export function randomFairTruth(
  k: number,
  groups: number,
  rng: Rng,
  rho = PAPER_RHO,
  varrho = defaultVarrho(rho),
  fixedTau?: readonly (readonly number[])[],
): { truth: FairMetric; tau: number[][] } {
  const centre = new Array<number>(k).fill(1 / k);
  const M = groupPartitions(groups);
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const truth = randomFairMetric(k, groups, rng);
    const tau = fixedTau ? fixedTau.map((row) => [...row]) : randomTau(k, groups, rng);
    const ok = M.every(
      (sigma) =>
        regularity(sigmaMetric(truth, tau, sigma, centre), { centre, rho, varrho }).min >= 1e-2,
    );
    if (ok) return { truth, tau };
  }
  throw new RangeError("could not draw a fair metric satisfying the regularity assumption");
}

/**
 * Parse `--truth '{"a":[...],"B":{"0-1":[[...]]},"lambda":0.4}'` (0-based group pairs;
 * missing pairs are zero); normalised separately (`||a|| = 1`, `1/2 sum ||B||_F = 1`).
 * @example parseFairTruth('{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}', 2, 2)
 */
export function parseFairTruth(text: string, k: number, groups: number): FairMetric {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RangeError('--truth must be JSON like {"a":[...],"B":{"0-1":[[...]]},"lambda":0.4}');
  }
  const r = raw as { a?: unknown; B?: unknown; lambda?: unknown };
  if (!Array.isArray(r.a) || typeof r.B !== "object" || r.B === null || Array.isArray(r.B)) {
    throw new RangeError('--truth needs "a" (k numbers), "B" ({"u-v": k x k}) and "lambda"');
  }
  if (typeof r.lambda !== "number") throw new RangeError('--truth needs a numeric "lambda"');
  const B: Record<string, number[][]> = {};
  for (const [key, value] of Object.entries(r.B as Record<string, unknown>)) {
    if (!Array.isArray(value) || !value.every((row) => Array.isArray(row))) {
      throw new RangeError(`B["${key}"] must be a k x k array`);
    }
    B[key] = (value as unknown[][]).map((row) => row.map(Number));
  }
  const m: FairMetric = { a: (r.a as unknown[]).map(Number), B, lambda: r.lambda };
  validateFair(m, k, groups);
  return normalizeFair(m);
}

/** Options of `simulateFair`: QPME options plus an optional tau (default: equal groups). */
export interface SimulateFairOptions extends Omit<FairQpmeOptions, "tau"> {
  readonly tau?: readonly (readonly number[])[];
  /** Number of groups when tau is omitted (default: from the truth's B keys, at least 2). */
  readonly groups?: number;
  /**
   * The group rates the stakeholder actually sees for a queried profile (default: the profile
   * itself, the synthetic sphere). On data: the rates of the classifiers realising it.
   */
  readonly realise?: (p: FairPoint) => readonly ArrayLike<number>[];
  /**
   * `fair-qpme` (default, Algorithm 4) or `lambda`: Algorithm 5, where the costs `a` and the
   * violation weights `B` are known (taken from the truth) and only lambda is elicited.
   */
  readonly procedure?: "fair-qpme" | "lambda";
}

function groupsOf(truth: FairMetric): number {
  let m = 2;
  for (const key of Object.keys(truth.B)) {
    const [, v] = key.split("-").map(Number);
    if (v !== undefined && v + 1 > m) m = v + 1;
  }
  return m;
}

/**
 * One simulated fair QPME elicitation on the synthetic sphere (rho = 0.2 around o, every group
 * rate assumed feasible) against a stakeholder whose cost is `truth` (utility `-phi`).
 * @example simulateFair(truth, { tolerance: 0.01, strategy: STRATEGIES.lazy, tau }, { kind: "none" }, 1).error
 */
export function simulateFair(
  truth: FairMetric,
  options: SimulateFairOptions,
  noise: NoiseModel,
  seed: number,
): FairRunReport {
  const k = truth.a.length;
  const m = options.tau?.length ?? options.groups ?? groupsOf(truth);
  const tau = options.tau
    ? options.tau.map((row) => [...row])
    : Array.from({ length: m }, () => new Array<number>(k).fill(1 / m));
  validateTau(tau, k, m);
  validateFair(truth, k, m);
  const t = normalizeFair(truth);
  const realise = options.realise ?? ((p: FairPoint) => p.rates);
  const oracle = simulatedOracle((p: FairPoint) => fairUtility(t, tau, realise(p)), noise, seed);
  const partitions = (options.partitions ?? groupPartitions(m)).map((s) => [...s]);
  const { realise: _r, groups: _g, procedure = "fair-qpme", ...qpmeOptions } = options;
  const rho = options.rho ?? PAPER_RHO;
  let run: {
    result: { metric: FairMetric; questions: number; warnings: string[] };
    answers: readonly Answer[];
  };
  if (procedure === "lambda") {
    // Algorithm 5: a and the B's known (the stakeholder's own), lambda elicited.
    const lam = runProcedure(
      lambdaProcedure({
        tau,
        a: t.a,
        B: t.B,
        tolerance: options.tolerance,
        strategy: options.strategy,
        centre: options.centre,
        rho,
        varrho: options.varrho,
      }),
      oracle.ask,
    );
    run = {
      result: {
        metric: { ...t, lambda: lam.result.lambda },
        questions: lam.result.questions,
        warnings: [],
      },
      answers: lam.answers,
    };
  } else {
    run = runProcedure(fairQpmeProcedure(k, { ...qpmeOptions, tau, partitions }), oracle.ask);
  }
  return {
    procedure,
    family: "fair-quadratic",
    space: "diagonal-rates",
    synthetic: "sphere",
    k,
    groups: m,
    strategy: options.strategy.name,
    tolerance: options.tolerance,
    rho,
    varrho: options.varrho ?? defaultVarrho(rho),
    seed,
    tau,
    partitions,
    truth: t,
    elicited: run.result.metric,
    queries: run.result.questions,
    error: fairError(t, run.result.metric),
    warnings: run.result.warnings,
    session: { seed, answers: [...run.answers] },
  };
}

/**
 * Convenience: a random truth and tau from a seed (see `randomFairTruth`).
 * @example const { truth, tau } = randomFairSetting(3, 2, 7); // the same for the same seed
 */
export function randomFairSetting(k: number, groups: number, seed: number | string) {
  return randomFairTruth(k, groups, createRng(seed));
}
