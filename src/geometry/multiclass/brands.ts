/**
 * Branded vector types for the multiclass statistics. Confusions `P(Y=i, h=j)` and rates
 * `P(h=j | Y=i)` live in different spaces with different centres and feasible sets, so the
 * type system keeps them apart: a `DiagRates` cannot be passed where a `DiagConfusion` is
 * expected, although both are `Float64Array`s of length k at run time.
 *
 * Layouts (k classes, q = k^2 - k):
 * - `ConfusionMatrix`, `RateMatrix`: k*k, row-major (row = true class, column = prediction).
 * - `DiagConfusion`, `DiagRates`: k, the diagonal.
 * - `OffDiagConfusion`, `OffDiagRates`: q, the off-diagonal entries row by row, diagonal
 *   skipped (see `offDiagIndex`).
 *
 * @example
 * const d = asDiagConfusion([0.3, 0.2, 0.1]); // DiagConfusion
 * const r = asDiagRates([0.6, 0.5, 0.4]);     // DiagRates; not assignable to DiagConfusion
 */
declare const brand: unique symbol;

/** A `Float64Array` tagged with the statistic it holds. */
export type Branded<B extends string> = Float64Array & { readonly [brand]: B };

/** Full confusion matrix `C_ij = P(Y=i, h=j)`, k*k row-major; row i sums to the prior zeta_i. */
export type ConfusionMatrix = Branded<"ConfusionMatrix">;
/** Diagonal confusions `d_i = C_ii` (k entries). */
export type DiagConfusion = Branded<"DiagConfusion">;
/** Off-diagonal confusions `c` (q = k^2 - k entries, row-major, diagonal skipped). */
export type OffDiagConfusion = Branded<"OffDiagConfusion">;
/** Full rate matrix `R_ij = P(h=j | Y=i) = C_ij / zeta_i`, k*k row-major; rows sum to 1. */
export type RateMatrix = Branded<"RateMatrix">;
/** Diagonal rates `r_i = R_ii` (k entries). */
export type DiagRates = Branded<"DiagRates">;
/** Off-diagonal rates (q entries, row-major, diagonal skipped). */
export type OffDiagRates = Branded<"OffDiagRates">;

function tag<T extends Branded<string>>(values: ArrayLike<number>, length?: number): T {
  if (length !== undefined && values.length !== length) {
    throw new RangeError(`expected ${length} entries, got ${values.length}`);
  }
  return Float64Array.from(values) as T;
}

/** Square root of a k*k length, or an error if the length is not a square of k >= 2. */
function sideOf(length: number): number {
  const k = Math.round(Math.sqrt(length));
  if (k < 2 || k * k !== length) {
    throw new RangeError(`a k*k matrix with k >= 2 was expected, got ${length} entries`);
  }
  return k;
}

/**
 * Tag a copy of k*k row-major values as a confusion matrix.
 *
 * @example
 * asConfusionMatrix([0.4, 0.1, 0.2, 0.3]); // k = 2
 */
export function asConfusionMatrix(values: ArrayLike<number>): ConfusionMatrix {
  sideOf(values.length);
  return tag(values);
}

/**
 * Tag a copy of k*k row-major values as a rate matrix.
 *
 * @example
 * asRateMatrix([0.8, 0.2, 0.4, 0.6]);
 */
export function asRateMatrix(values: ArrayLike<number>): RateMatrix {
  sideOf(values.length);
  return tag(values);
}

/**
 * Tag a copy as diagonal confusions (length k when `k` is given).
 *
 * @example
 * asDiagConfusion([1 / 6, 0.1, 1 / 15], 3);
 */
export function asDiagConfusion(values: ArrayLike<number>, k?: number): DiagConfusion {
  return tag(values, k);
}

/**
 * Tag a copy as off-diagonal confusions (length k^2 - k when `k` is given).
 *
 * @example
 * asOffDiagConfusion([1 / 6, 1 / 6, 0.1, 0.1, 1 / 15, 1 / 15], 3);
 */
export function asOffDiagConfusion(values: ArrayLike<number>, k?: number): OffDiagConfusion {
  return tag(values, k === undefined ? undefined : k * k - k);
}

/**
 * Tag a copy as diagonal rates (length k when `k` is given).
 *
 * @example
 * asDiagRates([1 / 3, 1 / 3, 1 / 3], 3);
 */
export function asDiagRates(values: ArrayLike<number>, k?: number): DiagRates {
  return tag(values, k);
}

/**
 * Tag a copy as off-diagonal rates (length k^2 - k when `k` is given).
 *
 * @example
 * asOffDiagRates(new Array(6).fill(1 / 3), 3);
 */
export function asOffDiagRates(values: ArrayLike<number>, k?: number): OffDiagRates {
  return tag(values, k === undefined ? undefined : k * k - k);
}
