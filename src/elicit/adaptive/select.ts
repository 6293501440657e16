import type { AnswerModel } from "./answer-model.ts";

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

/** Binary entropy on a grid, linearly interpolated: the scoring loop's hot path. */
const GRID = 2048;
const ENTROPY_TABLE = Float64Array.from({ length: GRID + 1 }, (_, i) => entropy(i / GRID));
function fastEntropy(p: number): number {
  const x = p * GRID;
  const i = Math.floor(x);
  if (i <= 0 || i >= GRID) return i <= 0 ? ENTROPY_TABLE[0]! + x * ENTROPY_TABLE[1]! : 0;
  return ENTROPY_TABLE[i]! + (x - i) * (ENTROPY_TABLE[i + 1]! - ENTROPY_TABLE[i]!);
}

/** How many pairs (best by the split of the belief) get the full information score. */
const SHORTLIST = 96;

/**
 * The pair of candidates with the largest expected information about the metric,
 * `H(answer) - E_w[H(answer | w)]` over the weighted samples (ALGORITHMS.md F). `values` is
 * row-major `samples x candidates` of scaled metric values; pairs whose display keys are
 * equal (identical on screen) are never chosen. Under the exact model the information is the
 * entropy of the split. Under a noisy model, the pairs that split the belief best, discounted
 * when their typical difference is within a few temperatures (a cheap first pass), are scored
 * in full, so near ties that a person would answer by chance lose to
 * clearer pairs. Among near-equally informative pairs (`clarityWeight` bits, default 0.01), the
 * clearer one wins. Pairs for which `excluded(a, b)` holds (the engine passes pairs one
 * system of which is at least as good on every feature: they say nothing about the
 * trade-off) are never chosen either.
 * @example selectPair(values, 64, 10, weights, keys, HUMAN_MODEL)
 */
export function selectPair(
  values: Float64Array,
  samples: number,
  candidates: number,
  weights: Float64Array,
  keys: readonly string[],
  model: AnswerModel,
  clarityWeight = 0.01,
  spread?: { readonly coords: Float64Array; readonly dim: number },
  excluded?: (a: number, b: number) => boolean,
): PairChoice | null {
  // First pass: the exact-model information (entropy of the split) and the clarity.
  const pairs: { a: number; b: number; split: number; info: number; clarity: number }[] = [];
  // Candidate-major copy: the pair loop then reads each candidate's values contiguously
  // (the same sums in the same order, only faster on a belief of a thousand samples).
  const byCandidate = new Float64Array(samples * candidates);
  for (let s = 0; s < samples; s++) {
    const row = s * candidates;
    for (let c = 0; c < candidates; c++) byCandidate[c * samples + s] = values[row + c]!;
  }
  const live: number[] = [];
  for (let a = 0; a < candidates; a++) {
    live.length = 0;
    for (let b = a + 1; b < candidates; b++) {
      if (keys[a] !== keys[b] && !excluded?.(a, b)) live.push(b);
    }
    splitAndClarity(byCandidate, samples, weights, a, live, pairs);
  }
  if (pairs.length === 0) return null;
  const bonus = (clarity: number) => clarityWeight * Math.min(1, clarity);
  if (model.kind === "exact" && spread) {
    return leastSpread(pairs, values, samples, candidates, weights, spread);
  }
  if (model.kind === "exact") {
    let best = pairs[0]!;
    for (const p of pairs)
      if (p.info + bonus(p.clarity) > best.info + bonus(best.clarity)) best = p;
    return exactChoice(best);
  }
  // Second pass under the noisy model, on the shortlist (stable order: ties keep index order).
  const shortlist = pairs
    .map((p, i) => ({ p, i, key: p.info * Math.min(1, p.clarity / (3 * model.temperature)) }))
    .sort((x, y) => y.key - x.key || x.i - y.i)
    .slice(0, SHORTLIST)
    .map((x) => x.p);
  let best: PairChoice | null = null;
  let bestScore = -Infinity;
  // `probabilityFirst` of the human model, written out: the loop's hot path.
  const low = 0.5 * model.lapse;
  const high = 1 - model.lapse;
  const temperature = model.temperature;
  if (spread && model.selectBy === "spread") {
    return leastNoisySpread(
      shortlist,
      byCandidate,
      samples,
      weights,
      spread,
      low,
      high,
      temperature,
    );
  }
  for (const { a, b, clarity } of shortlist) {
    let pbar = 0;
    let cond = 0;
    const ra = a * samples;
    const rb = b * samples;
    for (let s = 0; s < samples; s++) {
      const d = byCandidate[ra + s]! - byCandidate[rb + s]!;
      const p = low + high / (1 + Math.exp(-d / temperature));
      const w = weights[s]!;
      pbar += w * p;
      cond += w * fastEntropy(p);
    }
    const information = Math.max(0, fastEntropy(pbar) - cond);
    const score = information + bonus(clarity);
    if (score > bestScore) {
      bestScore = score;
      best = { first: a, second: b, information, clarity, pFirst: pbar };
    }
  }
  return best;
}

/**
 * The first pass's split (belief mass where `a` is worth more, ties half) and clarity
 * (weighted mean |difference|) of the pairs (a, b) for b in `others`, appended in the order of
 * `others`. Four pairs at a time share each sample's load of a's value and of its weight
 * (twice as fast on the binary families' 1000 samples); each pair's sums are taken in the
 * same order as one at a time, so to the bit the same.
 */
function splitAndClarity(
  byCandidate: Float64Array,
  samples: number,
  weights: Float64Array,
  a: number,
  others: readonly number[],
  out: { a: number; b: number; split: number; info: number; clarity: number }[],
): void {
  const ra = a * samples;
  let i = 0;
  for (; i + 4 <= others.length; i += 4) {
    const r1 = others[i]! * samples;
    const r2 = others[i + 1]! * samples;
    const r3 = others[i + 2]! * samples;
    const r4 = others[i + 3]! * samples;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let c4 = 0;
    for (let s = 0; s < samples; s++) {
      const va = byCandidate[ra + s]!;
      const w = weights[s]!;
      const d1 = va - byCandidate[r1 + s]!;
      const d2 = va - byCandidate[r2 + s]!;
      const d3 = va - byCandidate[r3 + s]!;
      const d4 = va - byCandidate[r4 + s]!;
      // Adding +0 leaves a sum as it is: the same as adding nothing.
      s1 += d1 > 0 ? w : d1 === 0 ? 0.5 * w : 0;
      s2 += d2 > 0 ? w : d2 === 0 ? 0.5 * w : 0;
      s3 += d3 > 0 ? w : d3 === 0 ? 0.5 * w : 0;
      s4 += d4 > 0 ? w : d4 === 0 ? 0.5 * w : 0;
      c1 += w * Math.abs(d1);
      c2 += w * Math.abs(d2);
      c3 += w * Math.abs(d3);
      c4 += w * Math.abs(d4);
    }
    out.push({ a, b: others[i]!, split: s1, info: entropy(s1), clarity: c1 });
    out.push({ a, b: others[i + 1]!, split: s2, info: entropy(s2), clarity: c2 });
    out.push({ a, b: others[i + 2]!, split: s3, info: entropy(s3), clarity: c3 });
    out.push({ a, b: others[i + 3]!, split: s4, info: entropy(s4), clarity: c4 });
  }
  for (; i < others.length; i++) {
    const rb = others[i]! * samples;
    let split = 0;
    let clarity = 0;
    for (let s = 0; s < samples; s++) {
      const diff = byCandidate[ra + s]! - byCandidate[rb + s]!;
      const w = weights[s]!;
      split += diff > 0 ? w : diff === 0 ? 0.5 * w : 0;
      clarity += w * Math.abs(diff);
    }
    out.push({ a, b: others[i]!, split, info: entropy(split), clarity });
  }
}

/**
 * Under the exact model with the samples' coordinates: among the pairs that split the belief
 * within 0.05 bit of the best split, the one whose answer leaves the least expected spread
 * (the posterior's total variance of the coordinates, averaged over the two answers), so
 * each cut goes across the belief's widest extent, not only through its middle.
 */
function leastSpread(
  pairs: readonly { a: number; b: number; split: number; info: number; clarity: number }[],
  values: Float64Array,
  samples: number,
  candidates: number,
  weights: Float64Array,
  spread: { readonly coords: Float64Array; readonly dim: number },
): PairChoice {
  const top = Math.max(...pairs.map((p) => p.info));
  const { coords, dim } = spread;
  const sum = [new Float64Array(dim), new Float64Array(dim)];
  let best = pairs[0]!;
  let bestSpread = Infinity;
  for (const p of pairs) {
    if (p.info < top - 0.05) continue;
    const mass = [0, 0];
    let squares = 0;
    sum[0]!.fill(0);
    sum[1]!.fill(0);
    for (let s = 0; s < samples; s++) {
      const row = s * candidates;
      const side = values[row + p.a]! - values[row + p.b]! > 0 ? 0 : 1;
      const w = weights[s]!;
      mass[side]! += w;
      const acc = sum[side]!;
      for (let i = 0; i < dim; i++) {
        const x = coords[s * dim + i]!;
        acc[i]! += w * x;
        squares += w * x * x;
      }
    }
    // Expected posterior variance: E|x|^2 - sum over sides of mass * |side mean|^2.
    let explained = 0;
    for (const side of [0, 1]) {
      if (!(mass[side]! > 0)) continue;
      let m2 = 0;
      for (let i = 0; i < dim; i++) m2 += sum[side]![i]! ** 2;
      explained += m2 / mass[side]!;
    }
    const left = squares - explained;
    if (left < bestSpread - 1e-15) {
      bestSpread = left;
      best = p;
    }
  }
  return exactChoice(best);
}

/**
 * Under a noisy model that chooses by spread (`AnswerModel.selectBy`): of the `shortlist`,
 * the pair whose answer leaves the least expected posterior variance of the samples'
 * coordinates, each sample on both sides of the answer with the model's probabilities of
 * "first" (`low + high / (1 + e^(-d / temperature))`, d its difference of values) and of
 * "second". Its information is reported as the noisy pass's.
 */
function leastNoisySpread(
  shortlist: readonly { a: number; b: number; clarity: number }[],
  byCandidate: Float64Array,
  samples: number,
  weights: Float64Array,
  spread: { readonly coords: Float64Array; readonly dim: number },
  low: number,
  high: number,
  temperature: number,
): PairChoice | null {
  const { coords, dim } = spread;
  const first = new Float64Array(dim);
  const second = new Float64Array(dim);
  let best: PairChoice | null = null;
  let bestLeft = Infinity;
  for (const { a, b, clarity } of shortlist) {
    first.fill(0);
    second.fill(0);
    let massFirst = 0;
    let massSecond = 0;
    let squares = 0;
    let pbar = 0;
    let cond = 0;
    for (let s = 0; s < samples; s++) {
      const d = byCandidate[a * samples + s]! - byCandidate[b * samples + s]!;
      const p = low + high / (1 + Math.exp(-d / temperature));
      const w = weights[s]!;
      pbar += w * p;
      cond += w * fastEntropy(p);
      massFirst += w * p;
      massSecond += w * (1 - p);
      for (let i = 0; i < dim; i++) {
        const x = coords[s * dim + i]!;
        first[i]! += w * p * x;
        second[i]! += w * (1 - p) * x;
        squares += w * x * x;
      }
    }
    // Expected posterior variance: E|x|^2 - sum over answers of mass * |answer's mean|^2.
    let m1 = 0;
    let m2 = 0;
    for (let i = 0; i < dim; i++) {
      m1 += first[i]! ** 2;
      m2 += second[i]! ** 2;
    }
    const left =
      squares - ((massFirst > 0 ? m1 / massFirst : 0) + (massSecond > 0 ? m2 / massSecond : 0));
    if (left < bestLeft) {
      bestLeft = left;
      const information = Math.max(0, fastEntropy(pbar) - cond);
      best = { first: a, second: b, information, clarity, pFirst: pbar };
    }
  }
  return best;
}

/** A first-pass pair as the choice under the exact model (its information is its split's). */
function exactChoice(p: {
  a: number;
  b: number;
  split: number;
  info: number;
  clarity: number;
}): PairChoice {
  return { first: p.a, second: p.b, information: p.info, clarity: p.clarity, pFirst: p.split };
}
