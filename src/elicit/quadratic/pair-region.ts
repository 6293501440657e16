import { createRng } from "../../math/rng.ts";
import { quantile } from "../../math/stats.ts";
import { reconstructQuadraticLeastSquares } from "./least-squares.ts";
import { type QuadraticMetric, quadraticError } from "./metric.ts";
import { pairDirection } from "./pair-gradient.ts";
import { type QpmeGradients, type QpmeResult, reconstructQuadratic } from "./qpme.ts";

/** The credible region of a QPME run with `gradients: "pairs"`. */
export interface PairRegion {
  readonly credibility: number;
  /** `max(||a - a'||_2, ||B - B'||_F) <= radius` holds `credibility` of the draws. */
  readonly radius: number;
  /** The same quantile of `||a - a'||_2` and of `||B - B'||_F` alone. */
  readonly a: number;
  readonly B: number;
  readonly draws: number;
}

/** Options of `qpmePairsRegion`. */
export interface PairRegionOptions {
  /** Default 0.9. */
  readonly credibility?: number;
  /** Metrics drawn (default 400). */
  readonly draws?: number;
  /** Seed of the draws (default 1): the region is a pure function of the answers. */
  readonly seed?: number | string;
  /** The reconstruction the run used (default `ratios`). */
  readonly reconstruction?: "ratios" | "least-squares";
}

/**
 * The credible region of a `pairs` QPME run. Noise free, each angle's interval holds the
 * truth's angle and nothing inside it is favoured, so under a prior flat on that scale the
 * belief is uniform over the intervals: we draw every angle in its interval, rebuild the
 * metric from the drawn directions (same pivot, same reconstruction) and report the
 * `credibility` quantile of its distance to the estimate. It says how far the answers leave
 * the metric free; it does not cover a wrong answer (the search assumes exact ones).
 * @example qpmePairsRegion(elicitQpme(ask, 12, { ...o, gradients: "pairs" })).radius
 */
export function qpmePairsRegion(r: QpmeResult, o: PairRegionOptions = {}): PairRegion {
  if (r.pairs === undefined || r.geometry === undefined) {
    throw new RangeError('the region needs a QPME run with gradients: "pairs"');
  }
  const credibility = o.credibility ?? 0.9;
  if (!(credibility > 0 && credibility < 1)) throw new RangeError("credibility must be in (0, 1)");
  const draws = o.draws ?? 400;
  if (!(Number.isInteger(draws) && draws >= 10)) throw new RangeError("draws must be >= 10");
  const rng = createRng(o.seed ?? 1);
  const k = r.gradients.o.length;
  const pivot = r.diagnostics.pivot;
  const geometry = r.geometry;
  const dist: number[] = [];
  const da: number[] = [];
  const dB: number[] = [];
  for (let d = 0; d < draws; d++) {
    const dirs = r.pairs.map((p) =>
      pairDirection(p.firstPivot, p.firstSign, p.angles, (x) => x.lo + rng.next() * (x.hi - x.lo)),
    );
    const g: QpmeGradients = { o: dirs[0]!, z: dirs.slice(1, k + 1), minus: dirs[k + 1]! };
    const m: QuadraticMetric =
      o.reconstruction === "least-squares"
        ? reconstructQuadraticLeastSquares(g, pivot, geometry).metric
        : reconstructQuadratic(g, pivot, geometry, 0).metric;
    const e = quadraticError(m, r.metric);
    da.push(e.a);
    dB.push(e.B);
    dist.push(Math.max(e.a, e.B));
  }
  return {
    credibility,
    radius: quantile(dist, credibility),
    a: quantile(da, credibility),
    B: quantile(dB, credibility),
    draws,
  };
}

/**
 * Whether the region around `estimate` holds `truth`.
 * @example regionHolds(region, truth, result.metric) // true when both parts are within it
 */
export function regionHolds(
  region: PairRegion,
  truth: QuadraticMetric,
  estimate: QuadraticMetric,
): boolean {
  const e = quadraticError(truth, estimate);
  return Math.max(e.a, e.B) <= region.radius;
}
