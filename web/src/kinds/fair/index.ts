// The fairness study: how much accuracy to give up for treating groups alike (the trade-off
// lambda, or the whole fair metric), elicited from pairs of tables of every group's counts.

import { lambdaText } from "../../researcher/metric.ts";
import type { WebStudyKind } from "../kind.ts";
import { classKindCreate } from "../shared/create.tsx";
import { fairSpec } from "./create.tsx";
import {
  FairComprehensionSystems,
  FairDebrief,
  fairElicitation,
  fairEvaluation,
} from "./participant.tsx";

/** The fairness kind of the web app. */
export const fair: WebStudyKind<"fair"> = {
  id: "fair",
  label: "Fairness: how much accuracy to give up for treating groups alike (the trade-off lambda)",
  create: classKindCreate(fairSpec),
  dashboard: {
    axis: "lambda",
    metricText: (r) => lambdaText(r.metric, r.adaptive?.unidentified) ?? "—",
  },
  participant: {
    carries: (s) =>
      s.fairElicitation !== undefined ||
      s.fairEvaluation !== undefined ||
      s.fairDebrief !== undefined ||
      s.comprehension?.kindSystems?.kind === "fair",
    ComprehensionSystems: FairComprehensionSystems,
    elicitation: fairElicitation,
    evaluation: fairEvaluation,
    Debrief: FairDebrief,
  },
};
