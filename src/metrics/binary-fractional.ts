import type { BinaryConfusion } from "./binary-confusion.ts";

/**
 * A binary linear-fractional performance metric (LFPM) in the paper's reduced form
 * `phi(C) = (p11 TP + p00 TN) / (q11 TP + q00 TN + q0)` (Definition 2 with `p0 = 0`).
 * F-beta and Jaccard are members.
 */
export interface BinaryFractionalMetric {
  readonly p11: number;
  readonly p00: number;
  readonly q11: number;
  readonly q00: number;
  readonly q0: number;
}

/**
 * Value of an LFPM at a confusion point.
 * @example evaluateFractional({ p11: 1, p00: 0, q11: 0.5, q00: -0.5, q0: 0.5 }, binaryConfusion(0.25, 0.25)) // 0.5
 */
export function evaluateFractional(m: BinaryFractionalMetric, c: BinaryConfusion): number {
  return (m.p11 * c.tp + m.p00 * c.tn) / (m.q11 * c.tp + m.q00 * c.tn + m.q0);
}

/**
 * Check Assumption 2 of the paper for a prior `zeta`: `p11, p00 >= 0`, `p11 >= q11`,
 * `p00 >= q00`, `p11 + p00 = 1`, `q0 = (p11 - q11) zeta + (p00 - q00)(1 - zeta)`.
 * Returns the list of violated conditions (empty when the metric satisfies it).
 * @example assumption2Violations({ p11: 1, p00: 0, q11: 0.5, q00: -0.5, q0: 0.5 }, 0.5) // []
 */
export function assumption2Violations(
  m: BinaryFractionalMetric,
  zeta: number,
  tol = 1e-6,
): string[] {
  const out: string[] = [];
  if (m.p11 < -tol || m.p00 < -tol) out.push("p11 and p00 must be non-negative");
  if (m.q11 > m.p11 + tol) out.push("q11 must not exceed p11");
  if (m.q00 > m.p00 + tol) out.push("q00 must not exceed p00");
  if (Math.abs(m.p11 + m.p00 - 1) > tol) out.push("p11 + p00 must equal 1");
  const q0 = (m.p11 - m.q11) * zeta + (m.p00 - m.q00) * (1 - zeta);
  if (Math.abs(m.q0 - q0) > tol) {
    out.push(`q0 must equal (p11 - q11) zeta + (p00 - q00)(1 - zeta) = ${q0.toPrecision(6)} here`);
  }
  return out;
}

/**
 * The `q0` that Assumption 2 implies for given `p` and `q` weights and prior `zeta`.
 * @example impliedQ0(1, 0, 0.5, -0.5, 0.5) // 0.5
 */
export function impliedQ0(
  p11: number,
  p00: number,
  q11: number,
  q00: number,
  zeta: number,
): number {
  return (p11 - q11) * zeta + (p00 - q00) * (1 - zeta);
}
