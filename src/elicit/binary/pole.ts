import type { BinaryFractionalMetric } from "../../metrics/binary-fractional.ts";
import { type SupportingLine, solveProposition4 } from "./proposition4.ts";

/**
 * The common point of two lines `m . C = constant`, in homogeneous coordinates
 * `(x, y, w)`: the point is `(x / w, y / w)`, and `w = 0` means the lines are parallel
 * (they meet at infinity in direction `(x, y)`).
 * @example linesMeet({ normal: { tp: 1, tn: 0 }, constant: 1 }, { normal: { tp: 0, tn: 1 }, constant: 2 }) // { x: 1, y: 2, w: 1 }
 */
export function linesMeet(
  a: SupportingLine,
  b: SupportingLine,
): { readonly x: number; readonly y: number; readonly w: number } {
  // Cross product of (m11, m00, -constant) for the two lines.
  return {
    x: a.constant * b.normal.tn - a.normal.tn * b.constant,
    y: a.normal.tp * b.constant - a.constant * b.normal.tp,
    w: a.normal.tp * b.normal.tn - a.normal.tn * b.normal.tp,
  };
}

/** Result of the pole method. */
export interface PoleResult {
  /** p11 read off the pole, clipped to [0, 1] (Assumption 2 needs p11, p00 >= 0). */
  readonly p11: number;
  /** p11 before clipping: outside [0, 1] only when the two lines are inconsistent. */
  readonly rawP11: number;
  /** The pole `(tp, tn)`; infinite coordinates when the lines are parallel (a linear metric). */
  readonly pole: { readonly tp: number; readonly tn: number };
  /** The metric of Proposition 4 for this p11 and the upper line (the paper's representative). */
  readonly metric: BinaryFractionalMetric;
}

/**
 * The pole method, our replacement for Algorithm 3's grid search (AISTATS 2019, Section 5.2).
 *
 * Every level set `phi = t` of an LFPM is the line `(p - t q) . C = t q0`, and all of them
 * pass through one point, the pole, where `p . C = 0` and `q . C + q0 = 0`. The supporting
 * lines found by Algorithms 1 and 2 are two level sets (at the maximum and at the minimum),
 * so they meet at the pole, and `p . pole = 0` with `p11 + p00 = 1` gives
 * `p11 = tn0 / (tn0 - tp0)` in closed form: no grid, no resolution limit of Delta, and no
 * bias from comparing two different representatives as Algorithm 3 does. The pole is all that
 * pairwise answers identify: the rest (`phi` versus `phi / (c phi + 1 - c)`) is a convention,
 * which we settle as the paper does, by Proposition 4 on the upper line.
 *
 * Parallel lines (pole at infinity) are the linear case `q11 = q00 = 0`; the homogeneous form
 * handles it without a special case. Returns null when the two lines coincide or meet at the
 * origin (there every `p` fits: only a constant metric has its pole there).
 *
 * @example
 * // the level sets phi = 0.9 and phi = 0.2 of TP / (0.5 TP - 0.5 TN + 0.5) meet at (0, 1)
 * poleMethod({ normal: { tp: 0.55, tn: 0.45 }, constant: 0.45 },
 *            { normal: { tp: 0.9, tn: 0.1 }, constant: 0.1 }, 0.5)?.p11 // 1
 */
export function poleMethod(
  upper: SupportingLine,
  lower: SupportingLine,
  zeta: number,
): PoleResult | null {
  const { x, y, w } = linesMeet(upper, lower);
  const scale = Math.max(Math.abs(x), Math.abs(y), Math.abs(w));
  if (!(Math.abs(y - x) > 1e-12 * scale)) return null;
  const rawP11 = y / (y - x);
  const p11 = Math.min(1, Math.max(0, rawP11));
  const metric = solveProposition4(p11, upper, zeta);
  if (metric === null) return null;
  return { p11, rawP11, pole: { tp: x / w, tn: y / w }, metric };
}
