import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

// A third new-user audit of the CLI: options a run does not read were ignored with exit 0,
// commander's own usage errors and two value checks exited 1 without the CLI's prefix, and
// `fit --help` listed options fit refuses or ignores.

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const dir = tempDir("elicit-options-apply-");
const truth = '{"tp":0.6,"tn":0.8}';

function elicit(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A refusal: exit 2, nothing on stdout, one `elicit: error:` line matching `pattern`. */
function refused(args: string[], pattern: RegExp): string {
  const r = elicit(args);
  expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(2);
  expect(r.stdout).toBe("");
  const errors = r.stderr.split("\n").filter((l) => l.startsWith("elicit: error: "));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return errors[0]!;
}

describe("usage errors exit 2 with the CLI's one-line prefix", () => {
  it("commander's own: a required option not given, an unknown option", () => {
    const metric = join(dir, "metric.json");
    writeFileSync(metric, '{"family":"binary-linear","tp":0.6,"tn":0.8}\n');
    refused(["export-metric", metric], /^elicit: error: required option '--to <language>'/);
    refused(
      ["simulate", "--truth", truth, "--no-such-option"],
      /unknown option '--no-such-option'/,
    );
    // Help and --version still exit 0.
    expect(elicit(["export-metric", "--help"]).code).toBe(0);
    expect(elicit(["--version"]).code).toBe(0);
  });

  it("serve --port abc names the option", () => {
    refused(["serve", "--port", "abc", "--data-dir", join(dir, "data")], /--port .*"abc"/);
  });

  it("--l2 -1 names the option (binary, multiclass and fair populations)", () => {
    refused(["simulate", "--truth", truth, "--l2", "-1"], /--l2 must be a number >= 0.*"-1"/);
    refused(["fit", "--l2", "abc"], /--l2 must be a number >= 0.*"abc"/);
    refused(
      [
        ...["simulate", "--family", "diagonal-linear", "--data", "data/iris.csv"],
        ...["--target", "target", "--random-truth", "--l2", "-1"],
      ],
      /--l2 must be a number >= 0/,
    );
    refused(
      [
        ...["simulate", "--family", "fair-quadratic", "--data", "data/arrests.csv"],
        ...["--target", "released", "--groups", "colour", "--random-truth", "--l2", "-1"],
      ],
      /--l2 must be a number >= 0/,
    );
  });
});

describe("elicit simulate refuses options the run does not read", () => {
  const binary = ["simulate", "--truth", truth];
  const cases: [string[], RegExp][] = [
    [
      ["--budget", "5"],
      /^elicit: error: --budget applies to --strategy adaptive only \(this run: --strategy paper\)/,
    ],
    [["--answer-model", "human"], /--answer-model applies to --strategy adaptive only/],
    [["--credibility", "0.8"], /--credibility applies to --strategy adaptive only/],
    [["--display-step", "0.01"], /--display-step applies to --strategy adaptive only/],
    [["--as-shown"], /--as-shown applies to --strategy adaptive only/],
    [
      ["--lambda-only"],
      /--lambda-only applies to --family fair-quadratic only \(this run: --family binary-linear\)/,
    ],
    [["--classes", "5"], /--classes applies to --synthetic paper-multiclass .* only/],
    [["--tau", "[[1]]"], /--tau applies to --family fair-quadratic only/],
    [["--groups", "3"], /--groups applies to --family fair-quadratic only/],
    [["--space", "off-diagonal-rates"], /--space applies to --family quadratic only/],
    [["--grid", "0.0001"], /--grid applies to --family binary-threshold only/],
    [["--ratio", "pole"], /--ratio applies to --family binary-linear-fractional only/],
    [["--pivot", "select"], /--pivot applies to --family diagonal-linear/],
    [["--cycles", "1"], /--cycles applies to the angle searches/],
    [["--order", "reverse"], /--order applies to the angle searches/],
    [["--least-squares"], /--least-squares applies to --family quadratic, fair-quadratic, cubic/],
    [
      ["--noise-kind", "flip", "--noise-wrong", "adversarial"],
      /--noise-wrong applies to --noise-kind feedback only \(this run: --noise-kind flip\)/,
    ],
    [["--strategy", "adaptive", "--pivot", "select"], /--pivot applies to/],
  ];
  for (const [extra, pattern] of cases) {
    it(extra.join(" "), () => {
      refused([...binary, ...extra], pattern);
    });
  }

  it("names the strategy when the family takes the option under another one", () => {
    refused(
      [
        ...["simulate", "--synthetic", "paper-multiclass", "--family", "diagonal-linear"],
        ...["--strategy", "adaptive", "--truth", '{"a":[0.2,0.5,0.3]}', "--pivot", "select"],
      ],
      /--pivot applies to .* only \(this run: --strategy adaptive\)/,
    );
    refused(
      [
        ...["simulate", "--synthetic", "sphere", "--family", "quadratic", "--random-truth"],
        ...["--strategy", "adaptive", "--cycles", "1"],
      ],
      /--cycles applies to .* only \(this run: --strategy adaptive\)/,
    );
  });

  it("--classes with --data says the classes are the target's values", () => {
    refused(
      [
        ...["simulate", "--family", "diagonal-linear", "--data", "data/iris.csv"],
        ...["--target", "target", "--random-truth", "--classes", "3"],
      ],
      /--classes applies to .*--data data\/iris\.csv\); with --data the classes are the target's values/,
    );
  });

  it("rejects a bad --order, --noise-kind or --noise-wrong for every family, whatever --noise", () => {
    refused(
      [...binary, "--order", "backwards"],
      /--order must be forward or reverse, got "backwards"/,
    );
    refused(
      [...binary, "--noise-kind", "nope"],
      /--noise-kind must be feedback, flip or logistic, got "nope"/,
    );
    refused([...binary, "--noise-wrong", "nope"], /--noise-wrong must be adversarial or random/);
  });

  it("still runs the options where they apply, and defaults are never counted as given", () => {
    const runs: string[][] = [
      // --pivot, --noise-kind, --noise-wrong and --classes have defaults: not given here.
      binary,
      [...binary, "--strategy", "adaptive", "--budget", "5", "--answer-model", "human"],
      [
        ...binary,
        "--strategy",
        "adaptive",
        "--as-shown",
        "--every-shown",
        "--display-step",
        "0.001",
      ],
      [...binary, "--monotone", "increasing", "--noise", "0.1", "--noise-kind", "flip"],
      [...binary, "--noise", "0.1", "--noise-wrong", "adversarial"],
      [
        ...["simulate", "--synthetic", "paper-binary", "--family", "binary-threshold"],
        ...["--truth", '{"a0":0.3}', "--grid", "0.0001"],
      ],
      [
        ...["simulate", "--synthetic", "paper-multiclass", "--family", "diagonal-linear"],
        ...["--truth", '{"a":[0.2,0.5,0.3]}', "--pivot", "select", "--classes", "3"],
      ],
    ];
    for (const args of runs) {
      const r = elicit([...args, "--json"]);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(0);
    }
  });
});

describe("elicit fit --help lists only what fit reads", () => {
  it("no --predictions, --synthetic or --pool; giving one is an unknown option (exit 2)", () => {
    const help = elicit(["fit", "--help"]).stdout;
    expect(help).toContain("--data <file>");
    expect(help).toContain("--l2 <lambda>");
    for (const flag of ["--predictions", "--synthetic", "--pool"]) expect(help).not.toContain(flag);
    refused(["fit", "--pool", "labelled", "--out", join(dir, "p.csv")], /unknown option '--pool'/);
    refused(["fit", "--synthetic", "paper-binary"], /unknown option '--synthetic'/);
  });
});

describe("--tolerance's help says cubic's adaptive default", () => {
  it("0.001 for cubic's paper search, 0.01 with --strategy adaptive (as the run prints)", () => {
    const help = elicit(["simulate", "--help"]).stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/0\.001 cubic; cubic with --strategy adaptive 0\.01/);
  });
});
