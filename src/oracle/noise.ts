import type { Rng } from "../math/rng.ts";
import type { Answer } from "../search/question.ts";

/**
 * How a simulated stakeholder errs.
 *
 * - `none`: always right; exact ties (|difference| <= `tieTolerance`) are answered "tie".
 * - `feedback`: the paper's Definition 7: may answer wrongly whenever
 *   `|phi(C) - phi(C')| < epsilon`; the wrong answer is `adversarial` (always the opposite of
 *   the truth) or `random` (a fair coin between the two systems, seeded).
 * - `flip`: each answer is independently replaced by the opposite with probability `p`.
 * - `logistic`: a Bradley-Terry chooser: the better system is picked with probability
 *   `sigmoid(|difference| / temperature)` (temperature in metric units). With
 *   `temperature = 0.1 range / ln 9`, 10% of answers are wrong on pairs a tenth of the
 *   metric's range apart (`logisticForRange`).
 */
export type NoiseModel =
  | { readonly kind: "none" }
  | {
      readonly kind: "feedback";
      readonly epsilon: number;
      readonly wrong: "adversarial" | "random";
    }
  | { readonly kind: "flip"; readonly probability: number }
  | { readonly kind: "logistic"; readonly temperature: number };

/**
 * Logistic noise that errs on `errorRate` of the pairs `fraction` of the metric's `range`
 * apart (issue 10: 10% errors at a tenth of the range).
 * @example logisticForRange(1) // { kind: "logistic", temperature: 0.0455 }
 */
export function logisticForRange(range: number, fraction = 0.1, errorRate = 0.1): NoiseModel {
  if (!(range > 0)) throw new RangeError("the metric's range must be positive");
  return {
    kind: "logistic",
    temperature: (fraction * range) / Math.log((1 - errorRate) / errorRate),
  };
}

/** Values closer than this (relative to their size) are an exact tie. */
export const TIE_TOLERANCE = 1e-12;

/**
 * The truthful answer for two metric values of the first and second point.
 * @example truthfulAnswer(0.7, 0.6) // "first"
 */
export function truthfulAnswer(first: number, second: number): Answer {
  const diff = first - second;
  const scale = Math.max(1, Math.abs(first), Math.abs(second));
  if (Math.abs(diff) <= TIE_TOLERANCE * scale) return "tie";
  return diff > 0 ? "first" : "second";
}

function opposite(answer: Answer): Answer {
  if (answer === "first") return "second";
  if (answer === "second") return "first";
  // An exact tie has no opposite; an adversary picks one side.
  return "second";
}

/**
 * Apply a noise model to a pair of metric values.
 * @example noisyAnswer({ kind: "flip", probability: 0 }, 0.7, 0.6, createRng(1)) // "first"
 */
export function noisyAnswer(noise: NoiseModel, first: number, second: number, rng: Rng): Answer {
  const truth = truthfulAnswer(first, second);
  switch (noise.kind) {
    case "none":
      return truth;
    case "feedback": {
      if (Math.abs(first - second) >= noise.epsilon) return truth;
      if (noise.wrong === "adversarial") return opposite(truth);
      return rng.next() < 0.5 ? "first" : "second";
    }
    case "flip":
      return rng.next() < noise.probability ? opposite(truth) : truth;
    case "logistic": {
      if (truth === "tie") return rng.next() < 0.5 ? "first" : "second";
      const wrong = 1 / (1 + Math.exp(Math.abs(first - second) / noise.temperature));
      return rng.next() < wrong ? opposite(truth) : truth;
    }
  }
}

/**
 * A one-line description, for reports.
 * @example describeNoise({ kind: "flip", probability: 0.05 }) // "independent flips with probability 0.05"
 */
export function describeNoise(noise: NoiseModel): string {
  switch (noise.kind) {
    case "none":
      return "no noise";
    case "feedback":
      return `feedback noise eps_Omega = ${noise.epsilon} (${noise.wrong} wrong answers)`;
    case "flip":
      return `independent flips with probability ${noise.probability}`;
    case "logistic":
      return `logistic choice noise, temperature ${noise.temperature.toPrecision(3)}`;
  }
}
