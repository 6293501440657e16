import type { RatePoint } from "../elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  type QuadraticMetric,
  quadraticError,
  randomQuadraticMetric,
} from "../elicit/quadratic/metric.ts";
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
 * positive definite, eps = 0.01.
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

export interface QuadraticReproductionOptions {
  readonly trials?: number;
  readonly tolerance?: number;
  readonly classes?: readonly number[];
  readonly setting?: QuadraticSetting;
  /** Question strategies to count (default `lazy` = Table 1's counting, and `paper` = 4 per halving). */
  readonly strategies?: readonly StrategyName[];
  readonly seed?: number;
  readonly order?: "forward" | "reverse";
  /** Override the setting's varrho. */
  readonly varrho?: number;
  /** QPME reconstruction (default `ratios`, the paper's corrected formula). */
  readonly reconstruction?: "ratios" | "least-squares";
}

export interface QuadraticReproductionRow {
  readonly k: number;
  readonly strategy: StrategyName;
  readonly trials: number;
  readonly meanQueries: number;
  readonly minQueries: number;
  readonly maxQueries: number;
  /** Upper bound (exact count for `paper`): `(k+2)(k + cycles (k-1) 8 q)`. */
  readonly boundQueries: number;
  /** Table 1 (for reference; it counts at most 3 per halving, i.e. our `lazy`). */
  readonly paperQueries: number | undefined;
  readonly errorA: ErrorSummary;
  readonly errorB: ErrorSummary;
  /** Trials whose QPME raised a warning, and the mean errors of the others. */
  readonly warned: number;
  readonly meanErrorAClean: number;
  readonly meanErrorBClean: number;
  readonly reference: { a: number; B: number } | undefined;
}

export interface QuadraticReproduction {
  readonly setting: QuadraticSetting;
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
  const rows: QuadraticReproductionRow[] = [];
  let geometryShown = settingGeometry(setting, 2, o.varrho);
  for (const k of o.classes ?? [2, 3, 4, 5]) {
    const g = settingGeometry(setting, k, o.varrho);
    geometryShown = g;
    const rng = createRng((o.seed ?? 7) * 1000 + k);
    const truths: QuadraticMetric[] = Array.from({ length: trials }, () =>
      randomQuadraticMetric(k, rng, { ...g, sampling: setting }),
    );
    for (const name of strategies) {
      const queries: number[] = [];
      const ea: number[] = [];
      const eb: number[] = [];
      const clean: { a: number; B: number }[] = [];
      for (const truth of truths) {
        const oracle = simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, p.point));
        const r = elicitQpme(oracle.ask, k, {
          tolerance,
          strategy: STRATEGIES[name],
          cycles: g.cycles,
          order: o.order ?? "forward",
          centre: g.centre,
          rho: g.rho,
          varrho: g.varrho,
          reconstruction: o.reconstruction ?? "ratios",
        });
        const e = quadraticError(truth, r.metric);
        queries.push(r.questions);
        ea.push(e.a);
        eb.push(e.B);
        if (r.warnings.length === 0) clean.push(e);
      }
      rows.push({
        k,
        strategy: name,
        trials,
        meanQueries: mean(queries),
        minQueries: Math.min(...queries),
        maxQueries: Math.max(...queries),
        boundQueries: qpmeQuestionBound(k, tolerance, name === "paper" ? 4 : 3, g.cycles),
        paperQueries: PAPER_TABLE1_QPME[k],
        errorA: errorSummary(ea),
        errorB: errorSummary(eb),
        warned: trials - clean.length,
        meanErrorAClean: mean(clean.map((e) => e.a)),
        meanErrorBClean: mean(clean.map((e) => e.B)),
        reference: REFERENCE_CODE_ERRORS[k],
      });
    }
  }
  return {
    setting,
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
    "strategy lazy = at most 3 questions per halving (the counting of the paper's Table 1); paper = 4 per halving",
  );
  lines.push("");
  lines.push(
    [
      "k",
      "strategy",
      "trials",
      "mean #Q",
      "Table 1",
      "ratio",
      "max bound",
      "mean|a-â|",
      "med",
      "mean|B-B̂|F",
      "med",
      "code a",
      "code B",
      "warned",
      "clean a",
      "clean B",
    ].join("\t"),
  );
  for (const row of r.rows) {
    lines.push(
      [
        row.k,
        row.strategy,
        row.trials,
        row.meanQueries.toFixed(2),
        f(row.paperQueries, 2),
        row.paperQueries ? (row.meanQueries / row.paperQueries).toFixed(3) : "-",
        row.boundQueries,
        f(row.errorA.mean),
        f(row.errorA.median),
        f(row.errorB.mean),
        f(row.errorB.median),
        f(row.reference?.a, 3),
        f(row.reference?.B, 3),
        row.warned,
        f(row.meanErrorAClean),
        f(row.meanErrorBClean),
      ].join("\t"),
    );
  }
  lines.push("");
  lines.push(
    "Figure 4 of the paper is a box plot (no values in our text); 'code a/B' are the authors' code's means in its own setting (rho = 1 around 0, B positive definite).",
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
      `boxes: quartiles, dots: median, diamonds and line: mean over ${rows[0]?.trials ?? 0} metrics (eps = ${r.tolerance}, strategy ${strategy ?? "-"})`,
      "red crosses: the authors' code's means in its own setting (rho = 1 around 0)",
    ],
  });
}
