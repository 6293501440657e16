import { readFileSync } from "node:fs";
import {
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../../population/binary.ts";
import { type PreparedMulticlass, prepareMulticlassFromCsv } from "../../population/multiclass.ts";
import type { StudyConfig } from "./config.ts";
import { type FairStudyData, fairStudyData } from "./fair.ts";
import { bundledDataPath } from "./template.ts";

/** Build a study's pool of candidate classifiers (throws `DataError` on bad data). */
export function prepareStudyData(config: StudyConfig): PreparedBinary {
  const s = config.source;
  if (s.kind === "multiclass-dataset" || s.kind === "fair-dataset")
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
  if (s.kind !== "multiclass-dataset") throw new Error("not a multiclass study");
  const text = readFileSync(bundledDataPath(s.file), "utf8");
  return prepareMulticlassFromCsv(text, { target: s.target, splitSeed: s.splitSeed });
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
