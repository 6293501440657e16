/**
 * What building a dataset did to the user's table, for display and for logs.
 *
 * @example
 * formatDatasetReport(dataset.report).forEach((line) => console.error(line));
 */

/** How the positive class of a binary dataset was chosen. */
export type PositiveRule =
  /** Named by the caller. */
  | "given"
  /** The less frequent of the two classes (the usual reading: the rarer event is "positive"). */
  | "less frequent"
  /** Both classes equally frequent: the later one in `sortClassNames` order ("1" over "0"). */
  | "tie: last in sort order";

/** Summary of the cleaning and encoding applied by `buildBinaryDataset` / `buildMulticlassDataset`. */
export interface DatasetReport {
  /** Examples in the dataset (after dropping rows whose target is missing). */
  rows: number;
  droppedRowsMissingTarget: number;
  /** Numeric columns whose missing cells were replaced by the column mean, and how many. */
  imputed: { column: string; count: number }[];
  /** Columns (or `name` of a whole categorical column) dropped for being constant. */
  droppedConstant: string[];
  /** Categorical columns that were one-hot encoded, with their number of levels. */
  oneHot: { column: string; levels: number }[];
  /** Examples per original target value, in class order. */
  classCounts: Record<string, number>;
  /** Binary datasets only: which class is positive and why. */
  positive?: { label: string; rule: PositiveRule };
  /**
   * Predictions files only, when there were any: rows whose probabilities summed to 1 within
   * 1e-3 but not 1e-6 (written rounded) and were divided by their sum.
   */
  renormalisedRows?: number;
}

/**
 * Human-readable lines describing a report (no trailing newlines).
 *
 * @example
 * formatDatasetReport(report);
 * // ["569 rows", "classes: benign 357, malignant 212",
 * //  "positive class: malignant (less frequent)"]
 */
export function formatDatasetReport(report: DatasetReport): string[] {
  const lines: string[] = [];
  lines.push(
    report.droppedRowsMissingTarget > 0
      ? `${report.rows} rows (${report.droppedRowsMissingTarget} dropped: missing target)`
      : `${report.rows} rows`,
  );
  const classes = Object.entries(report.classCounts).map(([name, count]) => `${name} ${count}`);
  lines.push(`classes: ${classes.join(", ")}`);
  if (report.positive) {
    lines.push(`positive class: ${report.positive.label} (${report.positive.rule})`);
  }
  if (report.imputed.length > 0) {
    const parts = report.imputed.map(({ column, count }) => `${column} (${count})`);
    lines.push(`missing values imputed with the column mean: ${parts.join(", ")}`);
  }
  if (report.oneHot.length > 0) {
    const parts = report.oneHot.map(({ column, levels }) => `${column} (${levels} levels)`);
    lines.push(`categorical columns one-hot encoded: ${parts.join(", ")}`);
  }
  if (report.droppedConstant.length > 0) {
    lines.push(`constant columns dropped: ${report.droppedConstant.join(", ")}`);
  }
  if (report.renormalisedRows) {
    lines.push(renormalisedNote(report.renormalisedRows));
  }
  return lines;
}

/**
 * What `parseMulticlassPredictions` did to `rows` rows whose probabilities summed to 1 within
 * 1e-3 but not 1e-6, in words.
 *
 * @example
 * renormalisedNote(3); // "3 rows' probabilities summed to 1 only within 0.001 (rounded?): divided by their sum"
 */
export function renormalisedNote(rows: number): string {
  return `${rows} ${rows === 1 ? "row's" : "rows'"} probabilities summed to 1 only within 0.001 (rounded?): divided by their sum`;
}
