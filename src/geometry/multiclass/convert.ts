/**
 * Conversions between the multiclass statistics. Confusions and rates differ by the row
 * scaling `R_ij = C_ij / zeta_i`; off-diagonal vectors determine the full matrix because each
 * row's total is fixed (zeta_i for confusions, 1 for rates).
 *
 * @example
 * const zeta = [0.5, 0.3, 0.2];
 * const C = offDiagToConfusion(centreOffDiagConfusion(zeta), zeta); // every entry zeta_i / 3
 * diagOf(C);                      // DiagConfusion [1/6, 0.1, 1/15]
 * confusionToRates(C, zeta);      // RateMatrix, every entry 1/3
 */
import type {
  ConfusionMatrix,
  DiagConfusion,
  DiagRates,
  OffDiagConfusion,
  OffDiagRates,
  RateMatrix,
} from "./brands.ts";

function side(m: ArrayLike<number>): number {
  const k = Math.round(Math.sqrt(m.length));
  if (k < 2 || k * k !== m.length) throw new RangeError(`not a k*k matrix: ${m.length} entries`);
  return k;
}

function diagonal(m: ArrayLike<number>): Float64Array {
  const k = side(m);
  const out = new Float64Array(k);
  for (let i = 0; i < k; i++) out[i] = m[i * k + i];
  return out;
}

function offDiagonal(m: ArrayLike<number>): Float64Array {
  const k = side(m);
  const out = new Float64Array(k * k - k);
  let t = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) if (j !== i) out[t++] = m[i * k + j];
  }
  return out;
}

/** Fill the diagonal so that row i sums to `rowTotal(i)`. */
function fromOffDiagonal(c: ArrayLike<number>, k: number, rowTotal: (i: number) => number) {
  if (c.length !== k * k - k)
    throw new RangeError(`expected ${k * k - k} entries, got ${c.length}`);
  const m = new Float64Array(k * k);
  let t = 0;
  for (let i = 0; i < k; i++) {
    let s = 0;
    for (let j = 0; j < k; j++) {
      if (j === i) continue;
      m[i * k + j] = c[t];
      s += c[t++];
    }
    m[i * k + i] = rowTotal(i) - s;
  }
  return m;
}

function checkPriors(priors: ArrayLike<number>, k: number): void {
  if (priors.length !== k) throw new RangeError(`expected ${k} priors, got ${priors.length}`);
}

/**
 * Diagonal of a confusion matrix.
 *
 * @example
 * diagOf(asConfusionMatrix([0.4, 0.1, 0.2, 0.3])); // [0.4, 0.3]
 */
export function diagOf(confusion: ConfusionMatrix): DiagConfusion {
  return diagonal(confusion) as DiagConfusion;
}

/**
 * Off-diagonal entries of a confusion matrix, row-major, diagonal skipped.
 *
 * @example
 * offDiagOf(asConfusionMatrix([0.4, 0.1, 0.2, 0.3])); // [0.1, 0.2]
 */
export function offDiagOf(confusion: ConfusionMatrix): OffDiagConfusion {
  return offDiagonal(confusion) as OffDiagConfusion;
}

/**
 * Full confusion matrix from off-diagonal confusions, using row sums `zeta_i`.
 *
 * @example
 * offDiagToConfusion(asOffDiagConfusion([0.1, 0.2]), [0.5, 0.5]); // [0.4, 0.1, 0.2, 0.3]
 */
export function offDiagToConfusion(
  c: OffDiagConfusion,
  priors: ArrayLike<number>,
): ConfusionMatrix {
  const k = priors.length;
  return fromOffDiagonal(c, k, (i) => priors[i]) as ConfusionMatrix;
}

/**
 * Rates from confusions: row i divided by `zeta_i`. A class with zero prior has no rates.
 *
 * @example
 * confusionToRates(asConfusionMatrix([0.4, 0.1, 0.2, 0.3]), [0.5, 0.5]); // [0.8, 0.2, 0.4, 0.6]
 */
export function confusionToRates(
  confusion: ConfusionMatrix,
  priors: ArrayLike<number>,
): RateMatrix {
  const k = side(confusion);
  checkPriors(priors, k);
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    if (!(priors[i] > 0))
      throw new RangeError(`class ${i} has zero prior: its rates are undefined`);
    for (let j = 0; j < k; j++) out[i * k + j] = confusion[i * k + j] / priors[i];
  }
  return out as RateMatrix;
}

/**
 * Confusions from rates: row i multiplied by `zeta_i`.
 *
 * @example
 * ratesToConfusion(asRateMatrix([0.8, 0.2, 0.4, 0.6]), [0.5, 0.5]); // [0.4, 0.1, 0.2, 0.3]
 */
export function ratesToConfusion(rates: RateMatrix, priors: ArrayLike<number>): ConfusionMatrix {
  const k = side(rates);
  checkPriors(priors, k);
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) out[i * k + j] = rates[i * k + j] * priors[i];
  }
  return out as ConfusionMatrix;
}

/**
 * Diagonal of a rate matrix (per-class recalls).
 *
 * @example
 * diagRatesOf(asRateMatrix([0.8, 0.2, 0.4, 0.6])); // [0.8, 0.6]
 */
export function diagRatesOf(rates: RateMatrix): DiagRates {
  return diagonal(rates) as DiagRates;
}

/**
 * Off-diagonal entries of a rate matrix, row-major, diagonal skipped.
 *
 * @example
 * offDiagRatesOf(asRateMatrix([0.8, 0.2, 0.4, 0.6])); // [0.2, 0.4]
 */
export function offDiagRatesOf(rates: RateMatrix): OffDiagRates {
  return offDiagonal(rates) as OffDiagRates;
}

/**
 * Full rate matrix from off-diagonal rates (rows sum to 1).
 *
 * @example
 * offDiagRatesToRates(asOffDiagRates([0.2, 0.4]), 2); // [0.8, 0.2, 0.4, 0.6]
 */
export function offDiagRatesToRates(r: OffDiagRates, k: number): RateMatrix {
  return fromOffDiagonal(r, k, () => 1) as RateMatrix;
}
