import { readFileSync } from "node:fs";
import {
  type PreparedBinary,
  prepareBinaryFromCsv,
  prepareBinaryFromPredictions,
} from "../../../population/binary.ts";
import type { StudyConfig } from "../../study/config.ts";
import { bundledDataPath } from "../../study/template.ts";

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
