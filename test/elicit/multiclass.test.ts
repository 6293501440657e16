import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anglesOf, upsilon } from "../../src/elicit/multiclass/angles.ts";
import { elicitDlpm } from "../../src/elicit/multiclass/dlpm.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import { multiclassProcedure, paperMulticlassCount } from "../../src/elicit/multiclass/spec.ts";
import { replay } from "../../src/elicit/session.ts";
import { reproduceMulticlass } from "../../src/experiments/reproduce-multiclass.ts";
import {
  randomMulticlassTruth,
  simulateMulticlass,
} from "../../src/experiments/simulate-multiclass.ts";
import type { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";
import { checkRealisation } from "../../src/geometry/multiclass/realise.ts";
import { createSpace } from "../../src/geometry/multiclass/space.ts";
import { findSphere } from "../../src/geometry/multiclass/sphere.ts";
import { createRng } from "../../src/math/rng.ts";
import { dot, normalizeL1 } from "../../src/math/vector.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import {
  prepareMulticlassFromCsv,
  syntheticMulticlassPool,
} from "../../src/population/multiclass.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

const none = { kind: "none" } as const;
const load = (file: string, target: string) =>
  prepareMulticlassFromCsv(
    readFileSync(new URL(`../../data/${file}.csv`, import.meta.url), "utf8"),
    { target },
  ).pool;

describe("angle map", () => {
  it("upsilon gives unit vectors and anglesOf inverts it", () => {
    const rng = createRng(3);
    for (let t = 0; t < 50; t++) {
      const theta = Array.from({ length: 5 }, () => rng.uniform(0, Math.PI / 2));
      const u = upsilon(theta);
      expect(Math.hypot(...u)).toBeCloseTo(1, 12);
      for (const [i, x] of anglesOf(u).entries()) expect(x).toBeCloseTo(theta[i]!, 6);
    }
  });
});

describe("Tables 5 and 6 on the synthetic population (paper mode)", () => {
  const r = reproduceMulticlass("paper", 10);
  it("DLPM: 56 (k = 3) and 84 (k = 4) questions, every coordinate within 0.01 of the truth", () => {
    expect(r.table5).toHaveLength(20);
    for (const row of r.table5) {
      expect(row.run.queries).toBe(row.k === 3 ? 56 : 84);
      expect(row.run.queries).toBe(
        paperMulticlassCount(
          { family: "diagonal-linear", tolerance: 0.01, strategy: "paper" },
          row.k,
        ),
      );
      expect(row.run.error.linf).toBeLessThanOrEqual(0.01);
    }
  });
  it("LPM: 320 (k = 3) and 704 (k = 4) questions, every coordinate within 0.01 of the truth", () => {
    expect(r.table6).toHaveLength(10);
    for (const row of r.table6) {
      expect(row.run.queries).toBe(row.k === 3 ? 320 : 704);
      expect(row.run.error.linf).toBeLessThanOrEqual(0.01);
    }
  });
  it("Table 7: elicitation degrades as the sphere shrinks towards rounding error", () => {
    const rows = r.table7.rows;
    const at = (i: number) => rows[i]!.fractions[2]!; // omega = 0.06
    expect(at(0)).toBeLessThanOrEqual(at(rows.length - 1));
    expect(at(rows.length - 1)).toBe(1);
    for (let i = 1; i < rows.length; i++) expect(at(i)).toBeGreaterThanOrEqual(at(i - 1));
  });
  it("random DLPMs with the pivot-selection pass, k = 3 and 4, within the tolerance plus the resolution", () => {
    // The synthetic eta ratios are bounded (e^-2..e^2 between neighbouring classes), so each
    // restricted set has vertices whose normal cones hide a range of m: the resolution.
    for (const k of [3, 4]) {
      const pool = syntheticMulticlassPool(k);
      const rng = createRng(k);
      for (let t = 0; t < 20; t++) {
        const a = randomMulticlassTruth("diagonal-linear", k, rng);
        const oracle = simulatedOracle((p: MulticlassPoint) => dot(a, p.point), none, t);
        const r = elicitDlpm(oracle.ask, pool, {
          tolerance: 0.01,
          strategy: STRATEGIES.paper,
          pivot: "select",
        });
        expect(a[r.pivot]!).toBeGreaterThanOrEqual(Math.max(...a) / 2);
        for (const b of r.boundary) {
          const [lo, hi] = resolution(pool, a, b.pair[0], b.pair[1]);
          expect(b.m).toBeGreaterThanOrEqual(lo - 0.01);
          expect(b.m).toBeLessThanOrEqual(hi + 0.01);
        }
      }
    }
  });
});

describe("DLPM pivot selection (ALGORITHMS.md A.4)", () => {
  it("recovers a metric whose first class has a tiny weight", () => {
    const pool = syntheticMulticlassPool(4);
    const a = [0.019, 0.405, 0.097, 0.479];
    const oracle = simulatedOracle((p: MulticlassPoint) => dot(a, p.point), none, 1);
    const r = elicitDlpm(oracle.ask, pool, {
      tolerance: 0.01,
      strategy: STRATEGIES.paper,
      pivot: "select",
    });
    for (const [i, x] of r.metric.entries()) expect(Math.abs(x - a[i]!)).toBeLessThanOrEqual(0.01);
    expect(r.pivot).not.toBe(0);
  });
});

/**
 * The finite-sample resolution of pair (p, i) for a true DLPM a: the range of m whose RBO
 * point is within a relative 1e-4 of the best value — steps of the staircase boundary that
 * no stakeholder could tell apart from the optimum (Definition 7 with eps_Omega = 1e-4 |psi*|: a 0.01% difference in expected utility).
 * The RBO labels point n with p when m >= b_n = eta_i / (eta_p + eta_i).
 */
function resolution(
  pool: MulticlassPool,
  a: readonly number[],
  p: number,
  i: number,
): [number, number] {
  const pts: { b: number; ep: number; ei: number }[] = [];
  for (let n = 0; n < pool.n; n++) {
    const ep = pool.eta[n * pool.k + p]!;
    const ei = pool.eta[n * pool.k + i]!;
    pts.push({ b: ep + ei === 0 ? 0 : ei / (ep + ei), ep, ei });
  }
  pts.sort((x, y) => x.b - y.b);
  // Step s: the s points with the smallest b are labelled p, the rest i.
  let dp = 0;
  let di = pts.reduce((t, x) => t + x.ei, 0);
  const steps: { lo: number; hi: number; v: number }[] = [];
  for (let s = 0; s <= pts.length; s++) {
    if (s > 0) {
      dp += pts[s - 1]!.ep;
      di -= pts[s - 1]!.ei;
    }
    const lo = s === 0 ? 0 : pts[s - 1]!.b;
    const hi = s === pts.length ? 1 : pts[s]!.b;
    steps.push({ lo, hi, v: (a[p]! * dp + a[i]! * di) / pool.n });
  }
  const best = Math.max(...steps.map((x) => x.v));
  const near = steps.filter((x) => x.v >= best - 1e-4 * Math.abs(best));
  return [Math.min(...near.map((x) => x.lo)), Math.max(...near.map((x) => x.hi))];
}

const datasets: [string, string][] = [
  ["wine", "target"],
  ["vehicle", "Class"],
  ["glass", "Type"],
  ["digits", "target"],
];

describe("real multiclass datasets", () => {
  for (const [file, target] of datasets) {
    const pool = load(file, target);
    const diagSpace = createSpace("diag-confusion", pool);
    it(`${file}: 100 random DLPMs are recovered within the tolerance plus the finite-sample resolution, every queried point realised`, () => {
      const rng = createRng(100);
      const eps = 0.01;
      for (let t = 0; t < 100; t++) {
        const a = normalizeL1(Array.from({ length: pool.k }, () => 0.05 + rng.next()));
        const oracle = simulatedOracle((p: MulticlassPoint) => dot(a, p.point), none, t);
        const r = elicitDlpm(oracle.ask, pool, { tolerance: eps, strategy: STRATEGIES.lazy });
        for (const b of r.boundary) {
          const [p, i] = b.pair;
          const mStar = a[p]! / (a[p]! + a[i]!);
          const [lo, hi] = resolution(pool, a, p, i);
          expect(mStar).toBeGreaterThanOrEqual(lo);
          expect(mStar).toBeLessThanOrEqual(hi);
          // The elicited m lies in the near-optimal range, widened by the tolerance.
          expect(b.m).toBeGreaterThanOrEqual(lo - eps);
          expect(b.m).toBeLessThanOrEqual(hi + eps);
        }
        // Every queried point is realised by its classifier on the pool.
        let worst = 0;
        for (const q of oracle.log) {
          for (const pt of [q.question.first, q.question.second]) {
            worst = Math.max(worst, checkRealisation(diagSpace, pt.classifier, pt.point).error);
          }
        }
        expect(worst).toBeLessThanOrEqual(1e-9);
      }
    });
    it(`${file}: 100 random LPMs are recovered within the tolerance, every queried point realised`, {
      timeout: 300_000,
    }, () => {
      const space = createSpace("offdiag-confusion", pool);
      const sphere = findSphere(space);
      expect(sphere.radius).toBeGreaterThan(0);
      const rng = createRng(200);
      for (let t = 0; t < 100; t++) {
        const a = randomMulticlassTruth("linear", pool.k, rng);
        const r = simulateMulticlass(
          { family: "linear", tolerance: 0.01, strategy: "paper", order: "reverse" },
          a,
          pool,
          sphere,
          none,
          t,
        );
        expect(r.error.linf).toBeLessThanOrEqual(0.01);
        let worst = 0;
        for (const q of r.questions) {
          for (const pt of [q.first, q.second]) {
            worst = Math.max(worst, checkRealisation(space, pt.classifier, pt.point).error);
          }
        }
        expect(worst).toBeLessThanOrEqual(1e-9);
      }
    });
  }
});

describe("multiclass sessions replay", () => {
  it("a replayed prefix poses the same next question", () => {
    const pool = syntheticMulticlassPool(3);
    const spec = { family: "diagonal-linear", tolerance: 0.05, strategy: "lazy" } as const;
    const r = simulateMulticlass(
      spec,
      [0.2, 0.5, 0.3],
      pool,
      undefined,
      { kind: "flip", probability: 0.1 },
      4,
    );
    for (const k of [0, 3, 7]) {
      const state = replay(multiclassProcedure(spec, pool), r.session.answers.slice(0, k));
      expect(state.status === "pending" && state.question.index).toBe(k);
      if (state.status === "pending")
        expect(Array.from(state.question.first.point)).toEqual(
          Array.from(r.questions[k]!.first.point),
        );
    }
  });
});
