import { describe, expect, it } from "vitest";
import {
  addTieBands,
  HUMAN_MODEL,
  type LapsePrior,
  LEARNED_LAPSES,
  LEARNED_MODEL,
  TIE_BANDS,
  TIE_SLIP,
  tieMarginal,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { ParticleBelief } from "../../../src/elicit/adaptive/belief.ts";
import { createRng } from "../../../src/math/rng.ts";

// Issue 26 item 2: the engine learns how sharply this person tells near pairs apart, and how
// wide their "about the same" is, as their own (the same for all their answers).

const human = HUMAN_MODEL as Extract<typeof HUMAN_MODEL, { kind: "human" }>;

/** The ties' log-likelihood when the band is drawn afresh for every answer (the old model). */
function perAnswer(ds: readonly number[]): number {
  return ds.reduce((s, d) => {
    let p = 0;
    for (const b of TIE_BANDS) {
      const z = d / (human.tieWidth * b);
      p += (1 - TIE_SLIP) * Math.exp(-0.5 * z * z) + TIE_SLIP;
    }
    return s + Math.log(p / TIE_BANDS.length);
  }, 0);
}

function perPerson(ds: readonly number[]): number {
  const sums = new Float64Array(TIE_BANDS.length);
  for (const d of ds) addTieBands(human, d, sums);
  return tieMarginal(sums);
}

describe("a person's own band of 'about the same' (issue 26)", () => {
  it("one tie: the band mixture; many: one band for all, so a wide band is not charged per tie", () => {
    expect(perPerson([0.05])).toBeCloseTo(perAnswer([0.05]), 12);
    // Six ties at 8% of the range (a person whose band is 10%): against six at 0, the old
    // mixture charged e^-5 or so; one band for the person, far less.
    const near = Array(6).fill(0.08);
    const zero = Array(6).fill(0);
    const oldCost = perAnswer(zero) - perAnswer(near);
    const newCost = perPerson(zero) - perPerson(near);
    expect(oldCost).toBeGreaterThan(4);
    expect(newCost).toBeLessThan(Math.log(TIE_BANDS.length) + 0.5);
    expect(newCost).toBeGreaterThan(0);
  });

  it("a tie far outside every band is unlikely, never impossible (no empty belief)", () => {
    expect(Number.isFinite(perPerson([50]))).toBe(true);
    expect(perPerson([50])).toBeCloseTo(Math.log(TIE_SLIP), 6);
    // A learned grid belief that meets such a tie keeps finite weights (it lost every level
    // of a grid point to -Infinity, then NaN: "a linear metric needs a non-zero weight").
    const b = new ParticleBelief({
      dim: 2,
      signs: [1, 1],
      model: LEARNED_MODEL,
      particles: 0,
      grid: 4096,
      rng: createRng(1),
    });
    b.observe(Float64Array.of(-0.98, 4.88), "tie");
    b.observe(Float64Array.of(0.39, -6.66), "tie");
    const total = b.weight.reduce((a, w) => a + w, 0);
    expect(total).toBeCloseTo(1, 9);
    expect(b.weight.every((w) => Number.isFinite(w) && w >= 0)).toBe(true);
  });

  for (const shape of [
    { name: "grid", dim: 2, grid: 4096 },
    { name: "particles", dim: 3 },
  ]) {
    it(`${shape.name}: the same ties weigh the same whether the belief sums them at once or one by one`, () => {
      // The particles' weights after ties are their per-person marginal (no moves between:
      // a grid never moves; for particles, compare the weights' ratios on the first answer).
      const b = new ParticleBelief({
        dim: shape.dim,
        signs: Array.from({ length: shape.dim }, () => 1),
        model: HUMAN_MODEL,
        particles: 200,
        rng: createRng(7),
        ...(shape.grid ? { grid: shape.grid } : {}),
      });
      const before = b.weight.slice();
      const delta = Float64Array.from({ length: shape.dim }, (_, i) => (i === 0 ? 0.02 : -0.01));
      b.observe(delta, "tie");
      expect(b.weight.reduce((a, w) => a + w, 0)).toBeCloseTo(1, 9);
      if (shape.grid) {
        // Two grid points: the ratio of their weights is the ratio of their tie likelihoods.
        const p = 10;
        const q = 3000;
        const ll = (i: number) => {
          const u = b.direction(i);
          let x = 0;
          for (let k = 0; k < shape.dim; k++) x += u[k]! * delta[k]!;
          return perPerson([x]);
        };
        expect(Math.log(b.weight[p]! / b.weight[q]!)).toBeCloseTo(
          Math.log(before[p]! / before[q]!) + ll(p) - ll(q),
          6,
        );
      }
    });
  }
});

describe("how sharply a person tells near pairs apart (issue 26)", () => {
  // A prior with a sharp level (the studies' `LEARNED_LAPSES` has none; see its comment).
  const SHARP: LapsePrior = {
    levels: [0.02, 0.02, 0.1, 0.3, 1],
    prior: [0.25, 0.1, 0.3, 0.25, 0.1],
    sharpness: [20, 1, 1, 1, 1],
  };
  const sharpModel = { ...LEARNED_MODEL, lapses: SHARP } as typeof LEARNED_MODEL;

  /** A grid belief fed answers on near pairs (differences within 2% of the range). */
  function nearPairs(answerer: "careful" | "noisy", seed: number) {
    const b = new ParticleBelief({
      dim: 2,
      signs: [1, 1],
      model: sharpModel,
      particles: 0,
      grid: 4096,
      rng: createRng(seed),
    });
    const truth = [Math.cos(0.7), Math.sin(0.7)];
    const rng = createRng(`${seed}:near`);
    for (let j = 0; j < 25; j++) {
      // A chord whose normal is near the truth's: a near pair for it.
      const a = 0.7 + Math.PI / 2 + (rng.next() - 0.5) * 0.2;
      const delta = Float64Array.of(0.1 * Math.cos(a), 0.1 * Math.sin(a));
      const value = truth[0]! * delta[0]! + truth[1]! * delta[1]!;
      const right = value > 0;
      const first = answerer === "careful" ? right : rng.next() < 0.7 ? right : !right;
      b.observe(delta, first ? "first" : "second");
    }
    return b;
  }

  it("the sharp level gains on its prior for a careful person and loses for a noisy one", () => {
    const sharp = 0;
    const prior = SHARP.prior[sharp]!;
    for (const seed of [1, 2, 3]) {
      const careful = nearPairs("careful", seed).lapsePosterior()!;
      const noisy = nearPairs("noisy", seed).lapsePosterior()!;
      expect(careful[sharp]!).toBeGreaterThan(prior);
      expect(noisy[sharp]!).toBeLessThan(prior);
    }
  });

  it("refuses a sharpness list of another length or not positive", () => {
    const make = (sharpness: number[]) =>
      new ParticleBelief({
        dim: 2,
        signs: [1, 1],
        model: {
          ...LEARNED_MODEL,
          lapses: { ...LEARNED_LAPSES, sharpness },
        } as typeof LEARNED_MODEL,
        particles: 10,
        rng: createRng(1),
      });
    expect(() => make([1])).toThrow(/sharpness/);
    expect(() => make(LEARNED_LAPSES.levels.map(() => 0))).toThrow(/sharpness/);
  });
});
