import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { elicitDlpm } from "../../src/elicit/multiclass/dlpm.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import {
  randomMulticlassTruth,
  simulateMulticlass,
} from "../../src/experiments/simulate-multiclass.ts";
import type { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";
import { checkRealisation } from "../../src/geometry/multiclass/realise.ts";
import { createSpace } from "../../src/geometry/multiclass/space.ts";
import { findSphere, type Sphere } from "../../src/geometry/multiclass/sphere.ts";
import { createRng } from "../../src/math/rng.ts";
import { dot, normalizeL1 } from "../../src/math/vector.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { prepareMulticlassFromCsv } from "../../src/population/multiclass.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";
import { resolution } from "../elicit/multiclass-resolution.ts";
import { recordings } from "./recorded.ts";

/**
 * The papers' multiclass procedures on the bundled datasets, 100 random truths each (moved
 * from test/elicit/multiclass.test.ts to keep `npm test` under 3 minutes; digits' LPMs alone
 * take about 35 s).
 */
const none = { kind: "none" } as const;
const load = (file: string, target: string) =>
  prepareMulticlassFromCsv(
    readFileSync(new URL(`../../data/${file}.csv`, import.meta.url), "utf8"),
    { target },
  ).pool;

const datasets: [string, string][] = [
  ["wine", "target"],
  ["vehicle", "Class"],
  ["glass", "Type"],
  ["digits", "target"],
];

const recorded = recordings(import.meta.url);

/** DLPM run `t` on `pool` for truth `a`: each boundary's pair and m, and the worst realisation error of a queried point. */
function dlpmRun(pool: MulticlassPool, a: number[], t: number) {
  const diagSpace = createSpace("diag-confusion", pool);
  const oracle = simulatedOracle((p: MulticlassPoint) => dot(a, p.point), none, t);
  const r = elicitDlpm(oracle.ask, pool, { tolerance: 0.01, strategy: STRATEGIES.lazy });
  let worst = 0;
  for (const q of oracle.log) {
    for (const pt of [q.question.first, q.question.second]) {
      worst = Math.max(worst, checkRealisation(diagSpace, pt.classifier, pt.point).error);
    }
  }
  return { boundary: r.boundary.map((b) => ({ pair: b.pair, m: b.m })), worst };
}

/** LPM run `t` on `pool` for truth `a` (the papers' procedure): its error and the worst realisation error of a queried point. */
function lpmRun(pool: MulticlassPool, sphere: Sphere, a: number[], t: number) {
  const space = createSpace("offdiag-confusion", pool);
  const r = simulateMulticlass(
    { family: "linear", tolerance: 0.01, strategy: "paper", order: "reverse" },
    a,
    pool,
    sphere,
    none,
    t,
  );
  let worst = 0;
  for (const q of r.questions) {
    for (const pt of [q.first, q.second]) {
      worst = Math.max(worst, checkRealisation(space, pt.classifier, pt.point).error);
    }
  }
  return { linf: r.error.linf, worst };
}

describe("real multiclass datasets", () => {
  for (const [file, target] of datasets) {
    const pool = load(file, target);
    // Each run recorded on its own (test/sweeps/recorded.ts); the assertions below run on all.
    it(`${file}: 100 random DLPMs are recovered within the tolerance plus the finite-sample resolution, every queried point realised`, () => {
      const rng = createRng(100);
      const eps = 0.01;
      for (let t = 0; t < 100; t++) {
        const a = normalizeL1(Array.from({ length: pool.k }, () => 0.05 + rng.next()));
        const r = recorded("dlpmRun", { file, a, t }, () => dlpmRun(pool, a, t));
        for (const b of r.boundary) {
          const [p, i] = b.pair;
          const mStar = a[p]! / (a[p]! + a[i]!);
          const [lo, hi] = resolution(pool, a, p, i);
          expect(mStar).toBeGreaterThanOrEqual(lo);
          expect(mStar).toBeLessThanOrEqual(hi);
          // The elicited m lies in the near-optimal range, widened by the tolerance.
          expect(b.m).toBeGreaterThanOrEqual(lo - eps);
          expect(b.m).toBeLessThanOrEqual(hi + eps);
        }
        // Every queried point is realised by its classifier on the pool.
        expect(r.worst).toBeLessThanOrEqual(1e-9);
      }
    });
    it(`${file}: 100 random LPMs are recovered within the tolerance, every queried point realised`, {
      timeout: 300_000,
    }, () => {
      let sphere: Sphere | undefined;
      const sphereOf = () => {
        sphere ??= findSphere(createSpace("offdiag-confusion", pool));
        return sphere;
      };
      const radius = recorded("sphereRadius", { file }, () => sphereOf().radius);
      expect(radius).toBeGreaterThan(0);
      const rng = createRng(200);
      for (let t = 0; t < 100; t++) {
        const a = randomMulticlassTruth("linear", pool.k, rng);
        const r = recorded("lpmRun", { file, a, t }, () => lpmRun(pool, sphereOf(), a, t));
        expect(r.linf).toBeLessThanOrEqual(0.01);
        expect(r.worst).toBeLessThanOrEqual(1e-9);
      }
    });
  }
});
