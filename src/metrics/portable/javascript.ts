// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are JavaScript source with template literals
import {
  commentedHeaderLines,
  groupsConstantLines,
  type MetricCodeOptions,
  metricConstantsLines,
} from "./code-header.ts";
import { isCostMetric, type PortableMetric } from "./metric.ts";

function body(m: Exclude<PortableMetric, { family: "fair" }>): string[] {
  switch (m.family) {
    case "binary-linear":
      return ["  return TP_WEIGHT * c[1][1] + TN_WEIGHT * c[0][0];"];
    case "binary-linear-fractional":
      return [
        "  const tp = c[1][1], tn = c[0][0];",
        "  return (P11 * tp + P00 * tn) / (Q11 * tp + Q00 * tn + Q0);",
      ];
    case "diagonal-linear":
      return ["  let v = 0;", "  for (let i = 0; i < K; i++) v += A[i] * c[i][i];", "  return v;"];
    case "linear":
      return [
        "  const x = offDiagonal(c);",
        "  let v = 0;",
        "  for (let t = 0; t < x.length; t++) v += A[t] * x[t];",
        "  return v;",
      ];
    case "diagonal-linear-fractional":
    case "linear-fractional":
      return [
        m.family === "linear-fractional"
          ? "  const x = offDiagonal(c);"
          : "  const x = c.map((row, i) => row[i]);",
        "  let num = 0, den = B0;",
        "  for (let t = 0; t < x.length; t++) {",
        "    num += A[t] * x[t];",
        "    den += B[t] * x[t];",
        "  }",
        "  return num / den;",
      ];
    case "quadratic":
      return [
        "  const r = ratesRight(c, 'the confusion matrix');",
        "  let v = 0;",
        "  for (let i = 0; i < K; i++) {",
        "    let bi = 0;",
        "    for (let j = 0; j < K; j++) bi += B[i][j] * r[j];",
        "    v += r[i] * (A[i] + 0.5 * bi);",
        "  }",
        "  return v;",
      ];
  }
}

const MATRIX = [
  "function asConfusion(confusion, what) {",
  "  const rows = Array.from(confusion, (row) => Array.from(row, Number));",
  "  if (rows.length !== K || rows.some((row) => row.length !== K))",
  "    throw new RangeError(`${what} must be ${K} x ${K} (rows true class, columns predicted)`);",
  "  for (const row of rows)",
  "    for (const x of row)",
  "      if (!(Number.isFinite(x) && x >= 0))",
  "        throw new RangeError(`${what} has an entry ${x}: entries must be counts or probabilities`);",
  "  return rows;",
  "}",
  "",
];

const RATES = [
  "function ratesRight(c, what) {",
  "  return c.map((row, i) => {",
  "    const n = row.reduce((x, y) => x + y, 0);",
  "    if (!(n > 0)) throw new RangeError(`${what}: class ${i} has no cases, so its rate is undefined`);",
  "    return row[i] / n;",
  "  });",
  "}",
  "",
];

/**
 * The metric as a dependency-free JavaScript ES module: `export function elicitedMetric(confusion)`
 * by the convention of its header (the fair metric's takes one matrix per group, and the
 * module has `confusionsByGroup(yTrue, yPred, groups)`).
 * @example metricToJavaScript({ family: "linear", a: [-1, -1] }).includes("export function elicitedMetric(confusion)") // true
 */
export function metricToJavaScript(m: PortableMetric, o: MetricCodeOptions = {}): string {
  const out = [
    ...commentedHeaderLines(m, o, "js"),
    "",
    ...metricConstantsLines(m, "js"),
    "",
    ...MATRIX,
  ];
  if (m.family === "linear" || m.family === "linear-fractional")
    out.push(
      "/** The off-diagonal entries row by row (c[0][1], c[0][2], ..., c[1][0], c[1][2], ...). */",
      "function offDiagonal(c) {",
      "  return c.flatMap((row, i) => row.filter((_, j) => j !== i));",
      "}",
      "",
    );
  if (m.family === "quadratic" || m.family === "fair") out.push(...RATES);
  if (m.family === "fair") {
    out.push(
      ...groupsConstantLines(m, "js"),
      "",
      "/**",
      " * The fair metric's COST (lower is better) of one confusion matrix per group (GROUPS",
      " * order), all counts or all joint probabilities over everyone (see the header).",
      " */",
      "export function elicitedMetric(confusions) {",
      "  const cs = Array.from(confusions, (c, g) => asConfusion(c, `group ${g}'s confusion matrix`));",
      "  if (cs.length < GROUPS.length)",
      "    throw new RangeError(`the fair metric needs one confusion matrix per group (${GROUPS.length}), got ${cs.length}`);",
      "  const rates = cs.map((c, g) => ratesRight(c, `group ${g}`));",
      "  const totals = cs.map((c) => c.map((row) => row.reduce((x, y) => x + y, 0)));",
      "  const r = [];",
      "  for (let i = 0; i < K; i++) {",
      "    let n = 0;",
      "    for (const t of totals) n += t[i];",
      "    let ri = 0;",
      "    for (let g = 0; g < cs.length; g++) ri += (totals[g][i] / n) * rates[g][i];",
      "    r.push(ri);",
      "  }",
      "  let lin = 0;",
      "  for (let i = 0; i < K; i++) lin += A[i] * (1 - r[i]);",
      "  let viol = 0;",
      "  for (let u = 0; u < cs.length; u++)",
      "    for (let v = u + 1; v < cs.length; v++) {",
      "      const M = B[`${u}-${v}`];",
      "      if (!M) continue;",
      "      const d = rates[u].map((x, i) => x - rates[v][i]);",
      "      for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) viol += d[i] * M[i][j] * d[j];",
      "    }",
      "  return (1 - LAMBDA) * lin + (LAMBDA / 2) * viol;",
      "}",
      "",
      "/** One confusion matrix of counts per group, for elicitedMetric. */",
      "export function confusionsByGroup(yTrue, yPred, groups, labels = LABELS, groupNames = GROUPS) {",
      "  const at = new Map(labels.map((l, i) => [String(l), i]));",
      "  const groupAt = new Map(groupNames.map((g, i) => [String(g), i]));",
      "  const out = groupNames.map(() => labels.map(() => new Array(labels.length).fill(0)));",
      "  for (let n = 0; n < yTrue.length; n++)",
      "    out[groupAt.get(String(groups[n]))][at.get(String(yTrue[n]))][at.get(String(yPred[n]))]++;",
      "  return out;",
      "}",
      "",
    );
  } else {
    out.push(
      "/**",
      ` * The metric's value (${isCostMetric(m) ? "lower" : "larger"} is better) at a confusion matrix of counts or joint`,
      " * probabilities, rows true class and columns predicted, in LABELS order.",
      " */",
      "export function elicitedMetric(confusion) {",
      "  let c = asConfusion(confusion, 'the confusion matrix');",
      "  const total = c.reduce((s, row) => s + row.reduce((x, y) => x + y, 0), 0);",
      "  if (!(total > 0)) throw new RangeError('the confusion matrix sums to 0');",
      "  c = c.map((row) => row.map((x) => x / total));",
      ...body(m),
      "}",
      "",
    );
  }
  return out.join("\n");
}
