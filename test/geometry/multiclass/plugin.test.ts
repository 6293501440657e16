import { describe, expect, it } from "vitest";
import type { Classifier } from "../../../src/geometry/multiclass/classifier.ts";
import {
  constantClassifier,
  flattenMixture,
  mixtureClassifier,
  pluginLabel,
  predict,
  uniformClassifier,
} from "../../../src/geometry/multiclass/classifier.ts";
import { expectedConfusion } from "../../../src/geometry/multiclass/expected-confusion.ts";
import {
  confusionOfLabels,
  pluginClassifier,
  pluginConfusion,
  pluginGain,
  pluginLabels,
} from "../../../src/geometry/multiclass/plugin.ts";
import { MulticlassPool } from "../../../src/geometry/multiclass/pool.ts";
import { relabelClassifier } from "../../../src/geometry/multiclass/relabel.ts";
import { createSpace } from "../../../src/geometry/multiclass/space.ts";
import { SPACE_KINDS } from "../../../src/geometry/multiclass/space-kind.ts";
import { createRng } from "../../../src/math/rng.ts";
import { dot } from "../../../src/math/vector.ts";
import { syntheticPool } from "./fixtures.ts";

describe("plug-in evaluation", () => {
  const pool = syntheticPool(500, 4, 3);
  it("the vectorised pass agrees with the per-point rule and with confusionOfLabels", () => {
    const rng = createRng(5);
    for (const kind of SPACE_KINDS) {
      const dim = createSpace(kind, pool).dim;
      const h = pluginClassifier(
        kind,
        Array.from({ length: dim }, () => rng.normal()),
        pool.priors,
      );
      const labels = pluginLabels(pool, h);
      for (let p = 0; p < pool.n; p++) expect(labels[p]).toBe(pluginLabel(h, pool.row(p)));
      const a = pluginConfusion(pool, h);
      const b = confusionOfLabels(pool, labels);
      for (let t = 0; t < 16; t++) expect(a[t]).toBeCloseTo(b[t], 15);
    }
  });
  it("rows of a confusion matrix sum to the priors", () => {
    const h = pluginClassifier(
      "offdiag-confusion",
      [1, -2, 3, 0, 1, 1, -1, 2, 0, 1, 0, 3],
      pool.priors,
    );
    const C = pluginConfusion(pool, h);
    for (let i = 0; i < 4; i++) {
      const s = C[i * 4] + C[i * 4 + 1] + C[i * 4 + 2] + C[i * 4 + 3];
      expect(s).toBeCloseTo(pool.priors[i], 14);
    }
  });
  it("breaks ties by the lowest index, or by the order of restricted labels", () => {
    const tie = MulticlassPool.fromRows([
      [0.5, 0.5, 0],
      [0, 0.5, 0.5],
    ]);
    const h = pluginClassifier("diag-confusion", [1, 1, 1], tie.priors);
    expect(Array.from(pluginLabels(tie, h))).toEqual([0, 1]);
    const off = pluginClassifier("offdiag-confusion", [0, 0, 0, 0, 0, 0], tie.priors);
    expect(Array.from(pluginLabels(tie, off))).toEqual([0, 0]);
    const restricted = pluginClassifier("diag-confusion", [1, 1, 1], tie.priors, [2, 1]);
    expect(Array.from(pluginLabels(tie, restricted))).toEqual([1, 2]);
    expect(pluginLabel(restricted, [0, 0.5, 0.5])).toBe(2);
  });
  it("rate gains divide rows by the priors", () => {
    expect(Array.from(pluginGain("diag-rates", [1, 1], [0.25, 0.75]))).toEqual([4, 0, 0, 4 / 3]);
    expect(Array.from(pluginGain("offdiag-rates", [1, 2], [0.5, 0.5]))).toEqual([0, 2, 4, 0]);
    expect(() => pluginGain("offdiag-confusion", [1, 2, 3], [0.5, 0.5])).toThrow(RangeError);
  });
});

describe("LMO optimality (plug-in beats random classifiers)", () => {
  const pool = syntheticPool(400, 3, 21);
  const rng = createRng(99);
  const n = pool.n;
  const k = pool.k;
  /** Soft random classifier: h(x_n) a random distribution per point. */
  const softRandomConfusion = (): Float64Array => {
    const C = new Float64Array(k * k);
    const h = new Float64Array(k);
    for (let p = 0; p < n; p++) {
      let s = 0;
      for (let j = 0; j < k; j++) {
        h[j] = -Math.log(1 - rng.next());
        s += h[j];
      }
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) C[i * k + j] += pool.weightedEta[p * k + i] * (h[j] / s);
      }
    }
    return C;
  };
  for (const kind of SPACE_KINDS) {
    it(`${kind}: value of the LMO point >= 200 random plug-ins and 200 random classifiers`, () => {
      const space = createSpace(kind, pool);
      for (let trial = 0; trial < 5; trial++) {
        const w = Array.from({ length: space.dim }, () => rng.normal());
        const best = dot(w, space.lmo(w).point);
        for (let r = 0; r < 200; r++) {
          const other = pluginClassifier(
            kind,
            Array.from({ length: space.dim }, () => rng.normal()),
            pool.priors,
          );
          expect(dot(w, space.realise(other))).toBeLessThanOrEqual(best + 1e-12);
          const labels = Int32Array.from({ length: n }, () => rng.int(k));
          expect(dot(w, space.point(confusionOfLabels(pool, labels)))).toBeLessThanOrEqual(
            best + 1e-12,
          );
          if (r % 20 === 0) {
            const soft = softRandomConfusion() as Parameters<typeof space.point>[0];
            expect(dot(w, space.point(soft))).toBeLessThanOrEqual(best + 1e-12);
          }
        }
      }
    });
  }
});

describe("classifier values", () => {
  const pool = syntheticPool(300, 3, 4);
  it("a mixture's expected confusion is the weighted sum, also when nested", () => {
    const a = pluginClassifier("diag-confusion", [1, 2, 3], pool.priors);
    const b = pluginClassifier("offdiag-confusion", [-1, 0, 2, -1, 0, 1], pool.priors);
    const inner = mixtureClassifier([
      { classifier: a, weight: 0.3 },
      { classifier: uniformClassifier(3), weight: 0.7 },
    ]);
    const outer: Classifier = mixtureClassifier([
      { classifier: inner, weight: 0.4 },
      { classifier: b, weight: 0.6 },
    ]);
    const Ca = pluginConfusion(pool, a);
    const Cb = pluginConfusion(pool, b);
    const got = expectedConfusion(pool, outer);
    const flat = expectedConfusion(pool, flattenMixture(outer));
    for (let t = 0; t < 9; t++) {
      const o = pool.priors[Math.floor(t / 3)] / 3;
      const want = 0.4 * (0.3 * Ca[t] + 0.7 * o) + 0.6 * Cb[t];
      expect(got[t]).toBeCloseTo(want, 15);
      expect(flat[t]).toBeCloseTo(want, 15);
    }
    expect(flattenMixture(outer).components.length).toBe(5);
    expect(JSON.parse(JSON.stringify(outer))).toEqual(outer);
  });
  it("validates mixtures", () => {
    const c = constantClassifier(3, 1);
    expect(() => mixtureClassifier([])).toThrow(RangeError);
    expect(() => mixtureClassifier([{ classifier: c, weight: 0.5 }])).toThrow(/sum/);
    expect(() =>
      mixtureClassifier([
        { classifier: c, weight: 1.5 },
        { classifier: c, weight: -0.5 },
      ]),
    ).toThrow(/>= 0/);
    expect(() =>
      mixtureClassifier([
        { classifier: c, weight: 0.5 },
        { classifier: constantClassifier(2, 1), weight: 0.5 },
      ]),
    ).toThrow(/disagree/);
  });
  it("predict samples mixture components with their weights", () => {
    const rng = createRng(8);
    const m = mixtureClassifier([
      { classifier: constantClassifier(3, 0), weight: 0.2 },
      { classifier: constantClassifier(3, 2), weight: 0.8 },
    ]);
    const counts = [0, 0, 0];
    for (let t = 0; t < 20000; t++) counts[predict(m, [0.3, 0.4, 0.3], rng)]++;
    expect(counts[1]).toBe(0);
    expect(counts[0] / 20000).toBeGreaterThan(0.19);
    expect(counts[0] / 20000).toBeLessThan(0.21);
    const h = pluginClassifier("diag-confusion", [1, 1, 1], pool.priors);
    expect(predict(h, [0.1, 0.6, 0.3], rng)).toBe(1);
  });
});

describe("performance", () => {
  it("one LMO pass over N = 5000, k = 4 takes well under a few milliseconds", () => {
    const pool = syntheticPool(5000, 4, 2);
    const space = createSpace("offdiag-confusion", pool);
    const rng = createRng(1);
    const dirs = Array.from({ length: 50 }, () => Array.from({ length: 12 }, () => rng.normal()));
    for (const d of dirs) space.lmo(d); // warm up the JIT
    const t0 = performance.now();
    for (let r = 0; r < 4; r++) for (const d of dirs) space.lmo(d);
    const perCall = (performance.now() - t0) / 200;
    expect(perCall).toBeLessThan(3);
  });
});

describe("relabelClassifier", () => {
  const pool = syntheticPool(400, 4, 15);
  const rng = createRng(16);
  it("permutes the columns of the realised confusion exactly, for plug-ins and mixtures", () => {
    const perm = [2, 0, 3, 1];
    const a = pluginClassifier(
      "offdiag-rates",
      Array.from({ length: 12 }, () => rng.normal()),
      pool.priors,
    );
    const b = pluginClassifier("diag-confusion", [0.1, 0.5, 0.2, 0.2], pool.priors);
    const c = constantClassifier(4, 3);
    const m = mixtureClassifier([
      { classifier: a, weight: 0.5 },
      { classifier: b, weight: 0.3 },
      { classifier: c, weight: 0.2 },
    ]);
    for (const h of [a, b, c, m] as Classifier[]) {
      const C = expectedConfusion(pool, h);
      const R = expectedConfusion(pool, relabelClassifier(h, perm));
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) expect(R[i * 4 + perm[j]]).toBe(C[i * 4 + j]);
      }
    }
    const labels = pluginLabels(pool, a);
    const moved = pluginLabels(pool, relabelClassifier(a, perm) as typeof a);
    for (let p = 0; p < pool.n; p++) expect(moved[p]).toBe(perm[labels[p]]);
  });
  it("keeps ties in the permuted order and rewrites weights in the off-diagonal space", () => {
    const tie = MulticlassPool.fromRows([[0.5, 0.5, 0]]);
    const h = pluginClassifier("diag-confusion", [1, 1, 1], tie.priors);
    const swapped = relabelClassifier(h, [1, 0, 2]);
    expect(Array.from(pluginLabels(tie, swapped as typeof h))).toEqual([1]);
    expect(swapped.kind === "plugin" && swapped.space).toBe("offdiag-confusion");
    // The rewritten weights give an equivalent rule.
    if (swapped.kind === "plugin") {
      const p2 = syntheticPool(300, 3, 2);
      const again = pluginClassifier(swapped.space, swapped.weights, p2.priors);
      const direct = pluginLabels(p2, swapped);
      const rebuilt = pluginLabels(p2, { ...again, labels: swapped.labels });
      expect(Array.from(rebuilt)).toEqual(Array.from(direct));
    }
    expect(() => relabelClassifier(h, [0, 0, 1])).toThrow(/permutation/);
  });
});
