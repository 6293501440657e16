import { describe, expect, it } from "vitest";
import {
  asConfusionMatrix,
  asDiagConfusion,
  asDiagRates,
  asOffDiagConfusion,
  type DiagConfusion,
} from "../../../src/geometry/multiclass/brands.ts";
import {
  centreConfusion,
  centreDiagConfusion,
  centreDiagRates,
  centreOffDiagConfusion,
  centreOffDiagRates,
  centreRates,
  trivialConfusion,
  trivialDiagConfusion,
  trivialDiagRates,
  trivialOffDiagConfusion,
  trivialOffDiagRates,
} from "../../../src/geometry/multiclass/centre.ts";
import { uniformClassifier } from "../../../src/geometry/multiclass/classifier.ts";
import {
  confusionToRates,
  diagOf,
  diagRatesOf,
  offDiagOf,
  offDiagRatesOf,
  offDiagRatesToRates,
  offDiagToConfusion,
  ratesToConfusion,
} from "../../../src/geometry/multiclass/convert.ts";
import { offDiagIndex, offDiagPair } from "../../../src/geometry/multiclass/indexing.ts";
import { createSpace } from "../../../src/geometry/multiclass/space.ts";
import { SPACE_KINDS } from "../../../src/geometry/multiclass/space-kind.ts";
import { syntheticPool } from "./fixtures.ts";

const zeta = [0.5, 0.3, 0.2];
const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-15) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(tol);
};

describe("test vector (ALGORITHMS.md): k = 3, priors (0.5, 0.3, 0.2)", () => {
  it("centre of the off-diagonal confusions", () => {
    close(centreOffDiagConfusion(zeta), [1 / 6, 1 / 6, 0.1, 0.1, 1 / 15, 1 / 15]);
  });
  it("centre of the diagonal confusions", () => {
    close(centreDiagConfusion(zeta), [1 / 6, 0.1, 1 / 15]);
  });
  it("centres of the rate spaces are 1/k", () => {
    close(centreRates(3), new Array(9).fill(1 / 3));
    close(centreDiagRates(3), [1 / 3, 1 / 3, 1 / 3]);
    close(centreOffDiagRates(3), new Array(6).fill(1 / 3));
  });
  it("c -> full matrix uses row sums zeta, and back", () => {
    const C = offDiagToConfusion(centreOffDiagConfusion(zeta), zeta);
    close(C, centreConfusion(zeta));
    close(offDiagOf(C), centreOffDiagConfusion(zeta));
    close(diagOf(C), [1 / 6, 0.1, 1 / 15]);
  });
});

describe("indexing", () => {
  it("matches the 1-based formula of section 0 and inverts", () => {
    for (const k of [2, 3, 4, 7]) {
      let t = 0;
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          if (i === j) continue;
          const oneBased = i * (k - 1) + (j + 1 < i + 1 ? j + 1 : j);
          expect(offDiagIndex(i, j, k)).toBe(t);
          expect(offDiagIndex(i, j, k) + 1).toBe(oneBased);
          expect(offDiagPair(t, k)).toEqual([i, j]);
          t++;
        }
      }
    }
    expect(() => offDiagIndex(1, 1, 3)).toThrow(RangeError);
    expect(() => offDiagPair(6, 3)).toThrow(RangeError);
  });
});

describe("conversions", () => {
  const C = asConfusionMatrix([0.3, 0.1, 0.1, 0.05, 0.2, 0.05, 0.02, 0.08, 0.1]);
  const priors = [0.5, 0.3, 0.2];
  it("confusion <-> rates divide and multiply rows by the priors", () => {
    const R = confusionToRates(C, priors);
    close(R, [0.6, 0.2, 0.2, 1 / 6, 2 / 3, 1 / 6, 0.1, 0.4, 0.5], 1e-15);
    close(ratesToConfusion(R, priors), C, 1e-16);
    close(diagRatesOf(R), [0.6, 2 / 3, 0.5], 1e-15);
    close(offDiagRatesToRates(offDiagRatesOf(R), 3), R, 1e-15);
  });
  it("rates of a zero-prior class are refused", () => {
    expect(() => confusionToRates(C, [0.5, 0.5, 0])).toThrow(/zero prior/);
  });
  it("lengths are validated", () => {
    expect(() => asOffDiagConfusion([1, 2, 3], 3)).toThrow(RangeError);
    expect(() => asConfusionMatrix([1, 2, 3])).toThrow(RangeError);
    expect(asDiagConfusion([1, 2, 3], 3)).toBeInstanceOf(Float64Array);
  });
  it("brands keep confusions and rates apart at compile time", () => {
    const r = asDiagRates([0.5, 0.5]);
    // @ts-expect-error: rates are not confusions
    const wrong: DiagConfusion = r;
    expect(wrong).toBe(r);
  });
});

describe("vertices and centres agree with the classifiers on a pool", () => {
  const pool = syntheticPool(300, 3, 11);
  const p = pool.priors;
  it("uniform classifier realises the centre in every space", () => {
    for (const kind of SPACE_KINDS) {
      const space = createSpace(kind, pool);
      close(space.realise(uniformClassifier(3)), space.centre, 1e-15);
    }
    close(createSpace("offdiag-confusion", pool).centre, centreOffDiagConfusion(p), 1e-15);
    close(createSpace("diag-confusion", pool).centre, centreDiagConfusion(p), 1e-15);
  });
  it("constant classifiers realise the trivial vertices", () => {
    for (let j = 0; j < 3; j++) {
      close(createSpace("diag-confusion", pool).vertex(j), trivialDiagConfusion(p, j), 1e-15);
      close(createSpace("offdiag-confusion", pool).vertex(j), trivialOffDiagConfusion(p, j), 1e-15);
      close(createSpace("diag-rates", pool).vertex(j), trivialDiagRates(3, j), 1e-15);
      close(createSpace("offdiag-rates", pool).vertex(j), trivialOffDiagRates(3, j), 1e-15);
      close(offDiagToConfusion(trivialOffDiagConfusion(p, j), p), trivialConfusion(p, j), 1e-16);
    }
  });
  it("brackets follow B.5", () => {
    const oc = createSpace("offdiag-confusion", pool);
    expect(oc.bracket(offDiagIndex(1, 2, 3), 1)).toBeCloseTo(p[1] / 3, 15);
    expect(oc.bracket(offDiagIndex(1, 2, 3), -1)).toBeCloseTo(p[1] / 3, 15);
    const dr = createSpace("diag-rates", pool);
    expect(dr.bracket(0, 1)).toBeCloseTo(2 / 3, 15);
    expect(dr.bracket(0, -1)).toBeCloseTo(1 / 3, 15);
    expect(createSpace("offdiag-rates", pool).bracket(4, 1)).toBeCloseTo(1 / 3, 15);
    const dc = createSpace("diag-confusion", pool);
    expect(dc.bracket(2, 1)).toBeCloseTo((p[2] * 2) / 3, 15);
    expect(dc.bracket(2, -1)).toBeCloseTo(p[2] / 3, 15);
  });
});
