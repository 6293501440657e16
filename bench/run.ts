/**
 * Benchmarks (not tests): `npm run bench`. Prints timings and compares them with the targets
 * of the foundation issue: pool preparation under 300 ms for 600,000 predictions, a threshold
 * query under 2 microseconds on average, a whole LPM elicitation under 1 ms after preparation.
 */
import { binaryProcedure } from "../src/elicit/binary/spec.ts";
import { truthValue } from "../src/elicit/binary/truth.ts";
import { runProcedure } from "../src/elicit/session.ts";
import { labelledPool, softPool } from "../src/geometry/binary/pool.ts";
import { thresholdClassifier } from "../src/geometry/binary/threshold-classifier.ts";
import { createRng } from "../src/math/rng.ts";
import { simulatedOracle } from "../src/oracle/simulated-oracle.ts";

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const rng = createRng(1);
const n = 600_000;
const eta = Float64Array.from({ length: n }, () => rng.next());
const labels = Uint8Array.from(eta, (p) => (rng.next() < p ? 1 : 0));

const rows: [string, string, string, string][] = [];
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");

for (const [name, make] of [
  ["soft", () => softPool(eta)],
  ["labelled", () => labelledPool(eta, labels)],
] as const) {
  const prepTimes: number[] = [];
  let pool = make();
  for (let i = 0; i < 5; i++) {
    const [p, ms] = time(make);
    pool = p;
    prepTimes.push(ms);
  }
  const prep = median(prepTimes);
  rows.push([
    `prepare ${name} pool of 600,000`,
    `${prep.toFixed(1)} ms`,
    "< 300 ms",
    verdict(prep < 300),
  ]);

  const q = 1_000_000;
  const thresholds = Float64Array.from({ length: q }, () => rng.next());
  let sink = 0;
  for (let i = 0; i < 100_000; i++) sink += pool.confusion(thresholdClassifier(thresholds[i]!)).tp;
  const [, qms] = time(() => {
    for (let i = 0; i < q; i++) {
      sink += pool.confusion(thresholdClassifier(thresholds[i]!, i & 1 ? "ge" : "le")).tp;
    }
  });
  const perQuery = (qms * 1000) / q;
  rows.push([
    `threshold query (${name})`,
    `${perQuery.toFixed(3)} us`,
    "< 2 us",
    verdict(perQuery < 2),
  ]);

  for (const [family, ratio] of [
    ["binary-linear", undefined],
    ["binary-linear-fractional", "grid"],
    ["binary-linear-fractional", "pole"],
  ] as const) {
    const spec = {
      family,
      tolerance: family === "binary-linear" ? 0.02 : 0.05,
      strategy: "paper",
      ...(ratio ? { ratio } : {}),
    } as const;
    const truth =
      family === "binary-linear"
        ? ({ family, metric: { tp: 0.6, tn: 0.8 } } as const)
        : ({ family, metric: { p11: 0.2, p00: 0.8, q11: -0.4, q00: -0.2, q0: 0.8 } } as const);
    const runs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const oracle = simulatedOracle(truthValue(truth), { kind: "none" }, i);
      const [, ms] = time(() => runProcedure(binaryProcedure(spec, pool), oracle.ask));
      runs.push(ms);
    }
    const med = median(runs);
    const target = family === "binary-linear" ? "< 1 ms" : "(no target)";
    rows.push([
      `${family}${ratio ? ` (${ratio})` : ""} elicitation (${name})`,
      `${med.toFixed(3)} ms`,
      target,
      family === "binary-linear" ? verdict(med < 1) : "-",
    ]);
  }
  if (sink === -1) console.log(sink);
}

const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
console.log(
  `node ${process.version}, ${n.toLocaleString("en")} predictions, medians of repeated runs`,
);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i]!)).join("  "));
