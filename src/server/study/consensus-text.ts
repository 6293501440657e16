// A study's consensus in sentences, as the dashboard (web/src/researcher/Consensus.tsx) and
// `elicit report` (src/report/sections/consensus.ts, src/report/kinds/*) state it: one wording
// for both. Only a type import beside figure-text.ts: the web bundle reads this module too.

import type { Consensus } from "../api-schemas.ts";
import { percent } from "./figure-text.ts";

/** The consensus's `best` (present). */
type Best = NonNullable<Consensus["best"]>;

/** A figure's mean, median and spread across the participants (`tpWeight`, `lambda`). */
type Spread = { mean: number; median: number; sd: number; min: number; max: number };

/** The dashboard's sentence when there is no consensus yet. */
export const NOBODY = "Nobody has finished yet (test runs and pilot participants are left out).";

/**
 * Who the consensus is over, as the dashboard says it: how many, and those whose answers a
 * coin could have given, left out or included.
 * @example whoLine({ n: 2, participants: [1, 2], coinLike: [4] }) // "Over 2 participants who finished (test runs and pilot left out). 1 whose answers a coin could have given (#4) left out."
 */
export function whoLine(c: {
  n: number;
  coinLike?: number[] | undefined;
  coinLikeIncluded?: boolean | undefined;
}): string {
  const coin = c.coinLike ?? [];
  const coinNote =
    coin.length === 0
      ? ""
      : ` ${coin.length} whose answers a coin could have given (${coin.map((id) => `#${id}`).join(", ")}) ${c.coinLikeIncluded ? "included" : "left out"}.`;
  return `Over ${c.n} participant${c.n === 1 ? "" : "s"} who finished (test runs and pilot left out).${coinNote}`;
}

/** A figure's mean, median, sd and range in `digits` decimals, after its label. */
function spreadLine(label: string, s: Spread, digits: number): string {
  const f = (x: number) => x.toFixed(digits);
  return `${label}: mean ${f(s.mean)}, median ${f(s.median)}, sd ${f(s.sd)}, from ${f(s.min)} to ${f(s.max)}`;
}

/**
 * A binary consensus's weight on true positives, 3 decimals.
 * @example tpWeightLine({ mean: 0.8, median: 0.8, sd: 0.1, min: 0.7, max: 0.9 }) // "Weight on true positives (against true negatives): mean 0.800, median 0.800, sd 0.100, from 0.700 to 0.900"
 */
export function tpWeightLine(w: Spread): string {
  return spreadLine("Weight on true positives (against true negatives)", w, 3);
}

/**
 * A fairness consensus's trade-off lambda, 2 decimals.
 * @example lambdaLine({ mean: 0.4, median: 0.4, sd: 0.2, min: 0.2, max: 0.6 }) // "lambda: mean 0.40, median 0.40, sd 0.20, from 0.20 to 0.60"
 */
export function lambdaLine(l: Spread): string {
  return spreadLine("lambda", l, 2);
}

/**
 * The consensus of weights per class (or per kind of mistake: a linear study's entries are its
 * mistakes, more than its classes, each a share of the cost) in lines: mean, sd and range,
 * 3 decimals; none without weights.
 * @example weightLines({ n: 2, participants: [1, 2], weights: { classes: ["a"], mean: [0.5], sd: [0.1], min: [0.4], max: [0.6] } }) // ["“a”: mean weight per case 0.500, sd 0.100, from 0.400 to 0.600"]
 */
export function weightLines(c: Consensus): string[] {
  const w = c.weights;
  if (w === undefined) return [];
  const f = (x: number) => x.toFixed(3);
  const linear = w.classes.length > (c.classes ?? w.classes).length;
  return w.classes.map(
    (k, i) =>
      `“${k}”: mean ${linear ? "share" : "weight per case"} ${f(w.mean[i]!)}, sd ${f(w.sd[i]!)}, from ${f(w.min[i]!)} to ${f(w.max[i]!)}`,
  );
}

/**
 * The shares right of the recommended classifier, per class.
 * @example rightText(best, ["a", "b"]) // "“a” 95%, “b” 99% right (97% of all cases)"
 */
export function rightText(b: Best, classes: readonly string[]): string {
  return `${classes.map((k, i) => `“${k}” ${percent(b.rates[i]!)}`).join(", ")} right (${percent(b.accuracy)} of all cases)`;
}

/**
 * How many participants' own best classifier is the recommended one.
 * @example sharedText(best, 3) // "for 2 of the 3 participants, their own metric picks the same"
 */
export function sharedText(b: Best, n: number): string {
  return `for ${b.agree} of the ${n} participant${n === 1 ? "" : "s"}, their own metric picks the same`;
}

/**
 * A binary consensus's recommended classifier: its threshold and shares right (`classes`:
 * the negative, then the positive label) over the `n` participants.
 * @example binaryBestLine(best, ["healthy", "ill"], 3) // "The classifier best for the mean weight says “ill” when its probability is at least 0.20: it gets “healthy” 95%, “ill” 99% right (97% of all cases); for 2 of the 3 participants, their own metric picks the same."
 */
export function binaryBestLine(b: Best, classes: readonly string[], n: number): string {
  return `The classifier best for the mean weight says “${classes[1]}” when its probability is at least ${(b.threshold ?? 0).toFixed(2)}: it gets ${rightText(b, classes)}; ${sharedText(b, n)}.`;
}

/**
 * A fairness consensus's recommended group-wise systems (best for the whole mean metric, or
 * for the mean lambda): shares right and the largest gap between groups per class.
 * @example fairBestLine(best, ["a", "b"], 3, false) // "The systems best for the mean lambda get “a” 95%, “b” 99% right (97% of all cases), with gaps between the groups of 4 / 2 points per class; for 2 of the 3 participants, their own metric picks the same."
 */
export function fairBestLine(
  b: Best,
  classes: readonly string[],
  n: number,
  whole: boolean,
): string {
  const gaps = (b.gaps ?? []).map((g) => `${Math.round(g * 100)}`).join(" / ");
  return `The systems best for ${whole ? "this metric" : "the mean lambda"} get ${rightText(b, classes)}, with gaps between the groups of ${gaps} points per class; ${sharedText(b, n)}.`;
}

/**
 * A multiclass consensus's recommended classifier (best for the mean weights).
 * @example weightsBestLine(best, ["a", "b"], 3) // "The classifier best for these mean weights gets “a” 95%, “b” 99% right (97% of all cases); for 2 of the 3 participants, their own metric picks the same."
 */
export function weightsBestLine(b: Best, classes: readonly string[], n: number): string {
  return `The classifier best for these mean weights gets ${rightText(b, classes)}; ${sharedText(b, n)}.`;
}
