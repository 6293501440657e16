/**
 * The data layer: CSV parsing, classification datasets, splits, standardisation,
 * class-probability models and the predictions file format. Pure: no file or network I/O.
 *
 * @example
 * import { buildBinaryDataset, fitLogistic, parseCsv } from "./data/index.ts";
 */
export { isMissing, parseNumber } from "./cells.ts";
export { sortClassNames } from "./classes.ts";
export { type CsvTable, formatCsvRow, parseCsv } from "./csv.ts";
export { DataError } from "./errors.ts";
export { type EncodedFeatures, encodeFeatures, type FeatureColumn } from "./features.ts";
export { fitLogistic, type LogisticModel, type LogisticOptions } from "./logistic.ts";
export {
  type BinaryPredictions,
  formatMulticlassPredictions,
  formatPredictions,
  type MulticlassPredictions,
  parseMulticlassPredictions,
  parsePredictions,
} from "./predictions.ts";
export { type DatasetReport, formatDatasetReport, type PositiveRule } from "./report.ts";
export { sigmoid, softplus } from "./sigmoid.ts";
export { fitSoftmax, type SoftmaxModel, type SoftmaxOptions } from "./softmax.ts";
export { stratifiedSplit, take } from "./split.ts";
export { fitStandardizer, type Standardizer } from "./standardize.ts";
export {
  type BinaryDataset,
  type BinaryDatasetOptions,
  buildBinaryDataset,
  buildMulticlassDataset,
  type MulticlassDataset,
  type MulticlassDatasetOptions,
} from "./table.ts";
