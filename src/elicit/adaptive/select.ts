import { type AnswerModel, probabilityFirst } from "./answer-model.ts";

/** A candidate pair chosen for the next question. */
export interface PairChoice {
  readonly first: number;
  readonly second: number;
  /** Expected information about the metric from the answer, in bits. */
  readonly information: number;
  /** Belief-weighted mean |difference| of the pair's values, in units of the metric's range. */
  readonly clarity: number;
  /** Belief probability that the answer is "first". */
  readonly pFirst: number;
}

function entropy(p: number): number {
  if (p <= 0 || p >= 1) return 0;
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
}

/**
 * The pair of candidates with the largest expected information about the metric,
 * `H(answer) - E_w[H(answer | w)]` over the weighted samples (ALGORITHMS.md F). `values` is
 * row-major `samples x candidates` of scaled metric values; pairs whose display keys are
 * equal (identical on screen) are never chosen. Under the exact model the information is the
 * entropy of the split; ties between equally informative pairs go to the clearer pair.
 * @example selectPair(values, 64, 10, weights, keys, HUMAN_MODEL)
 */
export function selectPair(
  values: Float64Array,
  samples: number,
  candidates: number,
  weights: Float64Array,
  keys: readonly string[],
  model: AnswerModel,
): PairChoice | null {
  let best: PairChoice | null = null;
  let bestScore = -Infinity;
  for (let a = 0; a < candidates; a++) {
    for (let b = a + 1; b < candidates; b++) {
      if (keys[a] === keys[b]) continue;
      let pbar = 0;
      let cond = 0;
      let clarity = 0;
      for (let s = 0; s < samples; s++) {
        const row = s * candidates;
        const diff = values[row + a]! - values[row + b]!;
        const p = probabilityFirst(model, diff);
        const w = weights[s]!;
        pbar += w * p;
        cond += w * entropy(p);
        clarity += w * Math.abs(diff);
      }
      const information = Math.max(0, entropy(pbar) - cond);
      // Information first; among near-equal pairs (within 0.01 bit), the clearer one.
      const score = information + 0.01 * Math.min(1, clarity);
      if (score > bestScore) {
        bestScore = score;
        best = { first: a, second: b, information, clarity, pFirst: pbar };
      }
    }
  }
  return best;
}
