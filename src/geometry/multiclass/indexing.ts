/**
 * Index arithmetic for off-diagonal vectors: entry (i, j), i != j, of a k x k matrix listed
 * row by row with the diagonal skipped. 0-based here; ALGORITHMS.md section 0 gives the
 * 1-based form `(i-1)(k-1) + (j if j < i else j-1)`.
 *
 * @example
 * offDiagIndex(0, 1, 3); // 0
 * offDiagIndex(1, 0, 3); // 2
 * offDiagPair(5, 3);     // [2, 1]
 */
export function offDiagIndex(i: number, j: number, k: number): number {
  if (i === j || i < 0 || j < 0 || i >= k || j >= k) {
    throw new RangeError(`(${i}, ${j}) is not an off-diagonal entry of a ${k}x${k} matrix`);
  }
  return i * (k - 1) + (j < i ? j : j - 1);
}

/**
 * The (row, column) pair of off-diagonal index `index` (inverse of `offDiagIndex`).
 *
 * @example
 * offDiagPair(2, 3); // [1, 0]
 */
export function offDiagPair(index: number, k: number): [number, number] {
  if (!Number.isInteger(index) || index < 0 || index >= k * k - k) {
    throw new RangeError(`off-diagonal index ${index} out of range for k = ${k}`);
  }
  const i = Math.floor(index / (k - 1));
  const r = index - i * (k - 1);
  return [i, r < i ? r : r + 1];
}

/**
 * Number of off-diagonal entries, q = k^2 - k.
 *
 * @example
 * offDiagCount(4); // 12
 */
export function offDiagCount(k: number): number {
  return k * k - k;
}
