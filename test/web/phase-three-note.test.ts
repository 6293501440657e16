import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { binomialUpperTail } from "../../src/math/binomial.ts";
import { consistencyOf } from "../../src/server/participant/consistency.ts";
import { COIN_LEVEL, slipsToCoin } from "../../src/server/study/figure-text.ts";
import { PhaseThreeNote } from "../../web/src/kinds/binary/create.tsx";

/** A Phase III report of `pairs` counted answers, `against` of them against the result. */
const report = (pairs: number, against: number) => ({
  all: (pairs - against) / pairs,
  pairs,
  ties: 0,
  metricTies: 0,
});

describe("how many slips make a coin (the create form's Phase III note)", () => {
  it("slipsToCoin is where the coin test starts to flag", () => {
    expect(slipsToCoin(17)).toBe(5);
    expect(slipsToCoin(7)).toBe(1);
    expect(slipsToCoin(8)).toBe(2);
    expect(slipsToCoin(4)).toBeNull();
    for (const trials of [5, 7, 8, 11, 17, 30]) {
      const k = slipsToCoin(trials)!;
      // One fewer is told apart from a coin; k is not.
      if (k > 0)
        expect(binomialUpperTail(trials - k + 1, trials, 0.5)).toBeLessThanOrEqual(COIN_LEVEL);
      expect(binomialUpperTail(trials - k, trials, 0.5)).toBeGreaterThan(COIN_LEVEL);
      // And the study's own test agrees (pairs counted, no repeats; the binomial test of the
      // kinds without a range).
      expect(consistencyOf(report(trials, k), []).coinLike).toBe(true);
      if (k > 0) expect(consistencyOf(report(trials, k - 1), []).coinLike).toBe(false);
    }
  });

  it("the form says it, and warns where one slip is enough", () => {
    const text = (pairs: string, repeats: number) =>
      render(h(PhaseThreeNote, { pairs, repeats })).replace(/<[^>]+>/g, "");
    expect(text("", 2)).toContain(
      "With 15 pairs and 2 repeats, a participant whose answers go against their own trade-off on about 5 or more of them",
    );
    expect(text("15", 2)).not.toContain("One slip");
    expect(text("15", 2)).toContain(
      "(fewer can do it when their earlier answers leave a wide range of trade-offs).",
    );
    expect(text("5", 2)).not.toContain("fewer can do it");
    expect(text("5", 2)).toContain("on even one of them");
    expect(text("5", 2)).toContain("One slip is enough: ask more pairs to allow one.");
    expect(text("6", 2)).toContain("on about 2 or more of them");
    expect(text("3", 0)).toBe(
      "With 3 pairs, too few answers count to tell anyone from a coin: no participant is flagged.",
    );
    expect(text("0", 2)).toBe("");
    expect(text("x", 2)).toBe("");
  });
});
