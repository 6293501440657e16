/**
 * Binary confusion matrices and rates as distinct types.
 *
 * A confusion is a joint probability: `tp = P(Y=1, h=1)`, `tn = P(Y=0, h=0)`; the other two
 * entries follow from the prior `zeta = P(Y=1)`: `fn = zeta - tp`, `fp = 1 - zeta - tn`.
 * Rates are conditional on the true class: `tpr = tp / zeta`, `tnr = tn / (1 - zeta)`.
 * The brands stop one being passed where the other is meant.
 */
declare const confusionBrand: unique symbol;
declare const ratesBrand: unique symbol;

/** `(TP, TN)` of a binary classifier as joint probabilities (the AISTATS 2019 space). */
export type BinaryConfusion = { readonly tp: number; readonly tn: number } & {
  readonly [confusionBrand]: true;
};

/** `(TPR, TNR)`: rates conditioned on the true class. */
export type BinaryRates = { readonly tpr: number; readonly tnr: number } & {
  readonly [ratesBrand]: true;
};

/**
 * Make a confusion point.
 * @example binaryConfusion(0.3, 0.4) // { tp: 0.3, tn: 0.4 }
 */
export function binaryConfusion(tp: number, tn: number): BinaryConfusion {
  return { tp, tn } as BinaryConfusion;
}

/**
 * Convert a confusion point to class-conditional rates.
 * @example confusionToRates(binaryConfusion(0.3, 0.4), 0.5) // { tpr: 0.6, tnr: 0.8 }
 */
export function confusionToRates(c: BinaryConfusion, zeta: number): BinaryRates {
  return { tpr: c.tp / zeta, tnr: c.tn / (1 - zeta) } as BinaryRates;
}

/**
 * The full 2x2 matrix `{ tp, fp, fn, tn }` of a confusion point given the prior.
 * @example fullConfusion(binaryConfusion(0.3, 0.6), 0.4) // { tp: 0.3, fp: 0, fn: 0.1 (to rounding), tn: 0.6 }
 */
export function fullConfusion(
  c: BinaryConfusion,
  zeta: number,
): { tp: number; fp: number; fn: number; tn: number } {
  return { tp: c.tp, fp: 1 - zeta - c.tn, fn: zeta - c.tp, tn: c.tn };
}
