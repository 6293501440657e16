import { describe, expect, it } from "vitest";
import { peopleFairData } from "../../src/cli/commands/reproduce-people.ts";
import { fairDesignBound } from "../../src/experiments/fair-design-bound.ts";

describe("fairDesignBound: the best questions' error of the whole fair metric's gap weights", () => {
  const data = peopleFairData().data;
  const small = { data, trials: 2, points: 60, steps: 60, draws: 200, truthSeed: "unit" };

  it("shrinks as one over the square root of the questions, the same design at each count", () => {
    const r = fairDesignBound({ ...small, questions: [45, 180] });
    for (const t of r.truths) {
      expect(t.rms[0]! / t.rms[1]!).toBeCloseTo(2, 6);
      expect(t.lambda).toBeGreaterThan(0);
    }
    expect(r.rows[0]!.p95).toBeGreaterThan(r.rows[1]!.p95);
    expect(r.rows[0]!.p50).toBeLessThanOrEqual(r.rows[0]!.p95);
    expect(r.rows[0]!.p95).toBeLessThanOrEqual(r.rows[0]!.max);
  });

  it("is proportional to the person's noise: half the sigma, half the error", () => {
    const a = fairDesignBound({ ...small, questions: [45], sigma: 0.05 });
    const b = fairDesignBound({ ...small, questions: [45], sigma: 0.025 });
    a.truths.forEach((t, i) => {
      // The pairs kept (|z| <= 6) and the design's steps differ with sigma, so only nearly.
      expect(b.truths[i]!.rms[0]! / t.rms[0]!).toBeGreaterThan(0.4);
      expect(b.truths[i]!.rms[0]! / t.rms[0]!).toBeLessThan(0.6);
    });
  });

  it("shares and cells are probabilities, and a noisier person leaves more runs beyond 0.2", () => {
    const sharp = fairDesignBound({ ...small, questions: [45], sigma: 0.02 });
    const blunt = fairDesignBound({ ...small, questions: [45], sigma: 0.4 });
    for (const r of [sharp.rows[0]!, blunt.rows[0]!]) {
      expect(r.beyond).toBeGreaterThanOrEqual(0);
      expect(r.beyond).toBeLessThanOrEqual(1);
      expect(r.cellWithin).toBeGreaterThanOrEqual(0);
      expect(r.cellWithin).toBeLessThanOrEqual(1);
    }
    expect(blunt.rows[0]!.beyond).toBeGreaterThan(sharp.rows[0]!.beyond);
    expect(blunt.rows[0]!.cellWithin).toBeLessThanOrEqual(sharp.rows[0]!.cellWithin);
  });
});

describe("fairDesignBound: the panel's other noisy people", () => {
  const data = peopleFairData().data;
  const small = { data, trials: 2, points: 60, steps: 60, draws: 200, truthSeed: "unit" };

  it("a person who slips, ties near pairs or leans on them leaves more error than the probit person", () => {
    const probit = fairDesignBound({ ...small, questions: [45] });
    for (const person of ["lapse", "tie-band", "side-bias"] as const) {
      const r = fairDesignBound({ ...small, questions: [45], person });
      r.truths.forEach((t, i) => {
        expect(t.rms[0], person).toBeGreaterThan(probit.truths[i]!.rms[0]!);
      });
    }
  });

  it("a tiring person's later questions say less: the error shrinks slower than 1 / sqrt(n)", () => {
    const r = fairDesignBound({ ...small, questions: [45, 180], person: "fatigue" });
    const probit = fairDesignBound({ ...small, questions: [45] });
    r.truths.forEach((t, i) => {
      expect(t.rms[0]).toBeGreaterThan(probit.truths[i]!.rms[0]!);
      expect(t.rms[0]! / t.rms[1]!).toBeGreaterThan(1);
      expect(t.rms[0]! / t.rms[1]!).toBeLessThan(1.8);
    });
  });
});
