import { type DisplayFrame, displayFrame, shownCounts } from "../../elicit/binary/display.ts";
import type { BinaryPoint } from "../../elicit/binary/point.ts";
import { fullConfusion } from "../../metrics/binary-confusion.ts";
import type { SystemView } from "../api-schemas.ts";
import type { FixedSystem, StudyConfig } from "../study/config.ts";

export {
  type DisplayFrame,
  displayFrame,
  largestRemainder,
  type ShownCounts,
  shownCounts,
  shownKey,
  unlessIdenticalOnScreen,
} from "../../elicit/binary/display.ts";

/**
 * The precision of studies created before whole-patient counts (configurations without
 * `display`): counts out of 100 with one decimal, i.e. TP and TN to 0.001 of the population,
 * which is also the display step their adaptive specs store. Their views and replays are
 * unchanged, so a stored log replays as it was answered.
 */
export const LEGACY_DISPLAY_STEP = 0.001;

/** Population shown to participants unless a study sets its own (`display.population`). */
export const DEFAULT_POPULATION = 100;

/** The display frame of a study over its pool, or null for a study from before frames. */
export function studyFrame(config: StudyConfig, zeta: number): DisplayFrame | null {
  return config.display ? displayFrame(config.display.population, zeta) : null;
}

const perHundred = (x: number) => Math.round(x / LEGACY_DISPLAY_STEP) / 10;
const rate = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * A shown point: whole counts in the study's frame with rates of those counts (so "31 of 34 ·
 * 91%" agrees with itself on screen); a study without a frame gets its old view, counts out
 * of 100 with one decimal and exact class-conditional rates.
 * @example systemView(point, 0.34, displayFrame(100, 0.34)) // { tp: 31, fp: 7, fn: 3, tn: 59, tpr: 0.9118, ... }
 */
export function systemView(
  point: BinaryPoint,
  zeta: number,
  frame: DisplayFrame | null = null,
): SystemView {
  if (frame !== null) {
    const s = shownCounts(point.confusion, frame);
    return {
      ...s,
      tpr: frame.positives > 0 ? rate(s.tp / frame.positives) : 0,
      tnr: frame.negatives > 0 ? rate(s.tn / frame.negatives) : 0,
      threshold: point.classifier.threshold,
    };
  }
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
