// The coin test of a binary participant, judged against every metric their Phase II answers
// allow rather than against one point of them. A consistent person whose result is a poor
// point of a wide range (the papers' searches, which compute on unrounded rates while the
// person reads the counts shown) answered up to 7 of 15 Phase III pairs "against" that point
// and was told their answers could have come from a coin: 12 of 20 such people in a scratch
// study, none against the range. Pure.

import { createRng } from "../../math/rng.ts";

/** One counted Phase III answer: the pair's differences (first minus second) as shown. */
export interface FitAnswer {
  readonly dTp: number;
  readonly dTn: number;
  readonly answer: "first" | "second";
}

/**
 * How well one metric of a range explains some answers, and how well it would explain a
 * coin's: `explained` is the most answers that a single `(1 - a) TP + a TN`, `a` in the range,
 * prefers as answered; `coin[k]` the chance that a coin's answers to the same pairs reach
 * exactly `k` (estimated from `COIN_FIT_DRAWS` seeded draws, so the same pairs give the same
 * figures).
 */
export interface RangeFit {
  readonly explained: number;
  readonly coin: readonly number[];
}

/** Coin answer sets drawn to estimate `RangeFit.coin` (its tail at 0.05 to about +-0.005). */
export const COIN_FIT_DRAWS = 4000;

/**
 * The best fit of `answers` by one metric with `a` in `[lo, hi]`, and the coin's distribution
 * of the same figure (see `RangeFit`). A metric indifferent on a pair explains neither answer.
 * @example rangeFit([{ dTp: 1, dTn: -2, answer: "first" }, { dTp: -1, dTn: 1, answer: "first" }], { lo: 0, hi: 1 }).explained // 1
 */
export function rangeFit(
  answers: readonly FitAnswer[],
  range: { lo: number; hi: number },
): RangeFit {
  // Every debrief, dashboard row and export line of a participant asks for the same fit.
  const key = `${range.lo}:${range.hi}:${answers.map((x) => `${x.answer},${x.dTp},${x.dTn}`).join(";")}`;
  let fit = fits.get(key);
  if (!fit) {
    fit = computeFit(answers, range);
    if (fits.size > 10_000) fits.clear();
    fits.set(key, fit);
  }
  return fit;
}

const fits = new Map<string, RangeFit>();

function computeFit(answers: readonly FitAnswer[], range: { lo: number; hi: number }): RangeFit {
  const n = answers.length;
  const lo = Math.min(range.lo, range.hi);
  const hi = Math.max(range.lo, range.hi);
  // The preference of every answer is constant between the pairs' flip points, so the ends of
  // the range and one point inside each stretch between flips are every metric there is.
  const flips = answers
    .map(({ dTp, dTn }) => (dTp === dTn ? Number.NaN : dTp / (dTp - dTn)))
    .filter((f) => f > lo && f < hi)
    .sort((x, y) => x - y);
  const cuts = [lo, ...flips, hi];
  const probes = new Set<number>([lo, hi]);
  for (let i = 0; i + 1 < cuts.length; i++) probes.add((cuts[i]! + cuts[i + 1]!) / 2);
  // prefers[p][i]: the answer to pair i the probe's metric explains: 1 the first system, 2
  // the second, 0 none (indifferent).
  const prefers = [...probes].map((a) =>
    answers.map(({ dTp, dTn }) => {
      const v = (1 - a) * dTp + a * dTn;
      return Math.abs(v) < 1e-12 ? 0 : v > 0 ? 1 : 2;
    }),
  );
  const best = (answered: readonly number[]) => {
    let most = 0;
    for (const p of prefers) {
      let k = 0;
      for (let i = 0; i < n; i++) if (p[i] === answered[i]) k++;
      if (k > most) most = k;
    }
    return most;
  };
  const explained = best(answers.map((x) => (x.answer === "first" ? 1 : 2)));
  const rng = createRng(
    `range-fit:${lo}:${hi}:${answers.map((x) => `${x.dTp},${x.dTn}`).join(";")}`,
  );
  const counts = new Array<number>(n + 1).fill(0);
  const coin = new Array<number>(n).fill(0);
  for (let d = 0; d < COIN_FIT_DRAWS; d++) {
    for (let i = 0; i < n; i++) coin[i] = rng.next() < 0.5 ? 1 : 2;
    counts[best(coin)]!++;
  }
  return { explained, coin: counts.map((c) => c / COIN_FIT_DRAWS) };
}

/**
 * P(fit + same >= explained + retestSame) for a coin: its fit to the pairs (`fit.coin`) plus
 * the repeats it answers the same (Binomial(`retests`, 1/2)), at least the participant's.
 * Also the least p any record could reach (`least`: a perfect one), which says whether the
 * test can tell anyone from a coin at a level.
 * @example coinFitP({ explained: 3, coin: [0, 0, 0.5, 0.5] }, 0, 0).p // 0.5
 */
export function coinFitP(
  fit: RangeFit,
  retests: number,
  retestSame: number,
): { p: number; least: number } {
  // The coin's total: its fit convolved with the repeats' binomial.
  const total = new Array<number>(fit.coin.length + retests).fill(0);
  let choose = 1;
  for (let j = 0; j <= retests; j++) {
    const w = choose / 2 ** retests;
    fit.coin.forEach((q, k) => {
      total[k + j]! += q * w;
    });
    choose = (choose * (retests - j)) / (j + 1);
  }
  const tail = (from: number) =>
    Math.min(
      1,
      total.slice(from).reduce((s, q) => s + q, 0),
    );
  // A perfect record: every answer explained, every repeat the same. Its estimated chance
  // can be 0 in the draws; a coin always has at least 2^-n of it.
  const perfect = fit.coin.length - 1 + retests;
  const floor = 0.5 ** perfect;
  return {
    p: Math.max(tail(fit.explained + retestSame), floor),
    least: Math.max(tail(perfect), floor),
  };
}
