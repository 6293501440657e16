import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type FairMetric, fairCost } from "../../../src/elicit/fair/metric.ts";
import { evaluateFractionalMetric } from "../../../src/elicit/multiclass/fractional-grid.ts";
import { evaluateQuadratic } from "../../../src/elicit/quadratic/metric.ts";
import { createRng, type Rng } from "../../../src/math/rng.ts";
import { binaryConfusion } from "../../../src/metrics/binary-confusion.ts";
import { evaluateFractional } from "../../../src/metrics/binary-fractional.ts";
import { evaluateLinear } from "../../../src/metrics/binary-linear.ts";
import { portableMetricValue } from "../../../src/metrics/portable/evaluate.ts";
import type { PortableMetric } from "../../../src/metrics/portable/metric.ts";
import {
  METRIC_CODE_EXTENSION,
  type MetricCodeLanguage,
  metricCode,
} from "../../../src/metrics/portable/metric-code.ts";

/**
 * Issue 29 item 2: `elicit export-metric` writes the metric as a dependency-free Python, R and
 * JavaScript function. Each export is written to a temp dir and run by /usr/bin/python3,
 * Rscript and node on 100 random confusion matrices per family (half counts, half joint
 * probabilities); every value agrees with the TypeScript engine's own evaluation to 1e-12.
 * Python 3 and R come from scripts/ci/system-packages.sh; nothing here is skipped but the
 * scikit-learn scorer, when scikit-learn is missing (and ELICIT_REQUIRE_LOADERS is not 1).
 */

const dir = mkdtempSync(join(tmpdir(), "elicit-metric-code-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PYTHON = "/usr/bin/python3";
const SKLEARN =
  spawnSync(PYTHON, ["-c", "import sklearn.metrics"], { stdio: "ignore" }).status === 0;
const REQUIRED = process.env.ELICIT_REQUIRE_LOADERS === "1";

type Confusion = number[][];
type Case = { metric: PortableMetric; inputs: (Confusion | Confusion[])[] };

const TRIALS = 100;

/** A random k x k confusion: counts (with every class present) or joint probabilities. */
function randomConfusion(k: number, rng: Rng, counts: boolean): Confusion {
  const c = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) =>
      counts ? rng.int(40) + (i === j ? 1 : 0) : rng.next() + (i === j ? 0.05 : 0),
    ),
  );
  if (counts) return c;
  const total = c.flat().reduce((x, y) => x + y, 0);
  return c.map((row) => row.map((x) => x / total));
}

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const symmetric = (k: number, rng: Rng) => {
  const M = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++)
    for (let j = 0; j <= i; j++) M[i]![j] = M[j]![i] = rng.uniform(-1, 1) + (i === j ? 1 : 0);
  return M;
};

/** One random metric of each family with its 100 inputs (k and the groups vary by family). */
function cases(): Record<string, Case> {
  const rng = createRng("metric-code");
  const inputs = (k: number) =>
    Array.from({ length: TRIALS }, (_, t) => randomConfusion(k, rng, t % 2 === 0));
  const a3 = unit([rng.next(), rng.next(), rng.next()]);
  const fair = (k: number, m: number): Case => {
    const B: Record<string, number[][]> = {};
    for (let u = 0; u < m; u++) for (let v = u + 1; v < m; v++) B[`${u}-${v}`] = symmetric(k, rng);
    return {
      metric: {
        family: "fair",
        a: unit(Array.from({ length: k }, () => rng.next())),
        B,
        lambda: rng.next(),
        groups: Array.from({ length: m }, (_, g) => `group ${g}`),
      },
      inputs: Array.from({ length: TRIALS }, (_, t) =>
        Array.from({ length: m }, () => randomConfusion(k, rng, t % 2 === 0)),
      ),
    };
  };
  return {
    "binary-linear": {
      metric: { family: "binary-linear", tp: rng.next(), tn: rng.next(), classes: ["no", "yes"] },
      inputs: inputs(2),
    },
    "binary-linear-fractional": {
      metric: {
        family: "binary-linear-fractional",
        p11: 0.6,
        p00: 0.4,
        q11: rng.uniform(-0.5, 0.5),
        q00: rng.uniform(-0.5, 0.5),
        q0: 1,
      },
      inputs: inputs(2),
    },
    "diagonal-linear": {
      metric: { family: "diagonal-linear", a: a3.map((x) => x / (a3[0]! + a3[1]! + a3[2]!)) },
      inputs: inputs(3),
    },
    linear: {
      metric: {
        family: "linear",
        a: unit(Array.from({ length: 12 }, () => -rng.next())),
        classes: ["a", "b", "c", "d"],
      },
      inputs: inputs(4),
    },
    "diagonal-linear-fractional": {
      metric: {
        family: "diagonal-linear-fractional",
        a: [0.2, 0.3, 0.5],
        b: [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)],
        b0: 1,
      },
      inputs: inputs(3),
    },
    "linear-fractional": {
      metric: {
        family: "linear-fractional",
        a: Array.from({ length: 6 }, () => -rng.next() / 6),
        b: Array.from({ length: 6 }, () => rng.uniform(-0.5, 0.5)),
        b0: 1,
      },
      inputs: inputs(3),
    },
    quadratic: {
      metric: { family: "quadratic", a: [...a3], B: symmetric(3, rng) },
      inputs: inputs(3),
    },
    "fair (2 classes, 2 groups)": fair(2, 2),
    "fair (3 classes, 3 groups)": fair(3, 3),
  };
}

const CASES = cases();

/** The TypeScript engine's value of a metric at an input (its own functions, not the exports'). */
function engineValue(m: PortableMetric, input: Confusion | Confusion[]): number {
  if (m.family === "fair") {
    const cs = input as Confusion[];
    const k = m.a.length;
    const totals = cs.map((c) => c.map((row) => row.reduce((x, y) => x + y, 0)));
    const tau = cs.map((_, g) =>
      Array.from({ length: k }, (_, i) => totals[g]![i]! / totals.reduce((s, t) => s + t[i]!, 0)),
    );
    const rates = cs.map((c, g) => c.map((row, i) => row[i]! / totals[g]![i]!));
    return fairCost(m as unknown as FairMetric, tau, rates);
  }
  const raw = input as Confusion;
  const total = raw.flat().reduce((x, y) => x + y, 0);
  const c = raw.map((row) => row.map((x) => x / total));
  const diag = c.map((row, i) => row[i]!);
  const off = c.flatMap((row, i) => row.filter((_, j) => j !== i));
  switch (m.family) {
    case "binary-linear":
      return evaluateLinear(m, binaryConfusion(c[1]![1]!, c[0]![0]!));
    case "binary-linear-fractional":
      return evaluateFractional(m, binaryConfusion(c[1]![1]!, c[0]![0]!));
    case "diagonal-linear":
      return evaluateFractionalMetric({ a: [...m.a], b: m.a.map(() => 0), b0: 1 }, diag);
    case "linear":
      return evaluateFractionalMetric({ a: [...m.a], b: m.a.map(() => 0), b0: 1 }, off);
    case "diagonal-linear-fractional":
      return evaluateFractionalMetric({ a: [...m.a], b: [...m.b], b0: m.b0 }, diag);
    case "linear-fractional":
      return evaluateFractionalMetric({ a: [...m.a], b: [...m.b], b0: m.b0 }, off);
    case "quadratic":
      return evaluateQuadratic(
        { a: [...m.a], B: m.B.map((r) => [...r]) },
        raw.map((row, i) => row[i]! / row.reduce((x, y) => x + y, 0)),
      );
  }
}

/** Runs a language's export on every input; the values it prints, one per line. */
function runExport(name: string, c: Case, language: MetricCodeLanguage): number[] {
  const stem = `m_${name.replace(/\W+/g, "_")}`;
  const file = join(dir, `${stem}${METRIC_CODE_EXTENSION[language]}`);
  writeFileSync(file, metricCode(c.metric, language, { source: "a test" }));
  // One input per line: its numbers flattened (groups, then rows), for a reader with no JSON.
  const data = join(dir, `${stem}-${language}.txt`);
  writeFileSync(data, `${c.inputs.map((x) => (x as number[][]).flat(2).join(" ")).join("\n")}\n`);
  const fair = c.metric.family === "fair";
  const k = fair
    ? (c.metric as { a: readonly number[] }).a.length
    : (c.inputs[0] as Confusion).length;
  const groups = fair ? (c.inputs[0] as Confusion[]).length : 1;
  let run: ReturnType<typeof spawnSync>;
  if (language === "python") {
    const script = [
      "import importlib.util, sys",
      `spec = importlib.util.spec_from_file_location("m", ${JSON.stringify(file)})`,
      "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)",
      `_k, _g, fair = ${k}, ${groups}, ${fair ? "True" : "False"}`,
      `for line in open(${JSON.stringify(data)}):`,
      "    xs = [float(x) for x in line.split()]",
      "    ms = [[xs[g*_k*_k + i*_k:g*_k*_k + (i+1)*_k] for i in range(_k)] for g in range(_g)]",
      "    print(repr(m.elicited_metric(ms if fair else ms[0])))",
    ].join("\n");
    run = spawnSync(PYTHON, ["-c", script], { encoding: "utf8" });
  } else if (language === "r") {
    const script = [
      `source(${JSON.stringify(file)})`,
      `.k <- ${k}; .g <- ${groups}`,
      `for (line in readLines(${JSON.stringify(data)})) {`,
      "  xs <- as.numeric(strsplit(line, ' ')[[1]])",
      "  ms <- lapply(seq_len(.g), function(g) matrix(xs[((g - 1) * .k * .k + 1):(g * .k * .k)], nrow = .k, byrow = TRUE))",
      `  cat(sprintf('%.17g', elicited_metric(${fair ? "ms" : "ms[[1]]"})), '\\n')`,
      "}",
    ].join("\n");
    run = spawnSync("Rscript", ["-e", script], { encoding: "utf8" });
  } else {
    const script = [
      `const m = await import(${JSON.stringify(`file://${file}`)});`,
      `const fs = await import("node:fs");`,
      `const K = ${k}, G = ${groups};`,
      `for (const line of fs.readFileSync(${JSON.stringify(data)}, "utf8").trim().split("\\n")) {`,
      "  const xs = line.split(' ').map(Number);",
      "  const ms = Array.from({ length: G }, (_, g) => Array.from({ length: K }, (_, i) => xs.slice(g*K*K + i*K, g*K*K + (i+1)*K)));",
      `  console.log(String(m.elicitedMetric(${fair ? "ms" : "ms[0]"})));`,
      "}",
    ].join("\n");
    run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  }
  expect(run.status, `${language} failed: ${String(run.stderr)}`).toBe(0);
  return String(run.stdout).trim().split("\n").map(Number);
}

describe("the metric exported as code agrees with the TypeScript engine", () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: Python, R and JavaScript on ${TRIALS} random confusion matrices to 1e-12`, () => {
      const expected = c.inputs.map((x) => engineValue(c.metric, x));
      // The library's own evaluation is the engine's too.
      c.inputs.forEach((x, t) => {
        expect(Math.abs(portableMetricValue(c.metric, x) - expected[t]!)).toBeLessThanOrEqual(
          1e-12 * Math.max(1, Math.abs(expected[t]!)),
        );
      });
      for (const language of ["python", "r", "js"] as const) {
        const got = runExport(name, c, language);
        expect(got).toHaveLength(TRIALS);
        got.forEach((v, t) => {
          const err = Math.abs(v - expected[t]!) / Math.max(1, Math.abs(expected[t]!));
          expect(err, `${language}, matrix ${t}: ${v} vs ${expected[t]}`).toBeLessThanOrEqual(
            1e-12,
          );
        });
      }
    }, 60_000);
  }

  it("counts and the same counts as joint probabilities give the same value; rates do not", () => {
    const m: PortableMetric = { family: "diagonal-linear", a: [0.2, 0.8] };
    const counts = [
      [90, 10],
      [5, 15],
    ];
    const joint = counts.map((r) => r.map((x) => x / 120));
    const rates = counts.map((r) => r.map((x) => x / r.reduce((s, y) => s + y, 0)));
    const v = portableMetricValue(m, counts);
    expect(v).toBeCloseTo(0.2 * (90 / 120) + 0.8 * (15 / 120), 15);
    expect(portableMetricValue(m, joint)).toBeCloseTo(v, 15);
    expect(Math.abs(portableMetricValue(m, rates) - v)).toBeGreaterThan(0.1);
    for (const language of ["python", "r", "js"] as const) {
      const code = metricCode(m, language);
      expect(code).toContain("Counts are accepted and normalised");
      expect(code).toContain("Rates P(h = j | Y = i) (each row summing to 1) are NOT accepted");
      expect(code).toContain("rows are the true");
    }
  });

  it("refuses bad input in every language (a wrong shape, a negative entry)", () => {
    const m: PortableMetric = { family: "binary-linear", tp: 0.5, tn: 0.5 };
    const file = join(dir, "bad.py");
    writeFileSync(file, metricCode(m, "python"));
    const py = spawnSync(
      PYTHON,
      [
        "-c",
        `import importlib.util; s = importlib.util.spec_from_file_location("m", ${JSON.stringify(file)}); m = importlib.util.module_from_spec(s); s.loader.exec_module(m)\ntry:\n    m.elicited_metric([[1, 2, 3]])\nexcept ValueError as e:\n    print(e)\ntry:\n    m.elicited_metric([[1, -2], [3, 4]])\nexcept ValueError as e:\n    print(e)`,
      ],
      { encoding: "utf8" },
    );
    expect(py.stdout).toContain("must be 2 x 2");
    expect(py.stdout).toContain("entries must be counts or probabilities");
    const rFile = join(dir, "bad.R");
    writeFileSync(rFile, metricCode(m, "r"));
    const r = spawnSync(
      "Rscript",
      ["-e", `source(${JSON.stringify(rFile)}); elicited_metric(matrix(1:3, nrow = 1))`],
      { encoding: "utf8" },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("must be 2 x 2");
    expect(() => portableMetricValue(m, [[1, 2, 3]])).toThrow(/must be 2 x 2/);
  });

  it.skipIf(!SKLEARN && !REQUIRED)(
    "Python: make_sklearn_scorer scores a fitted model as the function does on its confusion matrix (scikit-learn)",
    () => {
      const c = CASES["binary-linear"]!;
      const file = join(dir, "scorer.py");
      writeFileSync(file, metricCode(c.metric, "python"));
      const script = [
        "import importlib.util",
        `s = importlib.util.spec_from_file_location("m", ${JSON.stringify(file)})`,
        "m = importlib.util.module_from_spec(s); s.loader.exec_module(m)",
        "from sklearn.linear_model import LogisticRegression",
        "from sklearn.metrics import confusion_matrix",
        "X = [[0.1], [0.4], [0.35], [0.8], [0.9], [0.2], [0.7], [0.6]]",
        "y = ['no', 'no', 'yes', 'yes', 'yes', 'no', 'yes', 'no']",
        "clf = LogisticRegression().fit(X, y)",
        "scorer = m.make_sklearn_scorer()",
        "direct = m.elicited_metric(confusion_matrix(y, clf.predict(X), labels=m.LABELS))",
        "print(repr(scorer(clf, X, y)), repr(direct))",
      ].join("\n");
      const run = spawnSync(PYTHON, ["-c", script], { encoding: "utf8" });
      expect(run.status, String(run.stderr)).toBe(0);
      const [viaScorer, direct] = run.stdout.trim().split(" ").map(Number);
      expect(viaScorer).toBe(direct);
      expect(Number.isFinite(viaScorer)).toBe(true);
    },
  );

  it("the module works without scikit-learn: it is imported only by make_sklearn_scorer", () => {
    const code = metricCode(CASES["binary-linear"]!.metric, "python");
    const before = code.slice(0, code.indexOf("def make_sklearn_scorer"));
    expect(before).not.toMatch(/^\s*(import|from) /m);
    const file = join(dir, "nosk.py");
    writeFileSync(file, code);
    // A stub `sklearn` that fails on import: the function still runs.
    const stub = join(dir, "stub");
    rmSync(stub, { recursive: true, force: true });
    spawnSync("mkdir", ["-p", join(stub, "sklearn")]);
    writeFileSync(join(stub, "sklearn", "__init__.py"), "raise ImportError('no sklearn here')\n");
    const run = spawnSync(
      PYTHON,
      [
        "-c",
        `import importlib.util; s = importlib.util.spec_from_file_location("m", ${JSON.stringify(file)}); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); print(m.elicited_metric([[1, 0], [0, 1]]))`,
      ],
      { encoding: "utf8", env: { ...process.env, PYTHONPATH: stub } },
    );
    expect(run.status, String(run.stderr)).toBe(0);
  });
});
