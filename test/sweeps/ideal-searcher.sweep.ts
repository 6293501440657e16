import { describe, expect, it } from "vitest";
import { peopleFairData, peopleMulticlassPool } from "../../src/cli/commands/reproduce-people.ts";
import {
  type FairDesignBoundRow,
  fairDesignBound,
} from "../../src/experiments/fair-design-bound.ts";
import {
  type IdealSearchSummary,
  idealCostSearch,
  idealFairSearch,
  idealLineSearch,
  idealSimplexSearch,
} from "../../src/experiments/ideal-searcher.ts";
import { idealSideBiasSearch } from "../../src/experiments/ideal-side-bias.ts";
import { lpmDesignBound } from "../../src/experiments/lpm-design-bound.ts";
import { recordFigures } from "./figures.ts";
import { recordings } from "./recorded.ts";

const recorded = recordings(import.meta.url);
/**
 * `f(args)`, read from its recording when its inputs did not change (recorded.ts); `named`
 * stands in the recording's key for the arguments that are data the sweep builds from src/.
 */
function rec<A extends object, T>(
  f: (a: A) => T,
  args: A,
  named: Partial<Record<keyof A, string>> = {},
): T {
  if (!f.name) throw new Error("rec: a named function");
  return recorded(f.name, { ...args, ...named }, () => f(args));
}

/**
 * What a searcher TOLD that the person flips a share of their answers could reach on the
 * people panel's cells that miss issue 26's targets for 20% flips (binary-linear: error p95 at
 * most 0.04 rad; DLPM k = 3: at most 0.1; both within 30 questions). The searcher cuts the
 * metric's space anywhere, with an exact posterior, and never stops early: no display, no
 * classifiers to choose from, no person to learn. It bounds the engine, which learns the
 * person. The tail policy's 8 last questions were chosen on other seeds; these seeds are
 * asserted on alone. The README quotes the figures (docs/figures/ideal-searcher.txt).
 */
/** The tables' header line, above `row`'s lines. */
const HEADER = `${"searcher".padEnd(50)}  ${"trials".padStart(6)}  ${"err p50".padStart(8)}  ${"err p95".padStart(8)}  ${"err max".padStart(8)}  ${"beyond target (95%)".padStart(22)}  ${"cell within".padStart(12)}`;
/** The table: its introduction, the header and a row per searcher; logged and recorded as `id`. */
function report(
  id: string,
  anchor: string,
  intro: readonly string[],
  rows: readonly (readonly [string, IdealSearchSummary])[],
): void {
  const text = [...intro, "", HEADER, ...rows.map(([name, s]) => row(name, s))].join("\n");
  console.log(text);
  recordFigures(id, import.meta.url, anchor, text);
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** `fairDesignBound`'s rows as a table, each with its person when there are several. */
function designTable(rows: readonly { person?: string; row: FairDesignBoundRow }[]): string[] {
  const who = (x: string | undefined) => (x === undefined ? "" : `${x.padEnd(10)}  `);
  return [
    `${who(rows[0]?.person === undefined ? undefined : "person")}${"questions".padEnd(10)}  ${"err p50".padStart(8)}  ${"err p95".padStart(8)}  ${"err max".padStart(8)}  ${"beyond 0.2".padStart(10)}  ${"cell within".padStart(11)}`,
    ...rows.map(({ person, row: r }) =>
      [
        `${who(person)}${String(r.questions).padEnd(10)}`,
        r.p50.toFixed(4).padStart(8),
        r.p95.toFixed(4).padStart(8),
        r.max.toFixed(4).padStart(8),
        pct(r.beyond).padStart(10),
        `${Math.round(100 * r.cellWithin)}%`.padStart(11),
      ].join("  "),
    ),
  ];
}
function row(name: string, s: IdealSearchSummary): string {
  return [
    name.padEnd(50),
    String(s.trials).padStart(6),
    s.error.p50.toFixed(4).padStart(8),
    s.error.p95.toFixed(4).padStart(8),
    s.error.max.toFixed(4).padStart(8),
    `${pct(s.beyond.share)} (${pct(s.beyond.low)}-${pct(s.beyond.high)})`.padStart(22),
    `${Math.round(100 * s.cellWithin)}%`.padStart(12),
  ].join("  ");
}

describe("issue 26: a searcher told the person's flips", () => {
  it("misses twice the tolerance in more than 5% of runs at 20% flips within 30 questions", () => {
    const seed = "ideal-searcher-sweep";
    const line = { questions: 30, target: 0.04, seed, length: Math.PI / 2 };
    const simplex = { target: 0.1, seed };
    const cells: [string, IdealSearchSummary][] = [];
    const add = (name: string, s: IdealSearchSummary) => {
      cells.push([name, s]);
      return s;
    };
    const lines: Record<string, IdealSearchSummary> = {};
    for (const flip of [0.1, 0.2]) {
      for (const policy of ["median", "tail"] as const) {
        const trials = policy === "median" ? 4000 : 1500;
        lines[`${policy} ${flip}`] = add(
          `angle, ${100 * flip}% flips, 30 q, ${policy}`,
          rec(idealLineSearch, { ...line, flip, policy, trials }),
        );
      }
    }
    const dlpm10 = add(
      "DLPM k = 3, 10% flips, 30 q",
      rec(idealSimplexSearch, { ...simplex, flip: 0.1, questions: 30, trials: 1000 }),
    );
    const dlpm25 = add(
      "DLPM k = 3, 20% flips, 25 q (the study's budget)",
      rec(idealSimplexSearch, { ...simplex, flip: 0.2, questions: 25, trials: 1000 }),
    );
    const dlpm30 = add(
      "DLPM k = 3, 20% flips, 30 q",
      rec(idealSimplexSearch, { ...simplex, flip: 0.2, questions: 30, trials: 1000 }),
    );
    report(
      "ideal-searcher",
      "misses twice the tolerance",
      [
        "A searcher told that the person flips a share of their answers (exact posterior, cuts anywhere, never stops early): binary-linear's angle uniform on [0, pi/2], target 0.04 rad (twice the tolerance); DLPM k = 3, weights drawn as the people panel draws them, error the largest of the three, target 0.1",
        "median: every cut at the posterior median, the median estimated; tail: the 8 last cuts and the estimate chosen for the most posterior mass within the target. cell within: the chance that 30 runs (a cell of reproduce people) have their error p95 within the target",
      ],
      cells,
    );
    // 10% flips: the searcher meets the targets (it is not a weak searcher).
    for (const s of [lines["median 0.1"]!, lines["tail 0.1"]!, dlpm10]) {
      expect(s.cellWithin).toBeGreaterThanOrEqual(0.75);
    }
    // 20% flips: each searcher misses the target in more than 5% of its runs, so a cell of
    // 30 runs meets it in at most about half of the draws (the 25 questions of a DLPM
    // study: far fewer).
    for (const s of [lines["median 0.2"]!, lines["tail 0.2"]!, dlpm30]) {
      expect(s.beyond.share).toBeGreaterThan(0.05);
      expect(s.cellWithin).toBeLessThanOrEqual(0.6);
    }
    expect(dlpm25.beyond.low).toBeGreaterThan(0.08);
    expect(dlpm25.cellWithin).toBeLessThanOrEqual(0.3);
  });

  it("LPM k = 3: at 20% flips and 45 questions, even told the flips, at the edge", () => {
    // The six costs of LPM k = 3 (a multiclass study's tolerance 0.1, budget 45: target 0.2).
    // Particles and Metropolis moves, so slower than the grids above. Its defaults (2000
    // particles, 6 moves, 8 directions) were set on the seeds tune-a / tune-b (300 runs at
    // 20% flips: p95 0.1723 / 0.2024, beyond 4.3% / 5.3%, cell within 75% / 61%); these
    // seeds are asserted on alone (on another, "another-seed-2": 0.2322, 6.3%, 53%).
    const seed = "ideal-searcher-sweep";
    const o = { target: 0.2, seed, questions: 45 };
    const lpm10 = rec(idealCostSearch, { ...o, flip: 0.1, trials: 100 });
    const lpm20 = rec(idealCostSearch, { ...o, flip: 0.2, trials: 300 });
    // Not told how the truths are drawn: the uniform prior on the costs' directions, the
    // uniform part of the engine's own (tune-a / tune-b at 20% flips: beyond 13.3% / 14.5%,
    // cell within 11% / 8%; at 10% flips, tune-a: p95 0.1024, cell within 98%; on
    // "another-seed-2": 10.0% and 24% at 20% flips, 86% at 10%).
    const uniform = { ...o, prior: "uniform" as const };
    const uniform10 = rec(idealCostSearch, { ...uniform, flip: 0.1, trials: 100 });
    const uniform20 = rec(idealCostSearch, { ...uniform, flip: 0.2, trials: 200 });
    report(
      "ideal-searcher-lpm",
      "LPM k = 3",
      [
        "A searcher told that the person flips a share of their answers, on LPM k = 3: six costs drawn as the people panel draws them, error the largest of the six, target 0.2 (twice a multiclass study's tolerance), 45 questions (the study's budget)",
        "2000 particles moved by Metropolis steps; each cut a hyperplane through the posterior's median across its mean, the one of 8 directions leaving the least expected variance; the estimate the posterior mean. The truths' prior: told how the panel draws the costs (angles uniform: most mass near the first cost alone); uniform prior: uniform on the costs' directions, as the uniform part of the engine's prior. cell within: the chance that 30 runs (a cell of reproduce people) have their error p95 within the target",
      ],
      [
        ["LPM k = 3, 10% flips, 45 q, the truths' prior", lpm10],
        ["LPM k = 3, 20% flips, 45 q, the truths' prior", lpm20],
        ["LPM k = 3, 10% flips, 45 q, uniform prior", uniform10],
        ["LPM k = 3, 20% flips, 45 q, uniform prior", uniform20],
      ],
    );
    // 10% flips: within the target (the searcher is not weak).
    expect(lpm10.cellWithin).toBeGreaterThanOrEqual(0.9);
    // 20% flips: beyond the target in a few per cent of runs, so a cell of 30 runs misses
    // it in a fair share of draws even for this searcher.
    expect(lpm20.beyond.share).toBeGreaterThan(0.02);
    expect(lpm20.cellWithin).toBeLessThanOrEqual(0.85);
    // Not told the truths' prior, at 20% flips it misses in more than a twentieth of its runs
    // and its cells of 30 runs seldom meet the target; at 10% flips they mostly do.
    expect(uniform10.cellWithin).toBeGreaterThanOrEqual(0.7);
    expect(uniform20.beyond.low).toBeGreaterThan(0.05);
    expect(uniform20.cellWithin).toBeLessThanOrEqual(0.35);
  });

  it("the whole fair metric: at the study's 45 questions, 10% flips within reach and 20% beyond, told the flips", () => {
    // The five numbers of the whole fair metric (two classes, two groups: costs a, gap
    // weights B, lambda; tolerance 0.1, budget 45: target 0.2), under the engine's own prior.
    // Its settings (16 directions) were chosen on the seed tune-a at the budget of 30 before
    // (10% flips, 100 runs: 8 directions 11% beyond the target, 16 9%). At 45 questions, on
    // tune-a / tune-b (100 runs each): no flips p95 0.0020 (tune-b), 5% flips 0.0273 (tune-b),
    // 10% flips beyond 1.0% / 0.0% (p95 0.0985 / 0.1215, cell within 97% / 100%), 20% flips
    // beyond 25.0% / 18.0% (p95 0.4543 / 0.3440, cell within 1% / 4%); at 30 questions
    // (tune-a) 10% flips were beyond in 9.0% (cell 35%), 20% in 56.0%. This seed is asserted
    // on alone, with margin.
    const o = { target: 0.2, seed: "ideal-searcher-sweep", questions: 45 };
    const exact = rec(idealFairSearch, { ...o, flip: 0, trials: 20 });
    const f5 = rec(idealFairSearch, { ...o, flip: 0.05, trials: 60 });
    const f10 = rec(idealFairSearch, { ...o, flip: 0.1, trials: 200 });
    const f20 = rec(idealFairSearch, { ...o, flip: 0.2, trials: 100 });
    report(
      "ideal-searcher-fair",
      "the whole fair metric",
      [
        "A searcher told that the person flips a share of their answers, on the whole fair metric of two classes and two groups: a, B and lambda drawn as the people panel draws them, error max(||a - a'||_2, ||B - B'||_F, |lambda - lambda'|), target 0.2 (twice the family's tolerance), 45 questions (the study's budget)",
        "2000 particles uniform on the directions the engine's prior allows (a >= 0, B's diagonal >= 0), moved by Metropolis steps; each cut a hyperplane through the posterior's median across its mean, the one of 16 directions leaving the least expected variance of a, B and lambda; the estimate their posterior mean. cell within: the chance that 30 runs (a cell of reproduce people) have their error p95 within the target",
      ],
      [
        ["fair metric, no flips, 45 q", exact],
        ["fair metric, 5% flips, 45 q", f5],
        ["fair metric, 10% flips, 45 q", f10],
        ["fair metric, 20% flips, 45 q", f20],
      ],
    );
    // Exact answers, 5% and 10% flips: within the target (the searcher is not weak, and the
    // engine's cells of these people are its own shortfall: its 10% flips cell misses).
    expect(exact.cellWithin).toBeGreaterThanOrEqual(0.9);
    expect(f5.cellWithin).toBeGreaterThanOrEqual(0.8);
    expect(f10.beyond.share).toBeLessThanOrEqual(0.04);
    expect(f10.cellWithin).toBeGreaterThanOrEqual(0.6);
    // 20% flips: beyond it in far more than a twentieth of the runs, its cells seldom meet it.
    expect(f20.beyond.low).toBeGreaterThan(0.08);
    expect(f20.cellWithin).toBeLessThanOrEqual(0.2);
  });

  it("the whole fair metric's probit person: near the target at 45 questions even for the best questions", () => {
    // The people panel's probit person (sigma 0.05 of their range, on the counts shown) on
    // the whole fair metric's draw that the people sweep asserts (30 truths), each run's gap
    // weights B bounded by the best design of n questions knowing the truth
    // (`fairDesignBound`: pairs of 400 random points of the query ball and the family's
    // candidates, A-optimal for B). On the draws tune-1 / tune-2 / held-out-1 (not asserted
    // here) its p95 at 45 was 0.1635 / 0.1649 / 0.1672 with 2.7% / 2.6% / 2.5% of draws beyond
    // 0.2 (a cell within in 92% / 93% / 94% of draws); at 90 0.1143 / 0.1164 / 0.1169.
    // Asserted with margin.
    const bound = rec(
      fairDesignBound,
      { data: peopleFairData().data, trials: 30, questions: [45, 90] },
      { data: "peopleFairData().data" },
    );
    const [at45, at90] = bound.rows;
    const text = [
      "The whole fair metric's gap weights B for the people panel's probit person (sigma 0.05 of their range, on the counts shown), the draw of 30 truths the people sweep asserts: the error sum ||B - B'||_F that the best design of n questions leaves, knowing the truth (Fisher information of a probit answer for every pair of 400 random points of the query ball and the family's candidates, a, B and lambda together, the pairs weighted to minimise B's expected squared error; then B's error drawn from the Cramer-Rao Gaussian, 400 draws per truth). cell within: the chance that 30 runs (one per truth, a cell of reproduce people) have their error p95 within 0.2",
      "",
      ...designTable(bound.rows.map((r) => ({ row: r }))),
    ].join("\n");
    console.log(text);
    recordFigures("ideal-searcher-fair-design", import.meta.url, "probit person", text);
    // At the study's 45: even these questions leave the tail near the target, so the engine,
    // which knows neither the truth nor the person, cannot be far off them and meet it.
    expect(at45!.p95).toBeGreaterThanOrEqual(0.13);
    expect(at45!.beyond).toBeGreaterThanOrEqual(0.008);
    // At 90 the best questions are well within it.
    expect(at90!.p95).toBeLessThanOrEqual(0.14);
    expect(at90!.cellWithin).toBeGreaterThanOrEqual(0.9);
  });

  it("the whole fair metric's other noisy people: a side bias and a tired person beyond the best 45 questions, a side bias within from 180", () => {
    // The people panel's probit-based people beside the probit one (`fairDesignBound`, the
    // same draw and pool, 100 design steps: the probit person's p95 at 45 is 0.1586 with 100
    // steps, 0.1580 with 300): lapses (a coin on a tenth of the answers), a tie band and a
    // side bias (their answers on pairs within the band counted as saying nothing: the tie
    // band's narrowest, 0.05 of the range, the side bias's 0.1; the band's edge unused) and a
    // tired person (blocks of 9 questions, each at its first question's noise). On the draws
    // tune-1 / tune-2 / held-out-1 (not asserted here), p95 (cell within) at 45 / 90: lapses
    // 0.1823 (81%) / 0.1848 (80%) / 0.1863 (80%), at 90 0.1276 / 0.1303 / 0.1304; tie band
    // 0.1999 (67%) / 0.2070 (60%) / 0.2038 (64%), at 90 0.1394 / 0.1478 / 0.1433 (98% / 98%
    // / 99%); side bias 0.3861 / 0.3860 / 0.3882 (0% each), at 90 0.2698 (19%) / 0.2742
    // (13%) / 0.2725 (10%); tired, 45 only, 0.2913 (11%) / 0.2944 (8%) / 0.2996 (3%) (tune-1's all
    // at 300 steps, the others at 100). What budget the targets would need (the rows beyond
    // 90; tune-1 / held-out-1 at 100 steps, not asserted): the tie band's p95 at 60 is 0.1727
    // / 0.1748 (cell within 88% / 90%), the side bias's at 135 0.2295 / 0.2256 and at 180
    // 0.1965 / 0.1967 (71% each): within from about four times the study's budget. The tired
    // person's hardly moves with more questions, each answer noisier than the last: p95 / max
    // 0.2663 / 0.6048 at 90 and 0.2620 / 0.5847 at 180 on this draw (cell within 10% and 11%;
    // a scratch run of 466 s, too dear to assert here): beyond the target at any budget of
    // these questions. Asserted with margin.
    const data = peopleFairData().data;
    const people = [
      ["lapse", [45, 90]],
      ["tie-band", [45, 60, 90]],
      ["side-bias", [45, 90, 135, 180]],
      ["fatigue", [45]],
    ] as const;
    const bounds = Object.fromEntries(
      people.map(([person, questions]) => [
        person,
        rec(
          fairDesignBound,
          { data, trials: 30, questions, person, steps: 100 },
          { data: "peopleFairData().data" },
        ).rows,
      ]),
    ) as Record<(typeof people)[number][0], readonly FairDesignBoundRow[]>;
    const text = [
      "The whole fair metric's gap weights B for the people panel's other probit-based people (src/oracle/people.ts), the draw of 30 truths the people sweep asserts: the error sum ||B - B'||_F that the best design of n questions leaves, knowing the truth and the person, as for the probit person (ideal-searcher-fair-design) with 100 design steps. lapse: a coin on a tenth of the answers; tie-band and side-bias: the answers on pairs nearer than the band (0.05 and 0.1 of the range) counted as saying nothing; fatigue: the noise growing by a tenth per question, each block of 9 questions at its first question's noise. cell within: the chance that 30 runs (one per truth, a cell of reproduce people) have their error p95 within 0.2",
      "",
      ...designTable(people.flatMap(([person]) => bounds[person].map((row) => ({ person, row })))),
    ].join("\n");
    console.log(text);
    recordFigures("ideal-searcher-fair-people", import.meta.url, "other noisy people", text);
    const [lapse45, lapse90] = bounds.lapse;
    const [tie45, tie60, tie90] = bounds["tie-band"];
    const [side45, side90, side135, side180] = bounds["side-bias"];
    const [tired45] = bounds.fatigue;
    // Lapses and a tie band: near the target at 45 even for these questions, within it at 90.
    expect(lapse45!.p95).toBeGreaterThanOrEqual(0.14);
    expect(lapse45!.beyond).toBeGreaterThanOrEqual(0.01);
    expect(tie45!.p95).toBeGreaterThanOrEqual(0.16);
    expect(tie45!.cellWithin).toBeLessThanOrEqual(0.85);
    for (const r of [lapse90!, tie90!]) {
      expect(r.p95).toBeLessThanOrEqual(0.17);
      expect(r.cellWithin).toBeGreaterThanOrEqual(0.9);
    }
    // A side bias: beyond the best 45 questions, and still at 90.
    expect(side45!.p95).toBeGreaterThanOrEqual(0.3);
    expect(side45!.beyond).toBeGreaterThanOrEqual(0.12);
    expect(side45!.cellWithin).toBeLessThanOrEqual(0.05);
    expect(side90!.p95).toBeGreaterThanOrEqual(0.22);
    expect(side90!.cellWithin).toBeLessThanOrEqual(0.4);
    // The budgets the targets would need: a tie band's within at 60, a side bias's at the
    // edge at 135 and within at 180 (four times the study's 45).
    expect(tie60!.p95).toBeLessThanOrEqual(0.19);
    expect(tie60!.cellWithin).toBeGreaterThanOrEqual(0.75);
    expect(side135!.p95).toBeGreaterThanOrEqual(0.18);
    expect(side135!.cellWithin).toBeLessThanOrEqual(0.75);
    expect(side180!.p95).toBeLessThanOrEqual(0.22);
    expect(side180!.cellWithin).toBeGreaterThanOrEqual(0.6);
    // A tired person: beyond the best 45 questions.
    expect(tired45!.p95).toBeGreaterThanOrEqual(0.24);
    expect(tired45!.cellWithin).toBeLessThanOrEqual(0.35);
  });

  it("LPM's noisy people: well within reach of the best 45 questions, the tired person's too", () => {
    // The people panel's LPM cells (iris, k = 3, tolerance 0.1, budget 45: target 0.2) on the
    // draw the people sweep asserts, each run's costs bounded by the best design of 45
    // questions knowing the truth and the person (`lpmDesignBound`: pairs of the study's kind
    // of query points for 100 random directions, 100 design steps; with 200 directions the
    // p95 moved by at most 0.014: probit 0.0334, fatigue 0.0559, side bias 0.0964). On tune-1
    // / tune-2 / held-out-1 (not asserted here), p95: probit 0.0326 / 0.0300 /
    // 0.0307, lapses 0.0370 / 0.0336 / 0.0348, tie band 0.0410 / 0.0378 /
    // 0.0389, side bias 0.0923 / 0.0764 / 0.0792, tired 0.0548 / 0.0512 /
    // 0.0518; every cell within in 100% of draws. Asserted with margin.
    const pool = peopleMulticlassPool().pool;
    const people = ["probit", "lapse", "tie-band", "side-bias", "fatigue"] as const;
    const rows = people.map((person) => ({
      person,
      row: rec(
        lpmDesignBound,
        { pool, trials: 30, questions: [45], person, steps: 100, directions: 100 },
        { pool: "peopleMulticlassPool().pool" },
      ).rows[0]!,
    }));
    const text = [
      "An LPM's costs (iris, k = 3, the people panel's linear cells: error max |a_i - a_i'|, target 0.2) for the people panel's probit-based people (src/oracle/people.ts), the draw of 30 truths the people sweep asserts: the error that the best design of 45 questions (the study's budget) leaves, knowing the truth and the person (Fisher information of the person's answer on the counts shown for every pair of the study's kind of query points for 100 random directions: the classifier best for each and its points of the feasible sphere; the pairs weighted to minimise the costs' expected squared error, 100 Frank-Wolfe steps; then the error drawn from the Cramer-Rao Gaussian, 400 draws per truth). lapse: a coin on a tenth of the answers; tie-band and side-bias: the answers on pairs nearer than the band (0.05 and 0.1 of the range) counted as saying nothing; fatigue: the noise growing by a tenth per question, each block of 9 questions at its first question's noise. cell within: the chance that 30 runs (one per truth, a cell of reproduce people) have their error p95 within 0.2",
      "",
      ...designTable(rows),
    ].join("\n");
    console.log(text);
    recordFigures("ideal-searcher-lpm-design", import.meta.url, "LPM's noisy people", text);
    const by = Object.fromEntries(rows.map((r) => [r.person, r.row]));
    // The engine's cells of these people (reproduce people) are its own shortfall: the best
    // questions leave half the target or less at p95, the tired person's included.
    for (const person of ["probit", "lapse", "tie-band", "fatigue"] as const) {
      expect(by[person]!.p95, person).toBeLessThanOrEqual(0.1);
      expect(by[person]!.cellWithin, person).toBeGreaterThanOrEqual(0.95);
    }
    expect(by["side-bias"]!.p95).toBeLessThanOrEqual(0.16);
    expect(by["side-bias"]!.cellWithin).toBeGreaterThanOrEqual(0.8);
  });

  it("lambda's side bias: within reach of a searcher that knows near answers say nothing", () => {
    // A lambda study of arrests by colour (tolerance 0.05, budget 25: target 0.1), the panel's
    // side-biased person, the study's own kind of questions (`idealSideBiasSearch`). The rows
    // and their limits were measured on the seeds tune-a / tune-b (150 runs each): told, p95
    // 0.0793 / 0.0735, none beyond; a probit person assumed, 12.7% / 12.0% beyond, cell
    // within 13% / 15%; a tenth of the prior on a person who answers near pairs at random,
    // 1.3% / 2.7% beyond, cell within 94% / 82%; that person's band at 0.05 or 0.2 instead,
    // 6.7% / 8.7%, cell within 50% / 38%; one pool as the engine draws it, 9.3% / 10.0%,
    // cell within 28% / 22%. This seed is asserted on alone.
    const { data } = peopleFairData();
    const o = { data, questions: 25, target: 0.1, seed: "ideal-searcher-sweep", trials: 120 };
    const probit = { sideBias: 0.5, nearBand: 0 };
    const sideBias = (a: Parameters<typeof idealSideBiasSearch>[0]) =>
      rec(idealSideBiasSearch, a, { data: "peopleFairData().data" });
    const told = rec(idealSideBiasSearch, o, { data: "peopleFairData().data" });
    const unaware = sideBias({ ...o, kinds: [probit] });
    // A probit person, or (a tenth of the prior) one who answers near pairs at random.
    const learner = [
      { ...probit, weight: 0.9 },
      { sideBias: 0.5, weight: 0.1 },
    ];
    const learning = sideBias({ ...o, kinds: learner });
    const offBand = sideBias({
      ...o,
      kinds: [
        { ...probit, weight: 0.8 },
        { sideBias: 0.5, nearBand: 0.05, weight: 0.1 },
        { sideBias: 0.5, nearBand: 0.2, weight: 0.1 },
      ],
    });
    const thinPool = sideBias({
      ...o,
      kinds: learner,
      pool: { draws: 1, posterior: 16, prior: 16 },
    });
    report(
      "ideal-searcher-side-bias",
      "lambda's side bias",
      [
        "A searcher on lambda (a fairness study of arrests by colour with its known costs and gap weights, lambda uniform on [0.1, 0.9], error |lambda - lambda'|, target 0.1: twice the study's tolerance, 25 questions: its budget), facing the panel's side-biased person (on pairs nearer than a tenth of their range, the left system with probability 0.8; else the counts shown, probit noise 0.05 of their range)",
        "Exact posterior on a grid of lambda (and of the kinds of person it believes in), the person's own range at every lambda; each question the pair of the study's kind of pool whose answer tells the most, the placement the person draws weighed (the pool: profiles optimal for lambdas drawn and points on their centre's level set, three draws of 32 posterior directions, or one of 16 posterior and 16 prior directions as the engine draws it); the estimate the centre of the window of width 0.2 holding the most mass. cell within: the chance that 30 runs (a cell of reproduce people) have their error p95 within the target",
      ],
      [
        ["told the side bias (0.8 left within 0.1)", told],
        ["assumes a probit person (noise 0.05, no band)", unaware],
        ["learns it: 10% prior on near answers at random", learning],
        ["learns it, bands 0.05 and 0.2 (10% each)", offBand],
        ["learns it, one pool of 16 + 16 directions", thinPool],
      ],
    );
    // Told, the target is within reach: the cell's gap is the engine's, not the questions'.
    expect(told.cellWithin).toBeGreaterThanOrEqual(0.8);
    expect(told.beyond.share).toBeLessThanOrEqual(0.03);
    // Reading near answers as a probit person's, it misses as the engine does.
    expect(unaware.beyond.share).toBeGreaterThanOrEqual(0.05);
    expect(unaware.cellWithin).toBeLessThanOrEqual(0.5);
    // A tenth of the prior on a person whose near answers say nothing recovers most of it...
    expect(learning.cellWithin).toBeGreaterThanOrEqual(0.6);
    expect(learning.beyond.share).toBeLessThanOrEqual(0.05);
    // ...when its band is the person's: 0.05 and 0.2 recover less...
    expect(offBand.beyond.share).toBeGreaterThanOrEqual(0.03);
    expect(offBand.cellWithin).toBeLessThanOrEqual(0.8);
    // ...and when each question's pool has many points on the level set: one pool as the
    // engine draws it (its centre from 16 posterior and 16 prior directions) loses the gain.
    expect(thinPool.beyond.share).toBeGreaterThanOrEqual(0.04);
    expect(thinPool.cellWithin).toBeLessThanOrEqual(0.6);
  });
});
