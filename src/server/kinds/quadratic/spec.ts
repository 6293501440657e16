import type { StudyAnswerModel, StudySpec } from "../../study/config.ts";

/**
 * A quadratic study's elicitation (UAI 2022, QPME): the metric
 * `phi(r) = <a, r> + 1/2 r^T B r` of the class rates `r` (the share of each true class
 * predicted right), elicited with the adaptive engine on a ball of rates inside what the
 * study's pool can realise, as the participant sees them (whole people of 100 per class).
 */
export interface QuadraticStudySpec {
  readonly family: "quadratic";
  /** Target accuracy: max(||a - a'||, ||B - B'||_F) with ||a||^2 + ||B||_F^2 = 1. */
  readonly tolerance: number;
  readonly strategy: "adaptive";
  readonly budget: number;
  readonly credibility: number;
  readonly model: StudyAnswerModel;
  /** The precision at which a person sees a rate (1 of 100 people of a class). */
  readonly displayStep: number;
}

declare module "../../study/config.ts" {
  interface KindSpecs {
    quadratic: QuadraticStudySpec;
  }
}

/** Defaults of a quadratic study: k(k + 3)/2 numbers (9 for k = 3) asked within 30 questions. */
export const QUADRATIC_DEFAULTS = {
  tolerance: 0.1,
  budget: 30,
  credibility: 0.9,
  model: "learned",
  displayStep: 0.01,
} as const;

/** The most classes a quadratic study shows (k = 5 already has 20 numbers to pin down). */
export const QUADRATIC_MAX_CLASSES = 4;

/**
 * Whether a spec is a quadratic study's.
 * @example isQuadraticSpec({ family: "quadratic" } as StudySpec) // true
 */
export function isQuadraticSpec(spec: StudySpec): spec is QuadraticStudySpec {
  return spec.family === "quadratic";
}
