import { describe, expect, it } from "vitest";
import {
  answerLogLikelihood,
  EXACT_MODEL,
  HUMAN_MODEL,
  TIE_BANDS,
} from "../../../src/elicit/adaptive/answer-model.ts";

describe("answer models: what a 'tie' says (issue 26)", () => {
  it("the human model keeps a tie 5-10% of the range apart plausible; the exact model does not", () => {
    // A tie-band person says "about the same" for differences under 5-10% of the range.
    for (const d of [0.05, 0.07, 0.1]) {
      expect(answerLogLikelihood(HUMAN_MODEL, "tie", d)).toBeGreaterThan(Math.log(0.3));
      expect(answerLogLikelihood(EXACT_MODEL, "tie", d)).toBeLessThan(-12);
    }
    // ... but a tie on a pair the whole range apart stays nearly ruled out.
    expect(answerLogLikelihood(HUMAN_MODEL, "tie", 1)).toBeLessThan(Math.log(0.002));
  });

  it("is the equal mixture of the bands, largest at no difference, symmetric, falling", () => {
    const w = HUMAN_MODEL.tieWidth;
    const direct = (d: number) =>
      Math.log(
        TIE_BANDS.reduce((s, m) => s + Math.exp(-0.5 * (d / (w * m)) ** 2), 0) / TIE_BANDS.length,
      );
    let previous = Infinity;
    for (const d of [0, 0.005, 0.02, 0.05, 0.2, 0.5, 1]) {
      const ll = answerLogLikelihood(HUMAN_MODEL, "tie", d);
      expect(ll).toBeCloseTo(direct(d), 12);
      expect(answerLogLikelihood(HUMAN_MODEL, "tie", -d)).toBe(ll);
      expect(ll).toBeLessThan(previous + (d === 0 ? Infinity : 0));
      previous = ll;
    }
    expect(answerLogLikelihood(HUMAN_MODEL, "tie", 0)).toBe(0);
  });
});
