import { describe, expect, it } from "vitest";
import { binomialUpperTail } from "../../src/math/binomial.ts";
import { createRng } from "../../src/math/rng.ts";
import { consistencyOf } from "../../src/server/participant/consistency.ts";
import { coinFitP, type FitAnswer, rangeFit } from "../../src/server/participant/range-fit.ts";

/** A pair whose first system is preferred for `a` below `flip` (TN weight `a`). */
const pair = (flip: number, answer: "first" | "second"): FitAnswer => ({
  dTp: 1,
  dTn: 1 - 1 / flip,
  answer,
});

describe("rangeFit: the coin test against every metric of the range", () => {
  it("counts the most answers one metric of the range explains", () => {
    // First below 0.5, and second above 0.25: both hold on (0.25, 0.5).
    const answers = [pair(0.5, "first"), pair(0.25, "second")];
    expect(rangeFit(answers, { lo: 0, hi: 1 }).explained).toBe(2);
    // Only a in [0.6, 1]: the first answer is against every metric there.
    expect(rangeFit(answers, { lo: 0.6, hi: 1 }).explained).toBe(1);
    // A point range, given either way round.
    expect(rangeFit(answers, { lo: 0.3, hi: 0.3 }).explained).toBe(2);
    expect(rangeFit(answers, { lo: 0.55, hi: 0.2 }).explained).toBe(2);
  });

  it("draws the coin's fit with a fixed seed: a distribution, the same every time", () => {
    const rng = createRng(11);
    const answers = Array.from({ length: 15 }, () =>
      pair(0.05 + 0.9 * rng.next(), rng.next() < 0.5 ? "first" : "second"),
    );
    const a = rangeFit(answers, { lo: 0.2, hi: 0.7 });
    expect(a).toEqual(rangeFit(answers, { lo: 0.2, hi: 0.7 }));
    expect(a.coin).toHaveLength(16);
    expect(a.coin.reduce((s, q) => s + q, 0)).toBeCloseTo(1, 12);
    // Fitting over a range, a coin does better than against one point: its mean fit is above
    // half the answers.
    const mean = a.coin.reduce((s, q, k) => s + q * k, 0);
    expect(mean).toBeGreaterThan(8);
  });

  it("a range that decides every pair is one metric: the coin's fit is the binomial", () => {
    // Every flip outside [0.4, 0.6]: one pattern of preferences, so Binomial(15, 1/2).
    const answers = Array.from({ length: 15 }, (_, i) =>
      pair(i % 2 === 0 ? 0.1 + 0.02 * i : 0.65 + 0.02 * i, "first"),
    );
    const fit = rangeFit(answers, { lo: 0.4, hi: 0.6 });
    for (const k of [8, 10, 12, 13]) {
      const tail = fit.coin.slice(k).reduce((s, q) => s + q, 0);
      expect(Math.abs(tail - binomialUpperTail(k, 15, 0.5))).toBeLessThan(0.02);
    }
  });

  it("coinFitP adds the repeats answered the same, and knows the least p a record can reach", () => {
    // Fit 2 of 2 with chance 1/2, 1 of 2 with 1/2; one repeat answered the same.
    const fit = { explained: 2, coin: [0, 0.5, 0.5] };
    // The coin's total: 1 (1/4), 2 (1/2), 3 (1/4); the record's 3.
    expect(coinFitP(fit, 1, 1).p).toBeCloseTo(0.25, 12);
    expect(coinFitP(fit, 1, 0).p).toBeCloseTo(0.75, 12);
    expect(coinFitP(fit, 1, 1).least).toBeCloseTo(0.25, 12);
    // A draw that never saw a perfect fit still leaves a coin its 2^-n.
    expect(coinFitP({ explained: 3, coin: [0.5, 0.5, 0, 0] }, 0, 0).p).toBe(0.125);
  });

  it("consistencyOf takes the fit's p for binary reports, the binomial's without one", () => {
    const report = { all: 10 / 15, pairs: 15, ties: 0, metricTies: 0 };
    const kept = [{ original: "first", repeat: "first" }];
    // 10 of 15 against one point, and a coin: flagged.
    expect(consistencyOf(report, kept).coinLike).toBe(true);
    // The same answers all explained by a metric of the range, which a coin's rarely are.
    const coin = Array.from({ length: 16 }, (_, k) => (k === 15 ? 0.001 : k === 10 ? 0.999 : 0));
    const c = consistencyOf({ ...report, fit: { explained: 15, coin } }, kept);
    expect(c.coinP).toBeCloseTo(0.0005, 12);
    // Its answers are counted against that metric, not the point: none against, where the
    // point had 5; without a fit, against the result.
    expect(c).toMatchObject({
      coinLike: false,
      nearCoin: false,
      versus: "range",
      against: 0,
      errorRate: 0,
      counted: 15,
    });
    expect(consistencyOf(report, kept)).toMatchObject({ versus: "result", against: 5 });
    // The result is always allowed: a fit worse than the point (a range that leaves the point
    // out, as a rounded one may) counts against the point.
    expect(consistencyOf({ ...report, fit: { explained: 8, coin } }, kept).against).toBe(5);
    expect(consistencyOf({ ...report, fit: { explained: 12, coin } }, kept).against).toBe(3);
  });
});
