/**
 * `indices` (ascending) sorted by `values[i]`, ties by index: the order a stable sort by value
 * gives. Values that fall then rise along the indices (a grid's errors from the belief's mean:
 * a V around it) are two sorted runs, merged in linear time; anything else is sorted.
 * @example orderByValue(Float64Array.of(3, 1, 2), Int32Array.of(0, 1, 2)) // Int32Array [1, 2, 0]
 */
export function orderByValue(values: Float64Array, indices: Int32Array): Int32Array {
  const n = indices.length;
  if (n === 0) return new Int32Array(0);
  const at = (k: number) => values[indices[k]!]!;
  // The falling run [0, j], then a rising run [j + 1, n).
  let j = 0;
  while (j + 1 < n && at(j + 1) <= at(j)) j++;
  for (let t = j + 1; t + 1 < n; t++) {
    if (!(at(t + 1) >= at(t))) {
      return indices.slice().sort((a, b) => values[a]! - values[b]! || a - b);
    }
  }
  // The falling run read backwards rises, but puts equal values in descending index order:
  // each group of equal values is read forwards.
  const left = new Int32Array(j + 1);
  let k = 0;
  for (let end = j; end >= 0; ) {
    let start = end;
    while (start > 0 && at(start - 1) === at(end)) start--;
    for (let t = start; t <= end; t++) left[k++] = indices[t]!;
    end = start - 1;
  }
  const out = new Int32Array(n);
  let a = 0;
  let b = j + 1;
  // Equal values: the falling run's indices are the smaller ones, so it goes first.
  for (let o = 0; o < n; o++) {
    if (b >= n || (a <= j && values[left[a]!]! <= at(b))) out[o] = left[a++]!;
    else out[o] = indices[b++]!;
  }
  return out;
}
