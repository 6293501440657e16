/**
 * The logistic function and its log-partition, evaluated without overflow for any input.
 *
 * @example
 * sigmoid(0);      // 0.5
 * sigmoid(-1000);  // 0 (no NaN: never forms exp(1000))
 * softplus(1000);  // 1000
 */

/**
 * 1 / (1 + e^-z), branching on the sign so that exp never overflows.
 *
 * @example
 * sigmoid(2); // 0.8807970779778823
 */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/**
 * log(1 + e^z) = max(z, 0) + log1p(e^-|z|); the log-loss of a logit z is softplus(z) - y z.
 *
 * @example
 * softplus(0); // 0.6931471805599453 (log 2)
 */
export function softplus(z: number): number {
  return Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
}
