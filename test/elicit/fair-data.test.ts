import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { simulateFairCommand } from "../../src/cli/commands/fair.ts";
import { CliError } from "../../src/cli/errors.ts";
import { parseCsv } from "../../src/data/csv.ts";
import { DataError } from "../../src/data/errors.ts";
import { buildGroupedDataset } from "../../src/data/groups.ts";
import { groupQuerySpace } from "../../src/elicit/fair/group-space.ts";
import { fairUtility, groupPairs } from "../../src/elicit/fair/metric.ts";
import { profileOf } from "../../src/elicit/fair/qpme.ts";
import { randomFairTruth } from "../../src/elicit/fair/simulate.ts";
import { simulateFairOnData } from "../../src/elicit/fair/simulate-data.ts";
import { defaultVarrho } from "../../src/elicit/quadratic/qpme.ts";
import { checkRealisation } from "../../src/geometry/multiclass/realise.ts";
import { createRng } from "../../src/math/rng.ts";
import { prepareFairFromCsv } from "../../src/population/fair.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";
import { tempDir } from "../temp-dir.ts";

const read = (name: string) => readFileSync(new URL(`../../data/${name}`, import.meta.url), "utf8");

const CASES = [
  { file: "arrests.csv", target: "released", groups: "colour", names: ["Black", "White"] },
  { file: "arrests.csv", target: "released", groups: "sex", names: ["Female", "Male"] },
  { file: "titanic_survival.csv", target: "survived", groups: "sex", names: ["female", "male"] },
] as const;

describe("buildGroupedDataset", () => {
  const csv = parseCsv("x,g,y\n1,a,no\n2,b,yes\n3,,yes\n4,b,no\n5,a,yes\n6,a,\n");

  it("indexes groups, drops and counts rows with a missing group", () => {
    const d = buildGroupedDataset(csv, { target: "y", groups: "g", minGroupRows: 1 });
    expect(d.groupNames).toEqual(["a", "b"]);
    expect([...d.groups]).toEqual([0, 1, 1, 0]);
    expect(d.droppedRowsMissingGroup).toBe(1);
    expect(d.report.droppedRowsMissingTarget).toBe(1);
    expect(d.labels.length).toBe(4);
  });

  it("rejects a missing column, a single group and too small groups", () => {
    expect(() => buildGroupedDataset(csv, { target: "y", groups: "nope" })).toThrow(DataError);
    expect(() => buildGroupedDataset(csv, { target: "y", groups: "y" })).toThrow(DataError);
    expect(() =>
      buildGroupedDataset(parseCsv("x,g,y\n1,a,no\n2,a,yes\n"), {
        target: "y",
        groups: "g",
        minGroupRows: 1,
      }),
    ).toThrow(/single value/);
    expect(() => buildGroupedDataset(csv, { target: "y", groups: "g" })).toThrow(/at least 10/);
  });
});

describe.each(CASES)("fair QPME on $file by $groups", (c) => {
  const prepared = prepareFairFromCsv(read(c.file), { target: c.target, groups: c.groups });
  const space = groupQuerySpace(prepared.pools);
  const { rho } = space.sphere;

  it("prepares one pool per group and tau = P(G = g | Y = i)", () => {
    expect(prepared.groupNames).toEqual(c.names);
    expect(prepared.pools.length).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(prepared.tau[0]![i]! + prepared.tau[1]![i]!).toBeCloseTo(1, 12);
      expect(prepared.tau[0]![i]!).toBeGreaterThan(0);
    }
    // Overall soft-label rates of one classifier equal the tau-weighted group rates.
    const h = space.sphere.axes[0]!.plusClassifiers[0]!;
    const g0 = space.spaces[0]!.realise(h);
    const g1 = space.spaces[1]!.realise(h);
    const mass = [0, 0];
    const hit = [0, 0];
    prepared.pools.forEach((pool, g) => {
      const r = g === 0 ? g0 : g1;
      for (let i = 0; i < 2; i++) {
        const m = pool.priors[i]! * pool.n;
        mass[i]! += m;
        hit[i]! += m * r[i]!;
      }
    });
    for (let i = 0; i < 2; i++) {
      const overall = hit[i]! / mass[i]!;
      expect(overall).toBeCloseTo(
        prepared.tau[0]![i]! * g0[i]! + prepared.tau[1]![i]! * g1[i]!,
        12,
      );
    }
  });

  it("finds a ball inside both groups' feasible rates", () => {
    expect(rho).toBeGreaterThan(0.05);
    for (const axis of space.sphere.axes) {
      for (let g = 0; g < 2; g++) {
        expect(axis.plusByGroup[g]!).toBeGreaterThanOrEqual(axis.plus - 1e-12);
        expect(axis.minusByGroup[g]!).toBeGreaterThanOrEqual(axis.minus - 1e-12);
      }
    }
    // Points on the ball in 16 directions are realised for both groups.
    for (let t = 0; t < 16; t++) {
      const angle = (2 * Math.PI * t) / 16;
      const s = [0.5 + rho * Math.cos(angle), 0.5 + rho * Math.sin(angle)];
      const p = { rates: [Float64Array.from(s), Float64Array.from(s)] };
      const r = space.realise(p);
      expect(r.error).toBeLessThan(1e-12);
      for (let g = 0; g < 2; g++) {
        expect(checkRealisation(space.spaces[g]!, r.classifiers[g]!, s).error).toBeLessThan(1e-12);
      }
    }
    // Beyond the binding group's extent nothing is promised: realise refuses.
    const a0 = space.sphere.axes[0]!;
    const far = [0.5 + 1.5 * a0.plus, 0.5];
    expect(() => space.realise(profileOf(far, [0], 2, [0.5, 0.5]))).toThrow(RangeError);
  });

  it("recovers a, B and lambda of random metrics; every queried profile is feasible", () => {
    const rng = createRng(`fair-data-${c.file}-${c.groups}`);
    const errors: { a: number; B: number; lambda: number; warned: boolean }[] = [];
    for (let t = 0; t < 8; t++) {
      const { truth } = randomFairTruth(2, 2, rng, rho, defaultVarrho(rho), prepared.tau);
      const r = simulateFairOnData(
        { pools: prepared.pools, tau: prepared.tau, space },
        truth,
        { tolerance: 0.01, strategy: STRATEGIES.lazy },
        { kind: "none" },
        t,
      );
      expect(r.query).toBe("data");
      expect(r.rho).toBe(rho);
      // Both sides of every question were realised by group-wise classifiers.
      expect(r.feasibility.profiles).toBe(2 * r.queries);
      expect(r.feasibility.maxError).toBeLessThan(1e-9);
      errors.push({ ...r.error, warned: r.warnings.length > 0 });
    }
    const clean = errors.filter((e) => !e.warned);
    expect(clean.length).toBeGreaterThanOrEqual(5);
    for (const e of clean) {
      expect(e.a).toBeLessThan(0.01);
      expect(e.B).toBeLessThan(0.1);
      expect(e.lambda).toBeLessThan(0.01);
    }
    const sortedB = clean.map((e) => e.B).sort((x, y) => x - y);
    expect(sortedB[Math.floor(sortedB.length / 2)]!).toBeLessThan(0.05);
  });

  it("elicits lambda alone when a and B are known (Algorithm 5), on realised profiles", () => {
    const rng = createRng(`lambda-${c.groups}`);
    for (let t = 0; t < 5; t++) {
      const { truth } = randomFairTruth(2, 2, rng, rho, defaultVarrho(rho), prepared.tau);
      const r = simulateFairOnData(
        { pools: prepared.pools, tau: prepared.tau, space },
        truth,
        { tolerance: 0.01, strategy: STRATEGIES.lazy, procedure: "lambda" },
        { kind: "none" },
        t,
      );
      expect(r.procedure).toBe("lambda");
      expect(r.error.a).toBe(0);
      expect(r.error.B).toBe(0);
      // ShrinkInterval to width 0.01 plus the O(varrho) bias of the small ball.
      expect(r.error.lambda).toBeLessThan(0.01);
      expect(r.queries).toBeLessThan(40);
      expect(r.feasibility.maxError).toBeLessThan(1e-9);
    }
  });

  it("answers on the realised rates (the oracle sees what classifiers achieve)", () => {
    const { truth, tau } = {
      truth: {
        a: [0.6, 0.8],
        B: {
          "0-1": [
            [1, 0.2],
            [0.2, 0.5],
          ],
        },
        lambda: 0.4,
      },
      tau: prepared.tau,
    };
    const s = [0.5 + rho / 2, 0.5 - rho / 3];
    const p = profileOf(s, [0], 2, [0.5, 0.5]);
    const r = space.realise(p);
    expect(fairUtility(truth, tau, r.rates)).toBeCloseTo(fairUtility(truth, tau, p.rates), 12);
    expect(groupPairs(2)).toEqual([[0, 1]]);
  });
});

describe("elicit simulate --family fair-quadratic --data", () => {
  afterEach(() => vi.restoreAllMocks());
  const capture = () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.join(" "));
    });
    return lines;
  };
  const data = new URL("../../data/arrests.csv", import.meta.url).pathname;

  it("prints the contract's JSON with the feasibility check", () => {
    const lines = capture();
    simulateFairCommand(
      {
        data,
        target: "released",
        groups: "colour",
        truth: '{"a":[0.6,0.8],"B":{"0-1":[[1,0.2],[0.2,0.5]]},"lambda":0.4}',
        json: true,
      },
      { kind: "none" },
      1,
      1,
    );
    const r = JSON.parse(lines.join("\n"));
    expect(r.family).toBe("fair-quadratic");
    expect(r.query).toBe("data");
    expect(Object.keys(r.error).sort()).toEqual(["B", "a", "lambda"]);
    expect(r.feasibility.maxError).toBeLessThan(1e-9);
    expect(r.feasibility.profiles).toBe(2 * r.queries);
    expect(r.error.a).toBeLessThan(0.01);
    expect(r.error.B).toBeLessThan(0.1);
    expect(r.error.lambda).toBeLessThan(0.01);
  });

  it("summarises trials in text", () => {
    const lines = capture();
    simulateFairCommand(
      { data, target: "released", groups: "sex", randomTruth: true },
      { kind: "none" },
      4,
      2,
    );
    const out = lines.join("\n");
    expect(out).toMatch(/2 fair QPME trials on .*arrests.csv \(k = 2, m = 2, groups by sex\)/);
    expect(out).toMatch(/feasibility: \d+ queried profiles realised/);
  });

  it("--lambda-only runs Algorithm 5 and writes --log after printing", () => {
    const lines = capture();
    const log = join(tempDir("elicit-"), "sessions.json");
    simulateFairCommand(
      { data, target: "released", groups: "colour", randomTruth: true, lambdaOnly: true, log },
      { kind: "none" },
      2,
      2,
    );
    expect(lines.join("\n")).toMatch(/2 trials of the lambda search \(a and B known\)/);
    const sessions = JSON.parse(readFileSync(log, "utf8"));
    expect(sessions).toHaveLength(2);
    expect(sessions[0].answers.length).toBeGreaterThan(5);
  });

  it("rejects bad flags with one-line errors", () => {
    const bad = [
      { data, target: "released", groups: "2", randomTruth: true },
      { data, groups: "sex", randomTruth: true },
      { data, target: "released", groups: "sex", tau: "[[0.5,0.5],[0.5,0.5]]", randomTruth: true },
      { data, target: "released", groups: "sex", synthetic: "sphere", randomTruth: true },
      { data: "/nonexistent.csv", target: "released", groups: "sex", randomTruth: true },
      { data, target: "released", groups: "sex", truth: '{"a":[1,1,1],"B":{},"lambda":0.5}' },
    ];
    for (const f of bad) {
      expect(() => simulateFairCommand(f, { kind: "none" }, 1, 1)).toThrow(CliError);
    }
    expect(() =>
      simulateFairCommand(
        { data, target: "released", groups: "nope", randomTruth: true },
        { kind: "none" },
        1,
        1,
      ),
    ).toThrow(DataError);
  });
});
