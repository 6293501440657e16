/**
 * Building classification datasets from a parsed CSV table: pick the target, drop rows
 * without a label, encode the features (see `encodeFeatures`) and report what happened.
 *
 * @example
 * const data = buildBinaryDataset(parseCsv(text), { target: "target", positive: "malignant" });
 * data.labels;        // Uint8Array, 1 = malignant
 * data.featureNames;  // ["mean_radius", ...]
 */
import { isMissing } from "./cells.ts";
import { negativeLabelFor, sortClassNames } from "./classes.ts";
import type { CsvTable } from "./csv.ts";
import { DataError } from "./errors.ts";
import { type EncodedFeatures, encodeFeatures } from "./features.ts";
import type { DatasetReport, PositiveRule } from "./report.ts";

export interface BinaryDatasetOptions {
  /** Name of the label column. */
  target: string;
  /** Target value that is the positive class; every other value is negative. */
  positive?: string;
  /** Columns to ignore (identifiers, leaks). */
  dropColumns?: readonly string[];
}

export interface BinaryDataset {
  /** One numeric row per example. */
  features: Float64Array[];
  featureNames: string[];
  /** 1 = positive, 0 = negative. */
  labels: Uint8Array;
  positiveLabel: string;
  /** The other target value, or `not <positive>` when several values are negative. */
  negativeLabel: string;
  report: DatasetReport;
}

export interface MulticlassDatasetOptions {
  target: string;
  dropColumns?: readonly string[];
}

export interface MulticlassDataset {
  features: Float64Array[];
  featureNames: string[];
  /** Index into `classNames` per example. */
  labels: Int32Array;
  /** Distinct target values in `sortClassNames` order (numeric when all are numbers). */
  classNames: string[];
  report: DatasetReport;
}

/**
 * A binary classification dataset. Target cells are trimmed; rows whose target is missing
 * are dropped and counted. With `positive`, that value is the positive class and all other
 * values are negative (at least two values must occur, `positive` among them). Without it,
 * the target must have exactly two values and the positive class is the less frequent one;
 * on a tie, the later in `sortClassNames` order ("1" over "0", "yes" over "no").
 * `report.positive` records which rule applied.
 *
 * @example
 * const csv = parseCsv("x,y\n1,no\n2,yes\n3,no\n");
 * buildBinaryDataset(csv, { target: "y" }).positiveLabel; // "yes" (less frequent)
 */
export function buildBinaryDataset(csv: CsvTable, options: BinaryDatasetOptions): BinaryDataset {
  const selected = selectRows(csv, options.target, options.dropColumns ?? []);
  const { targets } = selected;
  const counts = countValues(targets);
  const classes = sortClassNames(counts.keys());
  const given = options.positive?.trim();
  if (given !== undefined && !counts.has(given)) {
    throw new DataError(
      `positive class "${given}" does not occur in target "${options.target}"; its values are: ${listValues(classes)}`,
    );
  }
  if (classes.length < 2) {
    throw new DataError(
      `target "${options.target}" has a single class (${classes[0]}); a binary dataset needs two`,
    );
  }

  let positive: string;
  let rule: PositiveRule;
  if (given !== undefined) {
    positive = given;
    rule = "given";
  } else {
    if (classes.length !== 2) {
      throw new DataError(
        `target "${options.target}" has ${classes.length} distinct values (${listValues(classes)}); name the positive class to treat all others as negative, or build a multiclass dataset`,
      );
    }
    const [a, b] = classes as [string, string];
    const na = counts.get(a)!;
    const nb = counts.get(b)!;
    positive = na < nb ? a : b;
    rule = na === nb ? "tie: last in sort order" : "less frequent";
  }

  const labels = Uint8Array.from(targets, (t) => (t === positive ? 1 : 0));
  const encoded = encodeSelected(selected);
  return {
    features: encoded.features,
    featureNames: encoded.featureNames,
    labels,
    positiveLabel: positive,
    negativeLabel: negativeLabelFor(
      positive,
      classes.filter((c) => c !== positive),
    ),
    report: {
      ...reportOf(selected, encoded, classes, counts),
      positive: { label: positive, rule },
    },
  };
}

/**
 * A multiclass dataset: labels are indices into `classNames`, the distinct non-missing target
 * values in `sortClassNames` order. At least two classes must occur. Features are handled as
 * for `buildBinaryDataset`.
 *
 * @example
 * const csv = parseCsv("x,y\n1,10\n2,9\n3,10\n");
 * const data = buildMulticlassDataset(csv, { target: "y" });
 * data.classNames; // ["9", "10"]
 * data.labels;     // Int32Array [1, 0, 1]
 */
export function buildMulticlassDataset(
  csv: CsvTable,
  options: MulticlassDatasetOptions,
): MulticlassDataset {
  const selected = selectRows(csv, options.target, options.dropColumns ?? []);
  const counts = countValues(selected.targets);
  const classNames = sortClassNames(counts.keys());
  if (classNames.length < 2) {
    throw new DataError(
      `target "${options.target}" has a single class (${classNames[0]}); classification needs at least two`,
    );
  }
  const index = new Map(classNames.map((name, k) => [name, k]));
  const labels = Int32Array.from(selected.targets, (t) => index.get(t)!);
  const encoded = encodeSelected(selected);
  return {
    features: encoded.features,
    featureNames: encoded.featureNames,
    labels,
    classNames,
    report: reportOf(selected, encoded, classNames, counts),
  };
}

/** The rows that have a target, their trimmed target values, and the feature columns. */
interface SelectedRows {
  header: readonly string[];
  rows: readonly (readonly string[])[];
  /** 1-based input line of each kept row, when the table records them. */
  lines: number[] | undefined;
  targets: string[];
  featureColumns: number[];
  droppedRowsMissingTarget: number;
}

function selectRows(csv: CsvTable, target: string, dropColumns: readonly string[]): SelectedRows {
  const { header } = csv;
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new DataError(`duplicate column name "${name}" in the header`);
    seen.add(name);
  }
  const targetIndex = columnIndex(header, target);
  const dropped = new Set<number>();
  for (const name of dropColumns) {
    const j = columnIndex(header, name);
    if (j === targetIndex) throw new DataError(`cannot drop the target column "${target}"`);
    dropped.add(j);
  }
  const featureColumns = header
    .map((_, j) => j)
    .filter((j) => j !== targetIndex && !dropped.has(j));

  const rows: string[][] = [];
  const lines: number[] = [];
  const targets: string[] = [];
  csv.rows.forEach((row, r) => {
    const value = row[targetIndex]!;
    if (isMissing(value)) return;
    rows.push(row);
    if (csv.lines) lines.push(csv.lines[r]!);
    targets.push(value.trim());
  });
  if (rows.length === 0) {
    throw new DataError(`target "${target}" is missing in every row`);
  }
  return {
    header,
    rows,
    lines: csv.lines ? lines : undefined,
    targets,
    featureColumns,
    droppedRowsMissingTarget: csv.rows.length - rows.length,
  };
}

function columnIndex(header: readonly string[], name: string): number {
  const j = header.indexOf(name);
  if (j < 0) {
    throw new DataError(`unknown column "${name}"; columns are: ${header.join(", ")}`);
  }
  return j;
}

function encodeSelected(selected: SelectedRows): EncodedFeatures {
  return encodeFeatures(
    selected.featureColumns.map((j) => ({
      name: selected.header[j]!,
      values: selected.rows.map((row) => row[j]!),
      ...(selected.lines ? { lines: selected.lines } : {}),
    })),
  );
}

function countValues(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function reportOf(
  selected: SelectedRows,
  encoded: EncodedFeatures,
  classes: readonly string[],
  counts: ReadonlyMap<string, number>,
): DatasetReport {
  return {
    rows: selected.rows.length,
    droppedRowsMissingTarget: selected.droppedRowsMissingTarget,
    imputed: encoded.imputed,
    droppedConstant: encoded.droppedConstant,
    oneHot: encoded.oneHot,
    // fromEntries defines own properties, so even a class named "__proto__" is kept.
    classCounts: Object.fromEntries(classes.map((c) => [c, counts.get(c)!])),
  };
}

/**
 * Values for an error message, shortened when there are many.
 * @example listValues(["a", "b"]) // "a, b"
 */
export function listValues(values: readonly string[], max = 20): string {
  const shown = values.slice(0, max).join(", ");
  return values.length > max ? `${shown}, ... (${values.length} in all)` : shown;
}
