import { describe, expect, it } from "vitest";
import { EXACT_MODEL, HUMAN_MODEL } from "../../../src/elicit/adaptive/answer-model.ts";
import { ParticleBelief } from "../../../src/elicit/adaptive/belief.ts";
import { createRng } from "../../../src/math/rng.ts";

function belief(model = HUMAN_MODEL) {
  return new ParticleBelief({ dim: 2, signs: [1, 1], model, particles: 400, rng: createRng(3) });
}

describe("ParticleBelief reference points (differences relative to each metric's range)", () => {
  it("measures a direction's range over the reference points, 1 without them", () => {
    const b = belief();
    const w = Float64Array.of(Math.SQRT1_2, Math.SQRT1_2);
    expect(b.rangeOf(w)).toBe(1);
    // Points (1, 0), (0, 0), (0, 3): the range of w is max(w0, 3 w1) - min(0, ...).
    b.useReference(Float64Array.of(1, 0, 0, 0, 0, 3));
    expect(b.rangeOf(w)).toBeCloseTo(3 * Math.SQRT1_2, 12);
    expect(b.rangeOf(Float64Array.of(1, 0))).toBeCloseTo(1, 12);
  });

  it("refuses a reference after an answer, or one with fewer than two points", () => {
    const b = belief();
    expect(() => b.useReference(Float64Array.of(1, 0))).toThrow(/two points/);
    b.observe(Float64Array.of(0.1, -0.1), "first");
    expect(() => b.useReference(Float64Array.of(1, 0, 0, 1))).toThrow(/before any answer/);
  });

  it("a metric whose values spread widely is not believed more sure to answer right", () => {
    // Answers favouring w = (0, 1) over w = (1, 0). The reference gives (0, 1) three times
    // the range of (1, 0): relative to its range the same difference is smaller for (0, 1),
    // so the answers are weaker evidence for it and the belief leans less towards it than
    // without the reference (where both have unit range).
    const lean = (withReference: boolean): number => {
      const b = belief();
      if (withReference) b.useReference(Float64Array.of(1, 0, 0, 0, 0, 3));
      for (let i = 0; i < 6; i++) b.observe(Float64Array.of(-0.05, 0.05), "first");
      let s = 0;
      for (let p = 0; p < b.size; p++) {
        const w = b.direction(p);
        s += b.weight[p]! * Math.atan2(w[1]!, w[0]!);
      }
      return s;
    };
    expect(lean(true)).toBeLessThan(lean(false));
  });

  it("keeps the exact model's hard constraints whatever the reference", () => {
    const b = belief(EXACT_MODEL);
    b.useReference(Float64Array.of(1, 0, 0, 0, 0, 3));
    b.observe(Float64Array.of(0.1, -0.1), "first");
    for (let p = 0; p < b.size; p++) {
      const w = b.direction(p);
      expect(w[0]!).toBeGreaterThanOrEqual(w[1]!);
    }
  });
});
