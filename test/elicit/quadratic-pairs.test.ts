import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  evaluateQuadratic,
  quadraticGradient,
  randomQuadraticMetric,
} from "../../src/elicit/quadratic/metric.ts";
import { elicitPairGradient, pairHalvings } from "../../src/elicit/quadratic/pair-gradient.ts";
import { qpmePairsRegion } from "../../src/elicit/quadratic/pair-region.ts";
import { elicitQpme, qpmeProcedure } from "../../src/elicit/quadratic/qpme.ts";
import { replay, runProcedure } from "../../src/elicit/session.ts";
import {
  REFERENCE_CODE_ERRORS,
  reproduceQuadratic,
} from "../../src/experiments/reproduce-quadratic.ts";
import { createRng } from "../../src/math/rng.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

// Issue 28 item 7: QPME in the authors' setting (sphere of radius 1 around 0, eps 0.01) at
// q = 12 rates must converge (the truth inside its region) in fewer than 2,000 questions; the
// paper's search takes 19,880 there (the authors' code: the same count). Our `pairs` strategy
// finds each gradient by one bisection per rate on pairs symmetric about the point.

describe("gradients from symmetric pairs", () => {
  it("every angle's interval holds the true gradient's, with 1 + (q - 1) h questions", () => {
    const rng = createRng("pairs-exact");
    for (const q of [2, 5, 12]) {
      const centre = new Array<number>(q).fill(0);
      const truth = randomQuadraticMetric(q, rng, {
        centre,
        rho: 1,
        varrho: 5e-3,
        sampling: "code",
      });
      // A point away from the centre, where the quadratic part bends the metric most.
      const at = centre.map((_, i) => (i === 0 ? 0.6 : 0));
      const oracle = simulatedOracle((p: { point: Float64Array }) =>
        evaluateQuadratic(truth, p.point),
      );
      const r = elicitPairGradient(oracle.ask, { centre: at, radius: 5e-3 }, { tolerance: 0.01 });
      expect(r.questions).toBe(1 + (q - 1) * pairHalvings(0.01));
      const g = quadraticGradient(truth, at);
      expect(Math.sign(g[r.firstPivot]!)).toBe(r.firstSign);
      for (const a of r.angles) {
        const theta = Math.atan2(g[a.coordinate]!, Math.abs(g[a.pivot]!));
        expect(theta, `q ${q} rate ${a.coordinate}`).toBeGreaterThanOrEqual(a.lo);
        expect(theta, `q ${q} rate ${a.coordinate}`).toBeLessThanOrEqual(a.hi);
        expect(a.hi - a.lo).toBeLessThanOrEqual(0.01);
      }
      const n = Math.hypot(...g);
      const err = Math.hypot(...r.direction.map((x, i) => x - g[i]! / n));
      expect(err).toBeLessThan(0.02);
    }
  });

  it("a pairs run replays from its answers alone: same questions, metric and region", () => {
    const centre = new Array<number>(6).fill(0);
    const truth = randomQuadraticMetric(6, createRng("pairs-replay"), {
      centre,
      rho: 1,
      varrho: 5e-3,
      sampling: "code",
    });
    const oracle = simulatedOracle((p: { point: Float64Array }) =>
      evaluateQuadratic(truth, p.point),
    );
    const options = {
      tolerance: 0.01,
      strategy: STRATEGIES.lazy,
      centre,
      rho: 1,
      varrho: 5e-3,
      gradients: "pairs" as const,
    };
    const live = runProcedure(qpmeProcedure(6, options), oracle.ask);
    expect(live.answers).toHaveLength(8 * (1 + 5 * pairHalvings(0.01)));
    const again = replay(qpmeProcedure(6, options), live.answers);
    expect(again.status).toBe("done");
    if (again.status !== "done") return;
    expect(again.result.metric).toEqual(live.result.metric);
    expect(again.questions.map((q) => Array.from(q.first.point))).toEqual(
      live.questions.map((q) => Array.from(q.first.point)),
    );
    expect(qpmePairsRegion(again.result)).toEqual(qpmePairsRegion(live.result));
  });

  it("the region is refused for a run of the paper's search, which keeps no intervals", () => {
    const truth = randomQuadraticMetric(3, createRng(3), {
      centre: [0, 0, 0],
      rho: 1,
      varrho: 5e-3,
      sampling: "code",
    });
    const oracle = simulatedOracle((p: { point: Float64Array }) =>
      evaluateQuadratic(truth, p.point),
    );
    const r = elicitQpme(oracle.ask, 3, {
      tolerance: 0.01,
      strategy: STRATEGIES.lazy,
      centre: [0, 0, 0],
      rho: 1,
      varrho: 5e-3,
    });
    expect(() => qpmePairsRegion(r)).toThrow(/gradients: "pairs"/);
  });
});

describe("issue 28 item 7: QPME in the authors' setting", () => {
  // Truths drawn with seed 29, used by no exploration (that ran seeds 7 and 11 and the
  // "pairs-12" draw).
  const run = (k: number, trials: number) =>
    reproduceQuadratic({
      setting: "code",
      rates: "general",
      classes: [k],
      strategies: ["pairs"],
      trials,
      seed: 29,
    }).rows[0]!;

  it("q = 12 converges: under 2,000 questions, its 90% region holds the truth, errors below the authors' code's", () => {
    const row = run(4, 60);
    console.log(
      `q = 12, 60 truths: ${row.meanQueries} questions, B error mean ${row.errorB.mean.toFixed(4)} max ${row.errorB.max.toFixed(4)}, a error mean ${row.errorA.mean.toFixed(4)} max ${row.errorA.max.toFixed(4)}, region held ${row.region!.held}/60, median radius ${row.region!.radius.median.toFixed(4)}`,
    );
    expect(row.q).toBe(12);
    expect(row.maxQueries).toBeLessThan(2000);
    // A calibrated 90% region holds about 54 of 60; 48 is 2.6 standard deviations below.
    expect(row.region!.held).toBeGreaterThanOrEqual(48);
    // The authors' code at q = 12: mean errors a 0.014, B 0.066 (19,880 questions).
    expect(row.errorA.mean).toBeLessThan(REFERENCE_CODE_ERRORS[4]!.a);
    expect(row.errorB.mean).toBeLessThan(REFERENCE_CODE_ERRORS[4]!.B);
  });

  it("q = 20 converges too (3,784 questions; the paper's search: 53,944)", () => {
    const row = run(5, 30);
    console.log(
      `q = 20, 30 truths: ${row.meanQueries} questions, B error mean ${row.errorB.mean.toFixed(4)} max ${row.errorB.max.toFixed(4)}, region held ${row.region!.held}/30`,
    );
    expect(row.q).toBe(20);
    expect(row.maxQueries).toBe(22 * (1 + 19 * pairHalvings(0.01)));
    // 27 of 30 expected; 23 is 2.7 standard deviations below.
    expect(row.region!.held).toBeGreaterThanOrEqual(23);
    expect(row.errorB.mean).toBeLessThan(REFERENCE_CODE_ERRORS[5]!.B);
  });
});

describe("elicit simulate --strategy pairs", () => {
  const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
  const elicit = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "" });

  it("prints the questions and the credible region of a quadratic run", () => {
    const r = elicit(
      ...["simulate", "--synthetic", "sphere", "--family", "quadratic", "--strategy", "pairs"],
      ...["--classes", "4", "--space", "off-diagonal-rates", "--random-truth", "--seed", "5"],
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/12 rates \(off-diagonal-rates\).*strategy pairs/);
    expect(r.stdout).toMatch(/questions 1400;/);
    expect(r.stdout).toMatch(
      /90% region: max\(\|\|a - a'\|\|_2, \|\|B - B'\|\|_F\) <= \d\.\d{4} .*exact answers assumed/,
    );
  });

  it("is refused for cubic, which runs the paper's LPME searches", () => {
    const r = elicit(
      ...["simulate", "--synthetic", "sphere", "--family", "cubic", "--strategy", "pairs"],
      "--random-truth",
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--strategy pairs is for --family quadratic/);
  });
});
