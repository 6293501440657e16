import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePredictions } from "../../src/data/predictions.ts";
import { fairCost } from "../../src/elicit/fair/metric.ts";

/**
 * Issue 29 items 1 and 2 at the command line: `elicit score` ranks two models fitted on the
 * bundled breast-cancer data as the metric's own values say (computed here from the files),
 * scores a fair metric on predictions with a group column, and refuses bad input with one
 * line; `elicit export-metric` writes the code a metric file and a debrief describe.
 */

const dir = mkdtempSync(join(tmpdir(), "elicit-score-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ELICIT = new URL("../../bin/elicit.js", import.meta.url).pathname;
function elicit(args: string[]) {
  const r = spawnSync(process.execPath, [ELICIT, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe("elicit score on two models of the bundled breast-cancer data", () => {
  let a: string;
  let b: string;
  beforeAll(() => {
    // The same held-out half (split seed 1), two penalties: two models of the same cases.
    a = join(dir, "l2-1.csv");
    b = join(dir, "l2-300.csv");
    expect(elicit(["fit", "--out", a, "--l2", "1"]).status).toBe(0);
    expect(elicit(["fit", "--out", b, "--l2", "300"]).status).toBe(0);
  }, 60_000);

  /** The metric tp TP + tn TN of "malignant when p >= tn / (tp + tn)", from the file itself. */
  const value = (path: string, tp: number, tn: number) => {
    const p = parsePredictions(readFileSync(path, "utf8"), { positive: "malignant" });
    let v = 0;
    p.labels.forEach((y, n) => {
      const yes = p.probabilities[n]! >= tn / (tp + tn);
      if (y === 1 && yes) v += tp;
      if (y === 0 && !yes) v += tn;
    });
    return v / p.labels.length;
  };

  it("ranks them as the metric's own values say, for several metrics (the threshold rule optimal for each)", () => {
    for (const [tp, tn] of [
      [0.9, 0.1],
      [0.5, 0.5],
      [0.15, 0.85],
    ] as const) {
      const m = file(
        `m-${tp}.json`,
        JSON.stringify({ family: "binary-linear", tp, tn, classes: ["benign", "malignant"] }),
      );
      const r = elicit(["score", "--metric", m, "--predictions", a, b, "--json"]);
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout).subjects[0];
      const [va, vb] = [value(a, tp, tn), value(b, tp, tn)];
      expect(out.models[0].score).toBeCloseTo(va, 12);
      expect(out.models[1].score).toBeCloseTo(vb, 12);
      expect(out.models[0].rule.threshold).toBeCloseTo(tn / (tp + tn), 12);
      expect(out.ranking).toEqual(
        va >= vb ? ["l2-1.csv", "l2-300.csv"] : ["l2-300.csv", "l2-1.csv"],
      );
      expect(out.belief).toBeNull();
    }
  });

  it("prints the table, says when there is no belief, and takes the threshold family and --positive", () => {
    const m = file("a0.json", JSON.stringify({ family: "binary-threshold", a0: 0.25 }));
    const r = elicit(["score", "--metric", m, "--predictions", a, b, "--positive", "malignant"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "Metric of a0.json: binary-threshold: a0 = 0.25 (0.75 TP + 0.25 TN)",
    );
    expect(r.stdout).toContain("Belief: none, so no probabilities of being best");
    expect(r.stdout).toMatch(/positive when P\(malignant\) >= 0\.2500/);
    // Without --positive a file of class names cannot say which class is positive.
    const no = elicit(["score", "--metric", m, "--predictions", a]);
    expect(no.status).toBe(2);
    expect(no.stderr).toContain("give the positive class with --positive");
  });

  it("draws in a metric file: P(best) is the share of draws under which a model is best", () => {
    const draws = [0.1, 0.3, 0.5, 0.7, 0.9].map((a0) => ({ a0 }));
    const m = file(
      "drawn.json",
      JSON.stringify({
        family: "binary-threshold",
        a0: 0.5,
        classes: ["benign", "malignant"],
        draws,
      }),
    );
    const r = elicit(["score", "--metric", m, "--predictions", a, b, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).subjects[0];
    const expected = [0, 0];
    for (const { a0 } of draws) {
      const [va, vb] = [value(a, 1 - a0, a0), value(b, 1 - a0, a0)];
      if (Math.abs(va - vb) < 1e-12) {
        expected[0]! += 0.1;
        expected[1]! += 0.1;
      } else expected[va > vb ? 0 : 1]! += 0.2;
    }
    out.models.forEach((x: { pBest: number }, i: number) => {
      expect(x.pBest).toBeCloseTo(expected[i]!, 12);
    });
  });
});

describe("elicit score with a fair metric and a group column", () => {
  it("scores the fair cost (lower is better) of each model's most probable class, per group", () => {
    const rows = (shift: number) => {
      const lines = ["label,group,p_no,p_yes"];
      for (let n = 0; n < 40; n++) {
        const y = n % 3 === 0 ? "yes" : "no";
        const g = n % 2 === 0 ? "F" : "M";
        const p = Math.min(0.95, Math.max(0.05, (y === "yes" ? 0.7 : 0.3) + (n % 5) * shift - 0.2));
        lines.push(`${y},${g},${1 - p},${p}`);
      }
      return `${lines.join("\n")}\n`;
    };
    const metric = {
      family: "fair",
      a: [0.6, 0.8],
      B: {
        "0-1": [
          [1, 0],
          [0, 1],
        ],
      },
      lambda: 0.4,
      classes: ["no", "yes"],
      groups: ["F", "M"],
    };
    const m = file("fair.json", JSON.stringify(metric));
    const x = file("x.csv", rows(0.1));
    const y = file("y.csv", rows(0.02));
    const r = elicit([
      "score",
      "--metric",
      m,
      "--predictions",
      x,
      y,
      "--groups",
      "group",
      "--json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).subjects[0];
    expect(out.cost).toBe(true);
    for (const [i, path] of [x, y].entries()) {
      // Directly: each group's rates right per class and tau from the counts.
      const c = [0, 1].map(() => [
        [0, 0],
        [0, 0],
      ]);
      for (const line of readFileSync(path, "utf8").trim().split("\n").slice(1)) {
        const [label, g, , pYes] = line.split(",");
        c[g === "F" ? 0 : 1]![label === "yes" ? 1 : 0]![Number(pYes) > 0.5 ? 1 : 0]!++;
      }
      const totals = c.map((m) => m.map((row) => row[0]! + row[1]!));
      const tau = c.map((_, g) =>
        [0, 1].map((k) => totals[g]![k]! / (totals[0]![k]! + totals[1]![k]!)),
      );
      const rates = c.map((m, g) => [0, 1].map((k) => m[k]![k]! / totals[g]![k]!));
      expect(out.models[i].score).toBeCloseTo(fairCost(metric, tau, rates), 12);
      expect(out.models[i].rule.optimal).toBe(false);
    }
    const ranked = [...out.models].sort(
      (p: { score: number }, q: { score: number }) => p.score - q.score,
    );
    expect(out.ranking).toEqual(ranked.map((p: { name: string }) => p.name));
    const text = elicit(["score", "--metric", m, "--predictions", x, y, "--groups", "group"]);
    expect(text.stdout).toContain("Scores are the metric's cost: lower is better.");
    expect(text.stdout).toContain("the model's most probable class (the fair metric is not linear");
    const noGroups = elicit(["score", "--metric", m, "--predictions", x]);
    expect(noGroups.status).toBe(2);
    expect(noGroups.stderr).toContain("name the group column with --groups COLUMN");
  });
});

describe("elicit score and export-metric: bad input, one line each", () => {
  it("refuses a wrong family, a metric without b0, a non-JSON file and a wrong --to", () => {
    const wrong = file("wrong.json", JSON.stringify({ family: "cubic", a: [1] }));
    const pred = file("p.csv", "label,probability\n1,0.2\n0,0.9\n");
    let r = elicit(["score", "--metric", wrong, "--predictions", pred]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /family "cubic" is not a metric file's family; the families are binary-linear, /,
    );
    r = elicit([
      "export-metric",
      file("f.json", '{"family":"linear-fractional","a":[-1,-1],"b":[0,0]}'),
      "--to",
      "r",
    ]);
    expect(r.stderr).toContain("b0 is required in a metric file");
    r = elicit(["export-metric", file("bad.json", "{"), "--to", "python"]);
    expect(r.stderr).toMatch(/bad\.json is not JSON: /);
    r = elicit(["export-metric", wrong, "--to", "julia"]);
    expect(r.stderr).toContain('unknown --to "julia"; choose python, r, js');
    r = elicit([
      "export-metric",
      file("k.json", '{"family":"linear","a":[-1,-1,-1]}'),
      "--to",
      "js",
    ]);
    expect(r.stderr).toContain("a linear metric has k^2 - k");
    // A multiclass metric and a binary file.
    r = elicit([
      "score",
      "--metric",
      file("d.json", '{"family":"diagonal-linear","a":[0.2,0.3,0.5]}'),
      "--predictions",
      pred,
    ]);
    expect(r.stderr).toContain("a label,probability file has 2 classes; the metric is about 3");
    // --participant needs a study.json.
    r = elicit(["score", "--metric", wrong, "--participant", "3", "--predictions", pred]);
    expect(r.stderr).toContain("--participant and --all choose among a study.json's participants");
  });

  it("export-metric writes a debrief's metric; a fair-lambda debrief is refused with what to use", () => {
    const state = {
      phase: "debrief",
      multiclassDebrief: {
        summary: "…",
        metric: { weights: [0.2, 0.5, 0.3] },
        halfWidths: [null, null, null],
        classes: ["setosa", "versicolor", "virginica"],
        classWeights: [0.2, 0.5, 0.3],
        completionCode: "X",
      },
    };
    const out = join(dir, "metric.py");
    const r = elicit([
      "export-metric",
      file("state.json", JSON.stringify(state)),
      "--to",
      "python",
      "--out",
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const code = readFileSync(out, "utf8");
    expect(code).toContain('LABELS = ["setosa", "versicolor", "virginica"]');
    expect(code).toContain("A = [0.2, 0.5, 0.3]");
    const fair = {
      fairDebrief: {
        metric: { lambda: 0.4, low: 0.3, high: 0.5 },
        classes: ["no", "yes"],
        groups: ["F", "M"],
        completionCode: "X",
      },
    };
    const f = elicit(["export-metric", file("fair-state.json", JSON.stringify(fair)), "--to", "r"]);
    expect(f.status).toBe(2);
    expect(f.stderr).toContain("a fair-lambda debrief holds lambda only");
  });

  it("both commands have --help with the convention and examples", () => {
    const s = elicit(["score", "--help"]);
    expect(s.stdout).toContain("--participant <id>");
    expect(s.stdout).toContain("elicit score --metric study.json --predictions a.csv b.csv");
    const e = elicit(["export-metric", "--help"]);
    expect(e.stdout).toContain("counts or joint");
    expect(e.stdout).toContain("--to <language>");
  });
});

describe("elicit score: audit findings (one-line JSON errors, the file at fault, rounded rows, ties)", () => {
  it("a file that is not JSON: one whole line, no quoted excerpt, worded as elicit report words it", () => {
    const bad = file("m5.json", "not json\n");
    const pred = file("p01.csv", "label,probability\n1,0.2\n0,0.9\n");
    const r = elicit(["score", "--metric", bad, "--predictions", pred]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`elicit: error: ${bad} is not JSON: Unexpected token 'o'\n`);
    const report = elicit(["report", bad]);
    expect(report.status).toBe(2);
    expect(report.stderr).toBe(r.stderr);
  });

  it("with several files, a positive class missing from one file's labels names that file", () => {
    const metric = file(
      "classes01.json",
      JSON.stringify({ family: "binary-linear", tp: 0.6, tn: 0.4, classes: ["0", "1"] }),
    );
    const zeroOne = file("labels01.csv", "label,probability\n1,0.7\n0,0.2\n");
    const named = file("named.csv", "label,probability\nmalignant,0.7\nbenign,0.2\n");
    const r = elicit(["score", "--metric", metric, "--predictions", zeroOne, named]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'elicit: error: named.csv: positive class "1" does not occur in the labels; they are: benign, malignant\n',
    );
    // A file's own format errors are named after it too.
    const ragged = file("ragged.csv", "label,probability\n1,0.7\n0\n");
    const g = elicit(["score", "--metric", metric, "--predictions", zeroOne, ragged]);
    expect(g.stderr).toMatch(/^elicit: error: ragged\.csv: line 3: expected 2 fields/);
  });

  it("a probability column lower on the positive rows is scored as given but said so; --positive is used with labels 0/1 too", () => {
    const metric = file(
      "bm.json",
      JSON.stringify({
        family: "binary-linear",
        tp: 0.6,
        tn: 0.4,
        classes: ["benign", "malignant"],
      }),
    );
    // P(benign) written in a file read as P(malignant): a note on stderr and in the JSON.
    const flipped = file(
      "flipped.csv",
      "label,probability\nmalignant,0.1\nmalignant,0.3\nbenign,0.8\nbenign,0.6\n",
    );
    const r = elicit(["score", "--metric", metric, "--predictions", flipped]);
    expect(r.status, r.stderr).toBe(0);
    const note =
      "flipped.csv: its probability is lower on malignant rows (mean 0.20) than on benign rows (0.70); scored as P(malignant); if the column is P(benign), write it as P(malignant) or give --positive benign";
    expect(r.stderr).toContain(`note: ${note}\n`);
    const j = elicit(["score", "--metric", metric, "--predictions", flipped, "--json"]);
    expect(JSON.parse(j.stdout).notes).toContain(note);
    // A file the right way round has no such note.
    const right = file("right.csv", "label,probability\nmalignant,0.9\nbenign,0.2\n");
    expect(elicit(["score", "--metric", metric, "--predictions", right]).stderr).not.toMatch(
      /lower on/,
    );
    // --positive 0 on labels 0/1 is not ignored: the file's classes are then 1, 0.
    const plain = file("plain.json", JSON.stringify({ family: "binary-linear", tp: 0.6, tn: 0.4 }));
    const zeroOne = file("zero-one.csv", "label,probability\n1,0.9\n0,0.2\n1,0.7\n");
    const asOne = elicit(["score", "--metric", plain, "--predictions", zeroOne, "--json"]);
    const asZero = elicit([
      "score",
      "--metric",
      plain,
      "--predictions",
      zeroOne,
      "--positive",
      "0",
      "--json",
    ]);
    expect(asOne.status, asOne.stderr).toBe(0);
    expect(asZero.status, asZero.stderr).toBe(0);
    expect(asOne.stdout).not.toBe(asZero.stdout);
    expect(JSON.parse(asZero.stdout).notes.join(" ")).toMatch(/lower on 0 rows/);
  });

  it("multiclass rows written with 4 decimals are renormalised and said so; farther off is refused", () => {
    const metric = file(
      "iris.json",
      JSON.stringify({
        family: "diagonal-linear",
        a: [0.3, 0.3, 0.4],
        classes: ["setosa", "versicolor", "virginica"],
      }),
    );
    const rows = [
      "label,p_setosa,p_versicolor,p_virginica",
      "setosa,0.8667,0.0667,0.0667",
      "versicolor,0.0667,0.8667,0.0667",
      "virginica,0.1,0.2,0.7",
    ];
    const rounded = file("rounded.csv", `${rows.join("\n")}\n`);
    const r = elicit(["score", "--metric", metric, "--predictions", rounded]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "note: rounded.csv: 2 rows' probabilities summed to 1 only within 0.001 (rounded?): divided by their sum\n",
    );
    const json = JSON.parse(
      elicit(["score", "--metric", metric, "--predictions", rounded, "--json"]).stdout,
    );
    expect(json.notes).toContain(
      "rounded.csv: 2 rows' probabilities summed to 1 only within 0.001 (rounded?): divided by their sum",
    );
    const far = file("far.csv", `${[...rows.slice(0, 3), "virginica,0.1,0.2,0.71"].join("\n")}\n`);
    const f = elicit(["score", "--metric", metric, "--predictions", far]);
    expect(f.status).toBe(2);
    expect(f.stderr).toMatch(
      /^elicit: error: far\.csv: line 4: probabilities sum to 1\.01\d*, not 1: each row must sum to 1 within 0\.001 .*write them with more digits\n$/,
    );
  });

  it("ties for best: said how P(best) counts them, and a model never worse is not 'cannot tell apart'", () => {
    // a.csv is perfect; b.csv calls one negative case 0.6. Under a0 = 0.7 (threshold 0.7) both
    // are perfect, a tie; under a0 = 0.3 b.csv's false alarm makes it worse.
    const metric = file(
      "tied.json",
      JSON.stringify({ family: "binary-threshold", a0: 0.5, draws: [{ a0: 0.3 }, { a0: 0.7 }] }),
    );
    const a = file("perfect.csv", "label,probability\n1,0.9\n0,0.1\n1,0.9\n0,0.1\n");
    const b = file("alarm.csv", "label,probability\n1,0.9\n0,0.6\n1,0.9\n0,0.1\n");
    const r = elicit(["score", "--metric", metric, "--predictions", a, b]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("cannot tell");
    expect(r.stdout).toContain(
      "perfect.csv scores at least as well as alarm.csv under every one of the belief's samples, better under 50% (the same under 50%).",
    );
    expect(r.stdout).toContain(
      "P(best) shares a sample under which models tie for best equally among them. Best alone / best or tied: perfect.csv 50% / 100%, alarm.csv 0% / 50%.",
    );
    expect(r.stdout).toContain(
      "No model is best alone under 95% of the belief's samples, but perfect.csv is best or tied for best under every one of them (P(best): perfect.csv 0.750, alarm.csv 0.250).",
    );
    // The JSON keeps pBest (ties shared) and adds the counts either way.
    const out = JSON.parse(
      elicit(["score", "--metric", metric, "--predictions", a, b, "--json"]).stdout,
    ).subjects[0];
    expect(out.models.map((m: { pBest: number }) => m.pBest)).toEqual([0.75, 0.25]);
    expect(out.models.map((m: { pBestAlone: number }) => m.pBestAlone)).toEqual([0.5, 0]);
    expect(out.models.map((m: { pBestOrTied: number }) => m.pBestOrTied)).toEqual([1, 0.5]);
    expect(out.belief.closeCalls).toEqual([
      {
        first: "perfect.csv",
        second: "alarm.csv",
        firstAhead: 0.75,
        tied: 0.5,
        firstBetter: 0.5,
        secondBetter: 0,
      },
    ]);
    // The help says how ties count.
    expect(elicit(["score", "--help"]).stdout).toMatch(/tie for best counts 1\/n for each/);
  });
});
