import { randomFairTruth, simulateFair } from "../elicit/fair/simulate.ts";
import { defaultVarrho, PAPER_RHO } from "../elicit/quadratic/qpme.ts";
import { createRng } from "../math/rng.ts";
import { mean } from "../math/stats.ts";
import { STRATEGIES, type StrategyName } from "../search/strategy.ts";
import { type ErrorPanel, type ErrorSummary, errorPlotSvg, errorSummary } from "./error-plot.ts";
import { fmt, table } from "./format.ts";

/**
 * UAI 2022 Table 1 (right block) exactly as printed: mean number of Fair-QPME queries over 100
 * metrics, eps = 0.01, `[row][column]`; the header reads "m \\ k" (rows m, columns k).
 *
 * The printed orientation is almost certainly transposed (see `paperFairQueries`): the row
 * "2" is 332.10, 867.65, 1663.73, 2738.59, and with one group partition (m = 2) the count
 * cannot grow to 1.46 QPME runs at k = 5, while read as k = 2 and m = 2..5 the row is
 * 1, 3, 6, 10 (= C(m, 2)) QPME(k = 2) runs plus about one LPME run, for every entry.
 */
export const PAPER_TABLE1_FAIR: Record<number, Record<number, number>> = {
  2: { 2: 332.1, 3: 867.65, 4: 1663.73, 5: 2738.59 },
  3: { 2: 796.37, 3: 2127.44, 4: 4094.31, 5: 6734.15 },
  4: { 2: 1398.14, 3: 3808.67, 4: 7363.82, 5: 12180.84 },
  5: { 2: 2130.92, 3: 5887.99, 4: 11454.18, 5: 18999.71 },
};

/**
 * The paper's Fair-QPME count for k classes and m groups under the transposed reading of
 * Table 1 (rows k, columns m): `PAPER_TABLE1_FAIR[k][m]`. Under this reading every entry is
 * `C(m,2) * QPME(k) + LPME(k)` to within 1.5% (QPME(k) from Table 1's left block,
 * LPME(k) = QPME(k) / (k + 2)), which is what Algorithm 4 with the extra LPME run for `a`
 * asks; e.g. m = 2: 332.10, 796.37, 1398.14, 2130.92 for k = 2..5.
 */
export function paperFairQueries(k: number, m: number): number | null {
  return PAPER_TABLE1_FAIR[k]?.[m] ?? null;
}

export interface FairReproductionOptions {
  readonly trials?: number;
  readonly tolerance?: number;
  readonly classes?: readonly number[];
  readonly groups?: readonly number[];
  /** Question strategy (default `lazy`: Table 1's counting, at most 3 per halving). */
  readonly strategy?: StrategyName;
  readonly seed?: number;
  readonly varrho?: number;
  /** QPME reconstruction inside each run (default `ratios`, the paper's corrected formula). */
  readonly reconstruction?: "ratios" | "least-squares";
  /** Where `a` comes from (default `lpme`: the extra LPME run the paper's counts include). */
  readonly aFrom?: "lpme" | "qpme";
}

export interface FairReproductionRow {
  readonly k: number;
  readonly m: number;
  readonly trials: number;
  readonly meanQueries: number;
  /** Table 1 under the transposed reading (`paperFairQueries`). */
  readonly paperQueries: number | null;
  /** Mean errors: `||a - a_hat||`, `sum ||B^{uv} - B_hat^{uv}||_F`, `|lambda - lambda_hat|`. */
  readonly error: { readonly a: number; readonly B: number; readonly lambda: number };
  /** Mean and quantiles of the same three errors over the trials (Figure 4 (c-e)). */
  readonly errorSummary: {
    readonly a: ErrorSummary;
    readonly B: ErrorSummary;
    readonly lambda: ErrorSummary;
  };
  readonly warnedTrials: number;
}

export interface FairReproduction {
  readonly strategy: StrategyName;
  readonly tolerance: number;
  readonly rho: number;
  readonly varrho: number;
  readonly rows: FairReproductionRow[];
}

/**
 * Fair QPME on the paper's synthetic setting (Section 6, "Eliciting fairness metrics"): sphere
 * of radius rho = 0.2 around o = 1/k for every group, random truths and tau from
 * `randomFairTruth` (the authors' code's sampler with the paper's regularity constant),
 * eps = 0.01, `trials` metrics per (k, m), noise-free oracle.
 */
export function reproduceFair(o: FairReproductionOptions = {}): FairReproduction {
  const trials = o.trials ?? 100;
  const tolerance = o.tolerance ?? 0.01;
  const classes = o.classes ?? [2, 3, 4, 5];
  const groups = o.groups ?? [2, 3, 4, 5];
  const strategy = o.strategy ?? "lazy";
  const rho = PAPER_RHO;
  const varrho = o.varrho ?? defaultVarrho(rho);
  const rows: FairReproductionRow[] = [];
  for (const m of groups) {
    for (const k of classes) {
      const rng = createRng(`fair-${o.seed ?? 1}-${k}-${m}`);
      const q: number[] = [];
      const ea: number[] = [];
      const eb: number[] = [];
      const el: number[] = [];
      let warned = 0;
      for (let t = 0; t < trials; t++) {
        const { truth, tau } = randomFairTruth(k, m, rng, rho, varrho);
        const r = simulateFair(
          truth,
          {
            tolerance,
            strategy: STRATEGIES[strategy],
            tau,
            rho,
            varrho,
            reconstruction: o.reconstruction ?? "ratios",
            aFrom: o.aFrom ?? "lpme",
          },
          { kind: "none" },
          t,
        );
        q.push(r.queries);
        ea.push(r.error.a);
        eb.push(r.error.B);
        el.push(r.error.lambda);
        if (r.warnings.length > 0) warned++;
      }
      rows.push({
        k,
        m,
        trials,
        meanQueries: mean(q),
        paperQueries: paperFairQueries(k, m),
        error: { a: mean(ea), B: mean(eb), lambda: mean(el) },
        errorSummary: { a: errorSummary(ea), B: errorSummary(eb), lambda: errorSummary(el) },
        warnedTrials: warned,
      });
    }
  }
  return { strategy, tolerance, rho, varrho, rows };
}

/** The reproduction as a text table. */
export function formatFairReproduction(r: FairReproduction): string {
  const head = `Fair QPME on the synthetic sphere (rho = ${r.rho}, varrho = ${r.varrho}, eps = ${r.tolerance}, strategy ${r.strategy})`;
  return `${head}\n${table(
    ["m", "k", "trials", "queries", "paper", "ratio", "err a", "err B", "err lambda", "warned"],
    r.rows.map((row) => [
      String(row.m),
      String(row.k),
      String(row.trials),
      fmt(row.meanQueries, 1),
      row.paperQueries === null ? "-" : fmt(row.paperQueries, 1),
      row.paperQueries === null ? "-" : fmt(row.meanQueries / row.paperQueries, 3),
      fmt(row.error.a, 4),
      fmt(row.error.B, 4),
      fmt(row.error.lambda, 4),
      String(row.warnedTrials),
    ]),
  )}\n${FAIR_TABLE_LEGEND}`;
}

/** What the fair table's columns are (the paper column is Table 1 read transposed). */
const FAIR_TABLE_LEGEND = [
  "queries: mean questions per metric; paper: UAI 2022 Table 1's Fair-QPME count for this k and m, the printed table read transposed (its rows as k, its columns as m: only so is every entry C(m, 2) QPME runs plus one LPME run); ratio: queries / paper",
  "err a, err B, err lambda: mean ||a - a_hat||, sum over group pairs of ||B - B_hat||_F, |lambda - lambda_hat|; warned: runs whose recovery warned (a negative cost, a scale of a not positive, or no fairness violation detected)",
].join("\n");

/**
 * Figure 4 (c-e) as an SVG: one panel per error (`||a - a_hat||`, `sum ||B - B_hat||_F`,
 * `|lambda - lambda_hat|`), on the x axis the numbers of groups m, in each group one box per k:
 * interquartile range (box), median (dot) and mean (diamond; joined across m for each k).
 * @example writeFileSync("figure4ce.svg", fairErrorSvg(reproduceFair({ trials: 20 })))
 */
export function fairErrorSvg(r: FairReproduction): string {
  const ks = [...new Set(r.rows.map((row) => row.k))];
  const ms = [...new Set(r.rows.map((row) => row.m))];
  const panel = (title: string, error: "a" | "B" | "lambda"): ErrorPanel => ({
    title,
    groups: ms.map((m) => ({
      label: `m = ${m}`,
      boxes: r.rows
        .filter((row) => row.m === m)
        .map((row) => ({ series: ks.indexOf(row.k), stats: row.errorSummary[error] })),
    })),
  });
  const trials = [...new Set(r.rows.map((row) => row.trials))].join("/");
  return errorPlotSvg({
    panels: [
      panel("||a - â||₂", "a"),
      panel("Σ ||B - B̂||_F over group pairs", "B"),
      panel("|λ - λ̂|", "lambda"),
    ],
    series: ks.map((k) => `k = ${k}`),
    caption: [
      `Fair QPME, noise-free: boxes: quartiles, dots: median, diamonds and lines: mean over ${trials} metrics per (k, m)`,
      `(rho = ${r.rho}, varrho = ${r.varrho}, eps = ${r.tolerance}, strategy ${r.strategy})`,
    ],
  });
}
