/**
 * The predictions file: held-out labels with a model's class probabilities, the input users
 * bring from any other tool. Binary form: columns `label` and `probability` (= P(positive));
 * multiclass form: `label` and one `p_<class>` column per class. Other columns are ignored
 * (and reported), so a file may carry ids or features along.
 *
 * @example
 * const text = formatPredictions({
 *   labels: Uint8Array.of(1, 0), probabilities: Float64Array.of(0.9, 0.2),
 *   positiveLabel: "spam", negativeLabel: "ham",
 * }); // "label,probability\nspam,0.9\nham,0.2\n" (up to 17 significant digits)
 * parsePredictions(text, { positive: "spam" }).labels; // Uint8Array [1, 0]
 */
import { isMissing, parseNumber } from "./cells.ts";
import { negativeLabelFor, sortClassNames } from "./classes.ts";
import { type CsvTable, formatCsvRow, parseCsv } from "./csv.ts";
import { DataError } from "./errors.ts";

export interface BinaryPredictions {
  /** 1 = positive. */
  labels: Uint8Array;
  /** P(positive) per row, in [0, 1]. */
  probabilities: Float64Array;
  positiveLabel: string;
  negativeLabel: string;
}

export interface MulticlassPredictions {
  /** Index into `classNames` per row. */
  labels: Int32Array;
  /** One Float64Array of class probabilities (summing to 1) per row. */
  probabilities: Float64Array[];
  classNames: string[];
}

/**
 * A binary predictions file whose labels are class names while no positive class was named.
 * Each front end says how to name one (the CLI's --positive), from `label` and `labels`.
 */
export class UnnamedPositiveError extends DataError {
  /** The first label that is not 0 or 1. */
  readonly label: string;
  /** The file's distinct labels, in `sortClassNames` order. */
  readonly labels: readonly string[];

  constructor(message: string, line: number, label: string, labels: readonly string[]) {
    super(message, { line });
    this.name = "UnnamedPositiveError";
    this.label = label;
    this.labels = labels;
  }
}

/** Rows of a multiclass file that sum to 1 within this are taken as they are. */
const SUM_TOLERANCE = 1e-6;

/**
 * Rows that miss 1 by more than `SUM_TOLERANCE` but at most this (probabilities written with
 * a few decimals: `0.0667,0.8667,0.0667` sums to 1.0001) are divided by their sum, and counted;
 * rows farther off are an error.
 */
const RENORMALISE_TOLERANCE = 1e-3;

/**
 * The mean of a binary probability column on the positive rows and on the others. A column of
 * P(positive) from any useful model is higher on the positive rows; lower there, it is most
 * likely P(the other class), a file the readers cannot tell apart from one for the right class.
 * @example probabilityMeans([1, 0, 1], [0.2, 0.9, 0.4]) // { positive: 0.3, others: 0.9 }
 */
export function probabilityMeans(
  labels: ArrayLike<number>,
  probabilities: ArrayLike<number>,
): { positive: number; others: number } {
  let onPositive = 0;
  let positives = 0;
  let onOthers = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] === 1) {
      onPositive += probabilities[i]!;
      positives++;
    } else onOthers += probabilities[i]!;
  }
  return { positive: onPositive / positives, others: onOthers / (labels.length - positives) };
}

/**
 * Read a binary predictions file. Without `positive`, labels must be 0 and 1 (1 positive);
 * with it, labels are class names: `positive` is the positive class, all others negative.
 * Header names are trimmed, as are labels. Throws a `DataError` naming the line for a missing
 * label or a probability that is not a number in [0, 1], and for missing columns, fewer than
 * two rows, or a single class.
 *
 * @example
 * parsePredictions("label,probability,id\n1,0.8,a\n0,0.3,b\n");
 * // { labels: [1, 0], probabilities: [0.8, 0.3], positiveLabel: "1", negativeLabel: "0",
 * //   ignoredColumns: ["id"] }
 */
export function parsePredictions(
  text: string,
  options: { positive?: string } = {},
): BinaryPredictions & { ignoredColumns: string[] } {
  const csv = parseCsv(text);
  const header = csv.header.map((h) => h.trim());
  const labelAt = requireColumn(header, "label", ["label", "probability"]);
  const probabilityAt = requireColumn(header, "probability", ["label", "probability"]);
  requireRows(csv);
  const positive = options.positive?.trim();

  const n = csv.rows.length;
  const labels = new Uint8Array(n);
  const probabilities = new Float64Array(n);
  const seen = new Set<string>();
  csv.rows.forEach((row, i) => {
    const line = csv.lines[i]!;
    const label = readLabel(row[labelAt]!, line);
    if (positive === undefined) {
      const v = parseNumber(label);
      if (v !== 0 && v !== 1) {
        // Every label, so the error can list the classes to choose from.
        const cells = csv.rows.map((r) => r[labelAt]!).filter((c) => !isMissing(c));
        throw new UnnamedPositiveError(
          `line ${line}: label "${label}" is not 0 or 1 (name the positive class to use class names)`,
          line,
          label,
          sortClassNames(new Set(cells.map((c) => c.trim()))),
        );
      }
      labels[i] = v;
      seen.add(String(v));
    } else {
      labels[i] = label === positive ? 1 : 0;
      seen.add(label);
    }
    probabilities[i] = readProbability(row[probabilityAt]!, line, "probability");
  });

  const classes = sortClassNames(seen);
  if (positive !== undefined && !seen.has(positive)) {
    throw new DataError(
      `positive class "${positive}" does not occur in the labels; they are: ${classes.join(", ")}`,
    );
  }
  if (classes.length < 2) {
    throw new DataError(`every label is ${classes[0]}; predictions need both classes`);
  }
  const positiveLabel = positive ?? "1";
  return {
    labels,
    probabilities,
    positiveLabel,
    negativeLabel:
      positive === undefined
        ? "0"
        : negativeLabelFor(
            positiveLabel,
            classes.filter((c) => c !== positiveLabel),
          ),
    ignoredColumns: header.filter((_, j) => j !== labelAt && j !== probabilityAt),
  };
}

/**
 * Write a binary predictions file (`label,probability`, LF line endings) with class names as
 * labels and probabilities to 17 significant digits (trailing zeros dropped), so
 * `parsePredictions(text, { positive: positiveLabel })` reads back exactly the same numbers.
 *
 * @example
 * formatPredictions({ labels: [1], probabilities: [0.1], positiveLabel: "1", negativeLabel: "0" });
 * // "label,probability\n1,0.10000000000000001\n"
 */
export function formatPredictions(predictions: {
  labels: ArrayLike<number>;
  probabilities: ArrayLike<number>;
  positiveLabel: string;
  negativeLabel: string;
}): string {
  const { labels, probabilities, positiveLabel, negativeLabel } = predictions;
  if (labels.length !== probabilities.length) {
    throw new RangeError(`${labels.length} labels but ${probabilities.length} probabilities`);
  }
  if (positiveLabel === negativeLabel) {
    throw new RangeError(`positive and negative labels are both "${positiveLabel}"`);
  }
  const lines = ["label,probability"];
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] === 1 ? positiveLabel : negativeLabel;
    lines.push(formatCsvRow([label, formatProbability(probabilities[i]!)]));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Read a multiclass predictions file: a `label` column and one `p_<class>` column per class
 * (at least two), whose order defines the class indices. Each label must name one of those
 * classes, each probability must be a number in [0, 1], and each row must sum to 1 within
 * 1e-3; violations are `DataError`s naming the line. A row off by more than 1e-6 (rounded
 * probabilities) is divided by its sum; `renormalised` counts those rows, for the caller to
 * report. At least two rows and two distinct labels are required. With `group`, that column
 * names each row's group (a fairness study's predictions): every row needs one, and there must
 * be at least two groups (`groups` holds each row's index into `groupNames`, sorted as class
 * names are).
 *
 * @example
 * parseMulticlassPredictions("label,p_a,p_b,p_c\na,0.7,0.2,0.1\nc,0.1,0.1,0.8\n").labels;
 * // Int32Array [0, 2]
 */
export function parseMulticlassPredictions(
  text: string,
  o: { readonly group?: string } = {},
): MulticlassPredictions & {
  ignoredColumns: string[];
  /** Rows whose sum missed 1 by more than 1e-6 (at most 1e-3) and were divided by it. */
  renormalised: number;
  groups?: Int32Array;
  groupNames?: string[];
} {
  const csv = parseCsv(text);
  const header = csv.header.map((h) => h.trim());
  const expected = ["label", ...(o.group !== undefined ? [o.group] : []), "p_<class>", "..."];
  const labelAt = requireColumn(header, "label", expected);
  if (o.group?.startsWith("p_")) {
    throw new DataError(`the group column "${o.group}" must not start with p_ (a class column)`);
  }
  const groupAt = o.group === undefined ? -1 : requireColumn(header, o.group, expected);
  if (groupAt === labelAt) throw new DataError(`the group column cannot be the label column`);
  const classColumns = header.flatMap((h, j) => (h.startsWith("p_") ? [j] : []));
  if (classColumns.length < 2) {
    throw new DataError(
      `multiclass predictions need a column p_<class> for each of at least two classes; found: ${header.join(", ")}`,
    );
  }
  const classNames = classColumns.map((j) => header[j]!.slice(2));
  const twice = classNames.find((name, c) => classNames.indexOf(name) !== c);
  if (twice !== undefined) throw new DataError(`column "p_${twice}" appears twice`);
  const index = new Map(classNames.map((name, c) => [name, c]));
  requireRows(csv);

  const k = classNames.length;
  const labels = new Int32Array(csv.rows.length);
  const seen = new Set<number>();
  let renormalised = 0;
  const probabilities = csv.rows.map((row, i) => {
    const line = csv.lines[i]!;
    const label = readLabel(row[labelAt]!, line);
    const c = index.get(label);
    if (c === undefined) {
      throw new DataError(
        `line ${line}: label "${label}" has no probability column (classes: ${classNames.join(", ")})`,
        { line },
      );
    }
    labels[i] = c;
    seen.add(c);
    const p = new Float64Array(k);
    let sum = 0;
    classColumns.forEach((j, c) => {
      p[c] = readProbability(row[j]!, line, header[j]!);
      sum += p[c]!;
    });
    const off = Math.abs(sum - 1);
    if (!(off <= RENORMALISE_TOLERANCE)) {
      throw new DataError(
        `line ${line}: probabilities sum to ${sum}, not 1: each row must sum to 1 within ${RENORMALISE_TOLERANCE} ` +
          "(rows within it are renormalised); if the probabilities were rounded, write them with more digits",
        { line },
      );
    }
    if (off > SUM_TOLERANCE) {
      renormalised++;
      for (let c = 0; c < k; c++) p[c]! /= sum;
    }
    return p;
  });
  if (seen.size < 2) {
    throw new DataError(`every label is ${classNames[labels[0]!]}; predictions need two classes`);
  }
  const grouping = groupAt < 0 ? {} : readGroups(csv, groupAt, o.group!);
  return {
    labels,
    probabilities,
    classNames,
    ignoredColumns: header.filter(
      (_, j) => j !== labelAt && j !== groupAt && !classColumns.includes(j),
    ),
    renormalised,
    ...grouping,
  };
}

/** Each row's group (a missing one is a `DataError` naming its line); two groups at least. */
function readGroups(
  csv: CsvTable & { lines: number[] },
  at: number,
  column: string,
): { groups: Int32Array; groupNames: string[] } {
  const values = csv.rows.map((row, i) => {
    const cell = row[at]!;
    if (isMissing(cell)) {
      const line = csv.lines[i]!;
      throw new DataError(`line ${line}: ${column} (the group) is missing`, { line });
    }
    return cell.trim();
  });
  const groupNames = sortClassNames([...new Set(values)]);
  if (groupNames.length < 2) {
    throw new DataError(
      `group column "${column}" has a single value (${groupNames[0]}); fairness needs at least two groups`,
    );
  }
  const index = new Map(groupNames.map((g, j) => [g, j]));
  return { groups: Int32Array.from(values, (v) => index.get(v)!), groupNames };
}

/**
 * Write a multiclass predictions file (`label,p_<class1>,...`), probabilities to 17
 * significant digits so that `parseMulticlassPredictions` reads back the same numbers.
 *
 * @example
 * formatMulticlassPredictions({
 *   labels: [1], probabilities: [Float64Array.of(0.25, 0.75)], classNames: ["a", "b"],
 * }); // "label,p_a,p_b\nb,0.25,0.75\n"
 */
export function formatMulticlassPredictions(predictions: {
  labels: ArrayLike<number>;
  probabilities: readonly ArrayLike<number>[];
  classNames: readonly string[];
}): string {
  const { labels, probabilities, classNames } = predictions;
  const k = classNames.length;
  if (labels.length !== probabilities.length) {
    throw new RangeError(`${labels.length} labels but ${probabilities.length} probability rows`);
  }
  if (new Set(classNames).size !== k) throw new RangeError("class names must be distinct");
  const lines = [formatCsvRow(["label", ...classNames.map((c) => `p_${c}`)])];
  for (let i = 0; i < labels.length; i++) {
    const label = classNames[labels[i]!];
    if (label === undefined) throw new RangeError(`label ${labels[i]} of row ${i} is not a class`);
    const p = probabilities[i]!;
    if (p.length !== k) throw new RangeError(`row ${i} has ${p.length} probabilities, not ${k}`);
    lines.push(formatCsvRow([label, ...Array.from(p, formatProbability)]));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * 17 significant digits always identify a double exactly; trailing zeros add nothing.
 * Throws a RangeError outside [0, 1].
 */
function formatProbability(p: number): string {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`probability ${p} is not in [0, 1]`);
  const [mantissa, exponent] = p.toPrecision(17).split("e") as [string, string | undefined];
  const trimmed = mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa;
  return exponent === undefined ? trimmed : `${trimmed}e${exponent}`;
}

function requireColumn(header: readonly string[], name: string, expected: string[]): number {
  const j = header.indexOf(name);
  if (j < 0) {
    throw new DataError(
      `predictions file needs the columns ${expected.join(", ")}; found: ${header.join(", ")}`,
    );
  }
  if (header.indexOf(name, j + 1) >= 0) throw new DataError(`column "${name}" appears twice`);
  return j;
}

function requireRows(csv: CsvTable): void {
  if (csv.rows.length < 2) {
    throw new DataError(`a predictions file needs at least 2 rows, found ${csv.rows.length}`);
  }
}

function readLabel(cell: string, line: number): string {
  if (isMissing(cell)) throw new DataError(`line ${line}: label is missing`, { line });
  return cell.trim();
}

function readProbability(cell: string, line: number, column: string): number {
  const p = parseNumber(cell);
  if (p === null) {
    throw new DataError(`line ${line}: ${column} "${cell.trim()}" is not a number`, { line });
  }
  if (p < 0 || p > 1) {
    throw new DataError(`line ${line}: ${column} ${p} is outside [0, 1]`, { line });
  }
  return p;
}
