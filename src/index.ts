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
export { type DecisionRule, optimalRule } from "./experiments/score/decision.ts";
export {
  MetricFileError,
  type MetricSelection,
  type MetricSource,
  type MetricSubject,
  readMetricSource,
} from "./experiments/score/metric-source.ts";
export {
  type ReadPredictionsOptions,
  readModelPredictions,
} from "./experiments/score/model-predictions.ts";
export {
  type CloseCall,
  type MetricBelief,
  type ModelPredictions,
  type ModelScore,
  type ScoreReport,
  scoreModels,
} from "./experiments/score/score.ts";
export * from "./geometry/binary/bayes.ts";
export * from "./geometry/binary/pool.ts";
export * from "./geometry/binary/population.ts";
export * from "./geometry/binary/synthetic.ts";
export * from "./geometry/binary/threshold-classifier.ts";
export * from "./math/rng.ts";
export * from "./metrics/binary-confusion.ts";
export * from "./metrics/binary-fractional.ts";
export * from "./metrics/binary-linear.ts";
// Using an elicited metric (issue 29): portable metrics, their value on a confusion matrix,
// the metric as Python, R or JavaScript code, and scoring models' predictions under it.
export * from "./metrics/portable/evaluate.ts";
export * from "./metrics/portable/metric.ts";
export * from "./metrics/portable/metric-code.ts";
export * from "./oracle/noise.ts";
export * from "./oracle/simulated-oracle.ts";
export type * from "./search/question.ts";
export * from "./search/strategy.ts";
