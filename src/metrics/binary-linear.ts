import type { BinaryConfusion } from "./binary-confusion.ts";

/**
 * A binary linear performance metric (LPM), `phi(C) = tp * TP + tn * TN` (utility, larger is
 * better). The paper writes the weights `m = (m11, m00)`; any bias `m0` does not change
 * preferences and is dropped.
 */
export interface BinaryLinearMetric {
  readonly tp: number;
  readonly tn: number;
}

/**
 * Value of an LPM at a confusion point.
 * @example evaluateLinear({ tp: 0.6, tn: 0.8 }, binaryConfusion(0.5, 0.5)) // 0.7
 */
export function evaluateLinear(m: BinaryLinearMetric, c: BinaryConfusion): number {
  return m.tp * c.tp + m.tn * c.tn;
}

/**
 * Scale an LPM to unit L2 norm, the paper's normalisation (`m = (cos theta, sin theta)`).
 * @example normalizeLinear({ tp: 3, tn: 4 }) // { tp: 0.6, tn: 0.8 }
 */
export function normalizeLinear(m: BinaryLinearMetric): BinaryLinearMetric {
  const n = Math.hypot(m.tp, m.tn);
  if (!(n > 0)) throw new RangeError("a linear metric needs a non-zero weight");
  return { tp: m.tp / n, tn: m.tn / n };
}

/**
 * The angle theta in [0, 2 pi) with `m ∝ (cos theta, sin theta)`.
 * @example linearToAngle({ tp: 0, tn: 1 }) // pi / 2
 */
export function linearToAngle(m: BinaryLinearMetric): number {
  const t = Math.atan2(m.tn, m.tp);
  return t < 0 ? t + 2 * Math.PI : t;
}

/**
 * The unit LPM with angle theta.
 * @example angleToLinear(0) // { tp: 1, tn: 0 }
 */
export function angleToLinear(theta: number): BinaryLinearMetric {
  return { tp: Math.cos(theta), tn: Math.sin(theta) };
}

/**
 * Absolute angle in radians between two LPMs' weight vectors (0 = same metric).
 * @example angleBetween({ tp: 1, tn: 0 }, { tp: 0, tn: 1 }) // pi / 2
 */
export function angleBetween(a: BinaryLinearMetric, b: BinaryLinearMetric): number {
  const na = normalizeLinear(a);
  const nb = normalizeLinear(b);
  // atan2 of cross and dot is accurate for tiny angles, unlike acos of the dot product.
  return Math.abs(Math.atan2(na.tp * nb.tn - na.tn * nb.tp, na.tp * nb.tp + na.tn * nb.tn));
}
