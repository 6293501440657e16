import { describe, expect, it } from "vitest";
import { binomialUpperTail, normalQuantile, wilsonInterval } from "../../src/math/binomial.ts";
import { consistencyOf } from "../../src/server/participant/consistency.ts";

describe("binomial kernels", () => {
  it("the upper tail sums the exact probabilities", () => {
    // 12 or more heads in 15 tosses: (455 + 105 + 15 + 1) / 2^15.
    expect(binomialUpperTail(12, 15, 0.5)).toBeCloseTo(576 / 32768, 14);
    expect(binomialUpperTail(0, 5, 0.3)).toBe(1);
    expect(binomialUpperTail(6, 5, 0.3)).toBe(0);
    expect(binomialUpperTail(3, 3, 0.2)).toBeCloseTo(0.008, 14);
    // docs/web-api.md: with 15 random pairs and 2 repeats, 13 of 17 clears 0.05 and 12 does not.
    expect(binomialUpperTail(13, 17, 0.5)).toBeLessThan(0.05);
    expect(binomialUpperTail(12, 17, 0.5)).toBeGreaterThan(0.05);
    expect(() => binomialUpperTail(1, 2.5, 0.5)).toThrow(RangeError);
  });

  it("the Wilson interval holds the share, stays in [0, 1] and is exact at the ends", () => {
    const w = wilsonInterval(1, 15)!;
    expect(w.low).toBeCloseTo(0.015, 3);
    expect(w.high).toBeCloseTo(0.2508, 3);
    expect(wilsonInterval(0, 15)).toMatchObject({ low: 0 });
    expect(wilsonInterval(15, 15)).toMatchObject({ high: 1 });
    expect(wilsonInterval(0, 0)).toBeNull();
    // Wider at a higher level.
    const w95 = wilsonInterval(1, 15, 0.95)!;
    expect(w95.low).toBeLessThan(w.low);
    expect(w95.high).toBeGreaterThan(w.high);
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536, 6);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293, 6);
  });
});

describe("consistencyOf", () => {
  const report = (all: number | null, pairs: number, ties = 0, metricTies = 0) => ({
    all,
    pairs,
    ties,
    metricTies,
  });
  it("counts answers against the result and the repeats, and flags what a coin could give", () => {
    const careful = consistencyOf(report(14 / 15, 15), [
      { original: "first", repeat: "first" },
      { original: "second", repeat: "second" },
    ]);
    expect(careful).toMatchObject({ counted: 15, against: 1, retestPairs: 2, retestSame: 2 });
    expect(careful.errorRate).toBeCloseTo(1 / 15, 12);
    expect(careful.coinP).toBeCloseTo(binomialUpperTail(16, 17, 0.5), 12);
    expect(careful.coinLike).toBe(false);
    // 8 of 15 and one of two repeats: a coin does as well half the time.
    const coin = consistencyOf(report(8 / 15, 15), [
      { original: "first", repeat: "second" },
      { original: "second", repeat: "second" },
    ]);
    expect(coin.coinLike).toBe(true);
    expect(coin.coinP).toBeCloseTo(binomialUpperTail(9, 17, 0.5), 12);
    // Ties and metric ties are not counted; a repeat with "about the same" is no trial.
    const ties = consistencyOf(report(1, 15, 3, 2), [{ original: "tie", repeat: "tie" }]);
    expect(ties).toMatchObject({ counted: 10, against: 0, retestPairs: 1, retestSame: 1 });
    expect(ties.coinP).toBeCloseTo(2 ** -10, 12);
    // Nothing counted: nothing claimed.
    expect(consistencyOf(null, [])).toMatchObject({
      errorRate: null,
      coinP: null,
      coinLike: false,
    });
  });
});
