import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatMulticlassReproduction } from "../../src/cli/commands/reproduce-multiclass.ts";
import type { MulticlassReproduction } from "../../src/experiments/reproduce-multiclass.ts";
import { portableMetricValue } from "../../src/metrics/portable/evaluate.ts";
import { tempDir } from "../temp-dir.ts";

// A third new-user audit of the CLI: --positive against a predictions file's probabilities,
// multiclass classes named by their labels, one name for the same thing in every command,
// small wording slips.

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const glass = fileURLToPath(new URL("../../data/glass.csv", import.meta.url));
const pima = fileURLToPath(new URL("../../data/pima_indians_diabetes.csv", import.meta.url));
const dir = tempDir("elicit-names-");
const truth = '{"tp":0.6,"tn":0.8}';

function elicit(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A refusal: exit code 2 and a single `elicit: error:` line matching `pattern`. */
function refused(args: string[], pattern: RegExp) {
  const r = elicit(args);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^elicit: error: /);
  expect(lines[0]).toMatch(pattern);
  return r;
}

describe("--positive against the probabilities of a predictions file", () => {
  it("naming the class the probabilities are not for is refused in both pools, saying which it is", () => {
    const pred = join(dir, "pred.csv");
    expect(elicit(["fit", "--positive", "malignant", "--out", pred]).code).toBe(0);
    for (const pool of ["soft", "labelled"]) {
      refused(
        [
          "simulate",
          "--predictions",
          pred,
          "--positive",
          "benign",
          "--pool",
          pool,
          "--truth",
          truth,
        ],
        /^elicit: error: --positive benign: the probability column is P\(malignant\), not P\(benign\) \(mean 0\.\d\d on malignant rows, 0\.\d\d on benign rows\); give --positive malignant, or write the file with probability = P\(benign\)$/,
      );
      const ok = elicit([
        "simulate",
        "--predictions",
        pred,
        "--positive",
        "malignant",
        "--pool",
        pool,
        "--truth",
        truth,
        "--json",
      ]);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout).error.angle).toBeLessThan(0.3);
    }
  });
  it("labels 0/1: the probability is P(1), so --positive 0 is refused", () => {
    const file = join(dir, "p01.csv");
    writeFileSync(file, "label,probability\n1,0.9\n0,0.2\n1,0.7\n0,0.1\n");
    refused(
      ["simulate", "--predictions", file, "--positive", "0", "--truth", truth],
      /--positive 0: the probability column is P\(1\), not P\(0\) \(mean 0\.80 on 1 rows, 0\.15 on 0 rows\); give --positive 1/,
    );
    expect(
      elicit(["simulate", "--predictions", file, "--positive", "1", "--truth", truth]).code,
    ).toBe(0);
  });
});

describe("multiclass classes are named by their labels", () => {
  const args = ["simulate", "--data", glass, "--target", "Type", "--family", "diagonal-linear"];
  it("the paper's strategy: the class order beside the weights, labels in the warning and the JSON", () => {
    const r = elicit([...args, "--random-truth"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^classes {5}1, 2, 3, 5, 6, 7 \(the order of the weights\)$/m);
    // Glass's labels are 1, 2, 3, 5, 6, 7: "classes 0 and 5" was the 1st and 6th class.
    expect(r.stdout).toMatch(/^warning {5}the search for classes 1 and 2 \(\d+ times\), 1 and 3/m);
    expect(r.stdout).not.toMatch(/classes 0 and/);
    const json = JSON.parse(elicit([...args, "--random-truth", "--json"]).stdout);
    expect(json.classes).toEqual(["1", "2", "3", "5", "6", "7"]);
    const many = JSON.parse(elicit([...args, "--random-truth", "--trials", "2", "--json"]).stdout);
    expect(many.classes).toEqual(["1", "2", "3", "5", "6", "7"]);
  });
  it("the adaptive strategy: the class order in the text and the JSON", () => {
    const adaptive = [...args, "--random-truth", "--strategy", "adaptive", "--budget", "6"];
    const r = elicit(adaptive);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^classes {5}1, 2, 3, 5, 6, 7 \(the order of the weights\)$/m);
    expect(JSON.parse(elicit([...adaptive, "--json"]).stdout).classes).toEqual([
      "1",
      "2",
      "3",
      "5",
      "6",
      "7",
    ]);
  });
});

describe("the same names in every command", () => {
  it("reproduce adaptive takes fair-lambda, reproduce people takes lambda", () => {
    // An error about a later option: the family was accepted.
    refused(
      ["reproduce", "adaptive", "--families", "fair-lambda", "--budget", "0"],
      /--budget must be an integer >= 1/,
    );
    refused(
      ["reproduce", "people", "--families", "lambda", "--people", "nobody"],
      /--people: unknown person "nobody"/,
    );
    refused(
      ["reproduce", "people", "--budget", "lambda=40", "--people", "nobody"],
      /--people: unknown person "nobody"/,
    );
  });
  it("sphere takes simulate's space names, simulate takes sphere's", () => {
    const spelt = elicit([
      "sphere",
      "--synthetic",
      "paper-multiclass",
      "--space",
      "diagonal-rates",
    ]);
    expect(spelt.code).toBe(0);
    expect(spelt.stdout).toContain("space diag-rates (dim 3)");
    const off = elicit([
      "sphere",
      "--synthetic",
      "paper-multiclass",
      "--space",
      "off-diagonal-rates",
      "--json",
    ]);
    expect(JSON.parse(off.stdout).space).toBe("offdiag-rates");
    const sim = elicit([
      "simulate",
      "--family",
      "quadratic",
      "--synthetic",
      "sphere",
      "--classes",
      "2",
      "--space",
      "offdiag-rates",
      "--random-truth",
    ]);
    expect(sim.code).toBe(0);
    expect(sim.stdout).toContain("2 rates (off-diagonal-rates)");
  });
  it("a binary-threshold metric file is called so by score and export-metric, with the same value", () => {
    const m = join(dir, "threshold.json");
    writeFileSync(
      m,
      JSON.stringify({ family: "binary-threshold", a0: 0.3, classes: ["benign", "malignant"] }),
    );
    const pred = join(dir, "model.csv");
    expect(elicit(["fit", "--positive", "malignant", "--out", pred]).code).toBe(0);
    const score = elicit(["score", "--metric", m, "--predictions", pred]);
    expect(score.code).toBe(0);
    expect(score.stdout).toContain(
      "Metric of threshold.json: binary-threshold: a0 = 0.3 (0.7 TP + 0.3 TN)",
    );
    const out = join(dir, "metric.mjs");
    const exported = elicit(["export-metric", m, "--to", "js", "--out", out]);
    expect(exported.code).toBe(0);
    const code = readFileSync(out, "utf8");
    expect(code).toContain('export const FAMILY = "binary-threshold";');
    expect(code).toContain("Metric: binary-threshold: a0 = 0.3 (0.7 TP + 0.3 TN).");
    return import(out).then((mod: { elicitedMetric: (c: number[][]) => number }) => {
      const c = [
        [40, 10],
        [20, 30],
      ];
      expect(mod.elicitedMetric(c)).toBeCloseTo(
        portableMetricValue({ family: "binary-linear", tp: 0.7, tn: 0.3 }, c),
        12,
      );
    });
  });
});

describe("small slips in the output", () => {
  it("reproduce multiclass prints a weight that rounds to zero as 0.00, never -0.00", () => {
    const run = { truth: { a: [-0.5, 0.001] }, elicited: { a: [-0.004, -0.001] } };
    const text = formatMulticlassReproduction({
      strategy: "paper",
      table5: [],
      table6: [{ k: 3, run: { ...run, error: { linf: 0.004 }, queries: 10 }, radius: 0.01 }],
      table7: { trials: 1, omegas: [], rows: [] },
    } as unknown as MulticlassReproduction);
    expect(text).toContain("(-0.50,0.00)  (0.00,0.00)");
    expect(text).not.toContain("-0.00");
  });
  it("fit on one feature says feature", () => {
    const csv = join(dir, "one.csv");
    const rows = Array.from({ length: 40 }, (_, i) => `${i % 7},${i},${i % 3 === 0 ? "a" : "b"}`);
    writeFileSync(csv, `x1,x2,y\n${rows.join("\n")}\n`);
    const r = elicit(["fit", "--data", csv, "--target", "y", "--drop", "x1", "--out", "/dev/null"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("model: logistic regression on 1 feature, trained");
  });
  it("simulate --lambda-only's summary reads as words", () => {
    const r = elicit([
      "simulate",
      "--family",
      "fair-quadratic",
      "--synthetic",
      "sphere",
      "--classes",
      "3",
      "--groups",
      "3",
      "--lambda-only",
      "--random-truth",
      "--trials",
      "2",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(
      /^2 trials of the lambda search \(a and B known\), k = 3, m = 3, mean questions/,
    );
  });
  it("sphere on a binary target says what sphere needs, not to use a family", () => {
    refused(
      ["sphere", "--data", pima, "--target", "diabetes"],
      /^elicit: error: target "diabetes" has 2 classes \(neg, pos\); sphere needs a target of at least 3 classes \(the multiclass feasible set\): give --target a column with 3 or more classes$/,
    );
  });
});
