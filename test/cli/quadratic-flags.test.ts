import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { qpmeQuestionBound } from "../../src/elicit/quadratic/qpme.ts";
import { simulateQuadratic } from "../../src/elicit/quadratic/simulate.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";
import { tempDir } from "../temp-dir.ts";

// Issue 10: `simulate --family quadratic` used to ignore --cycles and --order, and
// --least-squares existed only in `reproduce quadratic`.

const bin = fileURLToPath(new URL("../../bin/elicit.js", import.meta.url));
const dir = tempDir("elicit-qpme-flags-");

function elicit(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const truth = {
  a: [0.6, 0.4, 0.5],
  B: [
    [-0.5, 0.1, 0],
    [0.1, -0.4, 0.05],
    [0, 0.05, -0.3],
  ],
};
const k = 3;
const tolerance = 0.01;

function quadratic(...extra: string[]) {
  const r = elicit(
    "simulate",
    "--family",
    "quadratic",
    "--synthetic",
    "sphere",
    "--classes",
    String(k),
    "--truth",
    JSON.stringify(truth),
    "--json",
    ...extra,
  );
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe("elicit simulate --family quadratic: --cycles, --order, --least-squares", () => {
  const base = quadratic();
  const oneReverse = quadratic("--cycles", "1", "--order", "reverse");

  it("records the defaults: 3 forward cycles, the ratio reconstruction", () => {
    expect(base.cycles).toBe(3);
    expect(base.order).toBe("forward");
    expect(base.reconstruction).toBe("ratios");
    // (k + 2)(k + cycles (k - 1) h q), at most q = 3 questions per halving (lazy).
    expect(base.queries).toBeLessThanOrEqual(qpmeQuestionBound(k, tolerance, 3, 3));
    expect(base.queries).toBeGreaterThan(qpmeQuestionBound(k, tolerance, 3, 1));
  });

  it("--cycles 1 --order reverse: fewer questions, within the formula's count for one cycle", () => {
    expect(oneReverse.cycles).toBe(1);
    expect(oneReverse.order).toBe("reverse");
    expect(oneReverse.queries).toBeLessThan(base.queries);
    // (k + 2)(k + 1 (k - 1) h 3) = 5 (3 + 2 * 8 * 3) = 255 at eps = 0.01.
    expect(qpmeQuestionBound(k, tolerance, 3, 1)).toBe(255);
    expect(oneReverse.queries).toBeLessThanOrEqual(255);
    // At least one question per halving plus the k sign questions, in each of the k + 2 runs.
    expect(oneReverse.queries).toBeGreaterThanOrEqual(qpmeQuestionBound(k, tolerance, 1, 1));
    // Exactly the library's QPME with the same options (the flags reach the procedure).
    const lib = simulateQuadratic(
      truth,
      { tolerance, strategy: STRATEGIES.lazy, cycles: 1, order: "reverse" },
      { kind: "none" },
      1,
    );
    expect(oneReverse.queries).toBe(lib.queries);
    expect(oneReverse.elicited).toEqual(lib.elicited);
  });

  it("--order changes the search (one forward cycle elicits something else)", () => {
    const oneForward = quadratic("--cycles", "1");
    expect(oneForward.order).toBe("forward");
    expect(oneForward.elicited).not.toEqual(oneReverse.elicited);
  });

  it("--least-squares: same questions, the least-squares reconstruction", () => {
    const ls = quadratic("--cycles", "1", "--order", "reverse", "--least-squares");
    expect(ls.reconstruction).toBe("least-squares");
    expect(oneReverse.reconstruction).toBe("ratios");
    expect(ls.queries).toBe(oneReverse.queries);
    expect(ls.elicited).not.toEqual(oneReverse.elicited);
    expect(ls.diagnostics.identifiability).toBeGreaterThan(0);
    expect(oneReverse.diagnostics.identifiability).toBeUndefined();
  });

  it("records the settings in the logged session", () => {
    const log = join(dir, "q.json");
    quadratic("--cycles", "2", "--order", "reverse", "--least-squares", "--log", log);
    const [session] = JSON.parse(readFileSync(log, "utf8"));
    expect(session).toMatchObject({ cycles: 2, order: "reverse", reconstruction: "least-squares" });
    expect(session.answers.length).toBeGreaterThan(0);
  });

  it("rejects bad values in one line", () => {
    for (const [flag, value] of [
      ["--cycles", "0"],
      ["--order", "sideways"],
    ] as const) {
      const r = elicit(
        "simulate",
        "--family",
        "quadratic",
        "--synthetic",
        "sphere",
        "--random-truth",
        flag,
        value,
      );
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(flag));
    }
  });

  it("--help shows the three flags and their defaults", () => {
    const r = elicit("simulate", "--help");
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--cycles <n>.*3 for quadratic, cubic and fair-quadratic/);
    expect(help).toMatch(/--order <order>.*forward \(default/);
    expect(help).toMatch(/--least-squares.*\(default: ratios\)/);
  });
});

describe("the same flags for cubic and fair-quadratic", () => {
  it("cubic: --cycles 1 asks fewer questions and records the settings", () => {
    const run = (...extra: string[]) => {
      const r = elicit(
        "simulate",
        "--family",
        "cubic",
        "--synthetic",
        "sphere",
        "--classes",
        "2",
        "--random-truth",
        "--json",
        ...extra,
      );
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    const three = run();
    const one = run("--cycles", "1", "--least-squares");
    expect(three).toMatchObject({ cycles: 3, order: "forward", reconstruction: "ratios" });
    expect(one).toMatchObject({ cycles: 1, order: "forward", reconstruction: "least-squares" });
    // k + 1 = 3 local QPME runs, each within (k + 2)(k + cycles (k - 1) h 3).
    expect(one.queries).toBeLessThanOrEqual(3 * qpmeQuestionBound(2, 0.001, 3, 1));
    expect(one.queries).toBeLessThan(three.queries);
  });

  it("fair-quadratic: --cycles 1 --order reverse --least-squares reach every QPME run", () => {
    const run = (...extra: string[]) => {
      const r = elicit(
        "simulate",
        "--family",
        "fair-quadratic",
        "--synthetic",
        "sphere",
        "--classes",
        "2",
        "--groups",
        "2",
        "--random-truth",
        "--json",
        ...extra,
      );
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    const base = run();
    const one = run("--cycles", "1", "--order", "reverse", "--least-squares");
    expect(base).toMatchObject({ cycles: 3, order: "forward", reconstruction: "ratios" });
    expect(one).toMatchObject({ cycles: 1, order: "reverse", reconstruction: "least-squares" });
    expect(one.queries).toBeLessThan(base.queries);
  });

  it("fair-quadratic --lambda-only refuses QPME settings it would ignore", () => {
    const r = elicit(
      "simulate",
      "--family",
      "fair-quadratic",
      "--synthetic",
      "sphere",
      "--random-truth",
      "--lambda-only",
      "--cycles",
      "1",
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--lambda-only/);
  });
});
