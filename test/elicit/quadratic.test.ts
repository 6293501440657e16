import { describe, expect, it } from "vitest";
import {
  reconstructQuadraticLeastSquares,
  symmetricEigen,
} from "../../src/elicit/quadratic/least-squares.ts";
import { ballPoint, elicitLpme, type RatePoint } from "../../src/elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  normalizeQuadratic,
  type QuadraticMetric,
  quadraticError,
  quadraticGradient,
  quadraticNorm,
  randomQuadraticMetric,
  regularity,
  shifted,
  validateQuadratic,
} from "../../src/elicit/quadratic/metric.ts";
import {
  choosePivot,
  elicitQpme,
  qpmeProcedure,
  qpmeQuestionBound,
  reconstructQuadratic,
} from "../../src/elicit/quadratic/qpme.ts";
import {
  parseQuadraticTruth,
  randomSphereTruth,
  simulateQuadratic,
} from "../../src/elicit/quadratic/simulate.ts";
import { replay, runProcedure } from "../../src/elicit/session.ts";
import {
  formatQuadraticReproduction,
  PAPER_TABLE1_QPME,
  quadraticErrorSvg,
  REFERENCE_CODE_ERRORS,
  reproduceQuadratic,
  settingGeometry,
} from "../../src/experiments/reproduce-quadratic.ts";
import { createRng } from "../../src/math/rng.ts";
import { mean } from "../../src/math/stats.ts";
import { dot, norm2, normalizeL2, sub } from "../../src/math/vector.ts";
import type { NoiseModel } from "../../src/oracle/noise.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

const EPS = 0.01;
const oracleFor = (m: QuadraticMetric, noise?: NoiseModel, seed = 0) =>
  simulatedOracle((p: RatePoint) => evaluateQuadratic(m, p.point), noise, seed);
const linearOracle = (a: readonly number[]) => simulatedOracle((p: RatePoint) => dot(a, p.point));
const paperGeometry = (k: number) => settingGeometry("paper", k);

/** True gradients at the QPME points, as LPME would return them if it were exact. */
function trueGradients(m: QuadraticMetric, centre: number[], rho: number, varrho: number) {
  const k = centre.length;
  const delta = rho - varrho;
  const o = quadraticGradient(m, centre);
  const z = Array.from({ length: k }, (_, j) => quadraticGradient(m, shifted(centre, j, delta)));
  const pivot = choosePivot(o, z);
  const minus = quadraticGradient(m, shifted(centre, pivot, -delta));
  return { gradients: { o, z, minus }, pivot };
}

describe("quadratic metric", () => {
  it("evaluates, differentiates and normalises", () => {
    const m: QuadraticMetric = {
      a: [1, 2],
      B: [
        [-2, 1],
        [1, -4],
      ],
    };
    const r = [0.3, 0.6];
    // <a, r> + 1/2 r^T B r = 1.5 + 0.5 (-0.18 + 0.36 - 1.44)
    expect(evaluateQuadratic(m, r)).toBeCloseTo(1.5 - 0.63, 12);
    const g = quadraticGradient(m, r);
    const h = 1e-6;
    for (let i = 0; i < 2; i++) {
      const up = r.slice();
      up[i]! += h;
      const dn = r.slice();
      dn[i]! -= h;
      expect(g[i]!).toBeCloseTo((evaluateQuadratic(m, up) - evaluateQuadratic(m, dn)) / (2 * h), 6);
    }
    expect(quadraticNorm(normalizeQuadratic(m))).toBeCloseTo(1, 12);
    expect(() =>
      validateQuadratic({
        a: [1, 2],
        B: [
          [0, 1],
          [0, 0],
        ],
      }),
    ).toThrow(/symmetric/);
  });

  it("draws normalised, negative semidefinite, regular truths (paper sampler)", () => {
    const rng = createRng(1);
    for (const k of [2, 3, 5]) {
      const g = paperGeometry(k);
      for (let t = 0; t < 20; t++) {
        const m = randomQuadraticMetric(k, rng, g);
        validateQuadratic(m, k);
        expect(quadraticNorm(m)).toBeCloseTo(1, 12);
        const na2 = dot(m.a, m.a);
        expect(na2).toBeGreaterThanOrEqual(0.3 - 1e-12);
        expect(na2).toBeLessThanOrEqual(0.7 + 1e-12);
        for (const x of m.a) expect(x).toBeGreaterThanOrEqual(0);
        for (let s = 0; s < 5; s++) {
          const x = Array.from({ length: k }, () => rng.normal());
          expect(
            dot(
              x,
              m.B.map((row) => dot(row, x)),
            ),
          ).toBeLessThanOrEqual(0);
        }
        expect(regularity(m, g).min).toBeGreaterThanOrEqual(1e-2);
      }
    }
    const code = randomQuadraticMetric(3, rng, { ...settingGeometry("code", 3), sampling: "code" });
    const x = [0.3, -0.2, 0.5];
    expect(
      dot(
        x,
        code.B.map((row) => dot(row, x)),
      ),
    ).toBeGreaterThan(0);
  });
});

describe("LPME (Algorithm 2)", () => {
  it("recovers random slopes with mixed signs within sqrt(k) eps, any order", () => {
    const rng = createRng(2);
    for (const k of [2, 3, 4, 5, 6]) {
      for (let t = 0; t < 10; t++) {
        const a = normalizeL2(Array.from({ length: k }, () => rng.normal()));
        const centre = Array.from({ length: k }, () => rng.uniform(0.2, 0.8));
        for (const order of ["forward", "reverse"] as const) {
          const r = elicitLpme(
            linearOracle(a).ask,
            { centre, radius: 0.2 },
            { tolerance: EPS, strategy: STRATEGIES.lazy, order },
          );
          expect(norm2(r.slope)).toBeCloseTo(1, 12);
          expect(norm2(sub(r.slope, a))).toBeLessThanOrEqual(Math.sqrt(k) * EPS);
          expect(r.signs).toEqual(a.map((x) => (x < 0 ? -1 : 1)));
        }
      }
    }
  });

  it("counts k sign queries plus 3 cycles of 8 halvings (4 or at most 3 questions each)", () => {
    const rng = createRng(3);
    for (const k of [2, 3, 5]) {
      const a = normalizeL2(Array.from({ length: k }, () => rng.normal()));
      const ball = { centre: new Array<number>(k).fill(1 / k), radius: 0.2 };
      const paper = elicitLpme(linearOracle(a).ask, ball, {
        tolerance: EPS,
        strategy: STRATEGIES.paper,
      });
      expect(paper.questions).toBe(k + 3 * (k - 1) * 8 * 4);
      expect(paper.signQuestions).toBe(k);
      const oracle = linearOracle(a);
      const lazy = elicitLpme(oracle.ask, ball, { tolerance: EPS, strategy: STRATEGIES.lazy });
      expect(lazy.questions).toBe(oracle.count());
      expect(lazy.questions).toBeLessThanOrEqual(k + 3 * (k - 1) * 8 * 3);
      // Same intervals as `paper` with consistent answers.
      expect(lazy.slope).toEqual(paper.slope);
    }
  });

  it("copes with a zero coordinate (a tied sign query) and keeps queries on the sphere", () => {
    const a = [0.6, 0, -0.8];
    const ball = { centre: [0.3, 0.3, 0.4], radius: 0.1 };
    const oracle = linearOracle(a);
    const r = elicitLpme(oracle.ask, ball, { tolerance: EPS, strategy: STRATEGIES.lazy });
    expect(norm2(sub(r.slope, a))).toBeLessThanOrEqual(Math.sqrt(3) * EPS);
    for (const entry of oracle.log) {
      for (const p of [entry.question.first, entry.question.second]) {
        expect(norm2(sub(p.point, ball.centre))).toBeCloseTo(0.1, 12);
        expect(p.classifier ?? null).toBeNull();
      }
    }
    expect(ballPoint(ball, [1, 0, 0]).point[0]).toBeCloseTo(0.4, 12);
  });
});

describe("QPME reconstruction (corrected formula, ALGORITHMS.md E.2)", () => {
  it("is exact on true gradients, for every pivot, both settings", () => {
    const rng = createRng(4);
    for (const setting of ["paper", "code"] as const) {
      for (const k of [2, 3, 4, 5]) {
        const g = settingGeometry(setting, k);
        for (let t = 0; t < 10; t++) {
          const m = randomQuadraticMetric(k, rng, { ...g, sampling: setting });
          // Unnormalised and rescaled gradients: only directions matter.
          const { gradients, pivot } = trueGradients(m, g.centre, g.rho, g.varrho);
          const rec = reconstructQuadratic(gradients, pivot, g);
          const e = quadraticError(m, rec.metric);
          expect(e.a).toBeLessThan(1e-9);
          expect(e.B).toBeLessThan(1e-9);
          for (let p = 0; p < k; p++) {
            const delta = g.rho - g.varrho;
            const minus = quadraticGradient(m, shifted(g.centre, p, -delta)).map((x) => 3 * x);
            const r2 = reconstructQuadratic({ ...gradients, minus }, p, g, 0);
            const e2 = quadraticError(m, r2.metric);
            expect(e2.a + e2.B).toBeLessThan(1e-9);
          }
        }
      }
    }
  });

  it("uses a = d - B o (the paper's a = d + B o is wrong) and the sign of f_p0", () => {
    const k = 3;
    const g = paperGeometry(k);
    const m = normalizeQuadratic({
      a: [-0.5, -0.2, -0.4],
      B: [
        [-0.6, 0.1, 0],
        [0.1, -0.5, 0.2],
        [0, 0.2, -0.7],
      ],
    });
    const { gradients, pivot } = trueGradients(m, g.centre, g.rho, g.varrho);
    const rec = reconstructQuadratic(gradients, pivot, g);
    expect(quadraticError(m, rec.metric).a).toBeLessThan(1e-9);
    // d + B o would be a + 2 B o: far from a.
    const bo = m.B.map((row) => dot(row, g.centre));
    const wrong = m.a.map((x, i) => x + 2 * bo[i]!);
    expect(norm2(sub(wrong, m.a))).toBeGreaterThan(0.1);
  });

  it("warns when the regularity assumption fails", () => {
    // Gradient at o along alpha_1 (coordinate 2 ~ 0) and at z_1 along alpha_2
    // (coordinate 1 ~ 0): every pivot has a near-zero coordinate.
    const k = 2;
    const g = paperGeometry(k);
    const delta = g.rho - g.varrho;
    const B = [
      [-(1 - 1e-3) / delta, 0.3],
      [0.3, -1],
    ];
    const d = [1, 1e-3];
    const a = d.map((x, i) => x - dot(B[i]!, g.centre));
    const m = normalizeQuadratic({ a, B });
    const { gradients, pivot } = trueGradients(m, g.centre, g.rho, g.varrho);
    const exact = reconstructQuadratic(gradients, pivot, g);
    expect(exact.warnings.some((w) => w.includes("regularity"))).toBe(true);
    expect(exact.diagnostics.minPivot).toBeLessThan(0.05);
    const r = elicitQpme(oracleFor(m).ask, k, { tolerance: EPS, strategy: STRATEGIES.lazy });
    expect(r.warnings.some((w) => w.includes("regularity"))).toBe(true);
  });

  it("warns when B_pp is not identifiable (column parallel to d, E.4)", () => {
    const k = 2;
    const g = paperGeometry(k);
    // d = (0.8, 0.3), B = -c d d^T / |d|^2 (+ small on the other axis): B_:,p parallel to d.
    const d = [0.8, 0.3];
    const B = [
      [-0.64, -0.24],
      [-0.24, -0.09],
    ];
    const a = d.map((x, i) => x - dot(B[i]!, g.centre));
    const m = normalizeQuadratic({ a, B });
    const { gradients, pivot } = trueGradients(m, g.centre, g.rho, g.varrho);
    const rec = reconstructQuadratic(gradients, pivot, g);
    expect(rec.warnings.some((w) => w.includes("poorly identified"))).toBe(true);
  });

  it("a regular metric raises no warning", () => {
    const g = paperGeometry(3);
    const m = normalizeQuadratic({
      a: [0.9, 0.5, 0.7],
      B: [
        [-0.6, 0.1, 0],
        [0.1, -0.5, 0.2],
        [0, 0.2, -0.7],
      ],
    });
    const r = elicitQpme(oracleFor(m).ask, 3, { tolerance: EPS, strategy: STRATEGIES.lazy });
    expect(r.warnings).toEqual([]);
    const e = quadraticError(m, r.metric);
    expect(e.a).toBeLessThan(0.02);
    expect(e.B).toBeLessThan(0.08);
    expect(r.runs.map((x) => x.label)).toEqual([
      "qpme-o",
      "qpme-z1",
      "qpme-z2",
      "qpme-z3",
      `qpme-minus-z${r.diagnostics.pivot + 1}`,
    ]);
    const fixed = elicitQpme(oracleFor(m).ask, 3, {
      tolerance: EPS,
      strategy: STRATEGIES.lazy,
      pivot: 0,
    });
    expect(fixed.diagnostics.pivot).toBe(0);
    expect(fixed.runs.at(-1)!.label).toBe("qpme-minus-z1");
    expect(quadraticError(m, fixed.metric).B).toBeLessThan(0.1);
    // Every queried point lies in the ball of radius rho around o.
    for (const run of r.runs) {
      expect(norm2(sub(run.centre, g.centre))).toBeLessThanOrEqual(g.rho - g.varrho + 1e-12);
    }
  });
});

describe("QPME (Algorithm 1) on the synthetic sphere", () => {
  it("matches or beats the authors' code in its own setting (k = 2, 3)", () => {
    // Noise free, the error comes from the angle resolution (final width <= eps / 1.6, so
    // each angle is within ~0.003) divided by rho - varrho ~ 1 for B: the reference code's
    // means (0.002/0.004 at k = 2, 0.005/0.020 at k = 3) are upper bounds we must meet.
    // Over 40 truths our k = 2 B mean ranged 0.0030-0.0042 across seeds (seed 11 failed);
    // over 400 the spread of the mean is about a third of that, and the bound holds with a
    // margin of several of its standard errors (measured 0.0031-0.0036 at 160 truths for seeds
    // 1-5, 7, 11). Three seeds, so no single lucky seed carries the test.
    for (const seed of [7, 11, 2027]) {
      const r = reproduceQuadratic({
        setting: "code",
        trials: 400,
        classes: [2, 3],
        strategies: ["paper"],
        seed,
      });
      for (const row of r.rows) {
        expect(row.errorA.mean).toBeLessThanOrEqual(REFERENCE_CODE_ERRORS[row.k]!.a);
        expect(row.errorB.mean).toBeLessThanOrEqual(REFERENCE_CODE_ERRORS[row.k]!.B);
        expect(row.meanQueries).toBe(qpmeQuestionBound(row.k, EPS, 4, 4));
      }
    }
  });

  it("recovers a and B in the paper's setting (rho = 0.2) with small errors (k = 2, 3)", () => {
    // rho - varrho ~ 0.2 multiplies the B error by ~5 compared with the code's setting, and
    // metrics whose gradient at o is nearly an axis (B_pp poorly identified, warned) add
    // outliers; on the unwarned trials we ask for the code setting's bounds times 5 for B.
    const r = reproduceQuadratic({ trials: 40, classes: [2, 3], strategies: ["lazy"] });
    for (const row of r.rows) {
      expect(row.errorA.median).toBeLessThanOrEqual(0.01);
      expect(row.errorB.median).toBeLessThanOrEqual(0.05);
      expect(row.meanErrorAClean).toBeLessThanOrEqual(0.01);
      expect(row.meanErrorBClean).toBeLessThanOrEqual(5 * REFERENCE_CODE_ERRORS[row.k]!.B + 0.01);
      expect(row.errorA.mean).toBeLessThanOrEqual(0.02);
      expect(row.errorB.mean).toBeLessThanOrEqual(0.06);
    }
  });

  it("reproduces Table 1's query counts within 10% with lazy questions; paper = 4 per halving", () => {
    const r = reproduceQuadratic({ trials: 100, strategies: ["lazy", "paper"] });
    for (const row of r.rows) {
      if (row.strategy === "lazy") {
        expect(Math.abs(row.meanQueries / PAPER_TABLE1_QPME[row.k]! - 1)).toBeLessThan(0.1);
        expect(row.maxQueries).toBeLessThanOrEqual(row.boundQueries);
      } else {
        expect(row.meanQueries).toBe((row.k + 2) * (row.k + 3 * (row.k - 1) * 8 * 4));
        expect(row.minQueries).toBe(row.maxQueries);
      }
    }
    expect(qpmeQuestionBound(2, EPS, 4)).toBe(392);
    expect(qpmeQuestionBound(5, EPS, 4)).toBe(2723);
  });

  it("a session replays from its answer log to the same result", () => {
    const rng = createRng(9);
    const k = 3;
    const m = randomQuadraticMetric(k, rng, paperGeometry(k));
    const procedure = qpmeProcedure(k, { tolerance: EPS, strategy: STRATEGIES.lazy });
    const live = runProcedure(procedure, oracleFor(m).ask);
    const again = replay(procedure, live.answers);
    expect(again.status).toBe("done");
    if (again.status === "done") expect(again.result).toEqual(live.result);
    const partial = replay(procedure, live.answers.slice(0, 100));
    expect(partial.status).toBe("pending");
    if (partial.status === "pending") {
      expect(partial.question.index).toBe(100);
      expect(partial.question.stage).toBe(live.questions[100]!.stage);
      expect(Array.from(partial.question.first.point)).toEqual(
        Array.from(live.questions[100]!.first.point),
      );
    }
    expect(live.result.questions).toBe(live.answers.length);
  });

  it("degrades gracefully with feedback noise (error grows with eps_Omega)", () => {
    const rng = createRng(11);
    const k = 3;
    const truths = Array.from({ length: 10 }, () =>
      randomQuadraticMetric(k, rng, paperGeometry(k)),
    );
    const errorAt = (epsilon: number) =>
      mean(
        truths.map((m, t) => {
          const noise: NoiseModel =
            epsilon > 0 ? { kind: "feedback", epsilon, wrong: "adversarial" } : { kind: "none" };
          const r = elicitQpme(oracleFor(m, noise, t).ask, k, {
            tolerance: EPS,
            strategy: STRATEGIES.paper,
          });
          return quadraticError(m, r.metric).B;
        }),
      );
    // varrho = 1e-3: the theory's error term sqrt(varrho + eps_Omega / varrho) grows with
    // eps_Omega once it is comparable to varrho times the angle resolution.
    const errors = [0, 1e-8, 1e-7, 1e-6, 1e-5].map(errorAt);
    for (const e of errors) expect(Number.isFinite(e)).toBe(true);
    expect(errors[4]!).toBeGreaterThan(errors[0]!);
    expect(errors[4]!).toBeGreaterThan(errors[2]!);
  });
});

describe("QPME error against varrho and eps_Omega (Theorem 1: sqrt(varrho + eps_Omega / varrho))", () => {
  // Median ||a - a_hat|| over 20 random metrics (k = 3, rho = 0.2, eps = 1e-3). Measured:
  // noise free, varrho 1e-3 / 1e-2 / 6e-2 -> 0.0005 / 0.0010 / 0.0038 (the curvature inside a
  // small ball biases its LPME slope, O(varrho)); adversarial eps_Omega = 1e-6, varrho 1e-4 /
  // 1e-3 / 1e-2 -> 0.48 / 0.18 / 0.08 (value gaps on a small ball are O(varrho), so noise
  // of size eps_Omega corrupts answers until varrho >> eps_Omega).
  const k = 3;
  const centre = [1 / 3, 1 / 3, 1 / 3];
  const medianErrorA = (epsilon: number, varrho: number): number => {
    const rng = createRng(3);
    const errors: number[] = [];
    for (let t = 0; t < 20; t++) {
      const m = randomQuadraticMetric(k, rng, {
        centre,
        rho: 0.2,
        varrho: 1e-3,
        sampling: "paper",
      });
      const noise: NoiseModel =
        epsilon > 0 ? { kind: "feedback", epsilon, wrong: "adversarial" } : { kind: "none" };
      const r = elicitQpme(oracleFor(m, noise, t).ask, k, {
        tolerance: 1e-3,
        strategy: STRATEGIES.lazy,
        centre,
        rho: 0.2,
        varrho,
      });
      errors.push(quadraticError(m, r.metric).a);
    }
    return errors.sort((x, y) => x - y)[10]!;
  };

  it("noise free: the error grows with varrho", () => {
    const [small, mid, large] = [1e-3, 1e-2, 6e-2].map((v) => medianErrorA(0, v));
    expect(small!).toBeLessThan(0.002);
    expect(large!).toBeGreaterThan(2 * small!);
    expect(large!).toBeGreaterThan(mid!);
  });

  it("with feedback noise: the error falls as varrho grows past eps_Omega", () => {
    const errors = [1e-4, 1e-3, 1e-2].map((v) => medianErrorA(1e-6, v));
    expect(errors[0]!).toBeGreaterThan(errors[1]!);
    expect(errors[1]!).toBeGreaterThan(errors[2]!);
    // and noise costs accuracy at every varrho compared with the noise-free run
    expect(errors[2]!).toBeGreaterThan(5 * medianErrorA(0, 1e-2));
  });
});

describe("simulated quadratic elicitation (issue 5 contract)", () => {
  it("parses and normalises --truth, and reports family, truth, elicited, queries, error", () => {
    const truth = parseQuadraticTruth(
      '{"a":[0.5,0.3,0.4],"B":[[-0.3,0.05,0],[0.05,-0.2,0.02],[0,0.02,-0.25]]}',
      3,
    );
    expect(quadraticNorm(truth)).toBeCloseTo(1, 12);
    expect(() => parseQuadraticTruth('{"a":[1,2]}', 2)).toThrow(/B/);
    expect(() => parseQuadraticTruth('{"a":[1,2],"B":[[0,0],[0,0]]}', 3)).toThrow(/3/);
    const report = simulateQuadratic(
      truth,
      { tolerance: EPS, strategy: STRATEGIES.lazy },
      { kind: "none" },
      1,
    );
    expect(report.family).toBe("quadratic");
    expect(report.queries).toBe(report.session.answers.length);
    // One truth, noise free: each LPME angle is within ~0.003 (final width 0.006) and
    // ratio errors are divided by rho - varrho ~ 0.2 for B, so a single run can be off by
    // ~0.1 in B (this one: 0.13) even though the mean over random truths is ~0.04.
    expect(report.error.a).toBeLessThan(0.02);
    expect(report.error.B).toBeLessThan(0.2);
    expect(report.warnings).toEqual([]);
    const json = JSON.parse(JSON.stringify(report));
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(["family", "truth", "elicited", "queries", "error"]),
    );
    const random = randomSphereTruth(4, createRng(5));
    expect(quadraticNorm(random)).toBeCloseTo(1, 12);
  });
});

describe("least-squares reconstruction (our pivot-free option)", () => {
  it("Jacobi eigen-decomposition", () => {
    const { values, vectors } = symmetricEigen([
      [2, 1, 0],
      [1, 2, 0],
      [0, 0, 5],
    ]);
    expect(values.slice().sort((x, y) => x - y)).toEqual([
      expect.closeTo(1, 12),
      expect.closeTo(3, 12),
      expect.closeTo(5, 12),
    ]);
    const i = values.findIndex((v) => Math.abs(v - 1) < 1e-9);
    const v = vectors.map((row) => row[i]!);
    expect(Math.abs(v[0]! + v[1]!)).toBeLessThan(1e-12);
  });

  it("is exact on true gradients", () => {
    const rng = createRng(12);
    for (const setting of ["paper", "code"] as const) {
      for (const k of [2, 3, 4, 5]) {
        const g = settingGeometry(setting, k);
        for (let t = 0; t < 10; t++) {
          const m = randomQuadraticMetric(k, rng, { ...g, sampling: setting });
          const { gradients, pivot } = trueGradients(m, g.centre, g.rho, g.varrho);
          const ls = reconstructQuadraticLeastSquares(gradients, pivot, g);
          const e = quadraticError(m, ls.metric);
          expect(e.a + e.B).toBeLessThan(1e-9);
          expect(ls.identifiability).toBeGreaterThan(0);
        }
      }
    }
  });

  it("asks the same questions and is no worse on average (k = 3, 4)", () => {
    for (const k of [3, 4]) {
      const options = { trials: 30, classes: [k], strategies: ["lazy"] as const };
      const ratios = reproduceQuadratic(options).rows[0]!;
      const ls = reproduceQuadratic({ ...options, reconstruction: "least-squares" }).rows[0]!;
      expect(ls.meanQueries).toBe(ratios.meanQueries);
      expect(ls.errorA.mean).toBeLessThanOrEqual(ratios.errorA.mean * 1.05);
      expect(ls.errorB.mean).toBeLessThanOrEqual(ratios.errorB.mean * 1.05);
    }
  });
});

describe("reproduction report", () => {
  it("prints a table and draws Figure 4 as SVG", () => {
    const r = reproduceQuadratic({ trials: 5, strategies: ["lazy"] });
    const text = formatQuadraticReproduction(r);
    expect(text).toContain("265.43");
    expect(text.split("\n").filter((l) => /^\d\tlazy/.test(l))).toHaveLength(4);
    const svg = quadraticErrorSvg(r);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trim().endsWith("</svg>")).toBe(true);
    for (const k of [2, 3, 4, 5]) expect(svg).toContain(`k = ${k}`);
    expect(svg).not.toContain("NaN");
  });
});
