// Phase III of an adaptive study (the user-study paper's evaluation pairs), for any family:
// random trade-offs to ask after the elicitation, and how the elicited belief judges each.
// Pure: the server's studies and the people panel draw the same pairs from the same seed.

import { createRng, type Rng } from "../../math/rng.ts";
import { type AdaptiveResult, dominated, priorDirection } from "./engine.ts";
import type { AdaptiveFamily } from "./family.ts";

/** One Phase III pair in procedure order ("first" is not the side shown). */
export interface TradeOff<P> {
  readonly first: P;
  readonly second: P;
}

/**
 * `count` random pairs to ask after the elicitation, seeded (the same seed gives the same
 * pairs): each system is one of the family's candidates for a metric drawn from its prior,
 * picked at random (the systems the engine asks about; on lambda, optimal points alone lie so
 * close in value along the frontier that a person with a little noise, on held-out truths,
 * agreed with their own result on 63% of the pairs clearest to it, a coin on 49%; with the
 * candidates, 100% and 52%), and a pair is kept only when it is a trade-off as
 * shown: the two look different (`displayKey`), neither is at least as good on every feature
 * where the family knows the signs (`dominated`), and it was not drawn before. Nothing depends
 * on the participant's answers, so agreement on these pairs is not built in. Returns fewer
 * pairs only when the family cannot supply `count` distinct ones in 20 draws per pair.
 * @example randomTradeOffs(family, 10, 42).length // 10
 */
export function randomTradeOffs<P, M>(
  family: AdaptiveFamily<P, M>,
  count: number,
  seed: number,
): TradeOff<P>[] {
  const rng = createRng(`${seed}:phase-three:${family.name}`);
  const out: TradeOff<P>[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; out.length < count && attempt < 20 * count; attempt++) {
    const first = draw(family, rng);
    const second = draw(family, rng);
    const a = family.displayKey(first);
    const b = family.displayKey(second);
    if (a === b) continue;
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    if (seen.has(key)) continue;
    if (dominated(family.features(first), family.features(second), family.signs)) continue;
    seen.add(key);
    out.push({ first, second });
  }
  return out;
}

/** One of the family's candidates for a metric drawn from its prior, picked at random. */
function draw<P, M>(family: AdaptiveFamily<P, M>, rng: Rng): P {
  const c = family.candidates([priorDirection(family, rng)], rng);
  return c[rng.int(c.length)]!;
}

/** How an elicited belief judges one pair (see `judgePair`). */
export interface PairJudgement {
  /** The elicited metric's preference: > 0 first, < 0 second, 0 indifferent. */
  readonly metric: number;
  /** The share of the belief's draws that prefer the first system (indifference counts 1/2). */
  readonly pFirst: number;
  /**
   * Whether the answers already decide the pair: all but `1 - level` of the belief prefers the
   * same system (each tail below `(1 - level) / 2`, as the credible region's level). Agreeing
   * on a decided pair shows only that the person stayed consistent.
   */
  readonly decided: boolean;
}

/** Values this close are equal (float rounding of equal sums). */
const SAME = 1e-12;

/**
 * Judge `first` against `second` with a result's belief (`AdaptiveResult.posterior`), on the
 * family's features (as shown, for a family built on what a person sees). Throws for a result
 * without a posterior.
 * @example judgePair(family, result, first, second) // { metric: 0.03, pFirst: 0.99, decided: true }
 */
export function judgePair<P, M>(
  family: AdaptiveFamily<P, M>,
  result: Pick<AdaptiveResult<P, M>, "posterior" | "credible">,
  first: P,
  second: P,
): PairJudgement {
  const post = result.posterior;
  if (!post) throw new Error("the result keeps no belief to judge pairs with");
  const fa = family.features(first);
  const fb = family.features(second);
  const value = (w: readonly number[]) => {
    let v = 0;
    for (let i = 0; i < w.length; i++) v += w[i]! * (fa[i]! - fb[i]!);
    return Math.abs(v) < SAME ? 0 : v;
  };
  let prefer = 0;
  for (const w of post.draws) {
    const v = value(w);
    prefer += v > 0 ? 1 : v === 0 ? 0.5 : 0;
  }
  const pFirst = post.draws.length === 0 ? 0.5 : prefer / post.draws.length;
  const tail = (1 - result.credible.level) / 2;
  const metric = value(post.mean);
  return {
    metric,
    pFirst,
    decided: metric !== 0 && (pFirst <= tail || pFirst >= 1 - tail),
  };
}

/**
 * The first reading's probability of a careful reader above which a study may state that
 * reading alone (`trustedReading`). Chosen on the people panel's tuning truths (`reproduce
 * people --families fair-quadratic --truth-seed tune-1`, 20 truths): every careful person's
 * run was above it (the lowest 0.947), and of the noisy people only some with 5% flips.
 */
export const TRUST_CAREFUL = 0.9;

/** Phase III answers counted without a slip before a careful reading is trusted. */
export const TRUST_COUNTED = 10;

/**
 * What a participant's Phase III says of them, as far as `trustedReading` needs it (the
 * server's `Consistency`): answers counted, how many went against their result, and the
 * repeated pairs with how many got the same answer.
 */
export interface PhaseThreeRecord {
  readonly counted: number;
  readonly against: number;
  readonly retestPairs: number;
  readonly retestSame: number;
}

/**
 * The result a study states once Phase III is answered. A checked model's region and flags
 * answer for its second reading too (`AnswerModel.check`), which has no careful reader: it
 * leaves a careful person's gap weights open however well their answers pin them. The first
 * reading alone is stated instead when it holds the person a careful reader with at least
 * `TRUST_CAREFUL` and their Phase III bears that out: at least `TRUST_COUNTED` answers
 * counted, none against their result, every repeat answered the same. A person whom the
 * careful reader explained with confidence but wrongly (a side bias, a slip read as a metric)
 * shows it on those fresh pairs: on the people panel's held-out truths such a run, far off its
 * truth, had a repeat answered otherwise and a Phase III answer against its result. Otherwise
 * (no Phase III, a slip, no first reading) the result is returned as it is.
 * @example trustedReading(result, { counted: 15, against: 0, retestPairs: 2, retestSame: 2 }).unidentified // []
 */
export function trustedReading<
  R extends Pick<AdaptiveResult<unknown, unknown>, "credible" | "unidentified" | "firstReading">,
>(result: R, phaseThree: PhaseThreeRecord | null | undefined): R {
  const first = result.firstReading;
  if (
    !first ||
    !phaseThree ||
    first.careful < TRUST_CAREFUL ||
    phaseThree.counted < TRUST_COUNTED ||
    phaseThree.against > 0 ||
    phaseThree.retestSame < phaseThree.retestPairs
  )
    return result;
  return {
    ...result,
    credible: { ...result.credible, radius: first.radius },
    unidentified: first.unidentified,
  };
}

/** Prior draws an unmeasured reading states (`unmeasuredReading`), besides the cone's corners. */
export const UNMEASURED_DRAWS = 200;

/**
 * The result a study states for a participant whose Phase III answers could have come from a
 * coin (`Consistency.coinLike`): nothing was measured, so the region is the whole space and
 * not the belief the Phase II answers left (an adaptive search's answers always fit some
 * metric, and before Phase III its region is as narrow as a careful person's: on the people
 * panel it held a random responder's drawn truth in 33-83% of runs). The estimate and the
 * recommendation stay (what Phase II points to); the belief's draws become the prior's
 * (`UNMEASURED_DRAWS` uniform directions of the sign cone, seeded, and the cone's corners, so
 * every range over them reaches each coordinate's ends); the region's level is 1 and its
 * radius the largest error from the estimate over those draws; every coordinate (and part of
 * the error) is unidentified with its largest distance; `pOptimal` is the draws' share for
 * which the recommendation is optimal; the first reading is dropped (it answers for nothing).
 * @example unmeasuredReading(result, family, 7).credible.level // 1
 */
export function unmeasuredReading<P, M, R extends AdaptiveResult<P, M>>(
  result: R,
  family: AdaptiveFamily<P, M>,
  seed: number,
): R {
  const rng = createRng(`unmeasured:${seed}`);
  const draws: Float64Array[] = [];
  for (let i = 0; i < family.dim; i++)
    for (const s of family.signs[i] === 0 ? [1, -1] : [family.signs[i] ?? 1]) {
      const w = new Float64Array(family.dim);
      w[i] = s;
      draws.push(w);
    }
  for (let i = 0; i < UNMEASURED_DRAWS; i++) draws.push(priorDirection(family, rng));
  const metric = result.metric;
  const centre = family.coordinates(metric);
  const names = [
    ...centre.map((_, i) => family.coordinateNames[i] ?? `w${i}`),
    ...(family.parts?.names ?? []),
  ];
  const widest = names.map(() => 0);
  let radius = 0;
  const kept: number[][] = [];
  const best = family.displayKey(result.recommended);
  let optimal = 0;
  for (const w of draws) {
    const own = family.toMetric(w);
    const error = family.error(metric, own);
    // A corner some families cannot normalise (a zero block) states no metric.
    if (!Number.isFinite(error)) continue;
    kept.push(Array.from(w));
    radius = Math.max(radius, error);
    const c = family.coordinates(own);
    const parts = family.parts?.distances(own, metric) ?? [];
    names.forEach((_, i) => {
      const d = i < centre.length ? Math.abs(c[i]! - centre[i]!) : parts[i - centre.length]!;
      if (Number.isFinite(d)) widest[i] = Math.max(widest[i]!, d);
    });
    if (family.displayKey(family.optimal(w)) === best) optimal++;
  }
  const out: R = {
    ...result,
    credible: { ...result.credible, level: 1, radius },
    unidentified: names.map((name, i) => ({ name, halfWidth: widest[i]! })),
    pOptimal: kept.length > 0 ? optimal / kept.length : 0,
    posterior: { mean: result.posterior?.mean ?? [], draws: kept },
  };
  delete (out as { firstReading?: unknown }).firstReading;
  return out;
}
