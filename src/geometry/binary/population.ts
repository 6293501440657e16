import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";
import type { ThresholdClassifier } from "./threshold-classifier.ts";

/**
 * A binary population: anything that can report the confusion point of a threshold
 * classifier. Implemented by a finite pool of predictions (`BinaryPool`) and by the
 * AISTATS 2019 synthetic distribution computed in closed form (`syntheticPopulation`).
 */
export interface BinaryPopulation {
  /** `P(Y = 1)`. */
  readonly zeta: number;
  /** A short description for reports. */
  readonly description: string;
  /** Confusion point `(TP, TN)` of a threshold classifier. */
  confusion(h: ThresholdClassifier): BinaryConfusion;
}
