import type { MulticlassAdaptiveSpec, StudySpec } from "../../study/config.ts";

/**
 * Whether a spec is a multiclass one (the diagonal-linear or the linear metric).
 * @example isMulticlassSpec({ family: "linear", strategy: "adaptive" } as StudySpec) // true
 */
export function isMulticlassSpec(spec: StudySpec): spec is MulticlassAdaptiveSpec {
  return spec.family === "diagonal-linear" || spec.family === "linear";
}
