import { describe, expect, it } from "vitest";
import { fractionalBayes } from "../../src/elicit/binary/fractional-bayes.ts";
import { boundaryPoints, metricRatios } from "../../src/elicit/binary/grid-search.ts";
import { optimalThreshold } from "../../src/elicit/binary/optimal-threshold.ts";
import {
  type BinarySpec,
  binaryProcedure,
  paperQuestionCount,
} from "../../src/elicit/binary/spec.ts";
import { truthValue, upperBoundaryPoints } from "../../src/elicit/binary/truth.ts";
import { replay, runProcedure } from "../../src/elicit/session.ts";
import {
  PAPER_TABLE1,
  PAPER_TABLE2,
  reproduceBinary,
} from "../../src/experiments/reproduce-binary.ts";
import { randomBinaryTruth, simulateBinary } from "../../src/experiments/simulate-binary.ts";
import { softPool } from "../../src/geometry/binary/pool.ts";
import { syntheticPopulation } from "../../src/geometry/binary/synthetic.ts";
import { createRng } from "../../src/math/rng.ts";
import { mean, std } from "../../src/math/stats.ts";
import { assumption2Violations, evaluateFractional } from "../../src/metrics/binary-fractional.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";

const pop = syntheticPopulation(5);
const linear = (tolerance: number, strategy: BinarySpec["strategy"] = "paper"): BinarySpec => ({
  family: "binary-linear",
  tolerance,
  strategy,
});

describe("LPM elicitation", () => {
  it("asks exactly 4 ceil(log2((pi/2)/eps)) questions in paper mode", () => {
    for (const eps of [0.2, 0.05, 0.02, 0.01, 0.001, 1e-5]) {
      const r = simulateBinary(
        linear(eps),
        { family: "binary-linear", metric: { tp: 0.3, tn: 0.9 } },
        pop,
        { kind: "none" },
        1,
      );
      expect(r.queries).toBe(4 * Math.ceil(Math.log2(Math.PI / 2 / eps)));
      expect(r.queries).toBe(paperQuestionCount(linear(eps)));
    }
  });

  it("recovers 200 random LPMs on the synthetic population within the tolerance (every strategy)", () => {
    const rng = createRng(2019);
    for (let t = 0; t < 200; t++) {
      const theta = rng.uniform(0, Math.PI / 2);
      const truth = {
        family: "binary-linear" as const,
        metric: { tp: Math.cos(theta), tn: Math.sin(theta) },
      };
      for (const strategy of ["paper", "lazy", "bisect"] as const) {
        const r = simulateBinary(linear(0.02, strategy), truth, pop, { kind: "none" }, t);
        expect((r.error as { angle: number }).angle).toBeLessThanOrEqual(0.02);
      }
    }
  });

  it("lazy and bisect ask fewer questions for the same answers", () => {
    const truth = { family: "binary-linear" as const, metric: { tp: 0.6, tn: 0.8 } };
    const paper = simulateBinary(linear(0.02, "paper"), truth, pop, { kind: "none" }, 1);
    const lazy = simulateBinary(linear(0.02, "lazy"), truth, pop, { kind: "none" }, 1);
    const bisect = simulateBinary(linear(0.02, "bisect"), truth, pop, { kind: "none" }, 1);
    expect(lazy.elicited).toEqual(paper.elicited);
    expect(bisect.elicited).toEqual(paper.elicited);
    expect(lazy.queries).toBeLessThanOrEqual(21);
    expect(bisect.queries).toBeLessThanOrEqual(14);
  });

  it("stays within Theorem 2's bound under feedback noise", () => {
    // Theorem 2: ||m* - m_hat||_inf <= sqrt(2) eps + (2 / k0) sqrt(2 k1 eps_Omega), with k0, k1
    // bounds on the density of eta(X) near the optimal threshold. For X ~ U[-1,1] and
    // eta = 1/(1+e^{5x}) that density is 1 / (10 delta (1 - delta)).
    const rng = createRng(11);
    const eps = 0.02;
    for (const epsOmega of [1e-4, 1e-3]) {
      for (const wrong of ["adversarial", "random"] as const) {
        for (let t = 0; t < 50; t++) {
          const theta = rng.uniform(0.2, Math.PI / 2 - 0.2);
          const m = { tp: Math.cos(theta), tn: Math.sin(theta) };
          const delta = m.tn / (m.tp + m.tn);
          const lo = Math.max(0.01, delta - 0.15);
          const hi = Math.min(0.99, delta + 0.15);
          const density = (d: number) => 1 / (10 * d * (1 - d));
          const k0 = Math.min(density(lo), density(hi), density(Math.min(Math.max(0.5, lo), hi)));
          const k1 = Math.max(density(lo), density(hi));
          const bound = Math.SQRT2 * eps + (2 / k0) * Math.sqrt(2 * k1 * epsOmega);
          const r = simulateBinary(
            linear(eps),
            { family: "binary-linear", metric: m },
            pop,
            { kind: "feedback", epsilon: epsOmega, wrong },
            t,
          );
          const e = r.elicited as { tp: number; tn: number };
          const errInf = Math.max(Math.abs(e.tp - m.tp), Math.abs(e.tn - m.tn));
          expect(errInf).toBeLessThanOrEqual(bound);
        }
      }
    }
  });

  it("reproduces Table 1: the four LPMs within 0.02 rad (two by Algorithm 1, two by Algorithm 2)", () => {
    const r = reproduceBinary("paper");
    expect(r.table1.map((row) => row.algorithm)).toEqual(PAPER_TABLE1.map((row) => row.algorithm));
    for (const row of r.table1) {
      expect((row.run.error as { angle: number }).angle).toBeLessThanOrEqual(0.02);
      expect(row.run.queries).toBe(28);
    }
  });
});

describe("LFPM elicitation (Table 2, synthetic rows)", () => {
  const r = reproduceBinary("paper");
  it("elicits a metric equal to the truth up to a constant (alpha near 1, small sigma)", () => {
    for (const row of r.table2) {
      const e = row.run.error as { alphaMean: number; alphaStd: number };
      expect(Math.abs(e.alphaMean - 1)).toBeLessThan(0.1);
      expect(row.run.queries).toBe(40);
    }
    const second = r.table2[1]!.run.error as { alphaStd: number };
    expect(second.alphaStd).toBeLessThanOrEqual(0.03);
  });
  it("is as close to a constant multiple as the paper's own elicited metric, row by row", () => {
    const points = upperBoundaryPoints(pop);
    r.table2.forEach((row, i) => {
      const paperRatios = metricRatios(PAPER_TABLE2[i]!.paper, row.truth, points);
      const ours = row.run.error as { alphaStd: number };
      expect(ours.alphaStd).toBeLessThanOrEqual(std(paperRatios) + 0.002);
    });
  });
  it("reproduces the paper's elicited first row to two decimals", () => {
    const e = r.table2[0]!.run.elicited;
    expect(e.p11).toBeCloseTo(1, 1);
    expect(e.q11).toBeCloseTo(0.25, 2);
    expect(e.q00).toBeCloseTo(-0.75, 2);
    expect(e.q0).toBeCloseTo(0.75, 2);
  });
  it("converges to exactly the paper's elicited row 1 as the LPM searches tighten", () => {
    // At tolerance 0.002 both supporting lines are nearly exact, Algorithm 3 picks p11 = 1 and
    // the elicited metric is the paper's own (1.00, 0.00), (0.25, -0.75, 0.75); on our 1000
    // upper-boundary points it scores sigma ~0.038, above the 0.03 printed in Table 2: the
    // printed sigma was measured on a point set we cannot reconstruct, not a better metric.
    const row = PAPER_TABLE2[0]!;
    const run = simulateBinary(
      {
        family: "binary-linear-fractional",
        tolerance: 0.002,
        strategy: "paper",
        gridPoints: 2000,
        gridStep: 0.01,
      },
      { family: "binary-linear-fractional", metric: row.truth },
      pop,
      { kind: "none" },
      1,
    );
    const e = run.elicited as unknown as typeof row.paper;
    for (const key of ["p11", "p00", "q11", "q00", "q0"] as const) {
      expect(Math.abs(e[key] - row.paper[key])).toBeLessThan(0.005);
    }
    const sigma = (run.error as { alphaStd: number }).alphaStd;
    expect(sigma).toBeCloseTo(std(metricRatios(row.paper, row.truth, upperBoundaryPoints(pop))), 2);
    expect(sigma).toBeGreaterThan(0.03);
  });
  it("uses k = 2000 boundary points split over both boundaries", () => {
    expect(boundaryPoints(pop, 2000)).toHaveLength(2000);
    expect(
      mean(metricRatios(PAPER_TABLE2[0]!.truth, PAPER_TABLE2[0]!.truth, upperBoundaryPoints(pop))),
    ).toBe(1);
  });
});

describe("user-study threshold search", () => {
  it("recovers a0 within the tolerance on a soft pool", () => {
    const rng = createRng(5);
    const pool = softPool(Float64Array.from({ length: 5000 }, () => rng.next()));
    for (const a0 of [0.05, 0.2, 0.5, 0.875]) {
      const r = simulateBinary(
        { family: "binary-threshold", tolerance: 0.05, strategy: "paper" },
        { family: "binary-threshold", a0 },
        pool,
        { kind: "none" },
        1,
      );
      expect((r.error as { a0: number }).a0).toBeLessThanOrEqual(0.025 + 1e-3);
      expect(r.queries).toBe(20);
    }
  });
});

describe("sessions replay from the answer log", () => {
  const spec: BinarySpec = {
    family: "binary-linear-fractional",
    tolerance: 0.05,
    strategy: "lazy",
  };
  const truth = { family: "binary-linear-fractional" as const, metric: PAPER_TABLE2[1]!.truth };
  const oracle = simulatedOracle(truthValue(truth), { kind: "flip", probability: 0.1 }, 3);
  const live = runProcedure(binaryProcedure(spec, pop), oracle.ask);

  it("every prefix of the log resumes at the same next question", () => {
    for (let k = 0; k < live.answers.length; k++) {
      const state = replay(binaryProcedure(spec, pop), live.answers.slice(0, k));
      expect(state.status).toBe("pending");
      if (state.status === "pending") {
        expect(state.question.index).toBe(k);
        expect(state.question).toEqual(live.questions[k]);
      }
    }
  });
  it("the full log replays to the same result, also after JSON serialisation", () => {
    const saved = JSON.parse(JSON.stringify({ spec, seed: 3, answers: live.answers }));
    const state = replay(binaryProcedure(saved.spec, pop), saved.answers);
    expect(state.status).toBe("done");
    if (state.status === "done") expect(state.result).toEqual(live.result);
  });
  it("undo = drop the last answer and replay", () => {
    const state = replay(binaryProcedure(spec, pop), live.answers.slice(0, -1));
    expect(state.status === "pending" && state.question.index).toBe(live.answers.length - 1);
  });
  it("rejects a log longer than the procedure", () => {
    expect(() => replay(binaryProcedure(spec, pop), [...live.answers, "first"])).toThrow(
      /answer log/,
    );
  });
});

describe("what pairwise answers can identify of an LFPM", () => {
  it("phi and phi / (c phi + 1 - c) satisfy Assumption 2, give identical answers and the same elicited metric", () => {
    const phi = PAPER_TABLE2[0]!.truth;
    const c = 0.3;
    const other = {
      p11: phi.p11,
      p00: phi.p00,
      q11: c * phi.p11 + (1 - c) * phi.q11,
      q00: c * phi.p00 + (1 - c) * phi.q00,
      q0: (1 - c) * phi.q0,
    };
    expect(assumption2Violations(other, pop.zeta)).toEqual([]);
    const spec: BinarySpec = {
      family: "binary-linear-fractional",
      tolerance: 0.05,
      strategy: "paper",
    };
    const a = runProcedure(
      binaryProcedure(spec, pop),
      simulatedOracle(truthValue({ family: "binary-linear-fractional", metric: phi }), {
        kind: "none",
      }).ask,
    );
    const b = runProcedure(
      binaryProcedure(spec, pop),
      simulatedOracle(truthValue({ family: "binary-linear-fractional", metric: other }), {
        kind: "none",
      }).ask,
    );
    expect(b.answers).toEqual(a.answers);
    expect(b.result).toEqual(a.result);
    // ...yet the two "true" metrics are not constant multiples of each other.
    expect(std(metricRatios(other, phi, upperBoundaryPoints(pop)))).toBeGreaterThan(0.01);
  });
});

describe("Bayes optimal classifier of an LFPM (Dinkelbach)", () => {
  it("matches an exhaustive threshold scan on the synthetic population and on a soft pool", () => {
    const rng = createRng(3);
    const pool = softPool(Float64Array.from({ length: 3000 }, () => rng.next()));
    for (const p of [pop, pool]) {
      for (let t = 0; t < 100; t++) {
        const truth = randomBinaryTruth("binary-linear-fractional", rng, p.zeta);
        if (truth.family !== "binary-linear-fractional") throw new Error("family");
        const a = fractionalBayes(p, truth.metric);
        const b = optimalThreshold(p, (c) => evaluateFractional(truth.metric, c));
        expect(a.value).toBeGreaterThanOrEqual(b.value - 1e-12);
        expect(a.steps).toBeLessThanOrEqual(20);
      }
    }
  });
});
