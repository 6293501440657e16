import { describe, expect, it } from "vitest";
import {
  type AdaptiveComparisonRow,
  reproduceAdaptive,
} from "../../src/experiments/reproduce-adaptive.ts";
import { recordFigures } from "./figures.ts";
import { recordings } from "./recorded.ts";

const recorded = recordings(import.meta.url);

/**
 * Issue 10's noise-free targets, measured as `elicit reproduce adaptive` measures them (same
 * truths and seeds for every strategy): the mean questions of adaptive (at the papers'
 * tolerance) or of `matched` (asked for paper's own mean and 95th-percentile error on these
 * truths), with every error statistic (mean, p95, max) no worse than paper's. The LPM k = 3
 * uses 100 truths: on 30 its mean questions sit at the target's edge (matched: 40.1). k = 4
 * sits about 20 questions under its target of 90 (70.5 on 100 truths) and costs three times as
 * much per truth, so 30 truths (the first 30 of those 100: a setting's truths do not depend on
 * how many are drawn) decide it. The README quotes the printed lines
 * (docs/figures/adaptive-*.txt, for readme:check).
 */
function rows(families: string[], trials: number, settings?: string[], matched = true) {
  const args = { trials, families, noises: ["none" as const], settings, matched };
  // Without the wall time per question: a timing, not a result (no test asserts one), and no
  // two runs give the same.
  const r = recorded("reproduceAdaptive", args, () => {
    const x = reproduceAdaptive(args);
    return { ...x, rows: x.rows.map(({ msPerQuestion: _, ...row }) => row) };
  });
  return (setting: string, strategy: AdaptiveComparisonRow["strategy"]) => {
    const row = r.rows.find((x) => x.setting === setting && x.strategy === strategy);
    if (!row) throw new Error(`no row ${setting} ${strategy}`);
    return row;
  };
}

/** Prints `line` and writes the test's lines so far to docs/figures/<id>.txt. */
function reporter(id: string, test: string) {
  const lines: string[] = [];
  return (line: string) => {
    console.log(line);
    lines.push(line);
    recordFigures(id, import.meta.url, test, lines.join("\n"));
  };
}

type Row = Omit<AdaptiveComparisonRow, "msPerQuestion">;

/** Every error statistic of `row` at most paper's. */
function noWorse(row: Row, paper: Row) {
  for (const [i, e] of row.errors.entries()) {
    const p = paper.errors[i]!;
    expect(e.mean, `${row.setting} ${row.strategy} mean`).toBeLessThanOrEqual(p.mean);
    expect(e.p95, `${row.setting} ${row.strategy} p95`).toBeLessThanOrEqual(p.p95);
    expect(e.max, `${row.setting} ${row.strategy} max`).toBeLessThanOrEqual(p.max);
  }
}

describe("issue 10 targets, noise-free (reproduce adaptive)", () => {
  it("binary LPM: matched asks at most 8 questions (paper 28), errors no worse than paper's", () => {
    const row = rows(["binary-linear"], 30);
    const matched = row("binary-linear", "matched");
    const report = reporter("adaptive-binary", "binary LPM");
    report(`binary LPM matched: ${matched.questions.toFixed(2)} questions`);
    expect(matched.questions).toBeLessThanOrEqual(8);
    noWorse(matched, row("binary-linear", "paper"));
  });

  it("DLPM k = 3 / 4: adaptive asks at most 16 / 24 questions, errors no worse than paper's", () => {
    // Only adaptive is asserted here: no matched runs (a second adaptive run per truth).
    const row = rows(["diagonal-linear"], 30, undefined, false);
    const report = reporter("adaptive-dlpm", "DLPM");
    for (const [k, target] of [
      [3, 16],
      [4, 24],
    ] as const) {
      const adaptive = row(`diagonal-linear k=${k}`, "adaptive");
      report(`DLPM k = ${k} adaptive: ${adaptive.questions.toFixed(2)} questions`);
      expect(adaptive.questions).toBeLessThanOrEqual(target);
      noWorse(adaptive, row(`diagonal-linear k=${k}`, "paper"));
    }
  });

  it("LPM k = 3 / 4, 100 / 30 truths: matched asks at most 40 / 90 questions, errors no worse than paper's", () => {
    const report = reporter("adaptive-lpm", "100 / 30 truths");
    for (const [k, target, trials] of [
      [3, 40, 100],
      [4, 90, 30],
    ] as const) {
      const row = rows(["linear"], trials, [`linear k=${k}`]);
      const matched = row(`linear k=${k}`, "matched");
      const m = matched.errors[0]!;
      report(
        `LPM k = ${k} matched (${trials} truths): ${matched.questions.toFixed(2)} questions, error ${m.mean.toFixed(5)} / ${m.p95.toFixed(5)} / ${m.max.toFixed(5)}`,
      );
      expect(matched.questions).toBeLessThanOrEqual(target);
      noWorse(matched, row(`linear k=${k}`, "paper"));
      expect(row(`linear k=${k}`, "adaptive").questions).toBeLessThanOrEqual(target);
    }
  });
});
