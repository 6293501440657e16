/**
 * The public library API of metric-elicitation.
 *
 * @module metric-elicitation
 */
export * from "./elicit/adaptive/index.ts";
export * from "./elicit/binary/fractional.ts";
export * from "./elicit/binary/linear.ts";
export * from "./elicit/binary/point.ts";
export * from "./elicit/binary/spec.ts";
export * from "./elicit/binary/threshold.ts";
export * from "./elicit/binary/truth.ts";
export * from "./elicit/session.ts";
export * from "./geometry/binary/bayes.ts";
export * from "./geometry/binary/pool.ts";
export * from "./geometry/binary/population.ts";
export * from "./geometry/binary/synthetic.ts";
export * from "./geometry/binary/threshold-classifier.ts";
export * from "./math/rng.ts";
export * from "./metrics/binary-confusion.ts";
export * from "./metrics/binary-fractional.ts";
export * from "./metrics/binary-linear.ts";
export * from "./oracle/noise.ts";
export * from "./oracle/simulated-oracle.ts";
export type * from "./search/question.ts";
export * from "./search/strategy.ts";
