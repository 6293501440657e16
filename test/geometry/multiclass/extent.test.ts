import { describe, expect, it } from "vitest";
import { constantClassifier } from "../../../src/geometry/multiclass/classifier.ts";
import { axisExtent, ColumnPool } from "../../../src/geometry/multiclass/extent.ts";
import { minNormPoint } from "../../../src/geometry/multiclass/feasibility.ts";
import { checkRealisation } from "../../../src/geometry/multiclass/realise.ts";
import { createSpace, type Space } from "../../../src/geometry/multiclass/space.ts";
import type { SpaceKind } from "../../../src/geometry/multiclass/space-kind.ts";
import { findSphere } from "../../../src/geometry/multiclass/sphere.ts";
import { syntheticPool } from "./fixtures.ts";

const uniformStart = (space: Space) =>
  Array.from({ length: space.k }, (_, j) => ({
    point: space.vertex(j),
    classifier: constantClassifier(space.k, j),
    weight: 1 / space.k,
  }));

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const kinds: SpaceKind[] = ["offdiag-confusion", "offdiag-rates", "diag-confusion", "diag-rates"];

describe("axisExtent: the extent LP by column generation", () => {
  const pool = syntheticPool(600, 3, 21);
  for (const kind of kinds) {
    it(`${kind}: exact mixture, valid certificate, agrees with bisection`, () => {
      const space = createSpace(kind, pool);
      const columns = new ColumnPool(space.centre);
      const start = uniformStart(space);
      for (let axis = 0; axis < space.dim; axis++) {
        for (const sign of [1, -1] as const) {
          const tolerance = 1e-12;
          const res = axisExtent(space.centre, axis, sign, space.lmo, {
            start,
            pool: columns,
            tolerance,
          });
          expect(res.converged).toBe(true);
          expect(res.upper - res.length).toBeLessThanOrEqual(tolerance);
          expect(res.active.length).toBeLessThanOrEqual(space.dim + 1);
          // Primal: the mixture realises o + sign * length * e_axis.
          const target = Float64Array.from(space.centre);
          target[axis] += sign * res.length;
          expect(checkRealisation(space, res.mixture, target).error).toBeLessThanOrEqual(1e-12);
          // Dual: direction[axis] = sign and the support value along it is `upper`.
          expect(res.direction[axis]).toBeCloseTo(sign, 12);
          const v = space.lmo(res.direction).point;
          let support = 0;
          for (let i = 0; i < space.dim; i++)
            support += res.direction[i] * (v[i] - space.centre[i]);
          expect(support).toBeLessThanOrEqual(res.upper + 1e-12);
          // Independent check with the min-norm-point test: a little further is infeasible.
          const beyond = Float64Array.from(space.centre);
          beyond[axis] += sign * (res.length + 1e-7);
          if (res.length + 1e-7 <= space.bracket(axis, sign)) {
            expect(minNormPoint(beyond, space.lmo).feasible).toBe(false);
          }
        }
      }
    });
  }

  it("a capped search reports converged: false but still realises its (smaller) length", () => {
    const space = createSpace("offdiag-confusion", pool);
    const full = axisExtent(space.centre, 2, 1, space.lmo, { start: uniformStart(space) });
    const capped = axisExtent(space.centre, 2, 1, space.lmo, {
      start: uniformStart(space),
      maxOracleCalls: 2,
    });
    expect(capped.converged).toBe(false);
    expect(capped.length).toBeLessThanOrEqual(full.length + 1e-15);
    expect(capped.upper).toBeGreaterThanOrEqual(full.length - 1e-15);
    const target = Float64Array.from(space.centre);
    target[2] += capped.length;
    expect(checkRealisation(space, capped.mixture, target).error).toBeLessThanOrEqual(1e-12);
  });

  it("smoothing changes the path, not the answer", () => {
    const space = createSpace("offdiag-confusion", syntheticPool(800, 4, 22));
    for (const smoothing of [0, 0.3, 0.8]) {
      const res = axisExtent(space.centre, 5, -1, space.lmo, {
        start: uniformStart(space),
        smoothing,
        tolerance: 1e-13,
      });
      const ref = axisExtent(space.centre, 5, -1, space.lmo, {
        start: uniformStart(space),
        smoothing: 0,
        tolerance: 1e-13,
      });
      expect(relative(res.length, ref.length)).toBeLessThanOrEqual(1e-9);
    }
    expect(() =>
      axisExtent(space.centre, 0, 1, space.lmo, { start: uniformStart(space), smoothing: 1 }),
    ).toThrow(/smoothing/);
  });

  it("rejects a start that does not realise the centre, and a pool of another centre", () => {
    const space = createSpace("offdiag-confusion", pool);
    const start = uniformStart(space).map((p, j) => ({ ...p, weight: j === 0 ? 1 : 0 }));
    expect(() => axisExtent(space.centre, 0, 1, space.lmo, { start: start.slice(0, 1) })).toThrow(
      /do not realise the centre/,
    );
    const other = new ColumnPool(space.centre.map((v) => v + 1));
    expect(() =>
      axisExtent(space.centre, 0, 1, space.lmo, { start: uniformStart(space), pool: other }),
    ).toThrow(/another centre/);
  });

  it("the column pool deduplicates by identity and stores [v - o; 1]", () => {
    const space = createSpace("diag-rates", pool);
    const columns = new ColumnPool(space.centre);
    const r = space.lmo([1, 0, 0]);
    expect(columns.add(r)).toBe(0);
    expect(columns.add(r)).toBe(0);
    expect(columns.add({ ...r })).toBe(1);
    const c = columns.column(0);
    expect(c[3]).toBe(1);
    for (let i = 0; i < 3; i++) expect(c[i]).toBeCloseTo(r.point[i] - space.centre[i], 15);
  });
});

describe("findSphere: LP path (default) against the bisection reference", () => {
  const cases: [string, number, number, number][] = [
    ["k = 3", 500, 3, 31],
    ["k = 4", 700, 4, 32],
    ["k = 5", 900, 5, 33],
  ];
  for (const [name, n, k, seed] of cases) {
    const pool = syntheticPool(n, k, seed);
    const kindsHere: SpaceKind[] = k === 5 ? ["offdiag-confusion", "diag-rates"] : kinds;
    for (const kind of kindsHere) {
      it(`${name}, ${kind}: same extents and radius to 1e-6 relative`, () => {
        const space = createSpace(kind, pool);
        const lp = findSphere(space, { tolerance: 1e-9 });
        const ref = findSphere(space, { method: "bisection", tolerance: 1e-10 });
        expect(lp.stats.fallbacks).toBe(0);
        expect(lp.stats.feasibilityChecks).toBe(0);
        expect(lp.stats.linearPrograms).toBeGreaterThan(0);
        expect(relative(lp.radius, ref.radius)).toBeLessThanOrEqual(1e-6);
        for (let a = 0; a < space.dim; a++) {
          expect(relative(lp.axes[a].plus, ref.axes[a].plus)).toBeLessThanOrEqual(1e-6);
          expect(relative(lp.axes[a].minus, ref.axes[a].minus)).toBeLessThanOrEqual(1e-6);
          for (const [sign, length, h] of [
            [1, lp.axes[a].plus, lp.axes[a].plusClassifiers[0]],
            [-1, lp.axes[a].minus, lp.axes[a].minusClassifiers[0]],
          ] as const) {
            const target = Float64Array.from(lp.centre);
            target[a] += sign * length;
            expect(checkRealisation(space, h, target).error).toBeLessThanOrEqual(1e-12);
          }
        }
        // The LP's extents never exceed the exact ones: the bisection's lower ends are
        // within its tolerance below them.
        expect(lp.radius).toBeGreaterThanOrEqual(ref.radius * (1 - 1e-6));
      });
    }
  }

  it("an LP that hits its cap falls back to bisection, with the same result", () => {
    const space = createSpace("offdiag-confusion", syntheticPool(500, 3, 34));
    const capped = findSphere(space, { lp: { maxOracleCalls: 1 } });
    const lp = findSphere(space);
    expect(capped.stats.fallbacks).toBeGreaterThan(0);
    expect(capped.stats.feasibilityChecks).toBeGreaterThan(0);
    expect(relative(capped.radius, lp.radius)).toBeLessThanOrEqual(1e-5);
  });

  it("groups: LP extents are the minima over groups", () => {
    const a = createSpace("offdiag-rates", syntheticPool(400, 3, 35));
    const b = createSpace("offdiag-rates", syntheticPool(300, 3, 36, 0.7));
    const joint = findSphere([a, b], { tolerance: 1e-9 });
    const ref = findSphere([a, b], { method: "bisection", tolerance: 1e-10 });
    expect(relative(joint.radius, ref.radius)).toBeLessThanOrEqual(1e-6);
    for (const axis of joint.axes) {
      expect(axis.plus).toBe(Math.min(...axis.plusByGroup));
      expect(axis.minus).toBe(Math.min(...axis.minusByGroup));
    }
  });
});
