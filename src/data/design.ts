/**
 * Shape checks shared by the model fitters, so each fails early with a clear message
 * instead of producing NaN weights.
 *
 * @example
 * featureCount([Float64Array.of(1, 2), Float64Array.of(3, 4)], 2); // 2
 */
import { DataError } from "./errors.ts";

/**
 * The number of features of a design matrix with one row per label, after checking that
 * there is at least one row, rows have equal lengths (RangeError otherwise) and every value
 * is finite (DataError otherwise).
 *
 * @example
 * featureCount([Float64Array.of(1, Number.NaN)], 1); // throws DataError
 */
export function featureCount(rows: readonly Float64Array[], labelCount: number): number {
  if (rows.length !== labelCount) {
    throw new RangeError(`${rows.length} feature rows but ${labelCount} labels`);
  }
  if (rows.length === 0) throw new RangeError("cannot fit a model on zero rows");
  const d = rows[0]!.length;
  rows.forEach((row, i) => {
    if (row.length !== d) throw new RangeError(`row ${i} has ${row.length} features, not ${d}`);
    for (let j = 0; j < d; j++) {
      if (!Number.isFinite(row[j]!)) {
        throw new DataError(`feature ${j} of row ${i} is not a finite number (${row[j]})`);
      }
    }
  });
  return d;
}
