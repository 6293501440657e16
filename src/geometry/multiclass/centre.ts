/**
 * Special points of each space: the centre `o` (the uniform random classifier, which predicts
 * every class with probability 1/k independently of x) and the trivial vertices (the constant
 * classifier "always predict j"). ALGORITHMS.md section 0.
 *
 * @example
 * centreOffDiagConfusion([0.5, 0.3, 0.2]); // [1/6, 1/6, 0.1, 0.1, 1/15, 1/15]
 * centreDiagConfusion([0.5, 0.3, 0.2]);    // [1/6, 0.1, 1/15]
 */
import type {
  ConfusionMatrix,
  DiagConfusion,
  DiagRates,
  OffDiagConfusion,
  OffDiagRates,
  RateMatrix,
} from "./brands.ts";

function checkLabel(j: number, k: number): void {
  if (!Number.isInteger(j) || j < 0 || j >= k)
    throw new RangeError(`class ${j} not in 0..${k - 1}`);
}

/**
 * Confusion matrix of the uniform random classifier: `C_ij = zeta_i / k`.
 *
 * @example
 * centreConfusion([0.6, 0.4]); // [0.3, 0.3, 0.2, 0.2]
 */
export function centreConfusion(priors: ArrayLike<number>): ConfusionMatrix {
  const k = priors.length;
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) out.fill(priors[i] / k, i * k, (i + 1) * k);
  return out as ConfusionMatrix;
}

/**
 * Diagonal confusions of the uniform random classifier: `zeta / k`.
 *
 * @example
 * centreDiagConfusion([0.5, 0.3, 0.2]); // [1/6, 0.1, 1/15]
 */
export function centreDiagConfusion(priors: ArrayLike<number>): DiagConfusion {
  const k = priors.length;
  return Float64Array.from(priors, (z) => z / k) as DiagConfusion;
}

/**
 * Off-diagonal confusions of the uniform random classifier: entry (i, j) is `zeta_i / k`.
 *
 * @example
 * centreOffDiagConfusion([0.5, 0.3, 0.2]); // [1/6, 1/6, 0.1, 0.1, 1/15, 1/15]
 */
export function centreOffDiagConfusion(priors: ArrayLike<number>): OffDiagConfusion {
  const k = priors.length;
  const out = new Float64Array(k * k - k);
  for (let i = 0; i < k; i++) out.fill(priors[i] / k, i * (k - 1), (i + 1) * (k - 1));
  return out as OffDiagConfusion;
}

/**
 * Rate matrix of the uniform random classifier: every entry `1/k` (whatever the priors).
 *
 * @example
 * centreRates(2); // [0.5, 0.5, 0.5, 0.5]
 */
export function centreRates(k: number): RateMatrix {
  return new Float64Array(k * k).fill(1 / k) as RateMatrix;
}

/**
 * Diagonal rates of the uniform random classifier: `1/k` each.
 *
 * @example
 * centreDiagRates(4); // [0.25, 0.25, 0.25, 0.25]
 */
export function centreDiagRates(k: number): DiagRates {
  return new Float64Array(k).fill(1 / k) as DiagRates;
}

/**
 * Off-diagonal rates of the uniform random classifier: `1/k` each.
 *
 * @example
 * centreOffDiagRates(3); // six entries of 1/3
 */
export function centreOffDiagRates(k: number): OffDiagRates {
  return new Float64Array(k * k - k).fill(1 / k) as OffDiagRates;
}

/**
 * Confusion matrix of "always predict j": column j holds the priors.
 *
 * @example
 * trivialConfusion([0.6, 0.4], 1); // [0, 0.6, 0, 0.4]
 */
export function trivialConfusion(priors: ArrayLike<number>, j: number): ConfusionMatrix {
  const k = priors.length;
  checkLabel(j, k);
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) out[i * k + j] = priors[i];
  return out as ConfusionMatrix;
}

/**
 * Diagonal vertex `v_j = zeta_j e_j` ("always predict j").
 *
 * @example
 * trivialDiagConfusion([0.5, 0.3, 0.2], 1); // [0, 0.3, 0]
 */
export function trivialDiagConfusion(priors: ArrayLike<number>, j: number): DiagConfusion {
  checkLabel(j, priors.length);
  const out = new Float64Array(priors.length);
  out[j] = priors[j];
  return out as DiagConfusion;
}

/**
 * Off-diagonal vertex `u_j` ("always predict j"): entry (i, j) is `zeta_i` for every i != j.
 *
 * @example
 * trivialOffDiagConfusion([0.5, 0.3, 0.2], 0); // [0, 0, 0.3, 0, 0.2, 0]
 */
export function trivialOffDiagConfusion(priors: ArrayLike<number>, j: number): OffDiagConfusion {
  const k = priors.length;
  checkLabel(j, k);
  const out = new Float64Array(k * k - k);
  for (let i = 0; i < k; i++) if (i !== j) out[i * (k - 1) + (j < i ? j : j - 1)] = priors[i];
  return out as OffDiagConfusion;
}

/**
 * Diagonal rates of "always predict j": `e_j`.
 *
 * @example
 * trivialDiagRates(3, 2); // [0, 0, 1]
 */
export function trivialDiagRates(k: number, j: number): DiagRates {
  checkLabel(j, k);
  const out = new Float64Array(k);
  out[j] = 1;
  return out as DiagRates;
}

/**
 * Off-diagonal rates of "always predict j": entry (i, j) is 1 for every i != j.
 *
 * @example
 * trivialOffDiagRates(3, 0); // [0, 0, 1, 0, 1, 0]
 */
export function trivialOffDiagRates(k: number, j: number): OffDiagRates {
  checkLabel(j, k);
  const out = new Float64Array(k * k - k);
  for (let i = 0; i < k; i++) if (i !== j) out[i * (k - 1) + (j < i ? j : j - 1)] = 1;
  return out as OffDiagRates;
}
