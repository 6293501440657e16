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
      return ["  TP_WEIGHT * C[2, 2] + TN_WEIGHT * C[1, 1]"];
    case "binary-linear-fractional":
      return [
        "  tp <- C[2, 2]; tn <- C[1, 1]",
        "  (P11 * tp + P00 * tn) / (Q11 * tp + Q00 * tn + Q0)",
      ];
    case "diagonal-linear":
      return ["  sum(A * diag(C))"];
    case "linear":
      return ["  sum(A * .off_diagonal(C))"];
    case "diagonal-linear-fractional":
    case "linear-fractional":
      return [
        m.family === "linear-fractional" ? "  x <- .off_diagonal(C)" : "  x <- diag(C)",
        "  sum(A * x) / (sum(B * x) + B0)",
      ];
    case "quadratic":
      return ["  r <- .rates_right(C)", "  sum(A * r) + 0.5 * drop(t(r) %*% B %*% r)"];
  }
}

const MATRIX = [
  ".as_confusion <- function(confusion, what) {",
  "  C <- unclass(as.matrix(confusion))",
  '  storage.mode(C) <- "double"',
  "  if (length(dim(C)) != 2 || any(dim(C) != K))",
  '    stop(sprintf("%s must be %d x %d (rows true class, columns predicted)", what, K, K))',
  "  if (any(!is.finite(C)) || any(C < 0))",
  '    stop(sprintf("%s has an entry that is not a count or a probability", what))',
  "  C",
  "}",
  "",
];

const RATES = [
  '.rates_right <- function(C, what = "the confusion matrix") {',
  "  n <- rowSums(C)",
  "  if (any(!(n > 0)))",
  '    stop(sprintf("%s: class %d has no cases, so its rate is undefined", what, which(!(n > 0))[1] - 1))',
  "  diag(C) / n",
  "}",
  "",
];

/**
 * The metric as dependency-free R (base R only): `elicited_metric(confusion)` taking a matrix
 * (or a `table(y_true, y_pred)`) by the convention of its header; the fair metric's takes a
 * list of one matrix per group.
 * @example metricToR({ family: "diagonal-linear", a: [0.5, 0.5] }).includes("elicited_metric <- function(confusion)") // true
 */
export function metricToR(m: PortableMetric, o: MetricCodeOptions = {}): string {
  const out = [
    ...commentedHeaderLines(m, o, "r"),
    "# R indexes from 1: C[i + 1, j + 1] is the header's C[i][j]. A table(y_true, y_pred) works",
    "# when both are factors with levels LABELS (so every class has its row and column).",
    "",
    ...metricConstantsLines(m, "r"),
    "",
    ...MATRIX,
  ];
  if (m.family === "linear" || m.family === "linear-fractional")
    out.push(
      "# The off-diagonal entries row by row (C[1, 2], C[1, 3], ..., C[2, 1], C[2, 3], ...).",
      ".off_diagonal <- function(C) t(C)[!diag(K)]",
      "",
    );
  if (m.family === "quadratic" || m.family === "fair") out.push(...RATES);
  if (m.family === "fair") {
    out.push(
      ...groupsConstantLines(m, "r"),
      "",
      "# The fair metric's COST (lower is better) of a list of one confusion matrix per group",
      "# (GROUPS order), all counts or all joint probabilities over everyone.",
      "elicited_metric <- function(confusions) {",
      "  if (length(confusions) < length(GROUPS))",
      '    stop(sprintf("the fair metric needs one confusion matrix per group (%d), got %d", length(GROUPS), length(confusions)))',
      '  cs <- lapply(seq_along(confusions), function(g) .as_confusion(confusions[[g]], sprintf("group %d\'s confusion matrix", g - 1)))',
      '  rates <- lapply(seq_along(cs), function(g) .rates_right(cs[[g]], sprintf("group %d", g - 1)))',
      "  totals <- lapply(cs, rowSums)",
      "  n <- Reduce(`+`, totals)",
      "  r <- Reduce(`+`, lapply(seq_along(cs), function(g) totals[[g]] / n * rates[[g]]))",
      "  lin <- sum(A * (1 - r))",
      "  viol <- 0",
      "  for (u in seq_along(cs)) for (v in seq_along(cs)) {",
      "    if (v <= u) next",
      '    M <- B[[sprintf("%d-%d", u - 1, v - 1)]]',
      "    if (is.null(M)) next",
      "    d <- rates[[u]] - rates[[v]]",
      "    viol <- viol + drop(t(d) %*% M %*% d)",
      "  }",
      "  (1 - LAMBDA) * lin + LAMBDA / 2 * viol",
      "}",
      "",
      "# One confusion matrix of counts per group, for elicited_metric.",
      "confusions_by_group <- function(y_true, y_pred, groups, labels = LABELS, group_names = GROUPS) {",
      "  lapply(group_names, function(g) {",
      "    keep <- as.character(groups) == g",
      "    unclass(table(factor(as.character(y_true)[keep], levels = labels),",
      "                  factor(as.character(y_pred)[keep], levels = labels)))",
      "  })",
      "}",
      "",
    );
  } else {
    out.push(
      `# The metric's value (${isCostMetric(m) ? "lower" : "larger"} is better) at a confusion matrix of counts or joint`,
      "# probabilities, rows true class and columns predicted, in LABELS order.",
      "elicited_metric <- function(confusion) {",
      '  C <- .as_confusion(confusion, "the confusion matrix")',
      "  total <- sum(C)",
      '  if (!(total > 0)) stop("the confusion matrix sums to 0")',
      "  C <- C / total",
      ...body(m),
      "}",
      "",
    );
  }
  return out.join("\n");
}
