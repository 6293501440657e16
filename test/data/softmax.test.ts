import { describe, expect, it } from "vitest";
import { DataError } from "../../src/data/errors.ts";
import { fitLogistic } from "../../src/data/logistic.ts";
import { fitSoftmax, type SoftmaxModel } from "../../src/data/softmax.ts";
import { createRng } from "../../src/math/rng.ts";

const CENTERS = [
  [0, 0],
  [4, 0],
  [2, 3.5],
];

/** Gaussian blobs (unit variance) around CENTERS, `perClass` points each. */
function blobs(perClass: number, seed: number): { X: Float64Array[]; y: Int32Array } {
  const rng = createRng(seed);
  const X: Float64Array[] = [];
  const y: number[] = [];
  CENTERS.forEach(([cx, cy], c) => {
    for (let i = 0; i < perClass; i++) {
      X.push(Float64Array.of(cx! + rng.normal(), cy! + rng.normal()));
      y.push(c);
    }
  });
  return { X, y: Int32Array.from(y) };
}

/** Euclidean norm of the objective's gradient at (W, b), computed independently. */
function gradientNorm(
  model: Pick<SoftmaxModel, "W" | "b" | "predictProba">,
  X: Float64Array[],
  y: ArrayLike<number>,
  k: number,
  l2: number,
): number {
  const d = X[0]!.length;
  const g = new Float64Array(k * d + k);
  model.predictProba(X).forEach((p, i) => {
    for (let c = 0; c < k; c++) {
      const r = p[c]! - (y[i] === c ? 1 : 0);
      for (let j = 0; j < d; j++) g[c * d + j] = g[c * d + j]! + r * X[i]![j]!;
      g[k * d + c] = g[k * d + c]! + r;
    }
  });
  for (let j = 0; j < k * d; j++) g[j] = g[j]! + l2 * model.W[j]!;
  return Math.hypot(...g);
}

function argmax(p: Float64Array): number {
  let best = 0;
  for (let c = 1; c < p.length; c++) if (p[c]! > p[best]!) best = c;
  return best;
}

describe("fitSoftmax", () => {
  it("separates three Gaussian blobs and stops at a true optimum", () => {
    const train = blobs(100, 1);
    const test = blobs(100, 2);
    const model = fitSoftmax(train.X, train.y, 3);
    expect(model.converged).toBe(true);
    expect(model.W.length).toBe(6);
    expect(model.b.length).toBe(3);

    const probabilities = model.predictProba(test.X);
    let correct = 0;
    probabilities.forEach((p, i) => {
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      if (argmax(p) === test.y[i]) correct++;
    });
    expect(correct / test.y.length).toBeGreaterThan(0.9);

    const zero = {
      W: new Float64Array(6),
      b: new Float64Array(3),
      predictProba: (rows: readonly Float64Array[]) =>
        rows.map(() => Float64Array.of(1 / 3, 1 / 3, 1 / 3)),
    };
    const atStart = gradientNorm(zero, train.X, train.y, 3, 1);
    expect(gradientNorm(model, train.X, train.y, 3, 1) / atStart).toBeLessThan(1e-6);
    // The penalty makes the optimal weight rows sum to zero; the intercepts are centred.
    for (let j = 0; j < 2; j++) {
      expect(model.W[j]! + model.W[2 + j]! + model.W[4 + j]!).toBeCloseTo(0, 5);
    }
    expect(model.b[0]! + model.b[1]! + model.b[2]!).toBeCloseTo(0, 12);
  });

  it("with k = 2 equals binary logistic regression with half the penalty", () => {
    // Softmax with λ on both rows of W: the cheapest way to express w = W₁ − W₀ is
    // W₁ = −W₀ = w/2, costing (λ/2)·‖w‖²/2, i.e. a binary penalty of λ/2.
    const rng = createRng(5);
    const X = Array.from({ length: 80 }, () => Float64Array.of(rng.normal(), rng.normal()));
    const y = X.map((x) => (x[0]! + 0.5 * x[1]! + rng.normal() > 0 ? 1 : 0));
    const l2 = 3;
    const softmax = fitSoftmax(X, y, 2, { l2, tol: 1e-10 });
    const logistic = fitLogistic(X, y, { l2: l2 / 2 });
    expect(softmax.converged).toBe(true);
    for (let j = 0; j < 2; j++) {
      expect(softmax.W[2 + j]! - softmax.W[j]!).toBeCloseTo(logistic.weights[j]!, 8);
      expect(softmax.W[2 + j]! + softmax.W[j]!).toBeCloseTo(0, 8);
    }
    expect(softmax.b[1]! - softmax.b[0]!).toBeCloseTo(logistic.intercept, 8);
    const p2 = softmax.predictProba(X);
    const p1 = logistic.predictProba(X);
    p1.forEach((p, i) => {
      expect(p2[i]![1]).toBeCloseTo(p, 9);
    });
  });

  it("stays finite on separable data and extreme inputs", () => {
    const X = [-3, -2, 2, 3, 8, 9].map((v) => Float64Array.of(v));
    const model = fitSoftmax(X, [0, 0, 1, 1, 2, 2], 3, { l2: 1e-3 });
    expect(model.converged).toBe(true);
    for (const p of model.predictProba([Float64Array.of(-1e6), Float64Array.of(1e6)])) {
      expect(p.every(Number.isFinite)).toBe(true);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it("rejects an absent class and malformed input", () => {
    const X = [0, 1, 2].map((v) => Float64Array.of(v));
    expect(() => fitSoftmax(X, [0, 1, 1], 3)).toThrow(
      new DataError("class 2 has no training examples"),
    );
    expect(() => fitSoftmax(X, [0, 1, 3], 3)).toThrow(RangeError);
    expect(() => fitSoftmax(X, [0, 1, 0], 1)).toThrow(RangeError);
    expect(() => fitSoftmax(X, [0, 1], 2)).toThrow(RangeError);
  });
});
