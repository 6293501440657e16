/**
 * A deterministic binary threshold classifier on the class probability `eta(x)`:
 * `direction: "ge"` predicts positive when `eta(x) >= threshold` (the upper boundary of the
 * confusion set, Bayes classifiers of increasing metrics); `"le"` predicts positive when
 * `eta(x) <= threshold` (the lower boundary, inverse-Bayes classifiers).
 */
export interface ThresholdClassifier {
  readonly kind: "threshold";
  readonly threshold: number;
  readonly direction: "ge" | "le";
}

/**
 * Make a threshold classifier.
 * @example thresholdClassifier(0.3) // predicts positive when eta >= 0.3
 */
export function thresholdClassifier(
  threshold: number,
  direction: "ge" | "le" = "ge",
): ThresholdClassifier {
  return { kind: "threshold", threshold, direction };
}

/**
 * Apply a threshold classifier to one probability.
 * @example predictThreshold(thresholdClassifier(0.5), 0.7) // 1
 */
export function predictThreshold(h: ThresholdClassifier, eta: number): 0 | 1 {
  return (h.direction === "ge" ? eta >= h.threshold : eta <= h.threshold) ? 1 : 0;
}

/**
 * Human-readable form, e.g. `1[eta >= 0.3125]`.
 * @example describeThreshold({ kind: "threshold", threshold: 0.3125, direction: "ge" }) // "1[eta >= 0.3125]"
 */
export function describeThreshold(h: ThresholdClassifier, digits = 4): string {
  return `1[eta ${h.direction === "ge" ? ">=" : "<="} ${h.threshold.toFixed(digits)}]`;
}
