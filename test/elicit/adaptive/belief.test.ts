import { describe, expect, it } from "vitest";
import { EXACT_MODEL, HUMAN_MODEL } from "../../../src/elicit/adaptive/answer-model.ts";
import { gammaDraw, ParticleBelief } from "../../../src/elicit/adaptive/belief.ts";
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

describe("ParticleBelief sparse prior component", () => {
  /** Squared directions of the belief's particles (equal weights after resampling). */
  const squares = (b: ParticleBelief) =>
    Array.from({ length: b.size }, (_, p) => [...b.direction(p)].map((x) => x * x));
  /** Mean of w_0^2 and share with w_2^2 < 0.01. */
  const stats = (xs: number[][]) => [
    xs.reduce((s, x) => s + x[0]!, 0) / xs.length,
    xs.filter((x) => x[2]! < 0.01).length / xs.length,
  ];

  it("draws the sparse prior and keeps its posterior under exact answers", () => {
    const alpha = 0.25;
    const b = new ParticleBelief({
      dim: 3,
      signs: [1, 1, 1],
      model: EXACT_MODEL,
      particles: 2000,
      rng: createRng(5),
      sparse: { share: 1, alpha },
    });
    // Prior: Dirichlet(alpha, alpha, alpha) on the squares, mean 1/3 and mostly near corners.
    expect(stats(squares(b))[0]).toBeCloseTo(1 / 3, 1);
    const corners = squares(b).filter((x) => Math.max(...x) > 0.9).length;
    // Uniform directions put about 9% of the mass there; Dirichlet(0.25) about a third.
    expect(corners / b.size).toBeGreaterThan(0.25);
    // After w_0 > w_1 > w_2 the moves must keep the sparse prior restricted to that cone:
    // compare with rejection sampling from the prior itself.
    b.observe(Float64Array.of(1, -1, 0), "first");
    b.observe(Float64Array.of(0, 1, -1), "first");
    const rng = createRng("reference");
    const kept: number[][] = [];
    for (let n = 0; n < 200_000; n++) {
      const g = [0, 1, 2].map(() => gammaDraw(alpha, rng));
      const total = g[0]! + g[1]! + g[2]!;
      if (g[0]! > g[1]! && g[1]! > g[2]!) kept.push(g.map((x) => x / total));
    }
    const [mean, small] = stats(squares(b));
    const [refMean, refSmall] = stats(kept);
    expect(Math.abs(mean! - refMean!)).toBeLessThan(0.01);
    // A slice sampler whose level drifts (a stale prior term) over-fills the edge w_2 = 0
    // by 0.03-0.06 here.
    expect(Math.abs(small! - refSmall!)).toBeLessThan(0.02);
    for (let p = 0; p < b.size; p++) expect(b.componentOf(p)).toBe(1);
  });

  it("keeps each component's particles through resampling", () => {
    const b = new ParticleBelief({
      dim: 3,
      signs: [1, 1, 1],
      model: EXACT_MODEL,
      particles: 600,
      rng: createRng(6),
      sparse: { share: 0.5, alpha: 0.25 },
    });
    for (let i = 0; i < 5; i++) b.observe(Float64Array.of(1, -1, 0.2 * i), "first");
    let sparse = 0;
    for (let p = 0; p < b.size; p++) sparse += b.componentOf(p);
    expect(sparse).toBe(300);
  });
});

describe("ParticleBelief on a grid (one free parameter)", () => {
  const grid = (share = 0) =>
    new ParticleBelief({
      dim: 2,
      signs: [1, 1],
      model: EXACT_MODEL,
      particles: 10,
      rng: createRng(1),
      grid: 1024,
      sparse: { share, alpha: 0.25 },
    });

  it("lays one cell per angle, equal weights, and ignores the particle count", () => {
    const b = grid();
    expect(b.gridded).toBe(true);
    expect(b.size).toBe(1024);
    const first = b.direction(0);
    expect(Math.atan2(first[1]!, first[0]!)).toBeCloseTo((0.5 * Math.PI) / 2 / 1024, 12);
    expect(Math.max(...b.weight)).toBeCloseTo(Math.min(...b.weight), 15);
  });

  it("an exact answer keeps exactly the cells on its side, with their weights", () => {
    const b = grid();
    // "first" preferred: w0 - w1 > 0, i.e. angles below pi / 4: the first 512 cells.
    b.observe(Float64Array.of(0.1, -0.1), "first");
    let kept = 0;
    for (let p = 0; p < b.size; p++) {
      if (p < 512) expect(b.weight[p]).toBeCloseTo(1 / 512, 12);
      else expect(b.weight[p]).toBe(0);
      if (b.weight[p]! > 0) kept++;
    }
    expect(kept).toBe(512);
  });

  it("a mixture keeps both components on the same angles, the sparse one heavier at the ends", () => {
    const b = grid(0.5);
    expect(b.size).toBe(2048);
    let sparse = 0;
    for (let p = 1024; p < 2048; p++) sparse += b.weight[p]!;
    expect(sparse).toBeCloseTo(0.5, 12);
    expect(b.componentOf(1024)).toBe(1);
    expect(b.direction(1024)).toEqual(b.direction(0));
    // Dirichlet(0.25) on the squared weights: more mass at the ends than in the middle.
    expect(b.weight[1024]!).toBeGreaterThan(b.weight[1024 + 512]!);
  });

  it("is not used where a sign is free or the dimension is not 2", () => {
    const b = new ParticleBelief({
      dim: 2,
      signs: [1, 0],
      model: EXACT_MODEL,
      particles: 10,
      rng: createRng(1),
      grid: 1024,
    });
    expect(b.gridded).toBe(false);
    expect(b.size).toBe(10);
  });
});
