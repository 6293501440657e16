// The multiclass study: 3 to 6 classes, which class's mistakes matter most (or every kind of
// mistake's cost), elicited from pairs of tables of 100 people per true class.

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
  dashboard: { axis: null },
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
