/**
 * Feature standardisation (z-scores), fitted on training rows and applied to any rows.
 *
 * @example
 * const s = fitStandardizer(trainX);
 * const [trainZ, testZ] = [s.transform(trainX), s.transform(testX)];
 */

export interface Standardizer {
  /** Per-feature mean of the fitted rows. */
  mean: Float64Array;
  /** Per-feature population standard deviation, or 1 for a constant feature. */
  scale: Float64Array;
  /** New rows `(x - mean) / scale`; the inputs are not modified. */
  transform(rows: readonly Float64Array[]): Float64Array[];
}

/**
 * Fit mean and scale per feature. A constant feature gets scale 1 (so it maps to 0 instead of
 * NaN); constancy is tested exactly, because the computed standard deviation of equal values
 * can be a tiny non-zero rounding residue that would blow the column up.
 *
 * @example
 * const s = fitStandardizer([Float64Array.of(1, 5), Float64Array.of(3, 5)]);
 * s.mean;  // [2, 5]
 * s.scale; // [1, 1]
 * s.transform([Float64Array.of(3, 5)]); // [[1, 0]]
 */
export function fitStandardizer(rows: readonly Float64Array[]): Standardizer {
  if (rows.length === 0) throw new RangeError("cannot fit a standardizer on zero rows");
  const d = rows[0]!.length;
  const n = rows.length;
  const mean = new Float64Array(d);
  const scale = new Float64Array(d);
  const min = new Float64Array(d).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(d).fill(Number.NEGATIVE_INFINITY);
  for (const row of rows) {
    if (row.length !== d) throw new RangeError(`rows have ${row.length} and ${d} features`);
    for (let j = 0; j < d; j++) {
      const x = row[j]!;
      mean[j] += x;
      if (x < min[j]!) min[j] = x;
      if (x > max[j]!) max[j] = x;
    }
  }
  for (let j = 0; j < d; j++) mean[j] = min[j] === max[j] ? min[j]! : mean[j]! / n;
  // Second pass for the variance: exact-ish where the one-pass formula cancels badly.
  for (const row of rows) {
    for (let j = 0; j < d; j++) scale[j] += (row[j]! - mean[j]!) ** 2;
  }
  for (let j = 0; j < d; j++) {
    const sd = Math.sqrt(scale[j]! / n);
    scale[j] = min[j] === max[j] || !(sd > 0) ? 1 : sd;
  }
  const transform = (input: readonly Float64Array[]): Float64Array[] =>
    input.map((row) => {
      if (row.length !== d) throw new RangeError(`row has ${row.length} features, expected ${d}`);
      const out = new Float64Array(d);
      for (let j = 0; j < d; j++) out[j] = (row[j]! - mean[j]!) / scale[j]!;
      return out;
    });
  return { mean, scale, transform };
}
