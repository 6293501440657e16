/**
 * The hyperspherical angle map of the multiclass LPM search (ALGORITHMS.md A.5):
 * `Upsilon(theta)_1 = cos th_1`, `Upsilon_i = sin th_1 ... sin th_{i-1} cos th_i`,
 * `Upsilon_q = sin th_1 ... sin th_{q-1}`: q - 1 angles give a unit vector in R^q.
 *
 * @example upsilon([0]) // [1, 0]
 */
export function upsilon(theta: readonly number[]): Float64Array {
  const q = theta.length + 1;
  const out = new Float64Array(q);
  let s = 1;
  for (let i = 0; i < q - 1; i++) {
    out[i] = s * Math.cos(theta[i]!);
    s *= Math.sin(theta[i]!);
  }
  out[q - 1] = s;
  return out;
}

/**
 * Angles in [0, pi/2] of a unit vector with non-negative entries (inverse of `upsilon`).
 * @example anglesOf(upsilon([0.3, 1.1])) // [0.3, 1.1]
 */
export function anglesOf(u: ArrayLike<number>): number[] {
  const q = u.length;
  const theta: number[] = [];
  let rest = 0;
  for (let i = 0; i < q; i++) rest += u[i]! ** 2;
  for (let i = 0; i < q - 1; i++) {
    const r = Math.sqrt(Math.max(rest, 0));
    theta.push(r > 0 ? Math.acos(Math.min(1, Math.max(-1, Math.abs(u[i]!) / r))) : 0);
    rest -= u[i]! ** 2;
  }
  return theta;
}
