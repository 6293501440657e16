// The class and group names a report uses: the export's own (`classes`, `groups`), else the
// consensus's, else the ones the study's own data give (passed in by the caller, who can read
// them: study-names.ts), else "class 1"...

import type { StudyExport } from "./schema.ts";

/** Class and group names of a study's data, in order (groups empty but in fairness studies). */
export interface StudyNames {
  readonly classes: readonly string[];
  readonly groups: readonly string[];
}

/** Counts of the two systems of Part 1 (multiclass: [i][j] per true class; fair: [g][i]). */
type Views = { kind?: string; left?: { counts?: number[][] } } | undefined;

/**
 * The names the report uses for the study in `exp`: the export's `classes` and `groups`
 * (exports from issue 29 on), else the consensus's class names (a linear consensus names its
 * mistakes, so only `classes`), else `known` (from the study's data), else numbered ones for
 * as many classes and groups as the study has.
 * @example reportNames(exp, null).classes // ["benign", "malignant"]
 */
export function reportNames(exp: StudyExport, known: StudyNames | null): StudyNames {
  const kind = exp.study.config.kind ?? "binary";
  if (exp.classes !== undefined && (kind !== "fair" || exp.groups !== undefined))
    return { classes: exp.classes, groups: kind === "fair" ? exp.groups! : [] };
  const c = exp.consensus;
  const views = (exp.study.config.comprehension as { views?: Views } | undefined)?.views;
  const counts = views?.left?.counts;
  const fromConsensus =
    c?.classes ??
    (c?.weights && !c.weights.classes.some((k) => k.includes(" → "))
      ? c.weights.classes
      : undefined);
  const k =
    fromConsensus?.length ??
    known?.classes.length ??
    exp.participants.find((p) => p.summary.classWeights)?.summary.classWeights?.length ??
    (kind === "fair" ? counts?.[0]?.length : counts?.length) ??
    2;
  const numbered = (noun: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${noun} ${i + 1}`);
  const classes = fromConsensus ?? known?.classes ?? numbered("class", k);
  const groups = kind !== "fair" ? [] : (known?.groups ?? numbered("group", counts?.length ?? 2));
  return { classes, groups };
}
