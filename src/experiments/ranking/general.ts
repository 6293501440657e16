import { elicitLpme, type RatePoint } from "../../elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  type QpmeGeometry,
  type QuadraticMetric,
  randomQuadraticMetric,
  regularity,
} from "../../elicit/quadratic/metric.ts";
import { defaultVarrho, elicitQpme, PAPER_RHO } from "../../elicit/quadratic/qpme.ts";
import type { Rng } from "../../math/rng.ts";
import { simulatedOracle } from "../../oracle/simulated-oracle.ts";
import type { Ask } from "../../search/question.ts";
import { STRATEGIES } from "../../search/strategy.ts";
import { kendallTau, minMaxRelevance, ndcg } from "./measures.ts";
import {
  meanSd,
  prepareRankingPool,
  type RankingOptions,
  type RankingScore,
  RankingUnsupportedError,
} from "./reproduce.ts";

/**
 * The elicited metrics of UAI 2022 Table 4, in its row order: LPME and QPME, each over the k
 * diagonal rates and over the `q = k^2 - k` general (off-diagonal) rates.
 */
export const GENERAL_RANKING_METHODS = [
  "linearDiagonal",
  "linearGeneral",
  "quadraticDiagonal",
  "quadraticGeneral",
] as const;
export type GeneralRankingMethod = (typeof GENERAL_RANKING_METHODS)[number];

/** Printed names (the paper's row labels) and the query complexity the paper gives each. */
export const GENERAL_METHOD_LABELS: Record<GeneralRankingMethod, string> = {
  linearDiagonal: "linear-diagonal",
  linearGeneral: "linear-general",
  quadraticDiagonal: "quadratic-diagonal",
  quadraticGeneral: "quadratic-general",
};

/**
 * The paper's Table 4 (UAI 2022 Appendix H.2): NDCG and Kendall tau on Adult and Default, both
 * binary (k = 2), when the oracle's metric is quadratic in the general rates.
 */
export const PAPER_TABLE_4: Record<
  GeneralRankingMethod,
  { adult: { ndcg: number; kendall: number }; default: { ndcg: number; kendall: number } }
> = {
  linearDiagonal: {
    adult: { ndcg: 0.9783, kendall: 0.6053 },
    default: { ndcg: 0.979, kendall: 0.4536 },
  },
  linearGeneral: {
    adult: { ndcg: 0.9908, kendall: 0.7713 },
    default: { ndcg: 0.9863, kendall: 0.6216 },
  },
  quadraticDiagonal: {
    adult: { ndcg: 0.9968, kendall: 0.9611 },
    default: { ndcg: 1, kendall: 0.9979 },
  },
  quadraticGeneral: { adult: { ndcg: 1, kendall: 0.9986 }, default: { ndcg: 1, kendall: 0.9979 } },
};

/** Result of `reproduceGeneralRanking`. */
export interface GeneralRankingReproduction {
  readonly rates: "general";
  readonly classes: string[];
  readonly trainRows: number;
  readonly testRows: number;
  /** Per classifier: its general (off-diagonal, row-major) and diagonal test rates, accuracy. */
  readonly classifiers: { name: string; general: number[]; diagonal: number[]; accuracy: number }[];
  readonly metrics: number;
  /** Mean questions of each elicitation. */
  readonly meanQuestions: Record<GeneralRankingMethod, number>;
  /** QPME runs that reported a regularity warning (the two quadratic methods). */
  readonly warned: { quadraticDiagonal: number; quadraticGeneral: number };
  readonly methods: Record<GeneralRankingMethod, RankingScore>;
}

/**
 * The general rates of a rate matrix: its `k^2 - k` off-diagonal entries row by row
 * (UAI 2022 Appendix E, `off-diag(R)`; the order of ALGORITHMS.md section 0).
 * @example generalRates([[0.7, 0.3], [0.1, 0.9]]) // [0.3, 0.1]
 */
export function generalRates(R: readonly (readonly number[])[]): number[] {
  const out: number[] = [];
  R.forEach((row, i) => {
    row.forEach((x, j) => {
      if (j !== i) out.push(x);
    });
  });
  return out;
}

/**
 * The general rates a diagonal-rate query stands for: the rate matrix with diagonal `d` and
 * each class's errors spread evenly over the other classes, `R_ij = (1 - d_i) / (k - 1)` (the
 * uniform random classifier's matrix at `d = 1/k`). Affine in `d`, so a quadratic metric of
 * the general rates is a quadratic metric of `d` along this embedding; for k = 2 it is exact
 * (`r = 1 - d`: the diagonal rates determine the matrix).
 * @example spreadDiagonal([0.6, 0.8]) // [0.4, 0.2] (1 - 0.8 up to rounding)
 */
export function spreadDiagonal(d: ArrayLike<number>): number[] {
  const k = d.length;
  const out: number[] = [];
  for (let i = 0; i < k; i++) {
    const e = (1 - d[i]!) / (k - 1);
    for (let j = 0; j < k; j++) if (j !== i) out.push(e);
  }
  return out;
}

/**
 * A random true metric of the `q = k^2 - k` general rates (Definition 6), a utility
 * `<a, r> + 1/2 r^T B r` with `a <= 0` and `B` negative definite: Definition 6's cost
 * (`a >= 0`, `B` positive semidefinite) with its sign turned, so that every error rate costs.
 * The draw is the engine's paper sampler (`randomQuadraticMetric`, `sampling: "paper"`: the
 * authors' norm split, `B` from a Haar-random basis) with `a` negated, rejected until the
 * regularity assumption holds with constant 1e-2 on the general-rate query ball.
 * @example randomGeneralTruth(2, createRng(1), { centre: [0.5, 0.5], rho: 0.2, varrho: 0.001 })
 */
export function randomGeneralTruth(k: number, rng: Rng, g: QpmeGeometry): QuadraticMetric {
  const q = k * k - k;
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const m = randomQuadraticMetric(q, rng, { ...g, sampling: "paper", minGradient: 0 });
    const truth: QuadraticMetric = { a: m.a.map((x) => -x), B: m.B };
    if (regularity(truth, g).min >= 1e-2) return truth;
  }
  throw new RangeError("could not draw a general-rate metric satisfying the regularity assumption");
}

/** Per-metric progress of `reproduceGeneralRanking` (for a progress bar). */
export interface GeneralRankingOptions extends RankingOptions {
  readonly onMetric?: (done: number, total: number) => void;
}

/**
 * UAI 2022 Appendix H.2, "ranking in case of added structural assumptions" (Table 4) on one
 * dataset: the classifier pool of `reproduceRanking` (same split, same seed, same pool), each
 * classifier's row-normalised test rate matrix; for each of `metrics` random quadratic
 * metrics of the `q = k^2 - k` general rates (`randomGeneralTruth`) a noise-free simulated
 * oracle answers four elicitations, each on a synthetic ball of radius 0.2 (the paper's) around
 * the uniform classifier's rates (1/k in every entry):
 *
 * - linear-diagonal: LPME on the k diagonal rates;
 * - linear-general: LPME on the q general rates;
 * - quadratic-diagonal: QPME on the k diagonal rates;
 * - quadratic-general: QPME on the q general rates (Appendix E).
 *
 * A diagonal-rate query is judged at the general rates of `spreadDiagonal` (each class's errors
 * spread evenly); the diagonal methods rank the pool by its diagonal rates, the general ones by
 * its general rates. NDCG (exponential gain on min-max scaled true values) and Kendall tau-b
 * against the true metric's values, as in `reproduceRanking`.
 */
export function reproduceGeneralRanking(o: GeneralRankingOptions): GeneralRankingReproduction {
  if (o.groups !== undefined) {
    throw new RankingUnsupportedError(
      "--rates general ranks by quadratic metrics of the class rates; it takes no --groups",
    );
  }
  // The same setup as reproduceRanking: the same split and pool for the same seed.
  const { trials, classes, rng, ...pool } = prepareRankingPool(o);
  const k = classes.length;
  const q = k * k - k;
  const classifiers = pool.classifiers.map(({ name, R, diagonal, accuracy }) => ({
    name,
    general: generalRates(R),
    diagonal,
    accuracy,
  }));
  const rho = PAPER_RHO;
  const varrho = defaultVarrho(rho);
  const diagonalBall = { centre: new Array<number>(k).fill(1 / k), radius: rho };
  const generalBall = { centre: new Array<number>(q).fill(1 / k), radius: rho };
  const generalGeometry: QpmeGeometry = { centre: generalBall.centre, rho, varrho };
  const metricRng = rng.fork();
  const search = { tolerance: o.tolerance ?? 0.01, strategy: STRATEGIES[o.strategy ?? "lazy"] };
  const acc = Object.fromEntries(
    GENERAL_RANKING_METHODS.map((m) => [m, { n: [] as number[], t: [] as number[], q: 0 }]),
  ) as Record<GeneralRankingMethod, { n: number[]; t: number[]; q: number }>;
  const warned = { quadraticDiagonal: 0, quadraticGeneral: 0 };
  const linearScores = (slope: readonly number[], rates: readonly number[][]): number[] =>
    rates.map((r) => r.reduce((s, x, i) => s + x * slope[i]!, 0));
  const generals = classifiers.map((c) => c.general);
  const diagonals = classifiers.map((c) => c.diagonal);
  for (let t = 0; t < trials; t++) {
    const truth = randomGeneralTruth(k, metricRng, generalGeometry);
    // A fresh oracle per elicitation: each logs its own questions.
    const generalAsk = (): Ask<RatePoint> =>
      simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, p.point)).ask;
    const diagonalAsk = (): Ask<RatePoint> =>
      simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, spreadDiagonal(p.point))).ask;
    const ld = elicitLpme(diagonalAsk(), diagonalBall, search);
    const lg = elicitLpme(generalAsk(), generalBall, search);
    const qd = elicitQpme(diagonalAsk(), k, {
      ...search,
      centre: diagonalBall.centre,
      rho,
      varrho,
    });
    const qg = elicitQpme(generalAsk(), q, { ...search, centre: generalBall.centre, rho, varrho });
    if (qd.warnings.length > 0) warned.quadraticDiagonal++;
    if (qg.warnings.length > 0) warned.quadraticGeneral++;
    const trueScores = generals.map((r) => evaluateQuadratic(truth, r));
    const rel = minMaxRelevance(trueScores);
    const candidates: Record<GeneralRankingMethod, { scores: number[]; questions: number }> = {
      linearDiagonal: { scores: linearScores(ld.slope, diagonals), questions: ld.questions },
      linearGeneral: { scores: linearScores(lg.slope, generals), questions: lg.questions },
      quadraticDiagonal: {
        scores: diagonals.map((r) => evaluateQuadratic(qd.metric, r)),
        questions: qd.questions,
      },
      quadraticGeneral: {
        scores: generals.map((r) => evaluateQuadratic(qg.metric, r)),
        questions: qg.questions,
      },
    };
    for (const name of GENERAL_RANKING_METHODS) {
      acc[name].n.push(ndcg(rel, candidates[name].scores));
      acc[name].t.push(kendallTau(trueScores, candidates[name].scores));
      acc[name].q += candidates[name].questions;
    }
    o.onMetric?.(t + 1, trials);
  }
  const summary = (name: GeneralRankingMethod): RankingScore => {
    const [n, nsd] = meanSd(acc[name].n);
    const [kt, ksd] = meanSd(acc[name].t);
    return { ndcg: n, ndcgSd: nsd, kendall: kt, kendallSd: ksd };
  };
  const perMethod = <T>(f: (m: GeneralRankingMethod) => T) =>
    Object.fromEntries(GENERAL_RANKING_METHODS.map((m) => [m, f(m)])) as Record<
      GeneralRankingMethod,
      T
    >;
  return {
    rates: "general",
    classes,
    trainRows: pool.trainRows,
    testRows: pool.testRows,
    classifiers,
    metrics: trials,
    meanQuestions: perMethod((m) => acc[m].q / trials),
    warned,
    methods: perMethod(summary),
  };
}

/** Plain-text report of `reproduceGeneralRanking`: ours, then the paper's Table 4. */
export function formatGeneralRankingReproduction(r: GeneralRankingReproduction): string {
  const f = (x: number): string => x.toFixed(4);
  const k = r.classes.length;
  const lines = [
    `Ranking ${r.classifiers.length} classifiers by metrics of the general rates (UAI 2022 Table 4): k = ${k} classes (${r.classes.join(", ")}), ${r.trainRows} train / ${r.testRows} test rows`,
    `${r.metrics} random quadratic metrics of the q = ${k * k - k} general (off-diagonal) rates; a diagonal-rate query is judged with each class's errors spread evenly${k === 2 ? " (exact for k = 2)" : ""}`,
    `QPME runs warned: quadratic-diagonal ${r.warned.quadraticDiagonal}, quadratic-general ${r.warned.quadraticGeneral}`,
    `test accuracy of the pool: ${f(Math.min(...r.classifiers.map((c) => c.accuracy)))} .. ${f(Math.max(...r.classifiers.map((c) => c.accuracy)))}`,
    "",
    "method               questions   NDCG (sd)          Kendall tau (sd)    paper: Adult NDCG / tau   Default NDCG / tau",
  ];
  for (const name of GENERAL_RANKING_METHODS) {
    const m = r.methods[name];
    const p = PAPER_TABLE_4[name];
    lines.push(
      `${GENERAL_METHOD_LABELS[name].padEnd(20)} ${r.meanQuestions[name].toFixed(1).padStart(9)}   ${f(m.ndcg)} (${f(m.ndcgSd)})    ${f(m.kendall)} (${f(m.kendallSd)})           ${f(p.adult.ndcg)} / ${f(p.adult.kendall)}      ${f(p.default.ndcg)} / ${f(p.default.kendall)}`,
    );
  }
  return lines.join("\n");
}
