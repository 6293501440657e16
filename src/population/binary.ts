import { parseCsv } from "../data/csv.ts";
import { fitLogistic } from "../data/logistic.ts";
import { parsePredictions } from "../data/predictions.ts";
import type { DatasetReport } from "../data/report.ts";
import { stratifiedSplit, take } from "../data/split.ts";
import { fitStandardizer } from "../data/standardize.ts";
import { buildBinaryDataset } from "../data/table.ts";
import { type BinaryPool, labelledPool, softPool } from "../geometry/binary/pool.ts";
import { createRng } from "../math/rng.ts";

/** Which confusions the questions show (ALGORITHMS.md B.2). */
export type PoolKind = "labelled" | "soft";

/** How to turn a CSV of features into a pool of predictions. */
export interface BinaryDataOptions {
  readonly target: string;
  readonly positive?: string;
  readonly dropColumns?: readonly string[];
  /** Seed of the train/test split (default 1). */
  readonly splitSeed?: number;
  /** Fraction used to train the model (default 0.5, as both papers). */
  readonly trainFraction?: number;
  /** L2 penalty of the logistic regression (default 1). */
  readonly l2?: number;
  /** `labelled` (default): confusions against the held-out labels, as the papers;
   * `soft`: the model's own probabilities as soft labels. */
  readonly pool?: PoolKind;
}

/** A prepared binary problem: the pool the questions are drawn from, and how it was made. */
export interface PreparedBinary {
  readonly pool: BinaryPool;
  readonly positiveLabel: string;
  readonly negativeLabel: string;
  /** Held-out labels and probabilities (what `elicit fit` writes). */
  readonly test: { readonly labels: Uint8Array; readonly probabilities: Float64Array };
  readonly report?: DatasetReport;
  readonly model?: {
    readonly features: number;
    readonly trainSize: number;
    readonly testSize: number;
    readonly testAccuracy: number;
    readonly converged: boolean;
  };
}

function makePool(kind: PoolKind, probabilities: Float64Array, labels: Uint8Array, what: string) {
  return kind === "soft"
    ? softPool(probabilities, `${what}, soft labels (${probabilities.length} points)`)
    : labelledPool(
        probabilities,
        labels,
        `${what}, held-out labels (${probabilities.length} points)`,
      );
}

/**
 * Read a CSV of features, standardise, split (stratified, seeded), fit an L2-regularised
 * logistic regression on the training part and build the pool of held-out predictions, as
 * the AISTATS 2019 real-data experiments do (S1 for the model, S2 for the confusions).
 * @example prepareBinaryFromCsv(text, { target: "target", positive: "malignant" }).pool.zeta
 */
export function prepareBinaryFromCsv(
  text: string,
  o: BinaryDataOptions,
  name = "data",
): PreparedBinary {
  const dataset = buildBinaryDataset(parseCsv(text), {
    target: o.target,
    positive: o.positive,
    dropColumns: o.dropColumns,
  });
  const { train, test } = stratifiedSplit(
    dataset.labels,
    o.trainFraction ?? 0.5,
    createRng(o.splitSeed ?? 1),
  );
  const scaler = fitStandardizer(take(dataset.features, train));
  const xTrain = scaler.transform(take(dataset.features, train));
  const xTest = scaler.transform(take(dataset.features, test));
  const yTrain = Uint8Array.from(take(dataset.labels, train));
  const yTest = Uint8Array.from(take(dataset.labels, test));
  const model = fitLogistic(xTrain, yTrain, { l2: o.l2 ?? 1 });
  const probabilities = model.predictProba(xTest);
  let correct = 0;
  for (let i = 0; i < yTest.length; i++) {
    if ((probabilities[i]! >= 0.5 ? 1 : 0) === yTest[i]) correct++;
  }
  return {
    pool: makePool(o.pool ?? "labelled", probabilities, yTest, name),
    positiveLabel: dataset.positiveLabel,
    negativeLabel: dataset.negativeLabel,
    test: { labels: yTest, probabilities },
    report: dataset.report,
    model: {
      features: dataset.featureNames.length,
      trainSize: train.length,
      testSize: test.length,
      testAccuracy: correct / yTest.length,
      converged: model.converged,
    },
  };
}

/**
 * Build the pool from a predictions file (`label,probability`) made elsewhere.
 * @example prepareBinaryFromPredictions("label,probability\n1,0.9\n0,0.2\n", {}).pool.size // 2
 */
export function prepareBinaryFromPredictions(
  text: string,
  o: { readonly positive?: string; readonly pool?: PoolKind },
  name = "predictions",
): PreparedBinary {
  const p = parsePredictions(text, { positive: o.positive });
  return {
    pool: makePool(o.pool ?? "labelled", p.probabilities, p.labels, name),
    positiveLabel: p.positiveLabel,
    negativeLabel: p.negativeLabel,
    test: { labels: p.labels, probabilities: p.probabilities },
  };
}
