import type { RatioMethod } from "../elicit/binary/fractional.ts";
import type { BinarySpec } from "../elicit/binary/spec.ts";
import type { BinaryTruth } from "../elicit/binary/truth.ts";
import type { BinaryPopulation } from "../geometry/binary/population.ts";
import { syntheticPopulation } from "../geometry/binary/synthetic.ts";
import { createRng } from "../math/rng.ts";
import { mean, quantile } from "../math/stats.ts";
import type { BinaryFractionalMetric } from "../metrics/binary-fractional.ts";
import { angleToLinear, type BinaryLinearMetric } from "../metrics/binary-linear.ts";
import type { StrategyName } from "../search/strategy.ts";
import { type BinaryRunReport, randomBinaryTruth, simulateBinary } from "./simulate-binary.ts";

/** Table 1 of the AISTATS 2019 paper: LPM elicitation at tolerance 0.02 rad (synthetic data). */
export const PAPER_TABLE1: readonly {
  truth: BinaryLinearMetric;
  paper: BinaryLinearMetric;
  algorithm: 1 | 2;
}[] = [
  { truth: { tp: 0.98, tn: 0.17 }, paper: { tp: 0.99, tn: 0.17 }, algorithm: 1 },
  { truth: { tp: 0.64, tn: 0.77 }, paper: { tp: 0.64, tn: 0.77 }, algorithm: 1 },
  { truth: { tp: -0.94, tn: -0.34 }, paper: { tp: -0.94, tn: -0.34 }, algorithm: 2 },
  { truth: { tp: -0.5, tn: -0.87 }, paper: { tp: -0.5, tn: -0.87 }, algorithm: 2 },
];

/** Table 2 of the paper, synthetic rows (tolerance 0.05, k = 2000, Delta = 0.01). */
export const PAPER_TABLE2: readonly {
  truth: BinaryFractionalMetric;
  paper: BinaryFractionalMetric;
  alpha: number;
  sigma: number;
}[] = [
  {
    truth: { p11: 1, p00: 0, q11: 0.5, q00: -0.5, q0: 0.5 },
    paper: { p11: 1, p00: 0, q11: 0.25, q00: -0.75, q0: 0.75 },
    alpha: 0.92,
    sigma: 0.03,
  },
  {
    truth: { p11: 0.2, p00: 0.8, q11: -0.4, q00: -0.2, q0: 0.8 },
    paper: { p11: 0.12, p00: 0.88, q11: -0.43, q00: 0.002, q0: 0.71 },
    alpha: 1.02,
    sigma: 0.006,
  },
];

export interface Table1Row {
  readonly algorithm: 1 | 2;
  readonly truth: BinaryLinearMetric;
  readonly paper: BinaryLinearMetric;
  readonly run: BinaryRunReport;
}

export interface Table2Row {
  readonly truth: BinaryFractionalMetric;
  readonly paper: BinaryFractionalMetric;
  readonly paperAlpha: number;
  readonly paperSigma: number;
  /** The paper's procedure (Algorithm 3's grid). */
  readonly run: BinaryRunReport;
  /** The same answers, p11 by the pole method (beyond the paper). */
  readonly pole: BinaryRunReport;
}

/** Errors of one way of finding p11 over many random LFPMs. */
export interface RatioErrors {
  readonly p11Mean: number;
  readonly p11Max: number;
  readonly sigmaMedian: number;
  readonly sigmaMean: number;
}

/** Algorithm 3's grid against the pole method on the same random LFPMs and answers. */
export interface RatioComparison {
  readonly trials: number;
  readonly tolerance: number;
  readonly grid: RatioErrors;
  readonly pole: RatioErrors;
  /** Trials in which the pole method's sigma is below the grid's. */
  readonly poleSigmaLower: number;
}

export interface RealDataRow {
  readonly tolerance: number;
  readonly trials: number;
  readonly failures: number;
  readonly meanAngle: number;
  readonly meanQueries: number;
}

export interface BinaryReproduction {
  readonly strategy: StrategyName;
  readonly table1: Table1Row[];
  readonly table2: Table2Row[];
  readonly ratioComparison: RatioComparison;
  readonly realData: RealDataReport[];
}

export interface RealDataReport {
  readonly population: string;
  readonly lpm: RealDataRow[];
  readonly lfpm: Table2Row[];
}

function linearSpec(tolerance: number, strategy: StrategyName, decreasing: boolean): BinarySpec {
  return {
    family: "binary-linear",
    tolerance,
    strategy,
    monotone: decreasing ? "decreasing" : "increasing",
  };
}

/** Table 2's setting: tolerance 0.05 rad, k = 2000, Delta = 0.01. */
function fractionalSpec(strategy: StrategyName, ratio: RatioMethod): BinarySpec {
  return {
    family: "binary-linear-fractional",
    tolerance: 0.05,
    strategy,
    ratio,
    gridPoints: 2000,
    gridStep: 0.01,
  };
}

function ratioErrors(runs: readonly BinaryRunReport[]): RatioErrors {
  const e = runs.map((r) => r.error as { alphaStd: number; p11: number });
  const sigmas = e.map((x) => x.alphaStd);
  return {
    p11Mean: mean(e.map((x) => x.p11)),
    p11Max: Math.max(...e.map((x) => x.p11)),
    sigmaMedian: quantile(sigmas, 0.5),
    sigmaMean: mean(sigmas),
  };
}

/**
 * Algorithm 3's grid against the pole method: `trials` random LFPMs (as `elicit simulate
 * --random-truth` draws them) on `population`, each elicited once per method from the same
 * seed, hence the same answers.
 * @example compareRatioMethods(syntheticPopulation(5), "paper", 200).pole.p11Mean
 */
export function compareRatioMethods(
  population: BinaryPopulation,
  strategy: StrategyName,
  trials: number,
  seed = 2019,
): RatioComparison {
  const rng = createRng(seed);
  const truths = Array.from({ length: trials }, () =>
    randomBinaryTruth("binary-linear-fractional", rng, population.zeta),
  );
  const runs = (ratio: RatioMethod) =>
    truths.map((t, i) =>
      simulateBinary(fractionalSpec(strategy, ratio), t, population, { kind: "none" }, i),
    );
  const grid = runs("grid");
  const pole = runs("pole");
  const sigma = (r: BinaryRunReport) => (r.error as { alphaStd: number }).alphaStd;
  return {
    trials,
    tolerance: 0.05,
    grid: ratioErrors(grid),
    pole: ratioErrors(pole),
    poleSigmaLower: pole.filter((r, i) => sigma(r) < sigma(grid[i]!)).length,
  };
}

function fractionalRows(
  population: BinaryPopulation,
  strategy: StrategyName,
  rows: typeof PAPER_TABLE2,
  zeta: number,
): Table2Row[] {
  return rows.map((row) => {
    // Assumption 2 ties q0 to the prior; on real data it is recomputed for the data's zeta.
    const truth: BinaryFractionalMetric = {
      ...row.truth,
      q0: (row.truth.p11 - row.truth.q11) * zeta + (row.truth.p00 - row.truth.q00) * (1 - zeta),
    };
    const t: BinaryTruth = { family: "binary-linear-fractional", metric: truth };
    const spec = fractionalSpec(strategy, "grid");
    return {
      truth,
      paper: row.paper,
      paperAlpha: row.alpha,
      paperSigma: row.sigma,
      run: simulateBinary(spec, t, population, { kind: "none" }, 1),
      pole: simulateBinary({ ...spec, ratio: "pole" }, t, population, { kind: "none" }, 1),
    };
  });
}

/**
 * Reproduce the AISTATS 2019 experiments: Table 1 and Table 2's synthetic rows on the
 * closed-form synthetic population, and — when a real-data pool is given — the real-data
 * runs: 28 random LPMs at several tolerances (failures = angle error above the tolerance,
 * the paper's Appendix C measure) and Table 2's two LFPMs.
 * @example reproduceBinary("paper", [pool]).table1[0].run.error
 */
export function reproduceBinary(
  strategy: StrategyName = "paper",
  reals: readonly BinaryPopulation[] = [],
): BinaryReproduction {
  const synthetic = syntheticPopulation(5);
  const table1 = PAPER_TABLE1.map((row) => ({
    ...row,
    run: simulateBinary(
      linearSpec(0.02, strategy, row.algorithm === 2),
      { family: "binary-linear", metric: row.truth },
      synthetic,
      { kind: "none" },
      1,
    ),
  }));
  const table2 = fractionalRows(synthetic, strategy, PAPER_TABLE2, synthetic.zeta);
  const ratioComparison = compareRatioMethods(synthetic, strategy, 200);
  const rng = createRng(28);
  const thetas = Array.from({ length: 28 }, () => rng.uniform(0, Math.PI / 2));
  return {
    strategy,
    table1,
    table2,
    ratioComparison,
    realData: reals.map((real) => realDataRuns(real, strategy, thetas)),
  };
}

function realDataRuns(
  real: BinaryPopulation,
  strategy: StrategyName,
  thetas: readonly number[],
): RealDataReport {
  const lpm = [0.02, 0.05, 0.08, 0.11].map((tolerance) => {
    const runs = thetas.map((theta, i) =>
      simulateBinary(
        linearSpec(tolerance, strategy, false),
        { family: "binary-linear", metric: angleToLinear(theta) },
        real,
        { kind: "none" },
        i,
      ),
    );
    const angles = runs.map((r) => ("angle" in r.error ? r.error.angle : Number.NaN));
    return {
      tolerance,
      trials: runs.length,
      failures: angles.filter((a) => a > tolerance).length,
      meanAngle: mean(angles),
      meanQueries: mean(runs.map((r) => r.queries)),
    };
  });
  return {
    population: real.description,
    lpm,
    lfpm: fractionalRows(real, strategy, PAPER_TABLE2, real.zeta),
  };
}
