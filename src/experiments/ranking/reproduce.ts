import { parseCsv } from "../../data/csv.ts";
import type { Classifier } from "../../data/models/classifier.ts";
import { stratifiedSplit, take } from "../../data/split.ts";
import { fitStandardizer } from "../../data/standardize.ts";
import { buildMulticlassDataset } from "../../data/table.ts";
import type { RatePoint } from "../../elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  type QuadraticMetric,
  randomQuadraticMetric,
} from "../../elicit/quadratic/metric.ts";
import { defaultVarrho, elicitQpme, PAPER_RHO } from "../../elicit/quadratic/qpme.ts";
import { createRng, type Rng } from "../../math/rng.ts";
import { simulatedOracle } from "../../oracle/simulated-oracle.ts";
import { STRATEGIES, type StrategyName } from "../../search/strategy.ts";
import { kendallTau, minMaxRelevance, ndcg } from "./measures.ts";
import { buildClassifierPool, diagonalRates, type PoolSizes, rateMatrix } from "./pool.ts";

/** Options of `reproduceRanking`. */
export interface RankingOptions {
  /** CSV text of the dataset. */
  readonly dataText: string;
  /** Target column. */
  readonly target: string;
  /** Group column: rejected here; the fairness variant is `reproduceFairRanking` (fair.ts). */
  readonly groups?: string;
  /** Random true metrics (default 100, the paper's trials). */
  readonly metrics?: number;
  /** Seed of the split, the pool and the metrics (default 1). */
  readonly seed?: number;
  /** Classifiers of each kind (default 20 logistic, 10 MLP, 10 trees). */
  readonly pool?: PoolSizes;
  /** LPME search tolerance (default 0.01, the paper's). */
  readonly tolerance?: number;
  /** Question strategy (default `lazy`, the paper's at most 3 questions per halving). */
  readonly strategy?: StrategyName;
}

/** Mean and standard deviation over the metrics of one ranking method. */
export interface RankingScore {
  readonly ndcg: number;
  readonly ndcgSd: number;
  readonly kendall: number;
  readonly kendallSd: number;
}

/** Result of `reproduceRanking`. */
export interface RankingReproduction {
  readonly classes: string[];
  readonly trainRows: number;
  readonly testRows: number;
  readonly classifiers: { name: string; diagonal: number[]; accuracy: number }[];
  readonly metrics: number;
  readonly meanQuestions: number;
  /** Metrics whose QPME run reported a regularity warning. */
  readonly warned: number;
  /** `elicited` (QPME), `linear` (the true metric's linear part), `accuracy` (mean rates). */
  readonly methods: { elicited: RankingScore; linear: RankingScore; accuracy: RankingScore };
}

/** Thrown for unsupported options (the CLI turns it into a one-line error). */
export class RankingUnsupportedError extends Error {}

/**
 * The training step of Appendix H.2: a 60/40 stratified split, features standardised on the
 * 60%, and the pool of varied classifiers trained on it (`rng` is advanced: fork order fixed).
 */
export function trainRankingPool(
  features: readonly Float64Array[],
  labels: Int32Array,
  k: number,
  rng: Rng,
  sizes?: PoolSizes,
): {
  split: { train: Int32Array; test: Int32Array };
  pool: Classifier[];
  testX: Float64Array[];
  testY: Int32Array;
} {
  const split = stratifiedSplit(labels, 0.6, rng.fork());
  const st = fitStandardizer(take(features, split.train));
  const trainX = st.transform(take(features, split.train));
  const testX = st.transform(take(features, split.test));
  const trainY = Int32Array.from(take(labels, split.train));
  const testY = Int32Array.from(take(labels, split.test));
  const pool = buildClassifierPool(trainX, trainY, k, rng.fork(), sizes);
  return { split, pool, testX, testY };
}

/** A classifier of the ranking pool with its row-normalised test rate matrix `R`. */
export interface RatedClassifier {
  readonly name: string;
  readonly R: number[][];
  readonly diagonal: number[];
  /** Test accuracy: the diagonal rates weighed by the test rows' class shares. */
  readonly accuracy: number;
}

/** What `prepareRankingPool` gives the ranking experiments. */
export interface RankingPool {
  /** The number of random true metrics (`metrics`, default 100). */
  readonly trials: number;
  readonly classes: string[];
  readonly trainRows: number;
  readonly testRows: number;
  readonly classifiers: RatedClassifier[];
  /** The seeded generator, past the split and the pool: its next fork draws the metrics. */
  readonly rng: Rng;
}

/**
 * The start every ranking experiment shares: `metrics` checked (before the data is read),
 * the dataset built, the generator seeded (`seed`, default 1) and the pool trained on its
 * 60/40 split, so that one seed gives every experiment the same split and pool.
 * @example const { trials, pool } = seededRankingPool(o, () => buildMulticlassDataset(rows, { target }));
 */
export function seededRankingPool<
  D extends {
    readonly features: Parameters<typeof trainRankingPool>[0];
    readonly labels: Parameters<typeof trainRankingPool>[1];
    readonly classNames: readonly string[];
  },
>(o: RankingOptions, build: () => D) {
  const trials = o.metrics ?? 100;
  if (!(Number.isInteger(trials) && trials >= 1)) throw new RangeError("metrics must be >= 1");
  const data = build();
  const rng = createRng(o.seed ?? 1);
  const trained = trainRankingPool(data.features, data.labels, data.classNames.length, rng, o.pool);
  return { trials, data, rng, ...trained };
}

/**
 * The setup `reproduceRanking` and `reproduceGeneralRanking` share, so that the same seed gives
 * both the same split and pool: checks `metrics`, reads the dataset, trains the pool
 * (`trainRankingPool`) and rates each classifier on the test rows.
 */
export function prepareRankingPool(o: RankingOptions): RankingPool {
  const { trials, data, rng, split, pool, testX, testY } = seededRankingPool(o, () =>
    buildMulticlassDataset(parseCsv(o.dataText), { target: o.target }),
  );
  const k = data.classNames.length;
  const prior = new Array<number>(k).fill(0);
  for (const c of testY) prior[c] = prior[c]! + 1 / testY.length;
  const classifiers = pool.map((h) => {
    const R = rateMatrix(h, testX, testY, k);
    const diagonal = diagonalRates(R);
    return {
      name: h.name,
      R,
      diagonal,
      accuracy: diagonal.reduce((s, r, i) => s + r * prior[i]!, 0),
    };
  });
  return {
    trials,
    classes: data.classNames,
    trainRows: split.train.length,
    testRows: split.test.length,
    classifiers,
    rng,
  };
}

/** Mean and (sample) standard deviation. */
export function meanSd(v: readonly number[]): [number, number] {
  const m = v.reduce((s, x) => s + x, 0) / v.length;
  const s2 = v.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, v.length - 1);
  return [m, Math.sqrt(s2)];
}

/**
 * UAI 2022 Appendix H.2 (Figure 9) on one dataset: a 60/40 stratified split, a pool of varied
 * classifiers trained on the 60% (standardised features), their row-normalised test rates;
 * then for each of `metrics` random quadratic metrics of the k diagonal rates (the paper's
 * sampler: `a >= 0`, `B` negative definite, regular on the ball of radius 0.2 around 1/k) a
 * noise-free simulated oracle answers QPME's questions on that synthetic ball, and the pool is
 * ranked by the true metric, by the elicited one, by the true linear part `<a, r>` and by
 * accuracy `<1, r>/sqrt(k)`. NDCG uses exponential gain on the true values min-max scaled over
 * the pool; Kendall tau is tau-b against the true values.
 */
export function reproduceRanking(o: RankingOptions): RankingReproduction {
  if (o.groups !== undefined) {
    throw new RankingUnsupportedError(
      "reproduceRanking ranks by quadratic metrics of the class rates; with groups use reproduceFairRanking",
    );
  }
  const { trials, classes, rng, ...pool } = prepareRankingPool(o);
  const k = classes.length;
  const classifiers = pool.classifiers.map(({ name, diagonal, accuracy }) => ({
    name,
    diagonal,
    accuracy,
  }));
  const rates = classifiers.map((c) => c.diagonal);
  const centre = new Array<number>(k).fill(1 / k);
  const rho = PAPER_RHO;
  const varrho = defaultVarrho(rho);
  const metricRng = rng.fork();
  const strategy = STRATEGIES[o.strategy ?? "lazy"];
  const acc: Record<"elicited" | "linear" | "accuracy", { n: number[]; t: number[] }> = {
    elicited: { n: [], t: [] },
    linear: { n: [], t: [] },
    accuracy: { n: [], t: [] },
  };
  let questions = 0;
  let warned = 0;
  const score = (m: QuadraticMetric): number[] => rates.map((r) => evaluateQuadratic(m, r));
  for (let t = 0; t < trials; t++) {
    const truth = randomQuadraticMetric(k, metricRng, { centre, rho, varrho, sampling: "paper" });
    const oracle = simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, p.point));
    const r = elicitQpme(oracle.ask, k, {
      tolerance: o.tolerance ?? 0.01,
      strategy,
      centre,
      rho,
      varrho,
    });
    questions += r.questions;
    if (r.warnings.length > 0) warned++;
    const trueScores = score(truth);
    const rel = minMaxRelevance(trueScores);
    const zero = truth.B.map((row) => row.map(() => 0));
    const candidates = {
      elicited: score(r.metric),
      linear: score({ a: truth.a, B: zero }),
      accuracy: rates.map((x) => x.reduce((s, v) => s + v, 0) / Math.sqrt(k)),
    };
    for (const name of ["elicited", "linear", "accuracy"] as const) {
      acc[name].n.push(ndcg(rel, candidates[name]));
      acc[name].t.push(kendallTau(trueScores, candidates[name]));
    }
  }
  const summary = (name: "elicited" | "linear" | "accuracy"): RankingScore => {
    const [n, nsd] = meanSd(acc[name].n);
    const [kt, ksd] = meanSd(acc[name].t);
    return { ndcg: n, ndcgSd: nsd, kendall: kt, kendallSd: ksd };
  };
  return {
    classes,
    trainRows: pool.trainRows,
    testRows: pool.testRows,
    classifiers,
    metrics: trials,
    meanQuestions: questions / trials,
    warned,
    methods: {
      elicited: summary("elicited"),
      linear: summary("linear"),
      accuracy: summary("accuracy"),
    },
  };
}

/** Plain-text report of `reproduceRanking`. */
export function formatRankingReproduction(r: RankingReproduction): string {
  const f = (x: number): string => x.toFixed(4);
  const lines = [
    `Ranking ${r.classifiers.length} classifiers (UAI 2022 Appendix H.2): k = ${r.classes.length} classes (${r.classes.join(", ")}), ${r.trainRows} train / ${r.testRows} test rows`,
    `${r.metrics} random quadratic metrics of the diagonal rates; QPME mean questions ${r.meanQuestions.toFixed(1)}${r.warned > 0 ? ` (${r.warned} runs warned)` : ""}`,
    `test accuracy of the pool: ${f(Math.min(...r.classifiers.map((c) => c.accuracy)))} .. ${f(Math.max(...r.classifiers.map((c) => c.accuracy)))}`,
    "",
    "method     NDCG (sd)          Kendall tau (sd)",
  ];
  for (const name of ["elicited", "linear", "accuracy"] as const) {
    const m = r.methods[name];
    lines.push(
      `${name.padEnd(10)} ${f(m.ndcg)} (${f(m.ndcgSd)})    ${f(m.kendall)} (${f(m.kendallSd)})`,
    );
  }
  return lines.join("\n");
}
