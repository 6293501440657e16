/**
 * Adaptive elicitation on real pools (issue 10, "Real pools"): for a bundled dataset and a
 * family the data supports, N random noise-free truths, each judged by the rule "the error is
 * within twice the tolerance, or the result names the parameters the pool cannot identify".
 * Pure: takes the CSV text; the sweep test and `bench`-style scripts do the reading.
 */
import { adaptiveProcedure } from "../elicit/adaptive/engine.ts";
import { binaryLinearFamily, binaryThresholdFamily } from "../elicit/adaptive/families/binary.ts";
import { multiclassLinearFamily } from "../elicit/adaptive/families/multiclass.ts";
import type { AdaptiveFamily } from "../elicit/adaptive/family.ts";
import type { BinaryPoint } from "../elicit/binary/point.ts";
import type { MulticlassPoint } from "../elicit/multiclass/point.ts";
import { runProcedure } from "../elicit/session.ts";
import { createRng } from "../math/rng.ts";
import { angleToLinear, evaluateLinear } from "../metrics/binary-linear.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import { type PoolKind, prepareBinaryFromCsv } from "../population/binary.ts";
import { prepareMulticlassFromCsv } from "../population/multiclass.ts";
import { normalizeMulticlassTruth, randomMulticlassTruth } from "./simulate-multiclass.ts";

/** A family on a dataset. */
export interface RealPoolCase {
  readonly dataset: string;
  readonly target: string;
  readonly positive?: string;
  readonly dropColumns?: readonly string[];
  readonly family: "binary-linear" | "binary-threshold" | "diagonal-linear" | "linear";
  /** Binary families: which pool (default soft). */
  readonly pool?: PoolKind;
}

/** How one run ended, judged. */
export interface RealPoolRun {
  readonly error: number;
  readonly questions: number;
  readonly stop: string;
  readonly radius: number;
  readonly unidentified: readonly string[];
  /** `ok`: error <= 2 tol; `flagged`: larger, but the result names unidentified parameters. */
  readonly verdict: "ok" | "flagged" | "silent-miss";
}

/** A case's runs and their summary. */
export interface RealPoolSummary {
  readonly case: RealPoolCase;
  readonly tolerance: number;
  readonly budget: number;
  readonly runs: readonly RealPoolRun[];
  readonly maxError: number;
  readonly maxQuestions: number;
  readonly meanQuestions: number;
  readonly ok: number;
  readonly flagged: number;
  readonly silentMisses: number;
  readonly overBudget: number;
}

/** The tolerances and budgets of the sweep (the papers' tolerances). */
export const REAL_POOL_SETTINGS = {
  "binary-linear": { tolerance: 0.02, budget: 30 },
  "binary-threshold": { tolerance: 0.05, budget: 30 },
  "diagonal-linear": { tolerance: 0.01, budget: 60 },
  linear: { tolerance: 0.01, budget: 120 },
} as const;

function judge<P, M>(
  family: AdaptiveFamily<P, M>,
  truth: M,
  value: (p: P) => number,
  tolerance: number,
  budget: number,
  seed: number,
): RealPoolRun {
  const oracle = simulatedOracle(value, { kind: "none" }, seed);
  const procedure = adaptiveProcedure(family, { tolerance, budget, model: "exact", seed });
  const r = runProcedure(procedure, oracle.ask).result;
  const error = family.error(truth, r.metric);
  const unidentified = r.unidentified.map((u) => u.name);
  const verdict =
    error <= 2 * tolerance ? "ok" : unidentified.length > 0 ? "flagged" : "silent-miss";
  return {
    error,
    questions: r.questions,
    stop: r.stop,
    radius: r.credible.radius,
    unidentified,
    verdict,
  };
}

/**
 * Run `truths` random noise-free truths of a case on its dataset (seeded by `seed`).
 * @example sweepRealPool(csv, { dataset: "iris", target: "target", family: "diagonal-linear" }, 5)
 */
export function sweepRealPool(
  csv: string,
  c: RealPoolCase,
  truths: number,
  seed = 1,
  onRun?: () => void,
): RealPoolSummary {
  const { tolerance, budget } = REAL_POOL_SETTINGS[c.family];
  const rng = createRng(`real-pool-${c.dataset}-${c.family}-${c.pool ?? ""}-${seed}`);
  const runs: RealPoolRun[] = [];
  if (c.family === "binary-linear" || c.family === "binary-threshold") {
    const prepared = prepareBinaryFromCsv(
      csv,
      {
        target: c.target,
        positive: c.positive,
        dropColumns: c.dropColumns,
        pool: c.pool ?? "soft",
      },
      c.dataset,
    );
    const pool = prepared.pool;
    for (let t = 0; t < truths; t++) {
      if (c.family === "binary-linear") {
        const truth = angleToLinear(rng.uniform(0, Math.PI / 2));
        const value = (p: BinaryPoint) => evaluateLinear(truth, p.confusion);
        runs.push(judge(binaryLinearFamily(pool), truth, value, tolerance, budget, t));
      } else {
        const a0 = rng.next();
        const value = (p: BinaryPoint) => a0 * p.confusion.tn + (1 - a0) * p.confusion.tp;
        runs.push(judge(binaryThresholdFamily(pool), { a0 }, value, tolerance, budget, t));
      }
      onRun?.();
    }
  } else {
    const prepared = prepareMulticlassFromCsv(csv, {
      target: c.target,
      dropColumns: c.dropColumns,
    });
    const family = multiclassLinearFamily(c.family, prepared.pool);
    for (let t = 0; t < truths; t++) {
      const truth = normalizeMulticlassTruth(
        c.family,
        randomMulticlassTruth(c.family, prepared.pool.k, rng),
      );
      const value = (p: MulticlassPoint) => truth.reduce((s, x, i) => s + x * p.point[i]!, 0);
      runs.push(judge(family, truth, value, tolerance, budget, t));
      onRun?.();
    }
  }
  const count = (v: RealPoolRun["verdict"]) => runs.filter((r) => r.verdict === v).length;
  return {
    case: c,
    tolerance,
    budget,
    runs,
    maxError: Math.max(...runs.map((r) => r.error)),
    maxQuestions: Math.max(...runs.map((r) => r.questions)),
    meanQuestions: runs.reduce((s, r) => s + r.questions, 0) / runs.length,
    ok: count("ok"),
    flagged: count("flagged"),
    silentMisses: count("silent-miss"),
    overBudget: runs.filter((r) => r.questions > budget).length,
  };
}

/** Every bundled dataset with the families it supports (multiclass linear up to k = 4 classes by default). */
export const REAL_POOL_CASES: readonly RealPoolCase[] = [
  ...(["soft", "labelled"] as const).flatMap((pool) =>
    (["binary-linear", "binary-threshold"] as const).flatMap((family) => [
      {
        dataset: "breast_cancer_wisconsin_diagnostic",
        target: "target",
        positive: "malignant",
        family,
        pool,
      },
      {
        dataset: "breast_cancer_wisconsin_original",
        target: "Class",
        positive: "malignant",
        dropColumns: ["Id"],
        family,
        pool,
      },
      { dataset: "titanic_survival", target: "survived", positive: "yes", family, pool },
      { dataset: "arrests", target: "released", positive: "Yes", family, pool },
    ]),
  ),
  ...(["diagonal-linear", "linear"] as const).flatMap((family) => [
    { dataset: "iris", target: "target", family },
    { dataset: "wine", target: "target", family },
    { dataset: "vehicle", target: "Class", family },
  ]),
  { dataset: "glass", target: "Type", family: "diagonal-linear" },
  // 30 weights on a sphere of radius 0.002: beyond a 120-question budget, so these runs end
  // at the budget and must name the weights they could not pin down.
  { dataset: "glass", target: "Type", family: "linear" },
  { dataset: "digits", target: "target", family: "diagonal-linear" },
];
