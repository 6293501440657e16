/**
 * `metric-elicitation/binary`: binary-classification metrics (linear and linear-fractional
 * performance metrics), their elicitation procedures, the threshold classifiers and Bayes
 * geometry they search over, and the populations (bundled data or synthetic) they run on.
 * Pure: no file or network I/O, safe in a browser.
 *
 * @module metric-elicitation/binary
 */
export * from "../elicit/binary/boundary-search.ts";
export * from "../elicit/binary/fractional.ts";
export * from "../elicit/binary/fractional-bayes.ts";
export * from "../elicit/binary/grid-search.ts";
export * from "../elicit/binary/linear.ts";
export * from "../elicit/binary/optimal-threshold.ts";
export * from "../elicit/binary/point.ts";
export * from "../elicit/binary/pole.ts";
export * from "../elicit/binary/proposition4.ts";
export * from "../elicit/binary/spec.ts";
export * from "../elicit/binary/threshold.ts";
export * from "../elicit/binary/truth.ts";
export * from "../geometry/binary/bayes.ts";
export * from "../geometry/binary/pool.ts";
export * from "../geometry/binary/population.ts";
export * from "../geometry/binary/synthetic.ts";
export * from "../geometry/binary/threshold-classifier.ts";
export * from "../metrics/binary-confusion.ts";
export * from "../metrics/binary-fractional.ts";
export * from "../metrics/binary-linear.ts";
