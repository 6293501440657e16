/**
 * Ranking measures for comparing a ranking of classifiers with the ground truth (UAI 2022
 * Appendix H.2): NDCG with exponential gain (Valizadegan et al. 2009) and Kendall's tau-b.
 */

/** Indices sorted by decreasing score (ties broken by increasing index, deterministic). */
export function rankByScore(scores: readonly number[]): number[] {
  return scores.map((_, i) => i).sort((p, q) => scores[q]! - scores[p]! || p - q);
}

/**
 * NDCG of the ordering by `predicted` scores, with exponential gain `2^rel - 1` and discount
 * `1 / log2(position + 1)` (positions from 1), over the full list (or the top `cutoff`).
 * Relevances must be finite; the ideal DCG orders by `relevance` itself. Returns 1 when the
 * ideal DCG is 0 (every relevance 0).
 * @example ndcg([3, 2, 1], [0.9, 0.5, 0.1]) // 1
 * @example ndcg([1, 0], [0, 1]) // 1 / (1 / log2(3)) ... = log2(3)^-1 / 1 = 0.6309...
 */
export function ndcg(
  relevance: readonly number[],
  predicted: readonly number[],
  cutoff?: number,
): number {
  if (relevance.length !== predicted.length) {
    throw new RangeError(`${relevance.length} relevances but ${predicted.length} scores`);
  }
  const n = Math.min(relevance.length, cutoff ?? relevance.length);
  const dcg = (order: number[]): number => {
    let s = 0;
    for (let i = 0; i < n; i++) s += (2 ** relevance[order[i]!]! - 1) / Math.log2(i + 2);
    return s;
  };
  const ideal = dcg(rankByScore(relevance));
  if (!(ideal > 0)) return 1;
  return dcg(rankByScore(predicted)) / ideal;
}

/**
 * Kendall's tau-b between two score lists (ties in either list handled as in tau-b):
 * `(C - D) / sqrt((n0 - n1)(n0 - n2))`. O(n^2). Returns 1 when either list is constant and
 * both are (no comparable pair), 0 when only one is.
 * @example kendallTau([1, 2, 3], [1, 2, 3]) // 1
 * @example kendallTau([1, 2, 3], [3, 2, 1]) // -1
 */
export function kendallTau(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError(`${x.length} and ${y.length} scores`);
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  if (!(denom > 0)) return tiesX === tiesY ? 1 : 0;
  return (concordant - discordant) / denom;
}

/**
 * Relevance labels from true metric values: min-max scaled to [0, 1] over the pool (so the
 * exponential gain `2^rel - 1` spans [0, 1] whatever the metric's scale). All equal: all 0.
 * @example minMaxRelevance([1, 2, 3]) // [0, 0.5, 1]
 */
export function minMaxRelevance(values: readonly number[]): number[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return values.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0));
}
