// The quadratic study (UAI 2022): which classes matter and how much uneven results between
// them cost, elicited from pairs of tables of 100 people per true class. Its pages are a
// multiclass study's (the server names its states "multiclass").

import { classWeightsText } from "../../researcher/metric.ts";
import type { WebStudyKind } from "../kind.ts";
import { multiclass } from "../multiclass/index.ts";
import { classKindCreate } from "../shared/create.tsx";
import { quadraticSpec } from "./create.tsx";

/** The quadratic kind of the web app. */
export const quadratic: WebStudyKind<"quadratic"> = {
  id: "quadratic",
  label:
    "Quadratic: 3 or 4 classes, which classes matter and how much uneven results between them cost",
  create: classKindCreate(quadraticSpec),
  dashboard: { axis: null, metricText: (r) => classWeightsText(r) ?? "—" },
  participant: multiclass.participant,
};
