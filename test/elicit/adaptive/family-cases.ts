import {
  binaryLinearFamily,
  binaryThresholdFamily,
} from "../../../src/elicit/adaptive/families/binary.ts";
import { cubicFamily } from "../../../src/elicit/adaptive/families/cubic.ts";
import { fairQuadraticFamily, lambdaFamily } from "../../../src/elicit/adaptive/families/fair.ts";
import { multiclassLinearFamily } from "../../../src/elicit/adaptive/families/multiclass.ts";
import { quadraticFamily } from "../../../src/elicit/adaptive/families/quadratic.ts";
import type { AdaptiveFamily } from "../../../src/elicit/adaptive/family.ts";
import { randomFairSetting } from "../../../src/elicit/fair/simulate.ts";
import { syntheticPopulation } from "../../../src/geometry/binary/synthetic.ts";
import { createRng } from "../../../src/math/rng.ts";
import { syntheticMulticlassPool } from "../../../src/population/multiclass.ts";

/** Any adaptive family, for tables of cases over every family. */
export type AnyFamily = AdaptiveFamily<unknown, unknown>;

/** The binary population of the every-family cases. */
export const casesPopulation = syntheticPopulation(5);
const pool = syntheticMulticlassPool(3, 3000);
const fair = randomFairSetting(2, 2, "replay");

/**
 * One small instance of every adaptive family, by name (the replay tests of issue 10 and the
 * replay-cache tests of issue 28 run over the same table).
 */
export const familyCases: [string, () => AnyFamily][] = [
  ["binary-linear", () => binaryLinearFamily(casesPopulation) as AnyFamily],
  ["binary-threshold", () => binaryThresholdFamily(casesPopulation) as AnyFamily],
  ["diagonal-linear", () => multiclassLinearFamily("diagonal-linear", pool) as AnyFamily],
  ["linear", () => multiclassLinearFamily("linear", pool) as AnyFamily],
  ["quadratic", () => quadraticFamily(2) as AnyFamily],
  ["fair-quadratic", () => fairQuadraticFamily(2, fair.tau) as AnyFamily],
  ["lambda", () => lambdaFamily(2, fair.tau, { a: fair.truth.a, B: fair.truth.B }) as AnyFamily],
  ["cubic", () => cubicFamily(2) as AnyFamily],
];

/** A random unit direction of the family's own parameters (its signs kept), seeded. */
export function randomTruth(family: AnyFamily, seed: string): Float64Array {
  const rng = createRng(seed);
  const w = Float64Array.from(family.signs, (s) => {
    const g = rng.normal();
    return s === 0 ? g : s * Math.abs(g);
  });
  const n = Math.hypot(...w);
  return w.map((x) => x / n);
}
