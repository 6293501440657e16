import {
  type PreparedMulticlass,
  prepareMulticlassFromCsv,
  prepareMulticlassFromPredictions,
} from "../../../population/multiclass.ts";
import type { StudyConfig } from "../../study/config.ts";
import { datasetText, onlyClasses } from "../../study/population.ts";

/** A multiclass study's pool: the held-out softmax probabilities of its bundled dataset. */
export function prepareMulticlassStudyData(config: StudyConfig): PreparedMulticlass {
  const s = config.source;
  if (s.kind === "multiclass-predictions") return prepareMulticlassFromPredictions(s.csv);
  if (s.kind !== "multiclass-dataset") throw new Error("not a multiclass study");
  const text = datasetText(s);
  const kept = s.classes === undefined ? text : onlyClasses(text, s.target, s.classes);
  const p = prepareMulticlassFromCsv(kept, {
    target: s.target,
    splitSeed: s.splitSeed,
    ...(s.dropColumns ? { dropColumns: s.dropColumns } : {}),
  });
  // Codes shown as words (`classLabels`); the model and the pool are the data's own.
  const words = s.classLabels;
  return words ? { ...p, classNames: p.classNames.map((c) => words[c] ?? c) } : p;
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
