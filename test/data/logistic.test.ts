import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/data/csv.ts";
import { DataError } from "../../src/data/errors.ts";
import { fitLogistic } from "../../src/data/logistic.ts";
import { sigmoid, softplus } from "../../src/data/sigmoid.ts";
import { stratifiedSplit, take } from "../../src/data/split.ts";
import { fitStandardizer } from "../../src/data/standardize.ts";
import { buildBinaryDataset } from "../../src/data/table.ts";
import { createRng } from "../../src/math/rng.ts";

/** Gradient of Σ log-loss + l2/2 ‖w‖² at (w, b), computed independently of the fitter. */
function gradientNorm(
  X: Float64Array[],
  y: ArrayLike<number>,
  w: Float64Array,
  b: number,
  l2: number,
): number {
  const g = new Float64Array(w.length + 1);
  X.forEach((x, i) => {
    let z = b;
    for (let j = 0; j < w.length; j++) z += w[j]! * x[j]!;
    const r = sigmoid(z) - y[i]!;
    for (let j = 0; j < w.length; j++) g[j] = g[j]! + r * x[j]!;
    g[w.length] = g[w.length]! + r;
  });
  for (let j = 0; j < w.length; j++) g[j] = g[j]! + l2 * w[j]!;
  return Math.hypot(...g);
}

function loadBreastCancer() {
  const url = new URL("../../data/breast_cancer_wisconsin_diagnostic.csv", import.meta.url);
  const data = buildBinaryDataset(parseCsv(readFileSync(url, "utf8")), {
    target: "target",
    positive: "malignant",
  });
  const { train, test } = stratifiedSplit(data.labels, 0.5, createRng(1));
  const standardizer = fitStandardizer(take(data.features, train));
  return {
    trainX: standardizer.transform(take(data.features, train)),
    trainY: Uint8Array.from(take(data.labels, train)),
    testX: standardizer.transform(take(data.features, test)),
    testY: Uint8Array.from(take(data.labels, test)),
  };
}

describe("sigmoid and softplus", () => {
  it("never overflow", () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-30)).toBeCloseTo(Math.exp(-30), 25);
    expect(softplus(1000)).toBe(1000);
    expect(softplus(-1000)).toBe(0);
    expect(softplus(0)).toBeCloseTo(Math.LN2, 15);
  });
});

describe("fitLogistic", () => {
  it("classifies the breast cancer data well, fast, at a true optimum", () => {
    const { trainX, trainY, testX, testY } = loadBreastCancer();
    expect(trainX[0]!.length).toBe(30);
    const start = performance.now();
    const model = fitLogistic(trainX, trainY);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeLessThan(1000);
    expect(model.converged).toBe(true);
    expect(model.iterations).toBeLessThan(20);

    const p = model.predictProba(testX);
    let correct = 0;
    testY.forEach((y, i) => {
      if ((p[i]! >= 0.5 ? 1 : 0) === y) correct++;
    });
    const accuracy = correct / testY.length;
    expect(accuracy).toBeGreaterThan(0.94);

    const atStart = gradientNorm(trainX, trainY, new Float64Array(30), 0, 1);
    const atOptimum = gradientNorm(trainX, trainY, model.weights, model.intercept, 1);
    expect(atOptimum / atStart).toBeLessThan(1e-6);
  });

  it("converges on perfectly separable data thanks to the penalty", () => {
    const X = [-2, -1, -0.5, 0.5, 1, 2].map((v) => Float64Array.of(v, 2 * v + 1));
    const y = [0, 0, 0, 1, 1, 1];
    for (const l2 of [1, 1e-3]) {
      const model = fitLogistic(X, y, { l2 });
      expect(model.converged).toBe(true);
      expect(Number.isFinite(model.intercept)).toBe(true);
      expect(gradientNorm(X, y, model.weights, model.intercept, l2)).toBeLessThan(1e-8);
      const p = model.predictProba(X);
      y.forEach((label, i) => {
        expect(p[i]! >= 0.5 ? 1 : 0).toBe(label);
      });
    }
  });

  it("leaves the intercept unpenalised: a huge penalty gives the base rate", () => {
    const X = [0, 1, 2, 3].map((v) => Float64Array.of(v));
    const model = fitLogistic(X, [0, 1, 1, 1], { l2: 1e12 });
    expect(model.weights[0]).toBeCloseTo(0, 9);
    expect(model.predictProba([Float64Array.of(0)])[0]).toBeCloseTo(0.75, 9);
  });

  it("is symmetric: flipping labels flips the model", () => {
    const X = [0, 1, 2, 3, 4].map((v) => Float64Array.of(v, v * v));
    const a = fitLogistic(X, [0, 1, 0, 1, 1]);
    const b = fitLogistic(X, [1, 0, 1, 0, 0]);
    expect(a.weights[0]).toBeCloseTo(-b.weights[0]!, 10);
    expect(a.intercept).toBeCloseTo(-b.intercept, 10);
  });

  it("rejects a single class and malformed input", () => {
    const X = [Float64Array.of(1), Float64Array.of(2)];
    expect(() => fitLogistic(X, [1, 1])).toThrow(DataError);
    expect(() => fitLogistic(X, [0, 2])).toThrow(RangeError);
    expect(() => fitLogistic(X, [0])).toThrow(RangeError);
    expect(() => fitLogistic(X, [0, 1], { l2: -1 })).toThrow(RangeError);
    expect(() => fitLogistic([Float64Array.of(Number.NaN), X[1]!], [0, 1])).toThrow(DataError);
  });
});
