import { parseCsv } from "../../data/csv.ts";
import { buildGroupedDataset } from "../../data/groups.ts";
import { take } from "../../data/split.ts";
import { groupQuerySpace } from "../../elicit/fair/group-space.ts";
import { type FairMetric, fairCost, groupPairs, pairKey } from "../../elicit/fair/metric.ts";
import { randomFairTruth } from "../../elicit/fair/simulate.ts";
import { simulateFairOnData } from "../../elicit/fair/simulate-data.ts";
import { defaultVarrho } from "../../elicit/quadratic/qpme.ts";
import { prepareFairFromCsv } from "../../population/fair.ts";
import { STRATEGIES } from "../../search/strategy.ts";
import { kendallTau, minMaxRelevance, ndcg } from "./measures.ts";
import { diagonalRates, rateMatrix } from "./pool.ts";
import { meanSd, type RankingOptions, type RankingScore, seededRankingPool } from "./reproduce.ts";

/** The methods compared in the fairness ranking (UAI 2022 Table 3, without FPME). */
export const FAIR_RANKING_METHODS = ["elicited", "linear", "accuracyEqualisedOdds"] as const;
export type FairRankingMethod = (typeof FAIR_RANKING_METHODS)[number];

/** Result of `reproduceFairRanking`. */
export interface FairRankingReproduction {
  readonly classes: string[];
  readonly groupColumn: string;
  readonly groupNames: string[];
  readonly trainRows: number;
  readonly testRows: number;
  /** `tau[g][i] = P(G = g | Y = i)` used by every metric (from the query-space half). */
  readonly tau: number[][];
  /** Radius of the query ball inside every group's feasible rates. */
  readonly rho: number;
  /** Per classifier: the diagonal test rates of each group, and overall test accuracy. */
  readonly classifiers: { name: string; groupRates: number[][]; accuracy: number }[];
  readonly metrics: number;
  readonly meanQuestions: number;
  /** Most any queried profile's realised rates deviated from the queried ones. */
  readonly maxRealisationError: number;
  readonly warned: number;
  readonly methods: Record<FairRankingMethod, RankingScore>;
}

/**
 * "Accuracy with equalised odds" (Table 3's baseline): every class's error and every rate gap
 * weighed equally, `a = 1/sqrt(k)`, `B^{uv} = c I` with `1/2 sum ||B^{uv}||_F = 1`, lambda 1/2.
 * @example accuracyEqualisedOdds(2, 2).B["0-1"] // [[sqrt 2, 0], [0, sqrt 2]]
 */
export function accuracyEqualisedOdds(k: number, m: number): FairMetric {
  const pairs = groupPairs(m);
  const c = 2 / (pairs.length * Math.sqrt(k));
  const B: Record<string, number[][]> = {};
  for (const [u, v] of pairs) {
    B[pairKey(u, v)] = Array.from({ length: k }, (_, i) =>
      Array.from({ length: k }, (_, j) => (i === j ? c : 0)),
    );
  }
  return { a: new Array<number>(k).fill(1 / Math.sqrt(k)), B, lambda: 0.5 };
}

/**
 * UAI 2022 Appendix H.2, "ranking in case of fair (quadratic) metrics" (Table 3) on one
 * dataset with a group column: the classifier pool of `reproduceRanking` (60/40 split), each
 * classifier's diagonal test rates per group; for each of `metrics` random fair metrics
 * (Definition 4, the authors' sampler, regular on the query ball) a noise-free simulated
 * stakeholder answers fair QPME's questions on the data's group query space (a ball inside
 * every group's feasible rates, from a softmax model's held-out probabilities, every queried
 * profile realised by group-wise classifiers), and the pool is ranked by the true cost, the
 * elicited cost, the true linear part without fairness (lambda = 0) and accuracy with
 * equalised odds. NDCG (exponential gain on min-max scaled true utilities) and Kendall tau-b.
 * The paper's FPME baseline is not included (FPME is a different, linear procedure).
 */
export function reproduceFairRanking(
  o: RankingOptions & { readonly groups: string },
): FairRankingReproduction {
  const seed = o.seed ?? 1;
  const { trials, data, rng, split, pool, testX, testY } = seededRankingPool(o, () =>
    buildGroupedDataset(parseCsv(o.dataText), { target: o.target, groups: o.groups }),
  );
  const k = data.classNames.length;
  const m = data.groupNames.length;
  const testG = Int32Array.from(take(data.groups, split.test));
  const classifiers = pool.map((h) => {
    const groupRates = data.groupNames.map((_, g) => {
      const rows = Array.from(testG.keys()).filter((n) => testG[n] === g);
      return diagonalRates(
        rateMatrix(
          h,
          rows.map((n) => testX[n]!),
          rows.map((n) => testY[n]!),
          k,
        ),
      );
    });
    let correct = 0;
    testX.forEach((x, n) => {
      if (h.predict(x) === testY[n]) correct++;
    });
    return { name: h.name, groupRates, accuracy: correct / testY.length };
  });
  const prepared = prepareFairFromCsv(o.dataText, {
    target: o.target,
    groups: o.groups,
    splitSeed: seed,
  });
  const { tau } = prepared;
  const space = groupQuerySpace(prepared.pools);
  const rho = space.sphere.rho;
  const metricRng = rng.fork();
  const strategy = STRATEGIES[o.strategy ?? "lazy"];
  const baseline = accuracyEqualisedOdds(k, m);
  const acc = {} as Record<FairRankingMethod, { n: number[]; t: number[] }>;
  for (const name of FAIR_RANKING_METHODS) acc[name] = { n: [], t: [] };
  let questions = 0;
  let warned = 0;
  let maxRealisationError = 0;
  const utilities = (metric: FairMetric): number[] =>
    classifiers.map((c) => -fairCost(metric, tau, c.groupRates));
  for (let t = 0; t < trials; t++) {
    const { truth } = randomFairTruth(k, m, metricRng, rho, defaultVarrho(rho), tau);
    const r = simulateFairOnData(
      { pools: prepared.pools, tau, space },
      truth,
      { tolerance: o.tolerance ?? 0.01, strategy },
      { kind: "none" },
      seed + t,
    );
    questions += r.queries;
    if (r.warnings.length > 0) warned++;
    maxRealisationError = Math.max(maxRealisationError, r.feasibility.maxError);
    const trueScores = utilities(truth);
    const rel = minMaxRelevance(trueScores);
    const candidates: Record<FairRankingMethod, number[]> = {
      elicited: utilities(r.elicited),
      linear: utilities({ ...truth, lambda: 0 }),
      accuracyEqualisedOdds: utilities(baseline),
    };
    for (const name of FAIR_RANKING_METHODS) {
      acc[name].n.push(ndcg(rel, candidates[name]));
      acc[name].t.push(kendallTau(trueScores, candidates[name]));
    }
  }
  const methods = Object.fromEntries(
    FAIR_RANKING_METHODS.map((name) => {
      const [n, nsd] = meanSd(acc[name].n);
      const [kt, ksd] = meanSd(acc[name].t);
      return [name, { ndcg: n, ndcgSd: nsd, kendall: kt, kendallSd: ksd }];
    }),
  ) as Record<FairRankingMethod, RankingScore>;
  return {
    classes: data.classNames,
    groupColumn: o.groups,
    groupNames: data.groupNames,
    trainRows: split.train.length,
    testRows: split.test.length,
    tau,
    rho,
    classifiers,
    metrics: trials,
    meanQuestions: questions / trials,
    maxRealisationError,
    warned,
    methods,
  };
}

const LABELS: Record<FairRankingMethod, string> = {
  elicited: "elicited via fair QPME",
  linear: "linear with no fairness",
  accuracyEqualisedOdds: "accuracy with equalised odds",
};

/** Plain-text report of `reproduceFairRanking` (the layout of the paper's Table 3). */
export function formatFairRankingReproduction(r: FairRankingReproduction): string {
  const f = (x: number): string => x.toFixed(4);
  const lines = [
    `Ranking ${r.classifiers.length} classifiers for fairness (UAI 2022 Table 3): k = ${r.classes.length} classes (${r.classes.join(", ")}), groups by ${r.groupColumn}: ${r.groupNames.join(", ")}; ${r.trainRows} train / ${r.testRows} test rows`,
    `${r.metrics} random fair metrics; fair QPME on the data's query ball (rho = ${f(r.rho)}), mean questions ${r.meanQuestions.toFixed(1)}${r.warned > 0 ? ` (${r.warned} runs warned)` : ""}; every queried profile realised (max deviation ${r.maxRealisationError.toExponential(1)})`,
    `test accuracy of the pool: ${f(Math.min(...r.classifiers.map((c) => c.accuracy)))} .. ${f(Math.max(...r.classifiers.map((c) => c.accuracy)))}`,
    "",
    "method                          NDCG (sd)          Kendall tau (sd)",
  ];
  for (const name of FAIR_RANKING_METHODS) {
    const m = r.methods[name];
    lines.push(
      `${LABELS[name].padEnd(31)} ${f(m.ndcg)} (${f(m.ndcgSd)})    ${f(m.kendall)} (${f(m.kendallSd)})`,
    );
  }
  return lines.join("\n");
}
