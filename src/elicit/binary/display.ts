import { type AutoAnswer, type Procedure, withAutoAnswers } from "../session.ts";
import type { BinaryPoint } from "./point.ts";

/**
 * How a binary point is shown to a person: whole people out of a population with fixed class
 * totals (issue 26: every strategy judges what the person sees). Pure: no I/O; the web study
 * (src/server/participant/views.ts re-exports these) and the experiments share it.
 */

/**
 * How a study shows a point: whole people out of `population`, of whom `positives` are
 * actually positive and `negatives` not, the same totals on every page of the study.
 */
export interface DisplayFrame {
  readonly population: number;
  readonly positives: number;
  readonly negatives: number;
  /**
   * One person as a fraction of the population, `1 / population`: TP and TN are shown as
   * `Math.round(x / step)`, the very expression of the adaptive engine's display key, so the
   * engine (told this step) and the screen agree on which points look identical.
   */
  readonly step: number;
}

/**
 * Round non-negative `quotas` to whole numbers that sum exactly to `total` (Hamilton's
 * largest-remainder method): each gets the floor of its quota scaled to `total`, and the units
 * left go to the largest remainders (ties to the earlier quota).
 * @example largestRemainder([34.38, 65.62], 100) // [34, 66]
 * @example largestRemainder([1, 1, 1], 100) // [34, 33, 33]
 */
export function largestRemainder(quotas: readonly number[], total: number): number[] {
  if (!Number.isInteger(total) || total < 0) throw new RangeError("total must be a whole number");
  const sum = quotas.reduce((s, q) => s + q, 0);
  if (quotas.some((q) => !(q >= 0)) || !(sum > 0)) {
    throw new RangeError("quotas must be non-negative with a positive sum");
  }
  const scaled = quotas.map((q) => (q * total) / sum);
  const out = scaled.map(Math.floor);
  let left = total - out.reduce((s, x) => s + x, 0);
  const order = scaled
    .map((q, i) => ({ i, r: q - Math.floor(q) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

/**
 * The display frame of a pool with prevalence `zeta` shown as `population` people: class
 * totals by largest remainder, so 34.4% of 100 is 34 positives and 66 negatives.
 * @example displayFrame(100, 0.3438) // { population: 100, positives: 34, negatives: 66, step: 0.01 }
 */
export function displayFrame(population: number, zeta: number): DisplayFrame {
  if (!Number.isInteger(population) || population < 1) {
    throw new RangeError("the population must be a whole number, at least 1");
  }
  const [positives, negatives] = largestRemainder([zeta, 1 - zeta], population) as [number, number];
  return { population, positives, negatives, step: 1 / population };
}

/** Whole-people counts of a point as shown: TP + FN and TN + FP are the frame's totals. */
export interface ShownCounts {
  readonly tp: number;
  readonly fn: number;
  readonly fp: number;
  readonly tn: number;
}

/**
 * The counts a participant sees of a point: TP and TN rounded to whole people
 * (`Math.round(x / step)`, the adaptive engine's display key at the frame's step), FN and FP
 * the rest of the fixed class totals. TP is within one person of the class-conditional
 * `TPR x positives` (and TN of `TNR x negatives`): rounding moves at most half a person, and
 * the class total differs from the pool's exact share by at most half a person.
 * @example shownCounts({ tp: 0.3123, tn: 0.5904 }, displayFrame(100, 0.3438)) // { tp: 31, fn: 3, fp: 7, tn: 59 }
 */
export function shownCounts(
  c: { readonly tp: number; readonly tn: number },
  frame: DisplayFrame,
): ShownCounts {
  const clamp = (x: number, hi: number) => Math.min(hi, Math.max(0, x));
  const tp = clamp(Math.round(c.tp / frame.step), frame.positives);
  const tn = clamp(Math.round(c.tn / frame.step), frame.negatives);
  return { tp, fn: frame.positives - tp, fp: frame.negatives - tn, tn };
}

/** What a participant sees of a point, as one string: equal keys look identical on screen. */
export function shownKey(point: BinaryPoint, frame: DisplayFrame): string {
  const s = shownCounts(point.confusion, frame);
  return `${s.tp},${s.tn}`;
}

/**
 * The procedure with every question whose two points look identical in `frame` answered
 * "tie" without being shown: on screen the two systems are the same, so "they seem about the
 * same" is the only answer a participant could give, and the pair is never asked. Only the
 * questions shown reach `ask` (and the answer log). A null frame (a study from before display
 * frames) changes nothing, so its stored logs replay as they were answered.
 * @example replay(unlessIdenticalOnScreen(procedure, frame), answers)
 */
export function unlessIdenticalOnScreen<R>(
  procedure: Procedure<BinaryPoint, R>,
  frame: DisplayFrame | null,
): Procedure<BinaryPoint, R> {
  return frame === null ? procedure : withAutoAnswers(procedure, identicalOnScreen(frame));
}

/**
 * The rule of `unlessIdenticalOnScreen` on its own ("tie" for a pair identical in `frame`,
 * nothing for a null frame), for a resumable run (`liveRun`).
 * @example liveRun(steps, answers, identicalOnScreen(frame))
 */
export function identicalOnScreen(frame: DisplayFrame | null): AutoAnswer<BinaryPoint> {
  return (q) =>
    frame !== null && shownKey(q.first, frame) === shownKey(q.second, frame) ? "tie" : undefined;
}
