import { describe, expect, it } from "vitest";
import { minNormPoint } from "../../../src/geometry/multiclass/feasibility.ts";
import { MulticlassPool } from "../../../src/geometry/multiclass/pool.ts";
import { checkRealisation, realiseOnSphere } from "../../../src/geometry/multiclass/realise.ts";
import { createSpace, type Space } from "../../../src/geometry/multiclass/space.ts";
import type { SpaceKind } from "../../../src/geometry/multiclass/space-kind.ts";
import { findSphere, type Sphere } from "../../../src/geometry/multiclass/sphere.ts";
import { createRng, type Rng } from "../../../src/math/rng.ts";
import { dot } from "../../../src/math/vector.ts";
import { syntheticPool } from "./fixtures.ts";

const unit = (dim: number, rng: Rng): number[] => {
  const u = Array.from({ length: dim }, () => rng.normal());
  const n = Math.sqrt(dot(u, u));
  return u.map((v) => v / n);
};

/** Sampled support values: the in-radius is at most min_u h(u) - <u, o> over unit u. */
const supportBound = (space: Space, rng: Rng, samples: number): number => {
  let bound = Number.POSITIVE_INFINITY;
  const directions: number[][] = [];
  for (let a = 0; a < space.dim; a++) {
    for (const s of [1, -1]) {
      const e = new Array<number>(space.dim).fill(0);
      e[a] = s;
      directions.push(e);
    }
  }
  for (let r = 0; r < samples; r++) directions.push(unit(space.dim, rng));
  for (const u of directions) {
    bound = Math.min(bound, dot(u, space.lmo(u).point) - dot(u, space.centre));
  }
  return bound;
};

/** Every realised sphere point at radius rho hits its target and is feasible. */
const checkSpherePoints = (space: Space, sphere: Sphere, rng: Rng, count: number, group = 0) => {
  let worst = 0;
  for (let r = 0; r < count; r++) {
    const u = unit(space.dim, rng);
    const target = Float64Array.from(sphere.centre, (o, i) => o + sphere.rho * u[i]);
    const h = realiseOnSphere(sphere, target, group);
    worst = Math.max(worst, checkRealisation(space, h, target).error);
    expect(minNormPoint(target, space.lmo).feasible).toBe(true);
  }
  expect(worst).toBeLessThanOrEqual(1e-9);
};

describe("Algorithm 3 on a synthetic pool (N = 2000, k = 3)", () => {
  const pool = syntheticPool(2000, 3, 7);
  const space = createSpace("offdiag-confusion", pool);
  const t0 = performance.now();
  const sphere = findSphere(space);
  const elapsed = performance.now() - t0;

  it("has a positive radius, rho = 0.95 r and r = 1 / sqrt(sum 1 / l_j^2)", () => {
    expect(sphere.reason).toBeNull();
    expect(sphere.radius).toBeGreaterThan(0);
    expect(sphere.rho).toBeCloseTo(0.95 * sphere.radius, 15);
    const inv = sphere.axes.reduce((s, a) => s + 1 / a.extent ** 2, 0);
    expect(sphere.radius).toBeCloseTo(1 / Math.sqrt(inv), 15);
    expect(sphere.radius).toBeGreaterThanOrEqual(
      Math.min(...sphere.axes.map((a) => a.extent)) / Math.sqrt(6),
    );
    expect(elapsed).toBeLessThan(5000);
  });

  it("realises 200 random points at radius rho to 1e-9, all feasible", () => {
    checkSpherePoints(space, sphere, createRng(31), 200);
  });

  it("lies below the sampled support-function bound on the in-radius", () => {
    const bound = supportBound(space, createRng(32), 2000);
    expect(sphere.radius).toBeLessThanOrEqual(bound);
    expect(sphere.radius).toBeGreaterThan(bound / 10); // conservative by ~sqrt(q), not more
  });

  it("axis classifiers realise o ± l_j e_j, and a little further is infeasible", () => {
    for (const a of sphere.axes) {
      for (const [sign, length, h] of [
        [1, a.plus, a.plusClassifiers[0]],
        [-1, a.minus, a.minusClassifiers[0]],
      ] as const) {
        const target = Float64Array.from(sphere.centre);
        target[a.axis] += sign * length;
        expect(checkRealisation(space, h, target).error).toBeLessThanOrEqual(1e-9);
        const beyond = Float64Array.from(sphere.centre);
        beyond[a.axis] += sign * (length + 1e-5);
        const res = minNormPoint(beyond, space.lmo);
        expect(res.feasible).toBe(false);
      }
    }
  });

  it("the row symmetry agrees with searching every axis and direction", () => {
    const full = findSphere(space, { symmetry: false });
    for (let a = 0; a < space.dim; a++) {
      expect(full.axes[a].plus).toBeCloseTo(sphere.axes[a].plus, 6);
      expect(full.axes[a].minus).toBeCloseTo(sphere.axes[a].minus, 6);
    }
    expect(full.radius).toBeCloseTo(sphere.radius, 6);
    checkSpherePoints(space, full, createRng(33), 20);
  });

  it("refuses targets outside the cross-polytope and maps the centre to uniform", () => {
    const far = Float64Array.from(sphere.centre);
    far[0] += 2 * sphere.axes[0].plus;
    expect(() => realiseOnSphere(sphere, far)).toThrow(/outside/);
    const h = realiseOnSphere(sphere, sphere.centre);
    expect(checkRealisation(space, h, sphere.centre).error).toBeLessThanOrEqual(1e-15);
  });
});

describe("Algorithm 3 in the other spaces", () => {
  const pool = syntheticPool(1500, 3, 8);
  const kinds: SpaceKind[] = ["diag-confusion", "diag-rates", "offdiag-rates"];
  for (const kind of kinds) {
    it(`${kind}: positive radius below the support bound, realised points exact`, () => {
      const space = createSpace(kind, pool);
      const sphere = findSphere(space, { margin: 0.9 });
      expect(sphere.radius).toBeGreaterThan(0);
      expect(sphere.rho).toBeCloseTo(0.9 * sphere.radius, 15);
      expect(sphere.radius).toBeLessThanOrEqual(supportBound(space, createRng(40), 1000));
      for (const a of sphere.axes) {
        expect(a.plus).toBeLessThanOrEqual(space.bracket(a.axis, 1) + 1e-15);
        expect(a.minus).toBeLessThanOrEqual(space.bracket(a.axis, -1) + 1e-15);
      }
      checkSpherePoints(space, sphere, createRng(41), 100);
    });
  }
  it("diagonal rates: l^- reaches the bracket 1/k (never predicting class i is feasible)", () => {
    const sphere = findSphere(createSpace("diag-rates", pool));
    for (const a of sphere.axes) expect(a.minus).toBeCloseTo(1 / 3, 6);
  });
});

describe("groups", () => {
  const a = syntheticPool(1200, 3, 50);
  const b = syntheticPool(900, 3, 51, 0.7);
  it("rate spaces: extents are minima over groups; each group realises the sphere points", () => {
    const spaces = [createSpace("offdiag-rates", a), createSpace("offdiag-rates", b)];
    const joint = findSphere(spaces);
    const alone = spaces.map((s) => findSphere(s));
    expect(joint.groups).toBe(2);
    for (const [t, axis] of joint.axes.entries()) {
      expect(axis.plus).toBeCloseTo(Math.min(alone[0].axes[t].plus, alone[1].axes[t].plus), 6);
      expect(axis.minus).toBeCloseTo(Math.min(alone[0].axes[t].minus, alone[1].axes[t].minus), 6);
    }
    expect(joint.radius).toBeLessThanOrEqual(Math.min(alone[0].radius, alone[1].radius) + 1e-9);
    checkSpherePoints(spaces[0], joint, createRng(60), 50, 0);
    checkSpherePoints(spaces[1], joint, createRng(61), 50, 1);
  });
  it("diagonal rates work per group too", () => {
    const spaces = [createSpace("diag-rates", a), createSpace("diag-rates", b)];
    const joint = findSphere(spaces);
    checkSpherePoints(spaces[1], joint, createRng(62), 50, 1);
  });
  it("confusion spaces with different priors have no common centre", () => {
    expect(() =>
      findSphere([createSpace("offdiag-confusion", a), createSpace("offdiag-confusion", b)]),
    ).toThrow(/different centre/);
  });
});

describe("zero radius", () => {
  it("names a class with zero prior mass", () => {
    const rng = createRng(70);
    const rows = Array.from({ length: 200 }, () => {
      const p = rng.next();
      return [p, 1 - p, 0];
    });
    const pool = MulticlassPool.fromRows(rows);
    for (const kind of ["offdiag-confusion", "diag-confusion", "diag-rates"] as const) {
      const sphere = findSphere(createSpace(kind, pool));
      expect(sphere.radius).toBe(0);
      expect(sphere.rho).toBe(0);
      expect(sphere.reason).toMatch(/class 2 has zero prior mass/);
    }
    const grouped = findSphere([
      createSpace("diag-rates", syntheticPool(300, 3, 3)),
      createSpace("diag-rates", pool),
    ]);
    expect(grouped.reason).toMatch(/class 2 has zero prior mass in group 1/);
  });
  it("explains a flat feasible set (eta carries no information)", () => {
    const pool = syntheticPool(300, 3, 4, 0); // every eta row is the same
    const sphere = findSphere(createSpace("offdiag-confusion", pool));
    expect(sphere.radius).toBe(0);
    expect(sphere.reason).toMatch(/flat along coordinate/);
    expect(() => {
      const t = Float64Array.from(sphere.centre);
      t[0] += 1e-6;
      realiseOnSphere(sphere, t);
    }).toThrow(/outside/);
  });
});
