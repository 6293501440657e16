import { parseCsv } from "../../data/csv.ts";
import { DataError } from "../../data/errors.ts";
import {
  parseMulticlassPredictions,
  parsePredictions,
  probabilityMeans,
} from "../../data/predictions.ts";
import { renormalisedNote } from "../../data/report.ts";
import { metricClassCount, type PortableMetric } from "../../metrics/portable/metric.ts";
import type { ModelPredictions } from "./score.ts";

/** Options of `readModelPredictions`. */
export interface ReadPredictionsOptions {
  /** Binary: the positive class's label (default: the metric's second class, or labels 0/1). */
  readonly positive?: string;
  /** Fair metrics: the group column. */
  readonly groups?: string;
}

/** Notes on how a file was matched to the metric (printed, never silent). */
export interface ReadPredictions {
  readonly model: ModelPredictions;
  readonly notes: string[];
  /** The file's class names in the metric's order (absent: labels 0/1). */
  readonly classes?: string[];
}

const list = (xs: readonly string[]) => xs.join(", ");

/**
 * One model's predictions file read into the metric's class (and group) order, with the
 * project's readers (`parsePredictions`: `label,probability`; `parseMulticlassPredictions`:
 * `label,p_<class>...`, with a group column for fair metrics). Classes are matched by name
 * when the metric names them; a file whose classes (or groups) are not the metric's is a
 * `DataError` saying which. Every `DataError` starts with the file's `name`. Multiclass rows
 * whose probabilities the reader renormalised (rounded to a few decimals) are counted in a note.
 * @example readModelPredictions("a.csv", text, { family: "binary-linear", tp: 0.7, tn: 0.3 }).model.labels
 */
export function readModelPredictions(
  name: string,
  text: string,
  metric: PortableMetric,
  o: ReadPredictionsOptions = {},
): ReadPredictions {
  const k = metricClassCount(metric);
  const notes: string[] = [];
  const header = inFile(name, () => parseCsv(text)).header.map((h) => h.trim());
  const binaryForm = header.includes("probability");
  if (metric.family === "fair" && o.groups === undefined)
    throw new DataError(
      `${name}: a fair metric needs each case's group: name the group column with --groups COLUMN`,
    );
  if (binaryForm) {
    if (k !== 2)
      throw new DataError(
        `${name}: a label,probability file has 2 classes; the metric is about ${k}${metric.classes ? ` (${list(metric.classes)})` : ""}: give p_<class> columns`,
      );
    if (metric.family === "fair")
      throw new DataError(
        `${name}: a fair metric's predictions need p_<class> columns and a group column`,
      );
    const positive = o.positive ?? metric.classes?.[1];
    let p: ReturnType<typeof parsePredictions>;
    try {
      // --positive given is always used (labels 0/1 included: `--positive 0` is not ignored).
      p =
        o.positive !== undefined
          ? inFile(name, () => parsePredictions(text, { positive }))
          : parsePredictions(text);
    } catch (e) {
      if (o.positive !== undefined) throw e;
      if (!(e instanceof DataError) || !/is not 0 or 1/.test(e.message)) throw namedAfter(name, e);
      if (positive === undefined)
        throw new DataError(
          `${name}: its labels are class names and the metric does not name its classes: give the positive class with --positive`,
        );
      p = inFile(name, () => parsePredictions(text, { positive }));
    }
    const named = p.positiveLabel !== "1" || p.negativeLabel !== "0";
    if (metric.classes && named) {
      const [neg, pos] = metric.classes;
      if (p.positiveLabel !== pos || p.negativeLabel !== neg)
        throw new DataError(
          `${name}: its classes (${p.negativeLabel}, positive ${p.positiveLabel}) do not match the metric's (${neg}, positive ${pos})`,
        );
    }
    if (metric.classes && !named)
      notes.push(`${name}: labels 0/1 read as ${metric.classes[0]} / ${metric.classes[1]}`);
    // Scored as given (a model can be that bad), but never silently: the usual cause is a
    // column of P(the other class).
    const means = probabilityMeans(p.labels, p.probabilities);
    if (means.positive < means.others) {
      const [neg, pos] = named
        ? [p.negativeLabel, p.positiveLabel]
        : (metric.classes ?? ["0", "1"]);
      notes.push(
        `${name}: its probability is lower on ${pos} rows (mean ${means.positive.toFixed(2)}) than on ${neg} rows (${means.others.toFixed(2)}); scored as P(${pos}); if the column is P(${neg}), write it as P(${pos})${named ? ` or give --positive ${neg}` : ""}`,
      );
    }
    return {
      model: {
        name,
        labels: Int32Array.from(p.labels),
        probabilities: Array.from(p.probabilities, (q) => Float64Array.of(1 - q, q)),
      },
      notes,
      ...(named ? { classes: [p.negativeLabel, p.positiveLabel] } : {}),
    };
  }
  const p = inFile(name, () =>
    parseMulticlassPredictions(text, o.groups !== undefined ? { group: o.groups } : {}),
  );
  if (p.renormalised > 0) notes.push(`${name}: ${renormalisedNote(p.renormalised)}`);
  if (p.classNames.length !== k)
    throw new DataError(
      `${name}: its classes (${list(p.classNames)}) are ${p.classNames.length}; the metric is about ${k}${metric.classes ? ` (${list(metric.classes)})` : ""}`,
    );
  let order = p.classNames.map((_, i) => i);
  if (metric.classes) {
    const at = new Map(p.classNames.map((c, i) => [c, i]));
    const missing = metric.classes.filter((c) => !at.has(c));
    if (missing.length > 0)
      throw new DataError(
        `${name}: its classes (${list(p.classNames)}) do not match the metric's (${list(metric.classes)}): no column p_${missing[0]}`,
      );
    // order[i]: the file's column of the metric's class i.
    order = metric.classes.map((c) => at.get(c)!);
  } else
    notes.push(
      `${name}: the metric's classes are unnamed: taken in the file's column order (${list(p.classNames)})`,
    );
  const back = new Int32Array(k);
  order.forEach((col, i) => {
    back[col] = i;
  });
  const model: ModelPredictions = {
    name,
    labels: Int32Array.from(p.labels, (c) => back[c]!),
    probabilities: p.probabilities.map((row) => Float64Array.from(order, (col) => row[col]!)),
    ...(p.groups ? { groups: groupsInOrder(name, p.groups, p.groupNames!, metric) } : {}),
  };
  if (metric.family === "fair" && !metric.groups)
    notes.push(
      `${name}: the metric's groups are unnamed: taken in sorted order (${list(p.groupNames!)})`,
    );
  return { model, notes, classes: order.map((col) => p.classNames[col]!) };
}

/**
 * A `DataError` of the readers named after the file, as this module's own errors are (several
 * files are read at once); any other error as it is.
 */
function namedAfter(name: string, e: unknown): unknown {
  if (!(e instanceof DataError) || e.message.startsWith(`${name}: `)) return e;
  return new DataError(`${name}: ${e.message}`, { line: e.line });
}

/** `read()`, its errors named after the file (see `namedAfter`). */
function inFile<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw namedAfter(name, e);
  }
}

/** Each case's group as an index into the metric's groups (by name when it names them). */
function groupsInOrder(
  name: string,
  groups: Int32Array,
  names: readonly string[],
  metric: PortableMetric,
): Int32Array {
  if (metric.family !== "fair" || !metric.groups) return groups;
  const at = new Map(metric.groups.map((g, i) => [g, i]));
  const unknown = names.filter((g) => !at.has(g));
  if (unknown.length > 0)
    throw new DataError(
      `${name}: group "${unknown[0]}" is not one of the metric's groups (${list(metric.groups)})`,
    );
  return Int32Array.from(groups, (g) => at.get(names[g]!)!);
}
