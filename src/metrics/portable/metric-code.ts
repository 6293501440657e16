import type { MetricCodeOptions } from "./code-header.ts";
import { metricToJavaScript } from "./javascript.ts";
import type { PortableMetric } from "./metric.ts";
import { portableMetricProblems } from "./metric.ts";
import { metricToPython } from "./python.ts";
import { metricToR } from "./r.ts";

/** The languages `elicit export-metric --to` writes. */
export const METRIC_CODE_LANGUAGES = ["python", "r", "js"] as const;
export type MetricCodeLanguage = (typeof METRIC_CODE_LANGUAGES)[number];

/** The usual file name ending of each language's file (js: an ES module). */
export const METRIC_CODE_EXTENSION: Readonly<Record<MetricCodeLanguage, string>> = {
  python: ".py",
  r: ".R",
  js: ".mjs",
};

/**
 * A portable metric as a small dependency-free function in Python, R or JavaScript, whose
 * header states the confusion convention it takes (`CONFUSION_CONVENTION`: rows true class,
 * counts or joint probabilities, normalised by their total). Throws a RangeError for a metric
 * with wrong numbers (`portableMetricProblems`).
 * @example
 * const code = metricCode({ family: "binary-linear", tp: 0.7, tn: 0.3 }, "python");
 * // code defines elicited_metric(confusion): elicited_metric([[40, 10], [20, 30]]) == 0.33
 */
export function metricCode(
  metric: PortableMetric,
  language: MetricCodeLanguage,
  options: MetricCodeOptions = {},
): string {
  const problems = portableMetricProblems(metric);
  if (problems.length > 0) throw new RangeError(`cannot export the metric: ${problems.join("; ")}`);
  if (language === "python") return metricToPython(metric, options);
  if (language === "r") return metricToR(metric, options);
  return metricToJavaScript(metric, options);
}
