import {
  describePortableMetric,
  isCostMetric,
  metricClassCount,
  type PortableMetric,
} from "./metric.ts";

/** Options of the code generators. */
export interface MetricCodeOptions {
  /** Where the metric came from, for the header (e.g. "study.json, participant 3"). */
  readonly source?: string;
  /** The package version that wrote the code, for the header. */
  readonly version?: string;
}

/**
 * A number as every target language reads it back exactly: JavaScript's shortest round-trip
 * form (`0.1`, `-2.5e-7`), which Python, R and JavaScript all parse to the same double.
 * @example numberLiteral(0.1) // "0.1"
 */
export function numberLiteral(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot write ${x} as code`);
  return Object.is(x, -0) ? "0" : String(x);
}

/**
 * A string as a double-quoted literal that Python, R and JavaScript read the same way (JSON
 * escapes; non-ASCII kept as \u escapes so every file is ASCII).
 * @example stringLiteral('say "hi"') // "\"say \\\"hi\\\"\""
 */
export function stringLiteral(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The header every generated file starts with (without comment markers): what the metric is,
 * where it came from, and the confusion convention the function takes, stated explicitly.
 * @example codeHeaderLines({ family: "binary-linear", tp: 0.7, tn: 0.3 }, {})[0] // "An elicited performance metric, written by metric-elicitation (elicit export-metric)."
 */
export function codeHeaderLines(m: PortableMetric, o: MetricCodeOptions): string[] {
  const k = metricClassCount(m);
  const classes = m.classes
    ? m.classes.map((c) => JSON.stringify(c)).join(", ")
    : m.family.startsWith("binary-")
      ? "0 (negative), 1 (positive)"
      : `0 to ${k - 1}`;
  const lines = [
    `An elicited performance metric, written by metric-elicitation${o.version ? ` ${o.version}` : ""} (elicit export-metric).`,
    ...(o.source ? [`Source: ${o.source}.`] : []),
    `Metric: ${describePortableMetric(m)}.`,
    isCostMetric(m)
      ? "The value is a COST: lower is better (the UAI 2022 fair metric's own form)."
      : "The value is a utility: larger is better.",
    "",
    "Confusion convention (the function's input):",
    `  C[i][j] = the cases of true class i that were predicted as class j: rows are the true`,
    `  class, columns the predicted class (scikit-learn's confusion_matrix(y_true, y_pred)),`,
    `  ${k} x ${k}, classes in this order: ${classes}.`,
    "  Counts are accepted and normalised: C is divided by its total, so counts and joint",
    "  probabilities P(Y = i, h = j) give the same value.",
    "  Rates P(h = j | Y = i) (each row summing to 1) are NOT accepted: dividing them by their",
    "  total would weigh every class equally, whatever its prevalence.",
  ];
  if (m.family === "fair") {
    const groups = m.groups ? m.groups.map((g) => JSON.stringify(g)).join(", ") : "0, 1, ...";
    lines.push(
      `  The fair metric takes one such matrix per group, in this order: ${groups}, all on one`,
      "  scale (counts, or joint probabilities over everyone P(Y = i, h = j, G = g)): each",
      "  group's share of class i, tau[g][i] = P(G = g | Y = i), comes from the row totals.",
      "  Rates right r[g][i] = C[g][i][i] / (row i's total); r[i] = sum_g tau[g][i] r[g][i].",
    );
  }
  if (m.family === "quadratic" || m.family === "fair")
    lines.push("  A class with no cases (a zero row) has no rate: the function raises an error.");
  lines.push("", "No dependencies.");
  return lines;
}
