import type { RatePoint } from "../elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  type QuadraticMetric,
  quadraticError,
  randomQuadraticMetric,
} from "../elicit/quadratic/metric.ts";
import { pairHalvings } from "../elicit/quadratic/pair-gradient.ts";
import { qpmePairsRegion, regionHolds } from "../elicit/quadratic/pair-region.ts";
import { elicitQpme, qpmeQuestionBound } from "../elicit/quadratic/qpme.ts";
import { createRng } from "../math/rng.ts";
import { mean } from "../math/stats.ts";
import { simulatedOracle } from "../oracle/simulated-oracle.ts";
import { STRATEGIES, type StrategyName } from "../search/strategy.ts";
import { type ErrorSummary, errorPlotSvg, errorSummary } from "./error-plot.ts";

export type { ErrorSummary } from "./error-plot.ts";

/** UAI 2022 Table 1: mean number of QPME queries over 100 metrics (eps = 0.01). */
export const PAPER_TABLE1_QPME: Record<number, number> = {
  2: 265.43,
  3: 669.29,
  4: 1205.91,
  5: 1879.74,
};

/**
 * Mean errors of the authors' public code (koyejolab/qme, as quoted in issue 5) in its own
 * setting: sphere of radius 1 around 0, varrho = 5e-3, 4 cycles, 4 queries per halving, B
 * positive definite, eps = 0.01. Keyed by the number of classes k, but measured over the
 * general rates: `q = k^2 - k` coordinates (2, 6, 12, 20), see `referenceRates` (issue 10).
 */
export const REFERENCE_CODE_ERRORS: Record<number, { a: number; B: number }> = {
  2: { a: 0.002, B: 0.004 },
  3: { a: 0.005, B: 0.02 },
  4: { a: 0.014, B: 0.066 },
  5: { a: 0.014, B: 0.11 },
};

/**
 * The two synthetic settings.
 *
 * - `paper` (UAI 2022 Section 6): ball of radius rho = 0.2 around o = 1/k, all points assumed
 *   feasible; varrho = rho / 200 = 1e-3 (not stated in the paper: the code's ratio); LPME with
 *   3 forward cycles; truths from `randomQuadraticMetric(..., { sampling: "paper" })` (B
 *   negative definite, regularity constant 1e-2).
 * - `code` (koyejolab/qme's trials): ball of radius 1 around 0, varrho = 5e-3, 4 forward
 *   cycles, truths from the code's sampler (B positive definite, its "well formed" check with
 *   MIN_GRAD = 0.1). Our QPME (robust pivot, least-squares K) runs unchanged.
 */
export type QuadraticSetting = "paper" | "code";

/**
 * The rates QPME runs over for k classes: `diagonal` (q = k, the paper's Table 1 and Figure 4)
 * or `general` (the q = k^2 - k off-diagonal rates of Appendix E, where the authors' code's
 * errors were measured).
 */
export type QuadraticRates = "diagonal" | "general";

/** Number of rates q for k classes. */
export function ratesDimension(rates: QuadraticRates, k: number): number {
  return rates === "diagonal" ? k : k * k - k;
}

/** The q of the authors' code's errors `REFERENCE_CODE_ERRORS[k]`: the k^2 - k general rates. */
export function referenceRates(k: number): number {
  return k * k - k;
}

/** The q of the paper's Table 1 counts `PAPER_TABLE1_QPME[k]`: the k diagonal rates. */
export function table1Rates(k: number): number {
  return k;
}

/** A strategy of the QPME reproduction: the ShrinkInterval ones, or `pairs`. */
export type QpmeStrategyName = StrategyName | "pairs";

export interface QuadraticReproductionOptions {
  readonly trials?: number;
  readonly tolerance?: number;
  readonly classes?: readonly number[];
  readonly setting?: QuadraticSetting;
  /**
   * Question strategies to count (default `lazy` = Table 1's counting, and `paper` = 4 per
   * halving); `pairs` is our gradient search from symmetric pairs (`QpmeOptions.gradients`),
   * whose rows also say how often its 90% credible region held the truth.
   */
  readonly strategies?: readonly QpmeStrategyName[];
  readonly seed?: number;
  readonly order?: "forward" | "reverse";
  /** Override the setting's varrho. */
  readonly varrho?: number;
  /** QPME reconstruction (default `ratios`, the paper's corrected formula). */
  readonly reconstruction?: "ratios" | "least-squares";
  /**
   * Rates of our runs (default `diagonal`, q = k). `general` (q = k^2 - k) is the q of the
   * authors' code's errors; `reference` is filled only on rows whose q is that q.
   */
  readonly rates?: QuadraticRates;
}

export interface QuadraticReproductionRow {
  /** Number of classes. */
  readonly k: number;
  /** Number of rates our QPME ran over (k diagonal, or k^2 - k general; always set here). */
  readonly q?: number;
  readonly strategy: QpmeStrategyName;
  readonly trials: number;
  readonly meanQueries: number;
  readonly minQueries: number;
  readonly maxQueries: number;
  /** Upper bound (exact count for `paper`): `(k+2)(k + cycles (k-1) 8 q)`. */
  readonly boundQueries: number;
  /**
   * Table 1 (for reference; it counts at most 3 per halving, i.e. our `lazy`), only when our q
   * is Table 1's q (= k).
   */
  readonly paperQueries: number | undefined;
  readonly errorA: ErrorSummary;
  readonly errorB: ErrorSummary;
  /** Trials whose QPME raised a warning, and the mean errors of the others. */
  readonly warned: number;
  readonly meanErrorAClean: number;
  readonly meanErrorBClean: number;
  /** The authors' code's mean errors, only when our q is theirs (k^2 - k); else undefined. */
  readonly reference: { a: number; B: number } | undefined;
  /** `pairs` only: runs whose 90% credible region held the truth, and the regions' radii. */
  readonly region?: { readonly held: number; readonly radius: ErrorSummary };
}

export interface QuadraticReproduction {
  readonly setting: QuadraticSetting;
  /** Always set by `reproduceQuadratic`; a hand-built report without it means `diagonal`. */
  readonly rates?: QuadraticRates;
  readonly reconstruction: "ratios" | "least-squares";
  readonly tolerance: number;
  readonly rho: number;
  readonly varrho: number;
  readonly cycles: number;
  readonly rows: QuadraticReproductionRow[];
}

/** Geometry and LPME settings of a synthetic setting for k classes. */
export function settingGeometry(
  setting: QuadraticSetting,
  k: number,
  varrho?: number,
): { centre: number[]; rho: number; varrho: number; cycles: number } {
  if (setting === "paper") {
    return {
      centre: new Array<number>(k).fill(1 / k),
      rho: 0.2,
      varrho: varrho ?? 1e-3,
      cycles: 3,
    };
  }
  return { centre: new Array<number>(k).fill(0), rho: 1, varrho: varrho ?? 5e-3, cycles: 4 };
}

/**
 * Table 1's query counts and Figure 4's errors for k = 2..5: `trials` random truths per k
 * (seeded), one noise-free QPME per truth and strategy. With consistent answers `lazy` and
 * `paper` shrink to the same intervals, so their errors coincide and only the counts differ.
 * @example reproduceQuadratic({ trials: 10 }).rows[0].meanQueries // ~265 (k = 2, lazy)
 */
export function reproduceQuadratic(o: QuadraticReproductionOptions = {}): QuadraticReproduction {
  const setting = o.setting ?? "paper";
  const trials = o.trials ?? 100;
  const tolerance = o.tolerance ?? 0.01;
  const strategies = o.strategies ?? (["lazy", "paper"] as const);
  const rates = o.rates ?? "diagonal";
  const rows: QuadraticReproductionRow[] = [];
  let geometryShown = settingGeometry(setting, 2, o.varrho);
  for (const k of o.classes ?? [2, 3, 4, 5]) {
    const q = ratesDimension(rates, k);
    const base = settingGeometry(setting, q, o.varrho);
    // Paper setting: the uniform classifier's rates, 1/k in every coordinate (diagonal or
    // off-diagonal); code setting: the origin.
    const g = setting === "paper" ? { ...base, centre: new Array<number>(q).fill(1 / k) } : base;
    geometryShown = g;
    const rng = createRng((o.seed ?? 7) * 1000 + k);
    const truths: QuadraticMetric[] = Array.from({ length: trials }, () =>
      randomQuadraticMetric(q, rng, { ...g, sampling: setting }),
    );
    for (const name of strategies) {
      const queries: number[] = [];
      const ea: number[] = [];
      const eb: number[] = [];
      const clean: { a: number; B: number }[] = [];
      const pairs = name === "pairs";
      const radii: number[] = [];
      let held = 0;
      for (const truth of truths) {
        const oracle = simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, p.point));
        const r = elicitQpme(oracle.ask, q, {
          tolerance,
          strategy: STRATEGIES[pairs ? "lazy" : name],
          cycles: g.cycles,
          order: o.order ?? "forward",
          centre: g.centre,
          rho: g.rho,
          varrho: g.varrho,
          reconstruction: o.reconstruction ?? "ratios",
          gradients: pairs ? "pairs" : "lpme",
        });
        if (pairs) {
          const region = qpmePairsRegion(r, { reconstruction: o.reconstruction });
          radii.push(region.radius);
          if (regionHolds(region, truth, r.metric)) held++;
        }
        const e = quadraticError(truth, r.metric);
        queries.push(r.questions);
        ea.push(e.a);
        eb.push(e.B);
        if (r.warnings.length === 0) clean.push(e);
      }
      rows.push({
        k,
        q,
        strategy: name,
        trials,
        meanQueries: mean(queries),
        minQueries: Math.min(...queries),
        maxQueries: Math.max(...queries),
        // pairs: the exact count, (q + 2) runs of 1 + (q - 1) halvings' questions.
        boundQueries: pairs
          ? (q + 2) * (1 + (q - 1) * pairHalvings(tolerance))
          : qpmeQuestionBound(q, tolerance, name === "paper" ? 4 : 3, g.cycles),
        paperQueries: q === table1Rates(k) ? PAPER_TABLE1_QPME[k] : undefined,
        errorA: errorSummary(ea),
        errorB: errorSummary(eb),
        warned: trials - clean.length,
        meanErrorAClean: mean(clean.map((e) => e.a)),
        meanErrorBClean: mean(clean.map((e) => e.B)),
        reference: q === referenceRates(k) ? REFERENCE_CODE_ERRORS[k] : undefined,
        ...(pairs ? { region: { held, radius: errorSummary(radii) } } : {}),
      });
    }
  }
  return {
    setting,
    rates,
    reconstruction: o.reconstruction ?? "ratios",
    tolerance,
    rho: geometryShown.rho,
    varrho: geometryShown.varrho,
    cycles: geometryShown.cycles,
    rows,
  };
}

const f = (x: number | undefined, d = 4): string => (x === undefined ? "-" : x.toFixed(d));

/** A plain-text report of a reproduction. */
export function formatQuadraticReproduction(r: QuadraticReproduction): string {
  const lines: string[] = [];
  lines.push(
    `QPME, ${r.setting} setting: rho = ${r.rho}, varrho = ${r.varrho}, eps = ${r.tolerance}, ${r.cycles} forward cycles, noise-free oracle, ${r.reconstruction} reconstruction`,
  );
  lines.push(
    "strategy lazy = at most 3 questions per halving (the counting of the paper's Table 1); paper = 4 per halving; pairs = each gradient from pairs symmetric about its point, one bisection per rate (ours; 'region held': runs whose 90% credible region held the truth, 'region med': its median radius in max(||a - a'||, ||B - B'||_F))",
  );
  lines.push(
    (r.rates ?? "diagonal") === "diagonal"
      ? "our runs: q = k diagonal rates; Table 1: q = k; code a/B: the authors' code at q = k^2 - k general rates (2, 6, 12, 20), shown only where our q is the same (k = 2)"
      : "our runs: q = k^2 - k general rates (2, 6, 12, 20); code a/B: the authors' code at the same q = k^2 - k; Table 1: q = k, shown only where our q is the same (k = 2)",
  );
  lines.push("");
  lines.push(
    [
      "k",
      "strategy",
      "q",
      "trials",
      "mean #Q",
      "Table 1",
      "ratio",
      "max bound",
      "mean|a-â|",
      "med",
      "mean|B-B̂|F",
      "med",
      "max",
      "code a",
      "code B",
      "warned",
      "clean a",
      "clean B",
      "region held",
      "region med",
    ].join("\t"),
  );
  for (const row of r.rows) {
    lines.push(
      [
        row.k,
        row.strategy,
        row.q ?? row.k,
        row.trials,
        row.meanQueries.toFixed(2),
        f(row.paperQueries, 2),
        row.paperQueries ? (row.meanQueries / row.paperQueries).toFixed(3) : "-",
        row.boundQueries,
        f(row.errorA.mean),
        f(row.errorA.median),
        f(row.errorB.mean),
        f(row.errorB.median),
        f(row.errorB.max),
        f(row.reference?.a, 3),
        f(row.reference?.B, 3),
        row.warned,
        f(row.meanErrorAClean),
        f(row.meanErrorBClean),
        row.region === undefined ? "-" : `${row.region.held}/${row.trials}`,
        f(row.region?.radius.median),
      ].join("\t"),
    );
  }
  lines.push("");
  lines.push(
    "Figure 4 of the paper is a box plot (no values in our text); 'code a/B' are the authors' code's means in its own setting (rho = 1 around 0, B positive definite) at q = k^2 - k rates; '-' where our q differs.",
  );
  return lines.join("\n");
}

/**
 * Figure 4 (a-b) as an SVG: for each k, the mean error (diamonds joined by a line), the median
 * (dot) and the interquartile range (box) of `||a - a_hat||` and `||B - B_hat||_F`, with the
 * authors' code's means (red crosses; their own setting) for reference. Uses the rows of the
 * first strategy.
 * @example writeFileSync("figure4.svg", quadraticErrorSvg(reproduceQuadratic()))
 */
export function quadraticErrorSvg(r: QuadraticReproduction): string {
  const strategy = r.rows[0]?.strategy;
  const rows = r.rows.filter((x) => x.strategy === strategy);
  const panel = (
    title: string,
    pick: (x: QuadraticReproductionRow) => ErrorSummary,
    ref: "a" | "B",
  ) => ({
    title: `${title} (${r.setting} setting)`,
    groups: rows.map((row) => ({
      label: `k = ${row.k}`,
      boxes: [{ series: 0, stats: pick(row), reference: row.reference?.[ref] }],
    })),
  });
  return errorPlotSvg({
    panels: [panel("||a - â||₂", (x) => x.errorA, "a"), panel("||B - B̂||_F", (x) => x.errorB, "B")],
    caption: [
      `boxes: quartiles, dots: median, diamonds and line: mean over ${rows[0]?.trials ?? 0} metrics (eps = ${r.tolerance}, strategy ${strategy ?? "-"}), at q = ${(r.rates ?? "diagonal") === "diagonal" ? "k diagonal" : "k^2 - k general"} rates`,
      "red crosses: the authors' code's means in its own setting (rho = 1 around 0, q = k^2 - k rates), only where our q is the same",
    ],
  });
}
