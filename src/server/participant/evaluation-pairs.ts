import { type BinaryPoint, thresholdPoint } from "../../elicit/binary/point.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { createRng } from "../../math/rng.ts";
import { type DisplayFrame, shownCounts } from "./views.ts";

/** One Phase III pair (the order is the procedure's "first"/"second", not the placement). */
export interface EvaluationPair {
  readonly first: BinaryPoint;
  readonly second: BinaryPoint;
  /** The `a` at which `a TN + (1 - a) TP` is indifferent between the two systems. */
  readonly flip: number;
}

/**
 * Phase III pairs for one participant, seeded.
 *
 * Every pair is a strict trade-off (one system catches more positives, the other clears more
 * negatives, each by at least half a case out of 100), so no pair is dominated. Such a pair
 * asks one question about the metric `a TN + (1 - a) TP`: is `a` below or above its *flip
 * point* `dTP / (dTP + dTN)`? A pair is informative when its flip point lies near the elicited
 * `a`; we draw flip points on alternate sides of `a`, near it but outside `a +- band` (the
 * elicitation's tolerance), so a participant whose metric is within the tolerance of the
 * elicited one agrees on every pair and a disagreement is evidence against the elicited metric.
 * Thresholds are drawn around `a` (normal, spread 0.25, snapped to 0.005). Returns fewer pairs
 * only when the pool cannot supply them (the band is dropped as a last resort). With a display
 * `frame`, the trade-off must also be visible: one system shows at least one more true
 * positive and the other at least one more true negative in whole people, so no pair looks
 * identical or dominated on screen.
 * @example evaluationPairs(pool, 0.3, 0.05, 15, 42).length // 15
 */
export function evaluationPairs(
  population: BinaryPopulation,
  a: number,
  band: number,
  count: number,
  seed: number,
  frame: DisplayFrame | null = null,
): EvaluationPair[] {
  const rng = createRng(`${seed}:evaluation-pairs`);
  const snap = (t: number) => Math.min(1, Math.max(0, Math.round(t / 0.005) * 0.005));
  const pairs: EvaluationPair[] = [];
  const seen = new Set<string>();
  const key = (p: BinaryPoint) => `${p.confusion.tp.toFixed(6)}:${p.confusion.tn.toFixed(6)}`;
  let minGap = 0.005;
  let sides = true;
  for (let attempt = 0; pairs.length < count && attempt < 6000; attempt++) {
    if (attempt === 2000) sides = false; // one side of `a` has run dry
    if (attempt === 3000) minGap = 0; // a coarse pool: any strict trade-off
    if (attempt === 4000) band = 0;
    const t1 = snap(a + rng.normal() * 0.25);
    const t2 = snap(a + rng.normal() * 0.25);
    if (t1 === t2) continue;
    const p = thresholdPoint(population, Math.min(t1, t2));
    const q = thresholdPoint(population, Math.max(t1, t2));
    const dTp = p.confusion.tp - q.confusion.tp;
    const dTn = q.confusion.tn - p.confusion.tn;
    if (!(dTp > minGap && dTn > minGap)) continue;
    if (frame !== null) {
      const sp = shownCounts(p.confusion, frame);
      const sq = shownCounts(q.confusion, frame);
      if (!(sp.tp > sq.tp && sq.tn > sp.tn)) continue;
    }
    const flip = dTp / (dTp + dTn);
    if (Math.abs(flip - a) <= band) continue;
    if (sides && flip < a !== (pairs.length % 2 === 0)) continue;
    const k = `${key(p)}|${key(q)}`;
    if (seen.has(k)) continue;
    seen.add(k);
    pairs.push(rng.next() < 0.5 ? { first: p, second: q, flip } : { first: q, second: p, flip });
  }
  return pairs;
}

const cache = new Map<string, EvaluationPair[]>();

/**
 * `evaluationPairs` memoised by (population key, a, band, count, seed, frame): the pairs are a
 * pure function of these, and a participant's requests in Phase III all need the same pairs.
 */
export function cachedEvaluationPairs(
  populationKey: string,
  population: BinaryPopulation,
  a: number,
  band: number,
  count: number,
  seed: number,
  frame: DisplayFrame | null = null,
): EvaluationPair[] {
  const key = `${populationKey}|${a}|${band}|${count}|${seed}|${frame?.population ?? "-"}`;
  let pairs = cache.get(key);
  if (!pairs) {
    pairs = evaluationPairs(population, a, band, count, seed, frame);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, pairs);
  }
  return pairs;
}
