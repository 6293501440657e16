import { describe, expect, it } from "vitest";
import type { PluginClassifier } from "../../../src/geometry/multiclass/classifier.ts";
import { AffineQR, leastSquares } from "../../../src/geometry/multiclass/linsolve.ts";
import {
  pluginClassifier,
  pluginConfusion,
  pluginLabels,
} from "../../../src/geometry/multiclass/plugin.ts";
import { relabelClassifier } from "../../../src/geometry/multiclass/relabel.ts";
import { createRng } from "../../../src/math/rng.ts";
import { syntheticPool } from "./fixtures.ts";

/** Reference affine minimiser: anchor at the first point, least squares on the differences. */
const reference = (points: number[][]): number[] => {
  const s0 = points[0];
  const columns = points.slice(1).map((p) => p.map((v, i) => v - s0[i]));
  const { x } = leastSquares(
    columns,
    s0.map((v) => -v),
  );
  const rest = Array.from(x).reduce((a, b) => a + b, 0);
  return [1 - rest, ...x];
};

describe("AffineQR (incremental QR of the min-norm-point corral)", () => {
  it("matches a from-scratch solve through random additions and removals", () => {
    const rng = createRng(5);
    const dim = 7;
    const qr = new AffineQR(dim, 1);
    let points: number[][] = [];
    for (let step = 0; step < 200; step++) {
      if (points.length > 1 && (points.length > dim || rng.next() < 0.4)) {
        const i = Math.floor(rng.next() * points.length);
        qr.remove(i);
        points = points.filter((_, t) => t !== i);
      } else {
        const p = Array.from({ length: dim }, () => rng.normal());
        expect(qr.add(p)).toBe(true);
        points.push(p);
      }
      expect(qr.size).toBe(points.length);
      const got = qr.affineMinimiser();
      const want = reference(points);
      for (let t = 0; t < points.length; t++) expect(got[t]).toBeCloseTo(want[t], 9);
    }
  });

  it("refuses affinely dependent points and more than dim + 1 points", () => {
    const qr = new AffineQR(2, 1);
    expect(qr.add([0, 0])).toBe(true);
    expect(qr.add([1, 0])).toBe(true);
    expect(qr.add([2, 0])).toBe(false); // on the line through the first two
    expect(qr.add([0, 1])).toBe(true);
    expect(qr.add([5, 7])).toBe(false); // a fourth point in the plane
    expect(qr.size).toBe(3);
    // The origin is a vertex: all weight on it.
    const alpha = qr.affineMinimiser();
    expect(alpha[0]).toBeCloseTo(1, 14);
    expect(() => qr.remove(3)).toThrow(RangeError);
    expect(() => new AffineQR(2, 0)).toThrow(RangeError);
  });
});

describe("plug-in evaluation: the unrolled kernels equal the generic loop", () => {
  for (const k of [3, 5, 10]) {
    it(`k = ${k}: identical labels and confusion, bit for bit`, () => {
      const pool = syntheticPool(3000, k, 40 + k);
      const rng = createRng(k);
      const dim = k * k - k;
      for (let r = 0; r < 20; r++) {
        // Round weights so that exact ties occur and the tie order matters.
        const w = Array.from({ length: dim }, () => Math.round(2 * rng.normal()) / 2);
        const fast = pluginClassifier("offdiag-confusion", w, pool.priors);
        const all = Array.from({ length: k }, (_, j) => j);
        // Reference: the generic rule written out (first maximum in label order wins).
        const labels = pluginLabels(pool, fast);
        for (let p = 0; p < pool.n; p++) {
          let best = 0;
          let bestScore = Number.NEGATIVE_INFINITY;
          for (const j of all) {
            let s = 0;
            for (let i = 0; i < k; i++) s += fast.gain[i * k + j] * pool.eta[p * k + i];
            if (j === 0 || s > bestScore) {
              bestScore = s;
              best = j;
            }
          }
          expect(labels[p]).toBe(best);
        }
        const conf = pluginConfusion(pool, fast);
        const ref = new Float64Array(k * k);
        for (let p = 0; p < pool.n; p++) {
          for (let i = 0; i < k; i++) ref[i * k + labels[p]] += pool.weightedEta[p * k + i];
        }
        expect(Array.from(conf)).toEqual(Array.from(ref));
        // A relabelled plug-in (a permuted tie order) also takes the kernel.
        const perm = all.slice().reverse();
        const relabelled = relabelClassifier(fast, perm);
        const relabelledLabels = pluginLabels(pool, relabelled as PluginClassifier);
        for (let p = 0; p < pool.n; p++) expect(relabelledLabels[p]).toBe(perm[labels[p]]);
      }
    });

    it(`k = ${k}, diagonal: the confusion kernel's sums equal the generic loop's, bit for bit`, () => {
      const pool = syntheticPool(3000, k, 70 + k);
      const rng = createRng(100 + k);
      const chosen = new Set<number>();
      for (let r = 0; r < 20; r++) {
        // Rounded weights: exact ties, where the first maximum must win.
        const w = Array.from({ length: k }, () => Math.round(2 * rng.normal()) / 2);
        const h = pluginClassifier("diag-confusion", w, pool.priors);
        const conf = pluginConfusion(pool, h);
        const ref = new Float64Array(k * k);
        for (let p = 0; p < pool.n; p++) {
          let best = 0;
          let bestScore = h.gain[0] * pool.eta[p * k];
          for (let j = 1; j < k; j++) {
            const s = h.gain[j * k + j] * pool.eta[p * k + j];
            if (s > bestScore) {
              bestScore = s;
              best = j;
            }
          }
          chosen.add(best);
          for (let i = 0; i < k; i++) ref[i * k + best] += pool.weightedEta[p * k + i];
        }
        expect(Array.from(conf)).toEqual(Array.from(ref));
      }
      // The weights drawn send points to every class.
      expect(chosen.size).toBe(k);
    });
  }
});
