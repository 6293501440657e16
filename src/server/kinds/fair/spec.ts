import type { FairSpec, StudySpec } from "../../study/config.ts";

/**
 * Whether a spec is a fairness one (lambda only, or the full fair metric).
 * @example isFairSpec({ family: "fair-lambda", strategy: "adaptive" } as StudySpec) // true
 */
export function isFairSpec(spec: StudySpec): spec is FairSpec {
  return spec.family === "fair-lambda" || spec.family === "fair-quadratic";
}
