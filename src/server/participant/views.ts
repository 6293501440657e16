import type { BinaryPoint } from "../../elicit/binary/point.ts";
import { fullConfusion } from "../../metrics/binary-confusion.ts";
import type { SystemView } from "../api-schemas.ts";
import type { FixedSystem } from "../study/config.ts";

/**
 * The precision of what a participant sees of a point: the comparison charts and tables show
 * counts out of 100 patients with one decimal (`perHundred` here, `formatCount` in
 * web/src/chart/format.ts; percentages are whole, so coarser), i.e. TP, FP, FN and TN to
 * 0.001 of the population. The adaptive engine's display step for web studies: two points
 * whose TP and TN agree at this step look identical on screen (FP and FN follow from them),
 * and the engine never asks them against each other. `perHundred` rounds with the same
 * expression as the engine's display key (`Math.round(x / step)`), so the two agree even on
 * exact half-steps (a pool of 2000 rows has them).
 */
export const DISPLAY_STEP = 0.001;

const perHundred = (x: number) => Math.round(x / DISPLAY_STEP) / 10;
const rate = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * A shown point as counts out of 100 (one decimal) and class-conditional rates (fractions).
 * @example systemView(point, 0.34) // { tp: 31.2, fp: 12.9, fn: 2.8, tn: 53.1, tpr: 0.9176, ... }
 */
export function systemView(point: BinaryPoint, zeta: number): SystemView {
  const f = fullConfusion(point.confusion, zeta);
  return {
    tp: perHundred(f.tp),
    fp: perHundred(Math.max(0, f.fp)),
    fn: perHundred(Math.max(0, f.fn)),
    tn: perHundred(f.tn),
    tpr: zeta > 0 ? rate(f.tp / zeta) : 0,
    tnr: zeta < 1 ? rate(f.tn / (1 - zeta)) : 0,
    threshold: point.classifier.threshold,
  };
}

/** A fixed Phase I system (already counts out of 100); its threshold is nominal. */
export function fixedSystemView(s: FixedSystem, threshold: number): SystemView {
  return {
    ...s,
    tpr: rate(s.tp / (s.tp + s.fn)),
    tnr: rate(s.tn / (s.tn + s.fp)),
    threshold,
  };
}
