/**
 * Multiclass geometry benchmarks (not tests): `npx tsx bench/multiclass.ts [digits.csv]
 * [--method=lp|bisection] [--skip-large]`. Times Algorithm 3 (the sphere, off-diagonal
 * confusions) and one plug-in query (an LMO pass, and realising a point of the sphere) and
 * compares them with the targets of issue 4: a sphere under 2 s, a query under 5 ms at
 * 100,000 points.
 *
 * Pools: a CSV given as argument (last column the class, the rest numeric features; a
 * softmax model is fitted on all rows and its probabilities form the pool, as for digits,
 * k = 10, N = 1797), otherwise a synthetic stand-in with k = 10, N = 1800 (softmax of random
 * linear scores of 8-dimensional Gaussian inputs, seeded); always also the synthetic k = 3,
 * N = 2000 pool of the tests and a synthetic k = 5, N = 100,000 pool.
 */
import { readFileSync } from "node:fs";
import { fitSoftmax } from "../src/data/softmax.ts";
import { MulticlassPool } from "../src/geometry/multiclass/pool.ts";
import { checkRealisation, realiseOnSphere } from "../src/geometry/multiclass/realise.ts";
import { createSpace } from "../src/geometry/multiclass/space.ts";
import { findSphere, type SphereOptions } from "../src/geometry/multiclass/sphere.ts";
import { createRng } from "../src/math/rng.ts";
import { syntheticSoftmaxPool } from "../src/population/synthetic-softmax.ts";

function csvPool(path: string): MulticlassPool {
  const lines = readFileSync(path, "utf8").trim().split(/\r?\n/);
  const rows = lines.slice(1).map((l) => l.split(",").map(Number));
  const labels = rows.map((r) => r[r.length - 1]);
  const classes = [...new Set(labels)].sort((a, b) => a - b);
  const y = labels.map((v) => classes.indexOf(v));
  const X = rows.map((r) => Float64Array.from(r.slice(0, -1)));
  const d = X[0].length;
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (const x of X) for (let j = 0; j < d; j++) mean[j] += x[j] / X.length;
  for (const x of X) for (let j = 0; j < d; j++) sd[j] += (x[j] - mean[j]) ** 2 / X.length;
  const Z = X.map((x) => x.map((v, j) => (sd[j] > 0 ? (v - mean[j]) / Math.sqrt(sd[j]) : 0)));
  const model = fitSoftmax(Z, y, classes.length, { l2: 1 });
  const probs = model.predictProba(Z);
  const eta = new Float64Array(probs.length * classes.length);
  probs.forEach((p, n) => {
    eta.set(p, n * classes.length);
  });
  return new MulticlassPool(eta, classes.length);
}

const args = process.argv.slice(2);
const method = (args.find((a) => a.startsWith("--method="))?.slice(9) ?? "lp") as
  | "lp"
  | "bisection";
const skipLarge = args.includes("--skip-large");
const onlyLarge = args.includes("--only-large");
const path = args.find((a) => !a.startsWith("--"));

const rows: string[][] = [];
const report = (row: string[]) => {
  rows.push(row);
  console.log(`  ${row.join("  ")}`);
};
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");

function bench(name: string, pool: MulticlassPool, options: SphereOptions = {}) {
  const space = createSpace("offdiag-confusion", pool);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const sphere = findSphere(space, { ...options, method });
  const ms = performance.now() - t0;
  const cpuMs = process.cpuUsage(cpu0).user / 1000;
  report([
    `sphere ${name} (k = ${pool.k}, N = ${pool.n}, q = ${space.dim}), ${method}`,
    `${ms.toFixed(0)} ms (cpu ${cpuMs.toFixed(0)} ms)`,
    "< 2000 ms",
    verdict(ms < 2000),
  ]);
  console.log(
    `${name}: radius ${sphere.radius.toExponential(6)}; ${sphere.stats.lmoCalls} LMO calls, ${sphere.stats.feasibilityChecks} feasibility checks, ${sphere.stats.linearPrograms ?? 0} LPs, ${sphere.stats.fallbacks ?? 0} fallbacks`,
  );
  // Validity: every axis classifier realises its axis point.
  let worst = 0;
  for (const a of sphere.axes) {
    for (const [sign, length, h] of [
      [1, a.plus, a.plusClassifiers[0]],
      [-1, a.minus, a.minusClassifiers[0]],
    ] as const) {
      const target = Float64Array.from(sphere.centre);
      target[a.axis] += sign * length;
      worst = Math.max(worst, checkRealisation(space, h, target).error);
    }
  }
  console.log(
    `${name}: largest realisation error of the 2q axis classifiers ${worst.toExponential(2)}`,
  );
  const rng = createRng(5);
  const reps = 20;
  const dirs = Array.from({ length: reps }, () =>
    Float64Array.from({ length: space.dim }, () => rng.normal()),
  );
  space.lmo(dirs[0]);
  const t1 = performance.now();
  for (const d of dirs) space.lmo(d);
  const lmoMs = (performance.now() - t1) / reps;
  report([`LMO pass ${name}`, `${lmoMs.toFixed(2)} ms`, "< 5 ms", verdict(lmoMs < 5)]);
  const targets = dirs.map((d) => {
    const norm = Math.hypot(...d);
    return Float64Array.from(sphere.centre, (o, i) => o + (sphere.rho * d[i]) / norm);
  });
  const t2 = performance.now();
  const built = targets.map((t) => realiseOnSphere(sphere, t));
  const buildMs = (performance.now() - t2) / reps;
  report([
    `realise a sphere point ${name} (build its classifier, B.6)`,
    `${buildMs.toFixed(3)} ms`,
    "< 5 ms",
    verdict(buildMs < 5),
  ]);
  const t3 = performance.now();
  for (const h of built.slice(0, 3)) space.realise(h);
  const evalMs = (performance.now() - t3) / 3;
  report([
    `evaluate that mixture on the whole pool ${name} (informational)`,
    `${evalMs.toFixed(1)} ms`,
    "-",
    "-",
  ]);
}

if (!onlyLarge) {
  bench("synthetic-3", syntheticSoftmaxPool(2000, 3, 7));
  if (path !== undefined) bench(path, csvPool(path));
  else bench("synthetic-10", syntheticSoftmaxPool(1800, 10, 11, { dims: 8 }));
}
if (!skipLarge) bench("synthetic-5-100k", syntheticSoftmaxPool(100_000, 5, 13, { dims: 4 }));

const width = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
for (const r of rows) console.log(r.map((v, c) => v.padEnd(width[c])).join("  "));
