import { readFileSync } from "node:fs";
import { formatCsvRow, parseCsv } from "../../data/csv.ts";
import { DataError } from "../../data/errors.ts";
import {
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../../population/binary.ts";
import {
  type PreparedMulticlass,
  prepareMulticlassFromCsv,
  prepareMulticlassFromPredictions,
} from "../../population/multiclass.ts";
import type { StudyConfig } from "./config.ts";
import { type FairStudyData, fairStudyData } from "./fair.ts";
import { bundledDataPath } from "./template.ts";

/** Build a study's pool of candidate classifiers (throws `DataError` on bad data). */
export function prepareStudyData(config: StudyConfig): PreparedBinary {
  const s = config.source;
  if (s.kind !== "dataset" && s.kind !== "predictions")
    throw new Error("a multiclass or fair study has no binary pool");
  if (s.kind === "dataset") {
    const text = readFileSync(bundledDataPath(s.file), "utf8");
    return prepareBinaryFromCsv(
      text,
      {
        target: s.target,
        positive: s.positive,
        dropColumns: s.dropColumns,
        pool: config.pool,
        splitSeed: s.splitSeed,
      },
      s.file,
    );
  }
  return prepareBinaryFromPredictions(s.csv, { positive: s.positive, pool: config.pool });
}

/** A multiclass study's pool: the held-out softmax probabilities of its bundled dataset. */
export function prepareMulticlassStudyData(config: StudyConfig): PreparedMulticlass {
  const s = config.source;
  if (s.kind === "multiclass-predictions") return prepareMulticlassFromPredictions(s.csv);
  if (s.kind !== "multiclass-dataset") throw new Error("not a multiclass study");
  const text = datasetText(s);
  const kept = s.classes === undefined ? text : onlyClasses(text, s.target, s.classes);
  return prepareMulticlassFromCsv(kept, {
    target: s.target,
    splitSeed: s.splitSeed,
    ...(s.dropColumns ? { dropColumns: s.dropColumns } : {}),
  });
}

/**
 * The CSV text of a multiclass or fairness study's data: the upload stored in the
 * configuration, or the bundled file.
 * @example datasetText({ file: "iris.csv" }) // iris.csv's text
 */
export function datasetText(s: { readonly file: string; readonly csv?: string }): string {
  return s.csv ?? readFileSync(bundledDataPath(s.file), "utf8");
}

/**
 * The CSV with only the rows whose `target` is one of `classes` (header kept); a class that
 * does not occur is a `DataError`.
 * @example onlyClasses("x,y\n1,a\n2,b\n3,c\n", "y", ["a", "c"]) // "x,y\n1,a\n3,c\n"
 */
export function onlyClasses(text: string, target: string, classes: readonly string[]): string {
  const table = parseCsv(text);
  const t = table.header.indexOf(target);
  if (t < 0) throw new DataError(`no column "${target}"`);
  const want = new Set(classes);
  const rows = table.rows.filter((r) => want.has(r[t] ?? ""));
  for (const c of want) {
    if (!rows.some((r) => r[t] === c))
      throw new DataError(`class "${c}" does not occur in "${target}"`);
  }
  return `${[table.header, ...rows].map(formatCsvRow).join("\n")}\n`;
}

const multiclassCache = new Map<string, PreparedMulticlass>();

/** The prepared data of a multiclass study, computed once per configuration hash. */
export function multiclassStudyData(configHash: string, config: StudyConfig): PreparedMulticlass {
  let p = multiclassCache.get(configHash);
  if (!p) {
    p = prepareMulticlassStudyData(config);
    if (multiclassCache.size > 64) multiclassCache.clear();
    multiclassCache.set(configHash, p);
  }
  return p;
}

const cache = new Map<string, PreparedBinary>();

/**
 * The prepared data of a study, computed once per configuration hash (configurations are
 * immutable, so the cache never goes stale).
 */
export function studyData(configHash: string, config: StudyConfig): PreparedBinary {
  let p = cache.get(configHash);
  if (!p) {
    p = prepareStudyData(config);
    if (cache.size > 64) cache.clear();
    cache.set(configHash, p);
  }
  return p;
}

/** A study's prepared data, binary, multiclass or fair by the study's kind. */
export type StudyData = PreparedBinary | PreparedMulticlass | FairStudyData;

/** The prepared data of any study (cached by configuration hash). */
export function anyStudyData(configHash: string, config: StudyConfig): StudyData {
  if (config.kind === "fair") return fairStudyData(configHash, config);
  return config.kind === "multiclass"
    ? multiclassStudyData(configHash, config)
    : studyData(configHash, config);
}
