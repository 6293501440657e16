/**
 * Turning raw CSV feature columns into a numeric design matrix, the same way for binary and
 * multiclass datasets.
 *
 * @example
 * const enc = encodeFeatures([
 *   { name: "age", values: ["30", "", "50"] },
 *   { name: "color", values: ["red", "blue", "red"] },
 * ]);
 * enc.featureNames; // ["age", "color=blue", "color=red"]
 * enc.features[1];  // Float64Array [40, 1, 0]  (age imputed with the mean 40)
 */
import { isMissing, isNonFiniteNumber, parseNumber } from "./cells.ts";
import { compareText } from "./classes.ts";
import { DataError } from "./errors.ts";

/** One raw column: its header name and one cell per example. */
export interface FeatureColumn {
  name: string;
  values: readonly string[];
  /** 1-based input line of each cell, for error messages (default: "row N", N 1-based). */
  lines?: readonly number[];
}

/**
 * A column is read as numeric, and any other value in it is an error, when at least this
 * share of its non-missing cells are numbers (finite or not): a typo in a numeric column must
 * not turn it into one indicator per distinct value.
 */
const NUMERIC_SHARE = 0.9;

/** How many of a mixed column's offending cells an error message quotes. */
const QUOTED_CELLS = 3;

/** The design matrix and what was done to get it. */
export interface EncodedFeatures {
  /** One row per example. */
  features: Float64Array[];
  featureNames: string[];
  /** Numeric columns whose missing cells were replaced by the column mean, and how many. */
  imputed: { column: string; count: number }[];
  /** Columns left out because they carry no information (one value, or all missing). */
  droppedConstant: string[];
  /** Categorical columns and their number of distinct (non-missing) values. */
  oneHot: { column: string; levels: number }[];
}

/**
 * Encode feature columns (all of equal length) as numbers.
 *
 * - Cells are trimmed; missing cells are those `isMissing` accepts.
 * - A column is numeric when every non-missing cell is a finite decimal number; missing
 *   cells are imputed with the mean of the others.
 * - A column that is numeric but for a few cells (at least 90% of its non-missing cells are
 *   numbers, counting non-finite ones such as `1e999` or `Infinity`) is a `DataError` naming
 *   the column and the first few offending cells with their lines: a typo or an overflow, to
 *   be fixed or left empty (then imputed), never a reason to one-hot encode the column.
 * - Any other column is categorical and one-hot encoded: one 0/1 column `name=value` per
 *   distinct value, values in code-unit order. A missing cell sets no indicator (all zeros),
 *   so "missing" acts as an extra, implicit level.
 * - A column with a single distinct value (missing counting as a value for categorical
 *   columns, not for numeric ones, which are imputed), or with every cell missing, is
 *   constant after encoding and dropped.
 *
 * Throws a `DataError` when no usable column remains.
 *
 * @example
 * encodeFeatures([{ name: "x", values: ["1", "1"] }]); // throws: x is constant
 */
export function encodeFeatures(columns: readonly FeatureColumn[]): EncodedFeatures {
  if (columns.length === 0) {
    throw new DataError("no feature columns: the table has only the target and dropped columns");
  }
  const rowCount = columns[0]!.values.length;
  const names: string[] = [];
  const encoded: Float64Array[] = []; // column-major while building
  const imputed: EncodedFeatures["imputed"] = [];
  const droppedConstant: string[] = [];
  const oneHot: EncodedFeatures["oneHot"] = [];

  for (const column of columns) {
    if (column.values.length !== rowCount) {
      throw new RangeError(
        `column ${column.name} has ${column.values.length} cells, not ${rowCount}`,
      );
    }
    const cells = column.values.map((v) => (isMissing(v) ? null : v.trim()));
    const numbers = cells.map((c) => (c === null ? null : parseNumber(c)));
    const isNumeric = cells.every((c, i) => c === null || numbers[i] !== null);
    if (!isNumeric) refuseMostlyNumeric(column, cells, numbers);

    if (isNumeric) {
      const numeric = encodeNumeric(numbers);
      if (numeric === null) {
        droppedConstant.push(column.name);
        continue;
      }
      names.push(column.name);
      encoded.push(numeric.values);
      if (numeric.imputed > 0) imputed.push({ column: column.name, count: numeric.imputed });
      continue;
    }

    const levels = [...new Set(cells.filter((c) => c !== null))].sort(compareText);
    const hasMissing = cells.includes(null);
    if (levels.length === 1 && !hasMissing) {
      droppedConstant.push(column.name);
      continue;
    }
    oneHot.push({ column: column.name, levels: levels.length });
    const index = new Map(levels.map((level, j) => [level, j]));
    const indicators = levels.map(() => new Float64Array(rowCount));
    cells.forEach((c, i) => {
      if (c !== null) indicators[index.get(c)!]![i] = 1;
    });
    levels.forEach((level, j) => {
      names.push(`${column.name}=${level}`);
      encoded.push(indicators[j]!);
    });
  }

  if (names.length === 0) {
    throw new DataError(
      `no usable feature columns: every feature column is constant or entirely missing (${droppedConstant.join(", ")})`,
    );
  }
  const features: Float64Array[] = [];
  for (let i = 0; i < rowCount; i++) {
    const row = new Float64Array(names.length);
    for (let j = 0; j < names.length; j++) row[j] = encoded[j]![i]!;
    features.push(row);
  }
  return { features, featureNames: names, imputed, droppedConstant, oneHot };
}

/**
 * Throws a `DataError` when a column that is not numeric throughout is numeric but for a few
 * cells (see `NUMERIC_SHARE`), quoting the first few of them with their lines.
 */
function refuseMostlyNumeric(
  column: FeatureColumn,
  cells: readonly (string | null)[],
  numbers: readonly (number | null)[],
): void {
  const offending: number[] = [];
  let present = 0;
  let numberLike = 0;
  cells.forEach((c, i) => {
    if (c === null) return;
    present++;
    if (numbers[i] !== null) numberLike++;
    else {
      offending.push(i);
      if (isNonFiniteNumber(c)) numberLike++;
    }
  });
  if (offending.length === 0 || numberLike < NUMERIC_SHARE * present) return;
  const where = (i: number) =>
    column.lines?.[i] !== undefined ? `line ${column.lines[i]}` : `row ${i + 1}`;
  const quoted = offending.slice(0, QUOTED_CELLS).map((i) => {
    const c = cells[i]!;
    return `${where(i)} "${c}"${isNonFiniteNumber(c) ? " (not a finite number)" : ""}`;
  });
  const more = offending.length - quoted.length;
  const one = offending.length === 1;
  throw new DataError(
    `column "${column.name}" holds numbers except for ${offending.length} of its ${present} values: ` +
      `${quoted.join(", ")}${more > 0 ? ` and ${more} more` : ""}. ` +
      `Fix ${one ? "the value" : "the values"}, or leave ${one ? "the cell" : "the cells"} empty ` +
      "(an empty cell is imputed with the column mean, and reported)",
    { line: column.lines?.[offending[0]!] },
  );
}

/** Mean-imputed numeric column, or null when it is constant or entirely missing. */
function encodeNumeric(
  numbers: readonly (number | null)[],
): { values: Float64Array; imputed: number } | null {
  let sum = 0;
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const x of numbers) {
    if (x === null) continue;
    sum += x;
    count++;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (count === 0 || min === max) return null;
  const mean = sum / count;
  const values = Float64Array.from(numbers, (x) => (x === null ? mean : x));
  return { values, imputed: numbers.length - count };
}
