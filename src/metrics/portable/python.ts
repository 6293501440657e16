import {
  commentedHeaderLines,
  groupsConstantLines,
  type MetricCodeOptions,
  metricConstantsLines,
} from "./code-header.ts";
import { isCostMetric, type PortableMetric } from "./metric.ts";

/** The body of `elicited_metric(confusion)` after `c = _joint(confusion)` (not fair). */
function body(m: Exclude<PortableMetric, { family: "fair" }>): string[] {
  switch (m.family) {
    case "binary-linear":
      return ["    return TP_WEIGHT * c[1][1] + TN_WEIGHT * c[0][0]"];
    case "binary-linear-fractional":
      return [
        "    tp, tn = c[1][1], c[0][0]",
        "    return (P11 * tp + P00 * tn) / (Q11 * tp + Q00 * tn + Q0)",
      ];
    case "diagonal-linear":
      return ["    return sum(A[i] * c[i][i] for i in range(K))"];
    case "linear":
      return ["    return sum(a * x for a, x in zip(A, _off_diagonal(c)))"];
    case "diagonal-linear-fractional":
    case "linear-fractional":
      return [
        m.family === "linear-fractional"
          ? "    x = _off_diagonal(c)"
          : "    x = [c[i][i] for i in range(K)]",
        "    num = sum(a * v for a, v in zip(A, x))",
        "    den = sum(b * v for b, v in zip(B, x)) + B0",
        "    return num / den",
      ];
    case "quadratic":
      return [
        "    r = _rates_right(c)",
        "    return sum(r[i] * (A[i] + 0.5 * sum(B[i][j] * r[j] for j in range(K))) for i in range(K))",
      ];
  }
}

const JOINT = [
  "def _matrix(confusion, what):",
  '    """The confusion matrix as K rows of K floats (lists, tuples or a numpy array)."""',
  "    rows = [[float(x) for x in row] for row in confusion]",
  "    if len(rows) != K or any(len(row) != K for row in rows):",
  '        raise ValueError(f"{what} must be {K} x {K} (rows true class, columns predicted)")',
  "    for row in rows:",
  "        for x in row:",
  "            if not (x >= 0 and x != float('inf')):",
  '                raise ValueError(f"{what} has an entry {x}: entries must be counts or probabilities")',
  "    return rows",
  "",
  "",
];

const RATES = [
  "def _rates_right(c, what='the confusion matrix'):",
  "    out = []",
  "    for i, row in enumerate(c):",
  "        n = sum(row)",
  "        if not n > 0:",
  '            raise ValueError(f"{what}: class {i} has no cases, so its rate is undefined")',
  "        out.append(row[i] / n)",
  "    return out",
  "",
  "",
];

/**
 * The metric as a dependency-free Python 3 module: `elicited_metric(confusion)` (the
 * convention in its header), and `make_sklearn_scorer(labels=LABELS)` building a scikit-learn
 * scorer with `make_scorer`, importing scikit-learn only when called. The fair metric's
 * function takes one matrix per group and has `confusions_by_group(y_true, y_pred, groups)`
 * instead of a scorer (a scorer is not given the groups).
 * @example metricToPython({ family: "binary-linear", tp: 0.7, tn: 0.3 }).includes("def elicited_metric(confusion):") // true
 */
export function metricToPython(m: PortableMetric, o: MetricCodeOptions = {}): string {
  const out = [
    ...commentedHeaderLines(m, o, "python"),
    m.family === "fair"
      ? "# No scikit-learn scorer (a scorer is not given the groups): use confusions_by_group."
      : "# scikit-learn is imported only by make_sklearn_scorer.",
    "",
    ...metricConstantsLines(m, "python"),
    "",
    "",
    ...JOINT,
  ];
  if (m.family === "linear" || m.family === "linear-fractional")
    out.push(
      "def _off_diagonal(c):",
      "    return [c[i][j] for i in range(K) for j in range(K) if j != i]",
      "",
      "",
    );
  if (m.family === "quadratic" || m.family === "fair") out.push(...RATES);
  if (m.family === "fair") {
    out.push(
      ...groupsConstantLines(m, "python"),
      "",
      "",
      "def elicited_metric(confusions):",
      '    """The fair metric\'s COST (lower is better) of one confusion matrix per group (GROUPS',
      '    order), all counts or all joint probabilities over everyone (see the header)."""',
      "    cs = [_matrix(c, f'group {g} confusion matrix') for g, c in enumerate(confusions)]",
      "    if len(cs) < len(GROUPS):",
      '        raise ValueError(f"the fair metric needs one confusion matrix per group ({len(GROUPS)}), got {len(cs)}")',
      "    rates = [_rates_right(c, f'group {g}') for g, c in enumerate(cs)]",
      "    totals = [[sum(row) for row in c] for c in cs]",
      "    r = []",
      "    for i in range(K):",
      "        n = sum(t[i] for t in totals)",
      "        r.append(sum(totals[g][i] / n * rates[g][i] for g in range(len(cs))))",
      "    lin = sum(A[i] * (1 - r[i]) for i in range(K))",
      "    viol = 0.0",
      "    for u in range(len(cs)):",
      "        for v in range(u + 1, len(cs)):",
      '            m = B.get(f"{u}-{v}")',
      "            if m is None:",
      "                continue",
      "            d = [rates[u][i] - rates[v][i] for i in range(K)]",
      "            viol += sum(d[i] * m[i][j] * d[j] for i in range(K) for j in range(K))",
      "    return (1 - LAMBDA) * lin + LAMBDA / 2 * viol",
      "",
      "",
      "def confusions_by_group(y_true, y_pred, groups, labels=None, group_names=None):",
      '    """One confusion matrix of counts per group (rows true, columns predicted), for',
      '    elicited_metric: labels in LABELS order, groups in GROUPS order by default."""',
      "    labels = LABELS if labels is None else list(labels)",
      "    group_names = GROUPS if group_names is None else list(group_names)",
      "    at = {label: i for i, label in enumerate(labels)}",
      "    group_at = {g: i for i, g in enumerate(group_names)}",
      "    out = [[[0] * K for _ in range(K)] for _ in group_names]",
      "    for t, p, g in zip(y_true, y_pred, groups):",
      "        out[group_at[g]][at[t]][at[p]] += 1",
      "    return out",
      "",
    );
  } else {
    out.push(
      "def elicited_metric(confusion):",
      `    """The metric's value (${isCostMetric(m) ? "lower" : "larger"} is better) at a confusion matrix of counts or joint`,
      '    probabilities, rows true class and columns predicted, in LABELS order."""',
      "    c = _matrix(confusion, 'the confusion matrix')",
      "    total = sum(sum(row) for row in c)",
      "    if not total > 0:",
      '        raise ValueError("the confusion matrix sums to 0")',
      "    c = [[x / total for x in row] for row in c]",
      ...body(m),
      "",
      "",
      "def make_sklearn_scorer(labels=None):",
      '    """A scikit-learn scorer for this metric (sklearn.metrics.make_scorer), for',
      "    cross_val_score or GridSearchCV: it builds the confusion matrix of the predicted",
      "    labels with `labels` (default LABELS) as its order. Imports scikit-learn here, so",
      '    elicited_metric works without it."""',
      "    from sklearn.metrics import confusion_matrix, make_scorer",
      "",
      "    order = LABELS if labels is None else list(labels)",
      "",
      "    def score(y_true, y_pred):",
      "        return elicited_metric(confusion_matrix(y_true, y_pred, labels=order))",
      "",
      "    return make_scorer(score, greater_is_better=GREATER_IS_BETTER)",
      "",
    );
  }
  return `${out.join("\n")}`;
}
