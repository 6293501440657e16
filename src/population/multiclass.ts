import { parseCsv } from "../data/csv.ts";
import { DataError } from "../data/errors.ts";
import { type MulticlassPredictions, parseMulticlassPredictions } from "../data/predictions.ts";
import type { DatasetReport } from "../data/report.ts";
import { fitSoftmax } from "../data/softmax.ts";
import { stratifiedSplit, take } from "../data/split.ts";
import { fitStandardizer } from "../data/standardize.ts";
import { buildMulticlassDataset } from "../data/table.ts";
import { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { createRng } from "../math/rng.ts";

/**
 * The synthetic multiclass population used for the NeurIPS 2019 reproduction (ALGORITHMS.md
 * A.7, a documented reconstruction): `X ~ U[-1, 1]`, `eta_i(x) = exp(s i x) / sum_j exp(s j x)`
 * for classes i = 1..k with slope s = 2, evaluated on `n` evenly spaced points (midpoint rule),
 * so the pool is a deterministic quadrature of the population rather than a random sample.
 * For k = 3 its priors are (0.380, 0.239, 0.380), matching the appendix's DLFPM tables.
 * @example syntheticMulticlassPool(3).priors
 */
export function syntheticMulticlassPool(k: number, n = 20000, slope = 2): MulticlassPool {
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError("k must be an integer >= 2");
  const eta = new Float64Array(n * k);
  for (let t = 0; t < n; t++) {
    const x = -1 + (2 * (t + 0.5)) / n;
    let max = -Infinity;
    for (let i = 1; i <= k; i++) max = Math.max(max, slope * i * x);
    let sum = 0;
    for (let i = 0; i < k; i++) {
      const v = Math.exp(slope * (i + 1) * x - max);
      eta[t * k + i] = v;
      sum += v;
    }
    for (let i = 0; i < k; i++) eta[t * k + i]! /= sum;
  }
  return new MulticlassPool(eta, k);
}

/**
 * The held-out half of a dataset and a model's class probabilities on it: a 50/50 split
 * stratified by class (seeded), features standardised on the training half, an L2 softmax
 * regression fitted there. Every class must occur in the held-out half.
 * @example heldOutProbabilities(data.features, data.labels, data.classNames, {}).probs[0]
 */
export function heldOutProbabilities(
  features: readonly Float64Array[],
  labels: Int32Array,
  classNames: readonly string[],
  o: { readonly splitSeed?: number; readonly l2?: number },
): { probs: Float64Array[]; train: Int32Array; test: Int32Array; accuracy: number } {
  const k = classNames.length;
  const { train, test } = stratifiedSplit(labels, 0.5, createRng(o.splitSeed ?? 1));
  const counts = new Array<number>(k).fill(0);
  for (const i of test) counts[labels[i]!]!++;
  const empty = counts.indexOf(0);
  if (empty >= 0) {
    throw new DataError(
      `class "${classNames[empty]}" has no examples in the held-out half; it needs at least 2 rows`,
    );
  }
  const scaler = fitStandardizer(take(features, train));
  const xTrain = scaler.transform(take(features, train));
  const xTest = scaler.transform(take(features, test));
  const yTrain = Int32Array.from(take(labels, train));
  const model = fitSoftmax(xTrain, yTrain, k, { l2: o.l2 ?? 1 });
  const probs = model.predictProba(xTest);
  let correct = 0;
  probs.forEach((row, n) => {
    let best = 0;
    for (let i = 1; i < k; i++) if (row[i]! > row[best]!) best = i;
    if (best === labels[test[n]!]) correct++;
  });
  return { probs, train, test, accuracy: correct / test.length };
}

/** A prepared multiclass problem. */
export interface PreparedMulticlass {
  readonly pool: MulticlassPool;
  readonly classNames: string[];
  readonly report: DatasetReport;
  readonly model: {
    readonly testAccuracy: number;
    readonly trainSize: number;
    readonly testSize: number;
  };
}

/**
 * Read a CSV, standardise, split 50/50 (stratified, seeded), fit an L2 softmax regression on
 * one half and return the held-out class probabilities as a soft-label pool (ALGORITHMS.md B.2).
 * @example prepareMulticlassFromCsv(text, { target: "target" }).pool.k
 */
export function prepareMulticlassFromCsv(
  text: string,
  o: {
    readonly target: string;
    readonly dropColumns?: readonly string[];
    readonly splitSeed?: number;
    readonly l2?: number;
    /**
     * What the error for fewer than 3 classes says after the class list (default: "multiclass
     * families need at least 3 — use a binary family"), for a caller that has no families.
     */
    readonly tooFewClasses?: string;
  },
): PreparedMulticlass {
  const data = buildMulticlassDataset(parseCsv(text), {
    target: o.target,
    dropColumns: o.dropColumns,
  });
  const k = data.classNames.length;
  if (k < 3) {
    throw new DataError(
      `target "${o.target}" has ${k} classes (${data.classNames.join(", ")}); ${o.tooFewClasses ?? "multiclass families need at least 3 — use a binary family"}`,
    );
  }
  const { probs, test, train, accuracy } = heldOutProbabilities(
    data.features,
    data.labels,
    data.classNames,
    o,
  );
  const eta = new Float64Array(probs.length * k);
  probs.forEach((row, n) => {
    eta.set(row, n * k);
  });
  return {
    pool: new MulticlassPool(eta, k),
    classNames: data.classNames,
    report: data.report,
    model: { testAccuracy: accuracy, trainSize: train.length, testSize: test.length },
  };
}

/**
 * A multiclass problem from a predictions file (`label`, one `p_<class>` column per class; the
 * model is the user's): the rows' probabilities form the soft-label pool as a dataset's
 * held-out half does, and the report counts the rows per label. `model.testAccuracy` is the
 * share of rows whose most probable class is their label (no training here: trainSize 0).
 * @example prepareMulticlassFromPredictions("label,p_a,p_b,p_c\na,0.7,0.2,0.1\nc,0.1,0.1,0.8\n").pool.k // 3
 */
export function prepareMulticlassFromPredictions(text: string): PreparedMulticlass {
  const p = parseMulticlassPredictions(text);
  const k = p.classNames.length;
  if (k < 3) {
    throw new DataError(
      `the predictions have ${k} classes (${p.classNames.join(", ")}); multiclass families need at least 3 — use a binary study`,
    );
  }
  return { pool: predictionsPool(p.probabilities, k), ...predictionsSummary(p) };
}

/** The soft-label pool of rows' class probabilities. */
export function predictionsPool(rows: readonly Float64Array[], k: number): MulticlassPool {
  const eta = new Float64Array(rows.length * k);
  rows.forEach((row, n) => {
    eta.set(row, n * k);
  });
  return new MulticlassPool(eta, k);
}

/**
 * A predictions file's report (rows per label, and the rows renormalised to sum to 1 when
 * there were any) and its model's argmax accuracy.
 */
export function predictionsSummary(p: MulticlassPredictions & { renormalised?: number }): {
  classNames: string[];
  report: DatasetReport;
  model: PreparedMulticlass["model"];
} {
  const classCounts: Record<string, number> = Object.fromEntries(p.classNames.map((c) => [c, 0]));
  let correct = 0;
  p.probabilities.forEach((row, n) => {
    const label = p.labels[n]!;
    classCounts[p.classNames[label]!]!++;
    let best = 0;
    for (let i = 1; i < row.length; i++) if (row[i]! > row[best]!) best = i;
    if (best === label) correct++;
  });
  const rows = p.labels.length;
  return {
    classNames: [...p.classNames],
    report: {
      rows,
      droppedRowsMissingTarget: 0,
      imputed: [],
      droppedConstant: [],
      oneHot: [],
      classCounts,
      ...(p.renormalised ? { renormalisedRows: p.renormalised } : {}),
    },
    model: { testAccuracy: correct / rows, trainSize: 0, testSize: rows },
  };
}
