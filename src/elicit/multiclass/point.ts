import type { Classifier } from "../../geometry/multiclass/classifier.ts";

/** A multiclass point shown to the stakeholder: statistics in some space and the classifier achieving them. */
export interface MulticlassPoint {
  readonly point: Float64Array;
  readonly classifier: Classifier;
}
