import {
  describePortableMetric,
  isCostMetric,
  metricClassCount,
  metricGroupCount,
  type PortableMetric,
} from "./metric.ts";
import type { MetricCodeLanguage } from "./metric-code.ts";

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

/**
 * The header as comment lines of the language: `# ` lines in Python and R, a `/* ... *\/`
 * block in JavaScript.
 * @example commentedHeaderLines({ family: "binary-linear", tp: 0.7, tn: 0.3 }, {}, "r")[0].startsWith("# An elicited") // true
 */
export function commentedHeaderLines(
  m: PortableMetric,
  o: MetricCodeOptions,
  language: MetricCodeLanguage,
): string[] {
  const lines = codeHeaderLines(m, o);
  if (language === "js") return ["/*", ...lines.map((l) => (l ? ` * ${l}` : " *")), " */"];
  return lines.map((l) => (l ? `# ${l}` : "#"));
}

/**
 * Numbers as a vector literal: `[0.5, 1]` in Python and JavaScript, `c(0.5, 1)` in R.
 * @example numberListLiteral([0.5, 1], "r") // "c(0.5, 1)"
 */
function numberListLiteral(v: readonly number[], language: MetricCodeLanguage): string {
  const items = v.map(numberLiteral).join(", ");
  return language === "r" ? `c(${items})` : `[${items}]`;
}

/**
 * A matrix literal: a list of rows in Python and JavaScript, `matrix(c(...), nrow = k, byrow =
 * TRUE)` (filled row by row) in R.
 * @example numberMatrixLiteral([[1, 0], [0, 1]], "python") // "[[1, 0], [0, 1]]"
 */
function numberMatrixLiteral(
  M: readonly (readonly number[])[],
  language: MetricCodeLanguage,
): string {
  if (language === "r")
    return `matrix(${numberListLiteral(M.flat(), "r")}, nrow = ${M.length}, byrow = TRUE)`;
  return `[${M.map((row) => numberListLiteral(row, language)).join(", ")}]`;
}

/**
 * Matrices by string key (the fair metric's `B`): a dict / object literal in Python and
 * JavaScript, a named `list(...)` in R.
 * @example matrixMapLiteral({ "0-1": [[1]] }, "js") // "{\"0-1\": [[1]]}"
 */
function matrixMapLiteral(
  B: Readonly<Record<string, readonly (readonly number[])[]>>,
  language: MetricCodeLanguage,
): string {
  const entries = Object.entries(B).map(
    ([key, M]) =>
      `${stringLiteral(key)}${language === "r" ? " =" : ":"} ${numberMatrixLiteral(M, language)}`,
  );
  return language === "r" ? `list(${entries.join(", ")})` : `{${entries.join(", ")}}`;
}

/**
 * The names of classes or groups as a literal: the given names as strings, else `0 .. count - 1`
 * (Python `list(range(count))`, R `as.character(0:(count - 1))`, JavaScript `[0, 1, ...]`).
 * @example namesLiteral(undefined, 3, "r") // "as.character(0:2)"
 */
function namesLiteral(
  names: readonly string[] | undefined,
  count: number,
  language: MetricCodeLanguage,
): string {
  if (names) {
    const items = names.map(stringLiteral).join(", ");
    return language === "r" ? `c(${items})` : `[${items}]`;
  }
  if (language === "python") return `list(range(${count}))`;
  if (language === "r") return `as.character(0:${count - 1})`;
  return `[${Array.from({ length: count }, (_, i) => i).join(", ")}]`;
}

/**
 * One statement giving each name its value, on one line: Python `A, B = 1, 2`, R `A <- 1; B <- 2`,
 * JavaScript `const A = 1, B = 2;` (`export const` when `exported`).
 * @example assignment("python", [["K", "3"]]) // "K = 3"
 */
function assignment(
  language: MetricCodeLanguage,
  pairs: readonly (readonly [string, string])[],
  exported = false,
): string {
  if (language === "python")
    return `${pairs.map(([name]) => name).join(", ")} = ${pairs.map(([, value]) => value).join(", ")}`;
  if (language === "r") return pairs.map(([name, value]) => `${name} <- ${value}`).join("; ");
  return `${exported ? "export " : ""}const ${pairs.map(([name, value]) => `${name} = ${value}`).join(", ")};`;
}

/** A constant's doc comment: `#: ` in Python, `/** *\/` in JavaScript; none in R. */
function constantDoc(text: string, language: MetricCodeLanguage): string[] {
  if (language === "python") return [`#: ${text}`];
  if (language === "js") return [`/** ${text} */`];
  return [];
}

/** The metric's own numbers as constants (the names every language's function body reads). */
function metricNumberLines(m: PortableMetric, language: MetricCodeLanguage): string[] {
  const num = numberLiteral;
  const list = (v: readonly number[]) => numberListLiteral(v, language);
  const one = (name: string, value: string) => assignment(language, [[name, value]]);
  switch (m.family) {
    case "binary-linear":
      return [one("TP_WEIGHT", num(m.tp)), one("TN_WEIGHT", num(m.tn))];
    case "binary-linear-fractional":
      return [
        assignment(language, [
          ["P11", num(m.p11)],
          ["P00", num(m.p00)],
        ]),
        assignment(language, [
          ["Q11", num(m.q11)],
          ["Q00", num(m.q00)],
          ["Q0", num(m.q0)],
        ]),
      ];
    case "diagonal-linear":
    case "linear":
      return [one("A", list(m.a))];
    case "diagonal-linear-fractional":
    case "linear-fractional":
      return [one("A", list(m.a)), one("B", list(m.b)), one("B0", num(m.b0))];
    case "quadratic":
      return [one("A", list(m.a)), one("B", numberMatrixLiteral(m.B, language))];
    case "fair":
      return [
        one("A", list(m.a)),
        one("B", matrixMapLiteral(m.B, language)),
        one("LAMBDA", num(m.lambda)),
      ];
  }
}

/** The family a file names: a threshold metric's (given by a0) is binary-threshold. */
function portableFamilyName(m: PortableMetric): string {
  return m.family === "binary-linear" && m.a0 !== undefined ? "binary-threshold" : m.family;
}

/**
 * The constants every generated file defines after its header: FAMILY, K, LABELS, the metric's
 * numbers (TP_WEIGHT, A, B, ...) and GREATER_IS_BETTER (exported in JavaScript, but for the
 * metric's numbers).
 * @example metricConstantsLines({ family: "binary-linear", tp: 0.7, tn: 0.3 }, "r")[1] // "K <- 2L"
 */
export function metricConstantsLines(m: PortableMetric, language: MetricCodeLanguage): string[] {
  const k = metricClassCount(m);
  const greater = !isCostMetric(m);
  const booleans = { python: ["False", "True"], r: ["FALSE", "TRUE"], js: ["false", "true"] };
  return [
    assignment(language, [["FAMILY", stringLiteral(portableFamilyName(m))]], true),
    assignment(language, [["K", language === "r" ? `${k}L` : `${k}`]], true),
    ...constantDoc(
      "The class labels in the metric's order (rows and columns of the confusion matrix).",
      language,
    ),
    assignment(language, [["LABELS", namesLiteral(m.classes, k, language)]], true),
    ...metricNumberLines(m, language),
    assignment(language, [["GREATER_IS_BETTER", booleans[language][greater ? 1 : 0]!]], true),
  ];
}

/**
 * The fair metric's GROUPS constant: its group names (or 0-based numbers) in the order of B's
 * keys "u-v".
 * @example groupsConstantLines({ family: "fair", a: [1, 0], B: {}, lambda: 0.5 }, "r") // ["GROUPS <- as.character(0:1)"]
 */
export function groupsConstantLines(
  m: Extract<PortableMetric, { family: "fair" }>,
  language: MetricCodeLanguage,
): string[] {
  return [
    ...constantDoc(`The groups in the order of B's 0-based keys "u-v".`, language),
    assignment(language, [["GROUPS", namesLiteral(m.groups, metricGroupCount(m), language)]], true),
  ];
}
