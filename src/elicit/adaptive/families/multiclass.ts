import type { MulticlassPool } from "../../../geometry/multiclass/pool.ts";
import { realiseOnSphere } from "../../../geometry/multiclass/realise.ts";
import type { Space } from "../../../geometry/multiclass/space.ts";
import { createSpace } from "../../../geometry/multiclass/space.ts";
import { findSphere, type Sphere } from "../../../geometry/multiclass/sphere.ts";
import type { MulticlassPoint } from "../../multiclass/point.ts";
import type { AdaptiveFamily } from "../family.ts";

/** Options of the multiclass families. */
export interface MulticlassFamilyOptions {
  /** Precision at which a person sees each confusion entry (default 1e-4). */
  readonly displayStep?: number;
  /**
   * The sphere of Algorithm 3 in the family's space (diagonal or off-diagonal confusions).
   * Its points `o + rho w / |w|` for belief and prior draws join the candidates: interior
   * points whose differences cut the belief in any direction, where the pool's vertices
   * alone leave metrics that share an optimal classifier unresolved. Default: computed here
   * with `findSphere`; `false`: vertices only. A flat sphere (radius below `FLAT_SPHERE`) is
   * not used.
   */
  readonly sphere?: Sphere | false;
  /**
   * The confusion matrix a person sees of a point (k x k, row-major, in the pool's joint
   * shares, as `point` is; default: the point itself). A study passes its screen's counts
   * (whole people out of 100 per class, times the class's share): the features, hence every
   * question's dominance check, every belief update and the result, are then about the
   * values shown.
   */
  readonly shown?: (p: MulticlassPoint) => ArrayLike<number>;
}

/** A sphere this much smaller than the feasible set's extent is too flat to query. */
export const FLAT_SPHERE = 1e-9;

/** The sphere of Algorithm 3, or none when the pool has no interior to query. */
function safeSphere(space: Space): Sphere | false {
  try {
    return findSphere(space);
  } catch {
    return false;
  }
}

function linf(a: readonly number[], b: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function key(p: MulticlassPoint, step: number): string {
  return Array.from(p.point, (x) => Math.round(x / step)).join(",");
}

/**
 * The multiclass linear families over a pool: `diagonal-linear` (weights on the diagonal
 * confusions, >= 0, reported summing to 1 as in the paper) and `linear` (weights on the
 * off-diagonal confusions, <= 0, unit L2). Error: the largest weight difference. Every
 * candidate is the plug-in classifier optimal for a belief or prior draw on the pool (the
 * linear maximisation oracle), so every question shows two realisable classifiers, and no
 * sphere is needed: a pool whose feasible set is flat in some direction leaves that
 * direction's weight uncertain, which the result reports, instead of querying a vanishing
 * sphere.
 * @example adaptiveProcedure(multiclassLinearFamily("diagonal-linear", pool), { tolerance: 0.01 })
 */
export function multiclassLinearFamily(
  family: "diagonal-linear" | "linear",
  pool: MulticlassPool,
  o: MulticlassFamilyOptions = {},
): AdaptiveFamily<MulticlassPoint, number[]> {
  const step = o.displayStep ?? 1e-4;
  const diagonal = family === "diagonal-linear";
  const space = createSpace(diagonal ? "diag-confusion" : "offdiag-confusion", pool);
  const given = o.sphere === undefined ? safeSphere(space) : o.sphere;
  const sphere = given && given.rho > FLAT_SPHERE ? given : undefined;
  const spherePoint = (w: ArrayLike<number>): MulticlassPoint => {
    const s = sphere!;
    let n = 0;
    for (let i = 0; i < w.length; i++) n += w[i]! * w[i]!;
    n = Math.sqrt(n) || 1;
    const target = Float64Array.from(s.centre, (c, i) => c + (s.rho * w[i]!) / n);
    return { point: target, classifier: realiseOnSphere(s, target) };
  };
  const k = pool.k;
  const names: string[] = [];
  for (let a = 0; a < space.dim; a++) {
    const [i, j] = space.pair(a);
    names.push(diagonal ? `a${i}` : `a${i}${j}`);
  }
  const toMetric = (w: Float64Array): number[] => {
    if (diagonal) {
      let s = 0;
      for (const x of w) s += Math.max(0, x);
      return Array.from(w, (x) => (s > 0 ? Math.max(0, x) / s : 1 / k));
    }
    let n = 0;
    for (const x of w) n += Math.min(0, x) ** 2;
    n = Math.sqrt(n);
    return Array.from(w, (x) => (n > 0 ? Math.min(0, x) / n : -1 / Math.sqrt(w.length)));
  };
  const optimal = (w: ArrayLike<number>): MulticlassPoint => {
    const r = space.lmo(w);
    return { point: r.point, classifier: r.classifier };
  };
  return {
    name: family,
    dim: space.dim,
    // LPM k = 4, noise-free, 30 truths: with dim sweeps the 90% region covered 25 after 74.4
    // questions, with 2 dim sweeps 30 after 70.3 (k = 3: 28 and 35.8, 29 and 35.2). DLPM with
    // k <= 4 keeps 8; capped at 24 (or dim) for the large pools' cost.
    exactMoves: Math.max(8, space.dim, Math.min(2 * space.dim, 24)),
    signs: new Array<number>(space.dim).fill(diagonal ? 1 : -1),
    // Noise-free, 100 truths: "spread" asked LPM k = 3 / 4 33.4 / 63.7 questions against
    // 35.1 / 71.8, covering 93% / 93%; on the DLPM k = 3 it covered 86% (91% with "split").
    // Beyond 12 weights (k >= 5) 128 scoring samples cannot judge the spread of a thin
    // belief: on glass (k = 6, 30 weights, budget 120) 15 of 50 runs ended outside a region
    // that named no weight; "split" flags them.
    cutBy: !diagonal && space.dim <= 12 ? "spread" : "split",
    errorName: "max |a_i - a_i'|",
    coordinateNames: names,
    features: o.shown
      ? (p) => {
          const c = o.shown!(p);
          return Float64Array.from({ length: space.dim }, (_, a) => {
            const [i, j] = space.pair(a);
            return c[i * k + j]!;
          });
        }
      : (p) => Float64Array.from(p.point),
    candidates: (ws) => {
      const out = ws.map((w) => optimal(w));
      if (sphere) for (const w of ws) out.push(spherePoint(w));
      return out;
    },
    cutPoints: sphere
      ? (normals) =>
          normals.flatMap((n) => {
            const minus = Float64Array.from(n, (x) => -x);
            return [spherePoint(n), spherePoint(minus)];
          })
      : undefined,
    displayKey: (p) => key(p, step),
    optimal: (w) => optimal(w),
    toMetric,
    error: linf,
    coordinates: (m) => m,
  };
}
