import { describe, expect, it } from "vitest";
import { minNormPoint } from "../../../src/geometry/multiclass/feasibility.ts";
import { leastSquares } from "../../../src/geometry/multiclass/linsolve.ts";
import { createSpace, type Space } from "../../../src/geometry/multiclass/space.ts";
import { SPACE_KINDS } from "../../../src/geometry/multiclass/space-kind.ts";
import { createRng, type Rng } from "../../../src/math/rng.ts";
import { dot } from "../../../src/math/vector.ts";
import { syntheticPool } from "./fixtures.ts";

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};
const randomDirection = (dim: number, rng: Rng) => Array.from({ length: dim }, () => rng.normal());

describe("leastSquares (Householder QR)", () => {
  it("solves an overdetermined system", () => {
    // Fit y = 1 + 2 t exactly on four points.
    const t = [0, 1, 2, 3];
    const { x, dependent } = leastSquares([[1, 1, 1, 1], t], [1, 3, 5, 7]);
    expect(dependent).toBe(-1);
    expect(x[0]).toBeCloseTo(1, 14);
    expect(x[1]).toBeCloseTo(2, 14);
  });
  it("returns the least-squares solution of an inconsistent system", () => {
    const { x } = leastSquares([[1, 1, 1]], [1, 2, 6]);
    expect(x[0]).toBeCloseTo(3, 14);
  });
  it("reports a dependent column", () => {
    expect(
      leastSquares(
        [
          [1, 2, 3],
          [2, 4, 6],
        ],
        [1, 1, 1],
      ).dependent,
    ).toBe(1);
    expect(
      leastSquares(
        [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
        [1, 1],
      ).dependent,
    ).toBe(2);
  });
});

describe("minNormPoint: feasible targets", () => {
  const pool = syntheticPool(1500, 3, 5);
  const rng = createRng(12);
  for (const kind of SPACE_KINDS) {
    it(`${kind}: random convex combinations of plug-in points are realised to 1e-9`, () => {
      const space = createSpace(kind, pool);
      for (let trial = 0; trial < 25; trial++) {
        const m = 1 + rng.int(space.dim + 3);
        const target = new Float64Array(space.dim);
        const raw = Array.from({ length: m }, () => -Math.log(1 - rng.next()));
        const total = raw.reduce((a, b) => a + b, 0);
        for (let t = 0; t < m; t++) {
          const { point } = space.lmo(randomDirection(space.dim, rng));
          for (let i = 0; i < space.dim; i++) target[i] += (raw[t] / total) * point[i];
        }
        const res = minNormPoint(target, space.lmo);
        expect(res.feasible).toBe(true);
        expect(res.converged).toBe(true);
        expect(res.distance).toBeLessThanOrEqual(1e-12);
        expect(res.mixture.components.length).toBeLessThanOrEqual(space.dim + 1);
        const weights = res.mixture.components.map((c) => c.weight);
        for (const w of weights) expect(w).toBeGreaterThan(0);
        expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
        expect(maxAbsDiff(space.realise(res.mixture), target)).toBeLessThanOrEqual(1e-9);
      }
    });
  }
  it("the centre and the vertices are feasible", () => {
    const space = createSpace("offdiag-confusion", pool);
    expect(minNormPoint(space.centre, space.lmo).feasible).toBe(true);
    for (let j = 0; j < 3; j++)
      expect(minNormPoint(space.vertex(j), space.lmo).feasible).toBe(true);
  });
});

describe("minNormPoint: infeasible targets carry a certificate", () => {
  const pool = syntheticPool(1500, 3, 6);
  const rng = createRng(13);
  const checkCertificate = (space: Space, target: Float64Array) => {
    const res = minNormPoint(target, space.lmo);
    expect(res.feasible).toBe(false);
    if (res.feasible) return;
    expect(res.converged).toBe(true);
    const nn = dot(res.normal, res.normal);
    expect(res.gap).toBeLessThan(nn);
    expect(Math.sqrt(nn)).toBeCloseTo(res.distance, 14);
    // The nearest point is realised by the returned mixture.
    expect(maxAbsDiff(space.realise(res.mixture), res.point)).toBeLessThanOrEqual(1e-12);
    const bound = dot(res.normal, target) + nn;
    const slack = res.gap + 1e-12;
    for (let r = 0; r < 300; r++) {
      const { point } = space.lmo(randomDirection(space.dim, rng));
      expect(dot(res.normal, point)).toBeGreaterThanOrEqual(bound - slack);
    }
    for (let j = 0; j < space.k; j++) {
      expect(dot(res.normal, space.vertex(j))).toBeGreaterThanOrEqual(bound - slack);
    }
    return res;
  };
  for (const kind of SPACE_KINDS) {
    it(`${kind}: o + 10 e_1 is infeasible`, () => {
      const space = createSpace(kind, pool);
      const target = Float64Array.from(space.centre);
      target[0] += 10;
      const res = checkCertificate(space, target);
      expect(res?.distance).toBeGreaterThan(9);
    });
    it(`${kind}: points just outside in random directions are infeasible`, () => {
      const space = createSpace(kind, pool);
      for (let trial = 0; trial < 10; trial++) {
        // Walk from the centre along a random direction past the support value.
        const u = randomDirection(space.dim, rng);
        const un = Math.sqrt(dot(u, u));
        const h = dot(u, space.lmo(u).point) - dot(u, space.centre);
        const target = Float64Array.from(
          space.centre,
          (o, i) => o + (u[i] / un) * (h / un) * 1.001,
        );
        checkCertificate(space, target);
      }
    });
  }
});

describe("minNormPoint: robustness", () => {
  const pool = syntheticPool(800, 3, 9);
  const space = createSpace("offdiag-confusion", pool);
  it("reports a hit iteration cap", () => {
    const target = Float64Array.from(space.centre);
    target[2] += 0.01;
    const res = minNormPoint(target, space.lmo, { maxIterations: 1 });
    expect(res.converged).toBe(false);
  });
  it("a warm start reaches the same decision", () => {
    const target = Float64Array.from(space.centre);
    target[1] -= 0.02;
    const cold = minNormPoint(target, space.lmo);
    const warm = minNormPoint(target, space.lmo, { start: cold.active });
    expect(warm.feasible).toBe(cold.feasible);
    expect(warm.lmoCalls).toBeLessThanOrEqual(cold.lmoCalls);
    if (warm.feasible) {
      expect(maxAbsDiff(space.realise(warm.mixture), target)).toBeLessThanOrEqual(1e-9);
    }
  });
  it("handles duplicate and dependent warm-start points", () => {
    const a = space.lmo([1, 0, 0, 0, 0, 0]);
    const res = minNormPoint(space.centre, space.lmo, { start: [a, a, a] });
    expect(res.feasible).toBe(true);
  });
  it("works with a lower-dimensional set (an uninformative pool)", () => {
    const flat = createSpace("offdiag-confusion", syntheticPool(50, 3, 1, 0));
    const inside = minNormPoint(flat.centre, flat.lmo);
    expect(inside.feasible).toBe(true);
    const target = Float64Array.from(flat.centre);
    target[0] += 1e-3;
    const out = minNormPoint(target, flat.lmo);
    expect(out.feasible).toBe(false);
  });
});
