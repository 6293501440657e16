/**
 * `metric-elicitation/data`: CSV parsing, classification datasets, splits, standardisation,
 * class-probability models, the predictions file format, and the pools of held-out
 * predictions an elicitation draws its questions from (`prepareBinaryFromCsv`,
 * `prepareMulticlassFromCsv`). Pure: it parses text you read yourself (no file or network
 * I/O), safe in a browser. The bundled CSVs are at `metric-elicitation/datasets/<file>.csv`.
 *
 * @module metric-elicitation/data
 */
export * from "../data/index.ts";
export * from "../data/models/index.ts";
export {
  type BinaryDataOptions,
  type PoolKind,
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../population/binary.ts";
export {
  type PreparedMulticlass,
  prepareMulticlassFromCsv,
  syntheticMulticlassPool,
} from "../population/multiclass.ts";
