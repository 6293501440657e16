import { describe, expect, it } from "vitest";
import { bayesClassifier, boundaryClassifier } from "../../src/geometry/binary/bayes.ts";
import { labelledPool, softPool } from "../../src/geometry/binary/pool.ts";
import { syntheticPopulation } from "../../src/geometry/binary/synthetic.ts";
import {
  predictThreshold,
  thresholdClassifier,
} from "../../src/geometry/binary/threshold-classifier.ts";
import { createRng } from "../../src/math/rng.ts";
import { evaluateLinear } from "../../src/metrics/binary-linear.ts";

const rng = createRng(7);
const n = 500;
const eta = Float64Array.from({ length: n }, () => rng.next());
const labels = Uint8Array.from(eta, (p) => (rng.next() < p ? 1 : 0));

function bruteSoft(h: ReturnType<typeof thresholdClassifier>) {
  let tp = 0;
  let tn = 0;
  for (const p of eta) {
    if (predictThreshold(h, p)) tp += p;
    else tn += 1 - p;
  }
  return { tp: tp / n, tn: tn / n };
}

describe("binary pools", () => {
  const soft = softPool(eta);
  const lab = labelledPool(eta, labels);
  it("answer threshold queries exactly (soft and labelled, both directions)", () => {
    for (let i = 0; i < 200; i++) {
      const h = thresholdClassifier(i < 20 ? eta[i]! : rng.next(), i % 2 ? "ge" : "le");
      const b = bruteSoft(h);
      const c = soft.confusion(h);
      expect(c.tp).toBeCloseTo(b.tp, 12);
      expect(c.tn).toBeCloseTo(b.tn, 12);
      let tp = 0;
      let tn = 0;
      for (let j = 0; j < n; j++) {
        const y = predictThreshold(h, eta[j]!);
        if (y === 1 && labels[j] === 1) tp++;
        if (y === 0 && labels[j] === 0) tn++;
      }
      const l = lab.confusion(h);
      expect(l.tp).toBeCloseTo(tp / n, 12);
      expect(l.tn).toBeCloseTo(tn / n, 12);
    }
  });
  it("reject probabilities outside [0, 1]", () => {
    expect(() => softPool([0.2, 1.3])).toThrow(/\[0, 1\]/);
  });
});

describe("geometry of the confusion set (Proposition 2)", () => {
  const populations = [syntheticPopulation(5), softPool(eta)];
  it("is 180-degree symmetric about (zeta/2, (1-zeta)/2): theta and theta + pi give reflected points", () => {
    for (const pop of populations) {
      for (let i = 1; i < 50; i++) {
        const theta = (i / 50) * (Math.PI / 2);
        // Avoid thresholds that coincide with a pool value (ties belong to both classifiers).
        const a = pop.confusion(boundaryClassifier(theta));
        const b = pop.confusion(boundaryClassifier(theta + Math.PI));
        const delta = boundaryClassifier(theta).threshold;
        if (eta.includes(delta)) continue;
        expect(a.tp + b.tp).toBeCloseTo(pop.zeta, 12);
        expect(a.tn + b.tn).toBeCloseTo(1 - pop.zeta, 12);
      }
    }
  });
  it("Bayes points support the set: no threshold classifier beats the Bayes classifier (convexity)", () => {
    for (const pop of populations) {
      for (let i = 0; i <= 40; i++) {
        const theta = (i / 40) * 2 * Math.PI;
        const m = { tp: Math.cos(theta), tn: Math.sin(theta) };
        const best = evaluateLinear(m, pop.confusion(bayesClassifier(m)));
        for (let j = 0; j <= 100; j++) {
          for (const dir of ["ge", "le"] as const) {
            const v = evaluateLinear(m, pop.confusion(thresholdClassifier(j / 100, dir)));
            expect(v).toBeLessThanOrEqual(best + 1e-12);
          }
        }
      }
    }
  });
  it("upper boundary points lie on or above every chord between other upper points", () => {
    const pop = syntheticPopulation(5);
    const pts = Array.from({ length: 60 }, (_, i) =>
      pop.confusion(boundaryClassifier(((i + 0.5) / 60) * (Math.PI / 2))),
    );
    // Points move from (zeta, 0) towards (0, 1 - zeta); each turns the same way (bulges outward).
    for (let i = 1; i < pts.length - 1; i++) {
      const [a, b, c] = [pts[i - 1]!, pts[i]!, pts[i + 1]!];
      const cross = (b.tp - a.tp) * (c.tn - a.tn) - (b.tn - a.tn) * (c.tp - a.tp);
      expect(cross).toBeGreaterThanOrEqual(-1e-15);
    }
  });
  it("vertices: all-positive is (zeta, 0), all-negative is (0, 1 - zeta)", () => {
    const pop = syntheticPopulation(5);
    expect(pop.zeta).toBeCloseTo(0.5, 14);
    const all = pop.confusion(thresholdClassifier(0));
    expect(all.tp).toBeCloseTo(0.5, 14);
    expect(all.tn).toBeCloseTo(0, 14);
    const none = pop.confusion(thresholdClassifier(1));
    expect(none.tp).toBeCloseTo(0, 14);
    expect(none.tn).toBeCloseTo(0.5, 14);
  });
  it("the synthetic closed form matches numerical integration", () => {
    const pop = syntheticPopulation(5);
    const etaX = (x: number) => 1 / (1 + Math.exp(5 * x));
    for (const delta of [0.1, 0.37, 0.5, 0.8]) {
      let tp = 0;
      let tn = 0;
      const m = 200000;
      for (let i = 0; i < m; i++) {
        const x = -1 + (2 * (i + 0.5)) / m;
        const p = etaX(x);
        if (p >= delta) tp += p / m;
        else tn += (1 - p) / m;
      }
      const c = pop.confusion(thresholdClassifier(delta));
      expect(c.tp).toBeCloseTo(tp, 5);
      expect(c.tn).toBeCloseTo(tn, 5);
    }
  });
});
