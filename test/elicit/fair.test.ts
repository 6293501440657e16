import { describe, expect, it } from "vitest";
import {
  type FairMetric,
  type FairPoint,
  fairCost,
  fairError,
  fairUtility,
  groupPairs,
  normalizeFair,
  pairKey,
  randomFairMetric,
  randomTau,
} from "../../src/elicit/fair/metric.ts";
import {
  elicitLambda,
  fairQpmeProcedure,
  groupPartitions,
  invert,
  lambdaProcedure,
  membershipMatrix,
  profileOf,
  recoverFair,
} from "../../src/elicit/fair/qpme.ts";
import {
  parseFairTruth,
  randomFairTruth,
  sigmaMetric,
  simulateFair,
} from "../../src/elicit/fair/simulate.ts";
import {
  evaluateQuadratic,
  quadraticGradient,
  shifted,
} from "../../src/elicit/quadratic/metric.ts";
import { choosePivot, reconstructQuadratic } from "../../src/elicit/quadratic/qpme.ts";
import { replay, runProcedure } from "../../src/elicit/session.ts";
import {
  PAPER_TABLE1_FAIR,
  paperFairQueries,
  reproduceFair,
} from "../../src/experiments/reproduce-fair.ts";
import { createRng } from "../../src/math/rng.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

const RHO = 0.2;
const VARRHO = RHO / 200;

describe("fair metric (Definition 4)", () => {
  it("evaluates the cost form, uses tau for overall rates, normalises separately", () => {
    const m: FairMetric = {
      a: [1, 0],
      B: {
        "0-1": [
          [2, 0],
          [0, 0],
        ],
      },
      lambda: 0.5,
    };
    const tau = [
      [0.5, 0.5],
      [0.5, 0.5],
    ];
    expect(
      fairCost(m, tau, [
        [0.5, 0.5],
        [0.5, 0.5],
      ]),
    ).toBeCloseTo(0.25, 12);
    // Group 1 at r1 = 0.7, group 2 at 0.5: overall r1 = 0.6; violation 0.5 * 0.5 * 2 * 0.04.
    expect(
      fairCost(m, tau, [
        [0.7, 0.5],
        [0.5, 0.5],
      ]),
    ).toBeCloseTo(0.5 * 0.4 + 0.25 * 0.08, 12);
    expect(
      fairUtility(m, tau, [
        [0.7, 0.5],
        [0.5, 0.5],
      ]),
    ).toBeCloseTo(-0.22, 12);
    const n = normalizeFair({
      a: [3, 4],
      B: {
        "0-1": [
          [6, 0],
          [0, 8],
        ],
      },
      lambda: 0.3,
    });
    expect(n.a).toEqual([0.6, 0.8]);
    expect(n.B["0-1"]![0]![0]).toBeCloseTo(1.2, 12);
    expect(n.lambda).toBe(0.3);
  });

  it("draws truths as the authors' code does (a >= 1e-2, unit a, 1/2 sum ||B||_F = 1, lambda in [0.25, 0.75])", () => {
    const rng = createRng(3);
    for (const [k, m] of [
      [2, 2],
      [3, 4],
      [5, 5],
    ] as const) {
      const t = randomFairMetric(k, m, rng);
      expect(t.a.every((x) => x >= 1e-2)).toBe(true);
      expect(Math.hypot(...t.a)).toBeCloseTo(1, 12);
      const s = Object.values(t.B).reduce((acc, B) => acc + Math.hypot(...B.flat()), 0) / 2;
      expect(s).toBeCloseTo(1, 12);
      expect(Object.keys(t.B)).toHaveLength((m * (m - 1)) / 2);
      expect(t.lambda).toBeGreaterThanOrEqual(0.25);
      expect(t.lambda).toBeLessThanOrEqual(0.75);
      const tau = randomTau(k, m, rng);
      for (let i = 0; i < k; i++) expect(tau.reduce((x, row) => x + row[i]!, 0)).toBeCloseTo(1, 12);
    }
  });

  it("parses --truth JSON and rejects bad pairs", () => {
    const t = parseFairTruth('{"a":[1,1],"B":{"0-1":[[1,0],[0,1]]},"lambda":0.4}', 2, 2);
    expect(t.a[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(t.lambda).toBe(0.4);
    expect(() => parseFairTruth('{"a":[1,1],"B":{"1-0":[[1]]},"lambda":0.4}', 2, 2)).toThrow();
    expect(() => parseFairTruth('{"a":[1,1],"B":{},"lambda":2}', 2, 2)).toThrow();
  });
});

describe("group partitions and Xi", () => {
  it("gives C(m,2) sets with an invertible membership matrix for m = 2..6", () => {
    for (let m = 2; m <= 6; m++) {
      const M = groupPartitions(m);
      expect(M).toHaveLength((m * (m - 1)) / 2);
      expect(invert(membershipMatrix(M, m))).not.toBeNull();
    }
    expect(membershipMatrix(groupPartitions(3), 3)).toEqual([
      [0, 1, 1],
      [1, 0, 1],
      [1, 1, 0],
    ]);
    // Complementary sets give equal rows: {0,1} and {2,3} for m = 4.
    expect(invert(membershipMatrix([[0, 1], [2, 3], [0], [1], [2], [3]], 4))).toBeNull();
  });
});

/** Exact gradients of the utility QPME sees on S'_sigma, in place of LPME outputs. */
function exactRecovery(truth: FairMetric, tau: number[][], k: number) {
  const centre = new Array<number>(k).fill(1 / k);
  const geometry = { centre, rho: RHO, varrho: VARRHO };
  const delta = RHO - VARRHO;
  const runs = groupPartitions(tau.length).map((sigma) => {
    const q = sigmaMetric(truth, tau, sigma, centre);
    const fo = quadraticGradient(q, centre);
    const fz = Array.from({ length: k }, (_, j) => quadraticGradient(q, shifted(centre, j, delta)));
    const p = choosePivot(fo, fz);
    const minus = quadraticGradient(q, shifted(centre, p, -delta));
    const rec = reconstructQuadratic({ o: fo, z: fz, minus }, p, geometry);
    return { sigma, metric: rec.metric };
  });
  return recoverFair(runs, tau, centre).metric;
}

describe("fair QPME reconstruction (Algorithm 4, eqs. (20)-(25))", () => {
  it("sigmaMetric is the fair utility on S'_sigma up to a constant", () => {
    const rng = createRng(11);
    const k = 3;
    const m = 3;
    const truth = randomFairMetric(k, m, rng);
    const tau = randomTau(k, m, rng);
    const o = new Array<number>(k).fill(1 / k);
    for (const sigma of groupPartitions(m)) {
      const q = sigmaMetric(truth, tau, sigma, o);
      const diff = (s: number[]) =>
        fairUtility(truth, tau, profileOf(s, sigma, m, o).rates) - evaluateQuadratic(q, s);
      const c = diff(o);
      for (let t = 0; t < 5; t++) {
        const s = o.map((x) => x + 0.2 * (rng.next() - 0.5));
        expect(diff(s)).toBeCloseTo(c, 12);
      }
    }
  });

  it("recovers a, every B^{uv} and lambda exactly from exact gradients (k, m = 2..5)", () => {
    const rng = createRng(5);
    for (let k = 2; k <= 5; k++) {
      for (let m = 2; m <= 5; m++) {
        const { truth, tau } = randomFairTruth(k, m, rng);
        const e = fairError(truth, exactRecovery(truth, tau, k));
        expect(e.a).toBeLessThan(1e-9);
        expect(e.B).toBeLessThan(1e-9);
        expect(e.lambda).toBeLessThan(1e-9);
      }
    }
  });
});

describe("fair QPME against a simulated oracle", () => {
  // Noise free, eps = 0.01: LPME slopes are within ~sqrt(k) eps of the gradients; a is read
  // off the gradient at o (error ~ eps), B and lambda go through QPME's ratios (error
  // amplified by 1/(rho - varrho) and by inverting Xi), as in the paper's Figure 4(c)-(e).
  const cases = [
    [2, 2, 0.01, 0.1, 0.02],
    [3, 2, 0.01, 0.15, 0.02],
    [2, 3, 0.01, 0.5, 0.03],
  ] as const;
  for (const [k, m, boundA, boundB, boundL] of cases) {
    it(`recovers (a, B, lambda) on the synthetic sphere, k = ${k}, m = ${m}`, () => {
      const rng = createRng(`fair-${k}-${m}`);
      const errs: { a: number; B: number; lambda: number }[] = [];
      for (let t = 0; t < 12; t++) {
        const { truth, tau } = randomFairTruth(k, m, rng);
        const r = simulateFair(
          truth,
          { tolerance: 0.01, strategy: STRATEGIES.lazy, tau },
          { kind: "none" },
          t,
        );
        expect(r.family).toBe("fair-quadratic");
        expect(r.partitions).toHaveLength((m * (m - 1)) / 2);
        errs.push(r.error);
      }
      const med = (xs: number[]) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      expect(med(errs.map((e) => e.a))).toBeLessThan(boundA);
      expect(med(errs.map((e) => e.B))).toBeLessThan(boundB);
      expect(med(errs.map((e) => e.lambda))).toBeLessThan(boundL);
    });
  }

  it("degrades with feedback noise eps_Omega as the theory says (B, lambda ~ eps_Omega / varrho)", () => {
    // Small balls (varrho = 1e-3) see value gaps of order varrho * |grad| * angle ~ 1e-6, so
    // eps_Omega = 1e-9 is harmless and 1e-7 visibly hurts B; a comes from the big ball.
    const median = (eps: number) => {
      const rng = createRng("noise22");
      const errs: { a: number; B: number; lambda: number }[] = [];
      for (let t = 0; t < 12; t++) {
        const { truth, tau } = randomFairTruth(2, 2, rng);
        errs.push(
          simulateFair(
            truth,
            { tolerance: 0.01, strategy: STRATEGIES.lazy, tau },
            { kind: "feedback", epsilon: eps, wrong: "random" },
            t,
          ).error,
        );
      }
      const med = (xs: number[]) => xs.sort((x, y) => x - y)[6]!;
      return { a: med(errs.map((e) => e.a)), B: med(errs.map((e) => e.B)) };
    };
    const small = median(1e-9);
    const large = median(1e-7);
    expect(small.a).toBeLessThan(0.01);
    expect(small.B).toBeLessThan(0.05);
    expect(large.a).toBeLessThan(0.01);
    expect(large.B).toBeGreaterThan(small.B);
  });

  it("keeps every group's queried rates inside the ball of radius rho around o", () => {
    const { truth, tau } = randomFairTruth(3, 3, createRng(9));
    const o = [1 / 3, 1 / 3, 1 / 3];
    const oracle = simulatedOracle((p: FairPoint) => fairUtility(truth, tau, p.rates));
    runProcedure(
      fairQpmeProcedure(3, { tolerance: 0.01, strategy: STRATEGIES.lazy, tau }),
      oracle.ask,
    );
    for (const entry of oracle.log) {
      for (const p of [entry.question.first, entry.question.second]) {
        for (const r of p.rates) {
          expect(Math.hypot(...Array.from(r, (x, i) => x - o[i]!))).toBeLessThanOrEqual(
            RHO + 1e-12,
          );
        }
      }
    }
  });

  it("replays a session from its answer log", () => {
    const k = 2;
    const m = 3;
    const { truth, tau } = randomFairTruth(k, m, createRng(21));
    const options = { tolerance: 0.01, strategy: STRATEGIES.lazy, tau };
    const r = simulateFair(truth, options, { kind: "flip", probability: 0.02 }, 4);
    const done = replay(fairQpmeProcedure(k, options), r.session.answers);
    expect(done.status).toBe("done");
    if (done.status === "done") {
      expect(done.result.metric).toEqual(r.elicited);
      expect(done.questions).toHaveLength(r.queries);
    }
    const pending = replay(fairQpmeProcedure(k, options), r.session.answers.slice(0, 10));
    expect(pending.status).toBe("pending");
    if (pending.status === "pending") expect(pending.question.index).toBe(10);
  });
});

describe("lambda search when a and B are known (Algorithm 5)", () => {
  it("recovers lambda within the tolerance (plus the O(varrho) bias)", () => {
    const rng = createRng(17);
    for (const [k, m] of [
      [2, 2],
      [3, 2],
      [2, 3],
      [4, 4],
    ] as const) {
      for (let t = 0; t < 5; t++) {
        const { truth, tau } = randomFairTruth(k, m, rng);
        for (const eps of [0.01, 0.001]) {
          const oracle = simulatedOracle((p: FairPoint) => fairUtility(truth, tau, p.rates));
          const run = runProcedure(
            lambdaProcedure({
              tau,
              a: truth.a,
              B: truth.B,
              tolerance: eps,
              strategy: STRATEGIES.lazy,
            }),
            oracle.ask,
          );
          expect(Math.abs(run.result.lambda - truth.lambda)).toBeLessThanOrEqual(eps / 2 + 2e-3);
          expect(run.result.hi - run.result.lo).toBeLessThanOrEqual(eps);
        }
      }
    }
  });

  it("asks only profiles (s, o, ..., o) with s in the small ball around z_1", () => {
    const { truth, tau } = randomFairTruth(3, 3, createRng(2));
    const o = [1 / 3, 1 / 3, 1 / 3];
    const oracle = simulatedOracle((p: FairPoint) => fairUtility(truth, tau, p.rates));
    elicitLambda(oracle.ask, {
      tau,
      a: truth.a,
      B: truth.B,
      tolerance: 0.01,
      strategy: STRATEGIES.paper,
    });
    expect(oracle.count()).toBe(7 * 4);
    const z1 = [o[0]! + RHO - VARRHO, o[1]!, o[2]!];
    for (const e of oracle.log) {
      const p = e.question.first;
      expect(Math.hypot(...Array.from(p.rates[0]!, (x, i) => x - z1[i]!))).toBeCloseTo(VARRHO, 12);
      expect(Array.from(p.rates[1]!)).toEqual(o);
      expect(Array.from(p.rates[2]!)).toEqual(o);
    }
  });
});

describe("Table 1 (Fair-QPME query counts)", () => {
  it("transcribes the paper's numbers", () => {
    expect(PAPER_TABLE1_FAIR[2]).toEqual({ 2: 332.1, 3: 867.65, 4: 1663.73, 5: 2738.59 });
    expect(groupPairs(5)).toHaveLength(10);
    expect(pairKey(3, 1)).toBe("1-3");
  });

  it("counts C(m,2) QPME runs + one LPME run: within 10% of Table 1 (transposed reading)", () => {
    const r = reproduceFair({ trials: 10, classes: [2, 3], groups: [2, 3] });
    for (const row of r.rows) {
      expect(row.paperQueries).toBe(paperFairQueries(row.k, row.m));
      expect(Math.abs(row.meanQueries / row.paperQueries! - 1)).toBeLessThan(0.1);
      expect(row.error.a).toBeLessThan(0.01);
    }
    // m = 2 under the transposed reading: 332.10, 796.37, 1398.14, 2130.92 for k = 2..5.
    expect([2, 3, 4, 5].map((k) => paperFairQueries(k, 2))).toEqual([
      332.1, 796.37, 1398.14, 2130.92,
    ]);
  });

  it("aFrom qpme (eq. (21) only) saves the LPME run and still recovers a", () => {
    const { truth, tau } = randomFairTruth(3, 2, createRng(8));
    const base = { tolerance: 0.01, strategy: STRATEGIES.lazy, tau };
    const withLpme = simulateFair(truth, base, { kind: "none" }, 1);
    const without = simulateFair(truth, { ...base, aFrom: "qpme" }, { kind: "none" }, 1);
    expect(withLpme.queries - without.queries).toBeGreaterThan(3);
    expect(without.error.a).toBeLessThan(0.01);
    expect(withLpme.error.a).toBeLessThan(0.01);
  });
});
