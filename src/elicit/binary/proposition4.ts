import { type BinaryFractionalMetric, impliedQ0 } from "../../metrics/binary-fractional.ts";
import type { BinaryLinearMetric } from "../../metrics/binary-linear.ts";

/**
 * A supporting line `m11 tp + m00 tn = constant` of the confusion set, with `m >= 0` the
 * normal along which the metric increases.
 */
export interface SupportingLine {
  readonly normal: BinaryLinearMetric;
  readonly constant: number;
}

/**
 * Proposition 4 (AISTATS 2019): given `p11` (with `p00 = 1 - p11`), solve the system of
 * equations (9) for the LFPM tangent to `line`:
 * `q11 = (p11 - m11) P / Q`, `q00 = (p00 - m00) P / Q`, with `P = p11 zeta + p00 (1 - zeta)`,
 * `Q = P + C - m11 zeta - m00 (1 - zeta)`.
 *
 * The text we hold prints `q0 = C`; solving (9) together with Assumption 2's
 * `q0 = (p11 - q11) zeta + (p00 - q00)(1 - zeta)` gives `q0 = C P / Q` (the optimum's value is
 * `tau = Q / P`, and `tau q0 = C`). We use the derived form, so the output always satisfies
 * Assumption 2. Returns null when `Q` vanishes.
 *
 * @example solveProposition4(1, { normal: { tp: 0.9, tn: 0.4 }, constant: 0.5 }, 0.5)
 */
export function solveProposition4(
  p11: number,
  line: SupportingLine,
  zeta: number,
): BinaryFractionalMetric | null {
  const p00 = 1 - p11;
  const { tp: m11, tn: m00 } = line.normal;
  const P = p11 * zeta + p00 * (1 - zeta);
  const Q = P + line.constant - m11 * zeta - m00 * (1 - zeta);
  if (!(Math.abs(Q) > 1e-15)) return null;
  const q11 = ((p11 - m11) * P) / Q;
  const q00 = ((p00 - m00) * P) / Q;
  return { p11, p00, q11, q00, q0: impliedQ0(p11, p00, q11, q00, zeta) };
}
