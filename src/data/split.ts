/**
 * Train/test splits that keep each class's share.
 *
 * @example
 * const { train, test } = stratifiedSplit(data.labels, 0.5, createRng(1));
 * const trainX = take(data.features, train);
 */
import type { Rng } from "../math/rng.ts";

/**
 * Split example indices into train and test, class by class: each class's examples are
 * shuffled with `rng` and `round(fraction * count)` of them go to train (`fraction` is the
 * train share, in (0, 1); halves round up). A class with at least two examples always gets at
 * least one in each part; a lone example goes to train when `fraction >= 0.5`. Classes are
 * processed in ascending label order and both index lists are returned sorted, so the result
 * depends only on the labels, the fraction and the seed.
 *
 * @example
 * stratifiedSplit([0, 0, 1, 1], 0.5, createRng(1)); // e.g. { train: [0, 3], test: [1, 2] }
 */
export function stratifiedSplit(
  labels: ArrayLike<number>,
  fraction: number,
  rng: Rng,
): { train: Int32Array; test: Int32Array } {
  if (!(fraction > 0 && fraction < 1)) {
    throw new RangeError(`split fraction must be in (0, 1), got ${fraction}`);
  }
  const byClass = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i]!;
    const members = byClass.get(y);
    if (members) members.push(i);
    else byClass.set(y, [i]);
  }
  const train: number[] = [];
  const test: number[] = [];
  for (const y of [...byClass.keys()].sort((a, b) => a - b)) {
    const members = byClass.get(y)!;
    shuffleInPlace(members, rng);
    const count = members.length;
    let nTrain = Math.round(fraction * count);
    if (count >= 2) nTrain = Math.min(count - 1, Math.max(1, nTrain));
    for (let j = 0; j < count; j++) (j < nTrain ? train : test).push(members[j]!);
  }
  return {
    train: Int32Array.from(train).sort(),
    test: Int32Array.from(test).sort(),
  };
}

/** Fisher–Yates, in place. */
function shuffleInPlace(items: number[], rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
}

/**
 * The items at `indices`, in that order (rows, labels, anything indexable).
 *
 * @example
 * take(["a", "b", "c"], [2, 0]); // ["c", "a"]
 */
export function take<T>(rows: ArrayLike<T>, indices: ArrayLike<number>): T[] {
  const out: T[] = new Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const j = indices[i]!;
    if (!(j >= 0 && j < rows.length)) throw new RangeError(`index ${j} out of range`);
    out[i] = rows[j]!;
  }
  return out;
}
