import { readFileSync } from "node:fs";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerReproduceRanking } from "../../src/cli/commands/ranking.ts";
import { evaluateQuadratic, quadraticNorm, regularity } from "../../src/elicit/quadratic/metric.ts";
import { defaultVarrho } from "../../src/elicit/quadratic/qpme.ts";
import {
  formatGeneralRankingReproduction,
  GENERAL_RANKING_METHODS,
  generalRates,
  PAPER_TABLE_4,
  randomGeneralTruth,
  reproduceGeneralRanking,
  spreadDiagonal,
} from "../../src/experiments/ranking/general.ts";
import { reproduceRanking } from "../../src/experiments/ranking/reproduce.ts";
import { createRng } from "../../src/math/rng.ts";

/** A random row-stochastic k x k rate matrix. */
function randomRateMatrix(k: number, seed: number): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: k }, () => {
    const row = Array.from({ length: k }, () => rng.next());
    const s = row.reduce((x, y) => x + y, 0);
    return row.map((x) => x / s);
  });
}

function geometry(k: number) {
  const q = k * k - k;
  return { centre: new Array<number>(q).fill(1 / k), rho: 0.2, varrho: defaultVarrho(0.2) };
}

describe("general rates (UAI 2022 Appendix E)", () => {
  it("are the off-diagonal entries row by row", () => {
    expect(
      generalRates([
        [0.5, 0.2, 0.3],
        [0.1, 0.6, 0.3],
        [0.25, 0.25, 0.5],
      ]),
    ).toEqual([0.2, 0.3, 0.1, 0.3, 0.25, 0.25]);
  });

  it("a metric's value on them equals the direct sum over the matrix's off-diagonal entries", () => {
    for (const k of [2, 3, 4]) {
      const truth = randomGeneralTruth(k, createRng(k), geometry(k));
      const R = randomRateMatrix(k, 10 + k);
      // Entry (i, j), j != i, sits at (i)(k - 1) + (j < i ? j : j - 1) (0-based, ALGORITHMS.md 0).
      const at = (i: number, j: number) => i * (k - 1) + (j < i ? j : j - 1);
      let direct = 0;
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          if (i === j) continue;
          direct += truth.a[at(i, j)]! * R[i]![j]!;
          for (let u = 0; u < k; u++) {
            for (let v = 0; v < k; v++) {
              if (u === v) continue;
              direct += 0.5 * truth.B[at(i, j)]![at(u, v)]! * R[i]![j]! * R[u]![v]!;
            }
          }
        }
      }
      expect(evaluateQuadratic(truth, generalRates(R))).toBeCloseTo(direct, 14);
    }
  });

  it("a diagonal-rate query spreads each class's errors evenly; for k = 2 it is the matrix", () => {
    const spread = spreadDiagonal([0.4, 0.7, 0.1]);
    for (const [i, x] of [0.3, 0.3, 0.15, 0.15, 0.45, 0.45].entries()) {
      expect(spread[i]).toBeCloseTo(x, 15);
    }
    // The centre 1/k is the uniform classifier's rates.
    expect(spreadDiagonal([0.25, 0.25, 0.25, 0.25])).toEqual(new Array(12).fill(0.25));
    const R = randomRateMatrix(2, 7);
    const viaDiagonal = spreadDiagonal([R[0]![0]!, R[1]![1]!]);
    const direct = generalRates(R);
    for (let i = 0; i < 2; i++) expect(viaDiagonal[i]).toBeCloseTo(direct[i]!, 15);
  });

  it("random truths cost every error (a <= 0, B negative definite), normalised and regular", () => {
    const rng = createRng(3);
    for (const k of [2, 3]) {
      const g = geometry(k);
      for (let t = 0; t < 10; t++) {
        const m = randomGeneralTruth(k, rng, g);
        expect(m.a).toHaveLength(k * k - k);
        for (const x of m.a) expect(x).toBeLessThanOrEqual(0);
        expect(quadraticNorm(m)).toBeCloseTo(1, 12);
        expect(regularity(m, g).min).toBeGreaterThanOrEqual(1e-2);
        for (let s = 0; s < 5; s++) {
          const x = Array.from({ length: k * k - k }, () => rng.uniform(-1, 1));
          expect(evaluateQuadratic({ a: m.a.map(() => 0), B: m.B }, x)).toBeLessThan(0);
        }
      }
    }
  });
});

describe("reproduceGeneralRanking (UAI 2022 Table 4)", () => {
  const arrests = readFileSync("data/arrests.csv", "utf8");
  const small = { logistic: 6, mlp: 3, tree: 3 };

  it("on a binary dataset the elicited general-rate metric ranks as the true one; deterministic", () => {
    const options = { dataText: arrests, target: "released", metrics: 6, seed: 2, pool: small };
    const r = reproduceGeneralRanking(options);
    expect(reproduceGeneralRanking(options)).toEqual(r);
    expect(r.classifiers).toHaveLength(12);
    const { quadraticGeneral, quadraticDiagonal, linearDiagonal, linearGeneral } = r.methods;
    expect(quadraticGeneral.ndcg).toBeGreaterThan(0.999);
    expect(quadraticGeneral.kendall).toBeGreaterThan(0.95);
    expect(quadraticGeneral.kendall).toBeGreaterThanOrEqual(linearGeneral.kendall);
    // k = 2: the general rates are 1 - the diagonal rates, and the diagonal ball is the general
    // one reflected through its centre, so LPME finds the same slope up to sign.
    expect(linearDiagonal).toEqual(linearGeneral);
    expect(quadraticDiagonal.ndcg).toBeGreaterThan(0.999);
    // The same split and pool as the diagonal experiment for the same seed.
    const diagonal = reproduceRanking({ ...options, metrics: 1 });
    expect(r.classifiers.map((c) => c.diagonal)).toEqual(
      diagonal.classifiers.map((c) => c.diagonal),
    );
    expect(r.classifiers.map((c) => c.accuracy)).toEqual(
      diagonal.classifiers.map((c) => c.accuracy),
    );
    for (const c of r.classifiers) {
      for (let i = 0; i < 2; i++) expect(c.general[i]).toBeCloseTo(1 - c.diagonal[i]!, 12);
    }
  }, 60_000);

  it("with k = 3 only the general-rate QPME recovers the ranking; it asks the most questions", () => {
    const r = reproduceGeneralRanking({
      dataText: readFileSync("data/wine.csv", "utf8"),
      target: "target",
      metrics: 4,
      seed: 1,
      pool: small,
    });
    const { quadraticGeneral } = r.methods;
    expect(quadraticGeneral.ndcg).toBeGreaterThan(0.999);
    expect(quadraticGeneral.kendall).toBeGreaterThan(0.95);
    for (const m of GENERAL_RANKING_METHODS) {
      expect(quadraticGeneral.kendall).toBeGreaterThanOrEqual(r.methods[m].kendall);
    }
    const q = r.meanQuestions;
    expect(q.linearDiagonal).toBeLessThan(q.linearGeneral);
    expect(q.quadraticDiagonal).toBeLessThan(q.quadraticGeneral);
    expect(q.linearGeneral).toBeLessThan(q.quadraticGeneral);
    const text = formatGeneralRankingReproduction(r);
    expect(text).toMatch(/q = 6 general \(off-diagonal\) rates/);
    expect(text).toMatch(/quadratic-general\s+\d+\.\d\s+1\.0000 \(/);
  }, 60_000);

  it("prints the paper's Table 4 beside ours", () => {
    const r = reproduceGeneralRanking({
      dataText: arrests,
      target: "released",
      metrics: 1,
      pool: { logistic: 3, mlp: 0, tree: 0 },
    });
    const text = formatGeneralRankingReproduction(r);
    expect(PAPER_TABLE_4.linearDiagonal.adult).toEqual({ ndcg: 0.9783, kendall: 0.6053 });
    expect(text).toMatch(/linear-diagonal .*0\.9783 \/ 0\.6053\s+0\.9790 \/ 0\.4536$/m);
    expect(text).toMatch(/linear-general .*0\.9908 \/ 0\.7713\s+0\.9863 \/ 0\.6216$/m);
    expect(text).toMatch(/quadratic-diagonal .*0\.9968 \/ 0\.9611\s+1\.0000 \/ 0\.9979$/m);
    expect(text).toMatch(/quadratic-general .*1\.0000 \/ 0\.9986\s+1\.0000 \/ 0\.9979$/m);
  }, 30_000);
});

async function run(args: string[]): Promise<{ out: string; err: string; code: unknown }> {
  const program = new Command().exitOverride();
  registerReproduceRanking(program.command("reproduce"));
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: unknown) => void out.push(String(s)));
  vi.spyOn(console, "error").mockImplementation((s: unknown) => void err.push(String(s)));
  vi.spyOn(process.stderr, "write").mockImplementation((s: unknown) => {
    err.push(String(s));
    return true;
  });
  process.exitCode = undefined;
  await program.parseAsync(["node", "elicit", "reproduce", "ranking", ...args]);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { out: out.join("\n"), err: err.join(""), code };
}

describe("elicit reproduce ranking --rates", () => {
  afterEach(() => vi.restoreAllMocks());

  it("general prints Table 4's four methods; JSON has them", async () => {
    const data = ["--data", "data/wine.csv", "--target", "target", "--metrics", "2"];
    const r = await run([...data, "--rates", "general"]);
    expect(r.code).toBeUndefined();
    expect(r.out).toMatch(/UAI 2022 Table 4/);
    for (const m of [
      "linear-diagonal",
      "linear-general",
      "quadratic-diagonal",
      "quadratic-general",
    ])
      expect(r.out).toMatch(new RegExp(`^${m}\\s+\\d+\\.\\d\\s+\\d\\.\\d{4} \\(`, "m"));
    const j = await run([...data, "--rates", "general", "--json"]);
    const json = JSON.parse(j.out);
    expect(json.rates).toBe("general");
    expect(Object.keys(json.methods)).toEqual([...GENERAL_RANKING_METHODS]);
  }, 60_000);

  it("diagonal is the default and unchanged", async () => {
    const data = ["--data", "data/wine.csv", "--target", "target", "--metrics", "2"];
    const a = await run(data);
    const b = await run([...data, "--rates", "diagonal"]);
    expect(b.out).toBe(a.out);
    expect(a.out).toMatch(/random quadratic metrics of the diagonal rates/);
  }, 60_000);

  it("rejects an unknown --rates and --rates general with --groups", async () => {
    const data = ["--data", "data/arrests.csv", "--target", "released"];
    const u = await run([...data, "--rates", "full"]);
    expect(u.code).toBe(2);
    expect(u.err).toMatch(/--rates must be diagonal or general/);
    const g = await run([...data, "--rates", "general", "--groups", "colour"]);
    expect(g.code).toBe(2);
    expect(g.err).toMatch(/--rates general takes no --groups/);
  });
});
