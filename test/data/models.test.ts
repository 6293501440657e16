import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../src/data/csv.ts";
import type { Classifier } from "../../src/data/models/classifier.ts";
import { fitMlp } from "../../src/data/models/mlp.ts";
import { fitDecisionTree } from "../../src/data/models/tree.ts";
import { fitWeightedLogistic } from "../../src/data/models/weighted-logistic.ts";
import { stratifiedSplit, take } from "../../src/data/split.ts";
import { fitStandardizer } from "../../src/data/standardize.ts";
import { buildMulticlassDataset } from "../../src/data/table.ts";
import { createRng } from "../../src/math/rng.ts";

const data = buildMulticlassDataset(parseCsv(readFileSync("data/wine.csv", "utf8")), {
  target: "target",
});
const k = data.classNames.length;
const split = stratifiedSplit(data.labels, 0.6, createRng(3));
const st = fitStandardizer(take(data.features, split.train));
const trainX = st.transform(take(data.features, split.train));
const testX = st.transform(take(data.features, split.test));
const trainY = Int32Array.from(take(data.labels, split.train));
const testY = Int32Array.from(take(data.labels, split.test));

function accuracy(h: Classifier): number {
  let ok = 0;
  for (let i = 0; i < testX.length; i++) if (h.predict(testX[i]!) === testY[i]) ok++;
  return ok / testX.length;
}
// Majority-class baseline on the test rows.
const counts = new Array<number>(k).fill(0);
for (const y of testY) counts[y] = counts[y]! + 1;
const majority = Math.max(...counts) / testY.length;

describe("learners on wine (3 classes)", () => {
  it("weighted logistic regression beats the majority baseline", () => {
    const acc = accuracy(fitWeightedLogistic(trainX, trainY, k, { l2: 0.01 }));
    expect(majority).toBeLessThan(0.45);
    expect(acc).toBeGreaterThan(0.9);
  });
  it("class weights move predictions towards the up-weighted class", () => {
    const count0 = (h: Classifier): number => testX.filter((x) => h.predict(x) === 0).length;
    const plain = fitWeightedLogistic(trainX, trainY, k, { l2: 1 });
    const heavy = fitWeightedLogistic(trainX, trainY, k, { l2: 1, classWeights: [50, 1, 1] });
    expect(count0(heavy)).toBeGreaterThanOrEqual(count0(plain));
  });
  it("the MLP beats the baseline and is a pure function of its seed", () => {
    const a = fitMlp(trainX, trainY, k, createRng(5), { hidden: 8 });
    const b = fitMlp(trainX, trainY, k, createRng(5), { hidden: 8 });
    expect(accuracy(a)).toBeGreaterThan(0.85);
    expect(testX.map((x) => a.predict(x))).toEqual(testX.map((x) => b.predict(x)));
  });
  it("the decision tree beats the baseline; depth 0 predicts the majority", () => {
    expect(accuracy(fitDecisionTree(trainX, trainY, k, { maxDepth: 4 }))).toBeGreaterThan(0.75);
    const stump = fitDecisionTree(trainX, trainY, k, { maxDepth: 0 });
    expect(new Set(testX.map((x) => stump.predict(x))).size).toBe(1);
    expect(() => fitDecisionTree(trainX, trainY, k, { maxFeatures: 2 })).toThrow(RangeError);
  });
  it("rejects bad labels", () => {
    expect(() => fitWeightedLogistic(trainX, trainY, 2)).toThrow(RangeError);
  });
});
