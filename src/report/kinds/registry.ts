// Every study kind's part of the report, by the kind's id: a kind is a line here.

import type { StudyKind } from "../../server/kinds/catalogue.ts";
import { binaryReport } from "./binary.ts";
import { fairReport } from "./fair.ts";
import type { ReportKind } from "./kind.ts";
import { multiclassReport } from "./multiclass.ts";
import { quadraticReport } from "./quadratic.ts";

const KINDS: Record<StudyKind, ReportKind> = {
  binary: binaryReport,
  multiclass: multiclassReport,
  fair: fairReport,
  quadratic: quadraticReport,
};

/**
 * The report's part of a study's kind (binary when the configuration names none, as in
 * studies from before kinds).
 * @example reportKindOf({ kind: "fair" }).label // "Fairness: ..."
 */
export function reportKindOf(config: { readonly kind?: StudyKind | undefined }): ReportKind {
  return KINDS[config.kind ?? "binary"];
}
