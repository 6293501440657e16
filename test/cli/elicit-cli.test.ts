import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { STUDY_ANSWER_MODELS } from "../../src/server/study/config.ts";
import { tempDir } from "../temp-dir.ts";

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const data = fileURLToPath(
  new URL("../../data/breast_cancer_wisconsin_diagnostic.csv", import.meta.url),
);
const dir = tempDir("elicit-cli-");

function elicit(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("elicit simulate (contract)", () => {
  it("binary-linear on a CSV prints the JSON contract", () => {
    const r = elicit(
      "simulate",
      "--data",
      data,
      "--target",
      "target",
      "--positive",
      "malignant",
      "--family",
      "binary-linear",
      "--truth",
      '{"tp":0.6,"tn":0.8}',
      "--tolerance",
      "0.02",
      "--strategy",
      "paper",
      "--noise",
      "0",
      "--seed",
      "1",
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.family).toBe("binary-linear");
    expect(out.truth.tp).toBeCloseTo(0.6, 12);
    expect(Math.hypot(out.elicited.tp, out.elicited.tn)).toBeCloseTo(1, 12);
    expect(out.queries).toBe(28);
    // On the data's 284-point soft-label pool an angle is pinned down only to the range of
    // slopes that support the same boundary point, so the error can exceed the tolerance:
    // README's "Real data ... soft labels" table has a mean of 0.033 rad at tolerance 0.02.
    // This run prints 0.036; three tolerances is the ceiling (held-out hard labels miss by 0.37).
    expect(out.error.angle).toBeLessThan(3 * 0.02);
    expect(out.classifier.kind).toBe("threshold");
  });
  /** `simulate --json` of an LFPM on the paper's synthetic population. */
  const fractional = (truth: string, ...extra: string[]) => {
    const r = elicit(
      "simulate",
      "--synthetic",
      "paper-binary",
      "--family",
      "binary-linear-fractional",
      "--truth",
      truth,
      "--json",
      ...extra,
    );
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  it("binary-linear-fractional on the synthetic population", () => {
    const out = fractional('{"p11":1,"p00":0,"q11":0.5,"q00":-0.5,"q0":0.5}');
    expect(Object.keys(out.elicited).sort()).toEqual(["p00", "p11", "q0", "q00", "q11"]);
    expect(out.queries).toBe(40);
    expect(Math.abs(out.error.alphaMean - 1)).toBeLessThan(0.1);
    // README's Table 2, row 1: sigma 0.032 (paper 0.030) and the grid's p11 off by 0.010 (one
    // step Delta); both below the run's tolerance, 0.05.
    expect(out.tolerance).toBe(0.05);
    expect(out.error.alphaStd).toBeLessThan(out.tolerance);
    expect(out.error.p11).toBeLessThan(out.tolerance);
    expect(out.ratio).toBe("grid");
  });
  it("binary-linear-fractional: --ratio follows the strategy unless given, and pole finds p11", () => {
    const run = (...extra: string[]) =>
      fractional('{"p11":0.2,"p00":0.8,"q11":-0.4,"q00":-0.2,"q0":0.8}', ...extra);
    const lazy = run("--strategy", "lazy");
    expect(lazy.ratio).toBe("pole");
    expect(lazy.error.p11).toBeLessThan(0.01);
    const paperGrid = run("--strategy", "paper");
    const paperPole = run("--strategy", "paper", "--ratio", "pole");
    expect(paperGrid.ratio).toBe("grid");
    expect(paperPole.ratio).toBe("pole");
    expect(paperPole.queries).toBe(paperGrid.queries);
    expect(paperPole.error.p11).toBeLessThan(paperGrid.error.p11);
  });
  it("the bundled dataset is the default and --trials prints a summary", () => {
    const r = elicit("simulate", "--random-truth", "--trials", "5", "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.runs).toHaveLength(5);
    // The summary is of the runs printed beside it.
    const angles: number[] = out.runs.map((run: { error: { angle: number } }) => run.error.angle);
    const mean = angles.reduce((s, x) => s + x, 0) / angles.length;
    expect(out.summary.error.angle.mean).toBeCloseTo(mean, 12);
    expect(out.summary.error.angle.max).toBe(Math.max(...angles));
    // Mean 0.037 rad here (README's soft-label table: 0.033 over 28 truths, tolerance 0.02).
    expect(out.summary.tolerance).toBe(0.02);
    expect(out.summary.error.angle.mean).toBeLessThan(3 * out.summary.tolerance);
  });
});

describe("bad input: one line, non-zero exit, no stack trace", () => {
  const badCsv = join(dir, "one-class.csv");
  writeFileSync(badCsv, "x,y\n1,a\n2,a\n3,a\n");
  const noFeatures = join(dir, "no-features.csv");
  writeFileSync(noFeatures, "x,y\n1,a\n1,b\n1,a\n");
  const cases: [string, string[], RegExp][] = [
    ["missing file", ["--data", join(dir, "nope.csv"), "--target", "y"], /no such file/],
    ["unknown column", ["--data", data, "--target", "nope"], /unknown column/i],
    ["absent positive", ["--data", data, "--target", "target", "--positive", "maybe"], /maybe/],
    ["single class", ["--data", badCsv, "--target", "y"], /single class/i],
    ["no usable feature", ["--data", noFeatures, "--target", "y"], /feature/i],
    ["malformed truth", ["--truth", "{tp:1}"], /malformed --truth/],
    ["wrong truth keys", ["--truth", '{"a":[1]}'], /malformed --truth/],
    ["mixed signs", ["--truth", '{"tp":1,"tn":-1}'], /sign/],
    [
      "unknown ratio method",
      ["--family", "binary-linear-fractional", "--random-truth", "--ratio", "mean"],
      /--ratio/,
    ],
  ];
  for (const [name, args, pattern] of cases) {
    it(name, () => {
      const given = args.includes("--truth") || args.includes("--random-truth");
      const truth = given ? [] : ["--truth", '{"tp":0.6,"tn":0.8}'];
      const r = elicit("simulate", ...args, ...truth, "--json");
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe("elicit fit, ask and reproduce", () => {
  it("fit writes predictions that simulate accepts", () => {
    const out = join(dir, "pred.csv");
    const fit = elicit(
      "fit",
      "--data",
      data,
      "--target",
      "target",
      "--positive",
      "malignant",
      "--out",
      out,
    );
    expect(fit.code).toBe(0);
    expect(fit.stderr).toMatch(/held-out accuracy/);
    const sim = elicit(
      "simulate",
      "--predictions",
      out,
      "--positive",
      "malignant",
      "--truth",
      '{"tp":0.6,"tn":0.8}',
      "--json",
    );
    expect(sim.code).toBe(0);
    expect(JSON.parse(sim.stdout).queries).toBe(28);
  });
  it("--version and -V print the package version (answered before the CLI loads)", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    for (const flag of ["--version", "-V"]) {
      const r = elicit(flag);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(pkg.version);
    }
    // The full CLI (reached with any other arguments) reports the same version.
    expect(elicit("--version", "--").stdout.trim()).toBe(pkg.version);
  });
  it("ask takes answers from stdin and saves a resumable session", () => {
    const session = join(dir, "session.json");
    const input = "1\n2\n0\nu\nq\n";
    const r = spawnSync(
      process.execPath,
      [bin, "ask", "--family", "binary-threshold", "--session", session],
      {
        encoding: "utf8",
        input,
      },
    );
    expect(r.status).toBe(1); // stopped with q before the end
    expect(r.stdout).toMatch(/System A/);
    expect(r.stdout).toMatch(/out of 100|of 100/);
    const saved = JSON.parse(readFileSync(session, "utf8"));
    expect(saved.answers).toHaveLength(2); // three answers, one undone
    const resumed = spawnSync(process.execPath, [bin, "ask", "--session", session], {
      encoding: "utf8",
      input: "q\n",
    });
    expect(resumed.stdout).toMatch(/Resuming .*2 answers/);
    expect(resumed.stdout).toMatch(/Question 3 /);
    expect(resumed.stdout).toContain(`answers saved to ${session}`);
    expect(JSON.parse(readFileSync(session, "utf8")).data).toMatch(/breast cancer/);
    // Never resumed on other data or with other settings (issue 14).
    const other = spawnSync(
      process.execPath,
      [bin, "ask", "--session", session, "--synthetic", "paper-binary"],
      {
        encoding: "utf8",
        input: "q\n",
      },
    );
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(
      /was answered on .* not on .*use the same data, or another --session/,
    );
    const family = spawnSync(
      process.execPath,
      [bin, "ask", "--session", session, "--family", "binary-linear"],
      {
        encoding: "utf8",
        input: "q\n",
      },
    );
    expect(family.status).toBe(2);
    expect(family.stderr).toMatch(
      /--family binary-threshold; --family binary-linear does not match/,
    );
    // Without --session nothing is kept, and ask says so.
    const unsaved = spawnSync(process.execPath, [bin, "ask"], {
      encoding: "utf8",
      input: "1\nq\n",
    });
    expect(unsaved.stdout).toMatch(/answers NOT saved \(run with --session FILE/);
    expect(unsaved.stdout).not.toMatch(/answers saved/);
  });
  it("reproduce people --people --misses prints the chosen people and their misses; a bad person is refused", () => {
    const r = elicit(
      "reproduce",
      "people",
      "--families",
      "binary-threshold",
      "--people",
      "random",
      "--trials",
      "2",
      "--misses",
    );
    expect(r.code).toBe(0);
    // The chosen person only, under both strategies, then the misses' table.
    expect(r.stdout.match(/^(paper|adaptive)\s+\S+/gm)).toEqual([
      "paper     random",
      "adaptive  random",
    ]);
    expect(r.stdout).toMatch(/\nAdaptive runs with error above twice the tolerance \(\d+; /);
    const bad = elicit("reproduce", "people", "--people", "careful,sloppy");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--people: unknown person "sloppy"/);
    // A study's models only: the exact model is no study's.
    const exact = elicit("reproduce", "people", "--answer-model", "exact");
    expect(exact.code).not.toBe(0);
    expect(exact.stderr).toContain(
      '--answer-model must be human, learned, learned-sharp, learned-lean, learned-blunt-lean, learned-tiring, learned-flipping, learned-flipping-moderate, learned-sharp-checked, learned-flips-checked or flips:P (P from 0 to below 0.5), got "exact"',
    );
    // flips:P, a diagnosis: the table says the engine was told the person's flips.
    const told = elicit(
      "reproduce",
      "people",
      "--families",
      "fair-lambda",
      "--people",
      "flips-20",
      "--trials",
      "2",
      "--answer-model",
      "flips:0.2",
    );
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toContain("(fair-lambda flips:0.2)");
    expect(told.stdout).toContain("a diagnosis, not a comparison");
    expect(told.stdout).not.toContain("never told who answers");
    for (const wrong of ["flips:0.5", "flips:", "flips:-0.1"]) {
      const r = elicit("reproduce", "people", "--answer-model", wrong);
      expect(r.code, wrong).not.toBe(0);
      expect(r.stderr, wrong).toContain(`got "${wrong}"`);
    }
    // Its help and the README's table of commands name every one of them.
    const help = elicit("reproduce", "people", "--help").stdout.replace(/\s+/g, " ");
    for (const name of STUDY_ANSWER_MODELS) expect(help, name).toContain(`${name} (`);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(readme).toContain(`--answer-model ${STUDY_ANSWER_MODELS.join("|")}\``);
  });
  it("reproduce binary --json has both tables", () => {
    const r = elicit("reproduce", "binary", "--json", "--no-real");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.table1).toHaveLength(4);
    expect(out.table2).toHaveLength(2);
  });
});

describe("elicit simulate, multiclass families (contract)", () => {
  const wine = fileURLToPath(new URL("../../data/wine.csv", import.meta.url));
  it("diagonal-linear on a CSV", () => {
    const r = elicit(
      "simulate",
      "--data",
      wine,
      "--target",
      "target",
      "--family",
      "diagonal-linear",
      "--truth",
      '{"a":[0.2,0.5,0.3]}',
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.family).toBe("diagonal-linear");
    expect(out.queries).toBe(56);
    expect(out.elicited.a.reduce((s: number, x: number) => s + x, 0)).toBeCloseTo(1, 12);
    // The reported errors are those of the printed weights.
    const diff = out.elicited.a.map((x: number, i: number) => x - out.truth.a[i]);
    expect(out.error.linf).toBeCloseTo(Math.max(...diff.map(Math.abs)), 12);
    expect(out.error.l2).toBeCloseTo(Math.hypot(...diff), 12);
    // Paper's strategy on the 88 held-out wine rows misses this truth by 0.225 (a2 0.275
    // for 0.5), far above the tolerance 0.01: paper's DLPM has the same long tail on the
    // synthetic pool (`elicit reproduce adaptive --families diagonal-linear` prints its p95
    // and max), and --strategy adaptive gets 0.0035 here. The bound catches a worse miss; a
    // weight vector on the simplex can miss by up to 0.8.
    expect(out.error.linf).toBeLessThan(0.3);
    // ...and says so (README: both pairs listed, off by more than ten times the tolerance):
    // both searches compared identical systems, where the pool's boundary is flat.
    expect(out.error.linf).toBeGreaterThan(10 * 0.01);
    expect(out.unresolved.map((u: { pair: number[] }) => u.pair)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    for (const u of out.unresolved) expect(u.same).toBeGreaterThan(0);
    expect(out.classifier.kind).toBe("plugin");
  });
  it("the text output warns when a search compared identical systems (DLPM and DLFPM)", () => {
    const base = ["simulate", "--data", wine, "--target", "target"];
    const dlpm = elicit(...base, "--family", "diagonal-linear", "--truth", '{"a":[0.2,0.5,0.3]}');
    expect(dlpm.code).toBe(0);
    expect(dlpm.stdout).toMatch(
      /warning {5}the search for classes class_0 and class_1 \(\d+ times\), class_0 and class_2 \(\d+ times\) compared identical systems: .* \(--strategy adaptive asks about mixtures of classifiers\)\n$/,
    );
    const truth = '{"a":[0.21,0.59,0.2],"b":[0.2,-0.1,0.1]}';
    const dlfpm = elicit(...base, "--family", "diagonal-linear-fractional", "--truth", truth);
    expect(dlfpm.code).toBe(0);
    // The fractional families have no adaptive strategy: no hint to one.
    expect(dlfpm.stdout).toMatch(
      /warning {5}the search for classes class_0 and class_1 .*tolerance\n$/,
    );
    const json = JSON.parse(
      elicit(...base, "--family", "diagonal-linear-fractional", "--truth", truth, "--json").stdout,
    );
    expect(json.error.linf).toBeGreaterThan(2 * 0.01);
    // The pairs are indices into the classes the JSON lists.
    expect(json.unresolved.map((u: { pair: number[] }) => u.pair)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect(json.classes).toEqual(["class_0", "class_1", "class_2"]);
  });
  it("linear on the synthetic population reports the sphere", () => {
    const r = elicit(
      "simulate",
      "--synthetic",
      "paper-multiclass",
      "--family",
      "linear",
      "--random-truth",
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.queries).toBe(320);
    expect(out.sphere.radius).toBeGreaterThan(0);
    expect(Math.hypot(...out.elicited.a)).toBeCloseTo(1, 9);
    expect(out.error.linf).toBeLessThanOrEqual(0.01);
  });
  it("diagonal-linear-fractional reports alpha and sigma", () => {
    const r = elicit(
      "simulate",
      "--synthetic",
      "paper-multiclass",
      "--family",
      "diagonal-linear-fractional",
      "--truth",
      '{"a":[0.21,0.59,0.2],"b":[0.2,-0.1,0.1]}',
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.elicited.b).toHaveLength(3);
    expect(out.error.alphaStd).toBeLessThan(0.05);
  });
  const cases: [string, string[], RegExp][] = [
    [
      "two classes",
      ["--data", data, "--target", "target", "--family", "diagonal-linear", "--random-truth"],
      /at least 3/,
    ],
    [
      "wrong length",
      ["--data", wine, "--target", "target", "--family", "linear", "--truth", '{"a":[-1,-2]}'],
      /needs 6 weights/,
    ],
    [
      "wrong sign",
      [
        "--data",
        wine,
        "--target",
        "target",
        "--family",
        "diagonal-linear",
        "--truth",
        '{"a":[-1,2,1]}',
      ],
      /non-negative/,
    ],
    [
      "assumption",
      [
        "--synthetic",
        "paper-multiclass",
        "--family",
        "diagonal-linear-fractional",
        "--truth",
        '{"a":[0.2,0.5,0.3],"b":[0.9,0,0]}',
      ],
      /Assumption 3/,
    ],
  ];
  for (const [name, args, pattern] of cases) {
    it(`bad input: ${name}`, () => {
      const r = elicit("simulate", ...args, "--json");
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    });
  }
});

describe("elicit simulate --family quadratic (contract)", () => {
  it("prints family, truth, elicited, queries and the a and B errors", () => {
    const r = elicit(
      "simulate",
      "--family",
      "quadratic",
      "--synthetic",
      "sphere",
      "--classes",
      "2",
      "--truth",
      '{"a":[0.6,0.4],"B":[[-0.5,0.1],[0.1,-0.4]]}',
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.family).toBe("quadratic");
    expect(out.elicited.B).toHaveLength(2);
    expect(out.queries).toBeLessThanOrEqual(296); // at most 3 questions per halving
    expect(out.error.a).toBeLessThan(0.02);
    expect(out.error.B).toBeLessThan(0.06);
  });
  it("needs the synthetic sphere", () => {
    const r = elicit("simulate", "--family", "quadratic", "--random-truth");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--synthetic sphere/);
  });
});

describe("elicit simulate --family quadratic --space off-diagonal-rates", () => {
  it("elicits over the k^2 - k general rates (Appendix E)", () => {
    const r = elicit(
      "simulate",
      "--family",
      "quadratic",
      "--synthetic",
      "sphere",
      "--classes",
      "2",
      "--space",
      "off-diagonal-rates",
      "--random-truth",
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.elicited.a).toHaveLength(2);
    expect(out.error.a).toBeLessThan(0.05);
  });
});
