// The multiclass study: 3 to 6 classes, which class's mistakes matter most (or every kind of
// mistake's cost), elicited from pairs of tables of 100 people per true class.

import { classWeightsText, engineWeightsText } from "../../researcher/metric.ts";
import type { WebStudyKind } from "../kind.ts";
import { classKindCreate } from "../shared/create.tsx";
import { multiclassSpec } from "./create.tsx";
import {
  MulticlassComprehensionSystems,
  MulticlassDebrief,
  multiclassElicitation,
  multiclassEvaluation,
} from "./participant.tsx";

/** The multiclass kind of the web app. */
export const multiclass: WebStudyKind<"multiclass"> = {
  id: "multiclass",
  label: "Multiclass: 3 to 6 classes, which class’s mistakes matter most (diagonal-linear weights)",
  create: classKindCreate(multiclassSpec),
  dashboard: {
    axis: null,
    // Rows from before the per-class figures state the engine's own weights.
    metricText: (r) =>
      classWeightsText(r) ?? engineWeightsText(r.metric, r.adaptive?.unidentified) ?? "—",
  },
  participant: {
    carries: (s) =>
      s.multiclassElicitation !== undefined ||
      s.multiclassEvaluation !== undefined ||
      s.multiclassDebrief !== undefined ||
      s.comprehension?.kindSystems?.kind === "multiclass",
    ComprehensionSystems: MulticlassComprehensionSystems,
    elicitation: multiclassElicitation,
    evaluation: multiclassEvaluation,
    Debrief: MulticlassDebrief,
  },
};
