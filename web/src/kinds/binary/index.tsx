// The binary study (the papers' two-class study): the cost of a missed case against a false
// alarm, elicited from pairs of flow charts.

import { GENERAL_BINARY_CONSENT } from "../../../../src/server/study/general-texts.ts";
import { binaryMetricText } from "../../researcher/metric.ts";
import type { WebStudyKind } from "../kind.ts";
import { BinaryDataSection, BinaryTextsSection } from "./create.tsx";
import {
  BinaryComprehensionSystems,
  binaryElicitation,
  binaryEvaluation,
  Debrief,
  StoryCosts,
} from "./participant.tsx";
import { binaryRequest } from "./request.ts";

/** The binary kind of the web app. */
export const binary: WebStudyKind<"binary"> = {
  id: "binary",
  label: "Binary: two classes, the cost of a missed case against a false alarm",
  create: {
    // The family (threshold or linear) is not asked in the form: a draft keeps its own.
    families: [],
    // Only an uploaded dataset's label column is picked from its columns.
    readsColumns: (form) => form.source === "dataset",
    startConsent: (defaults) => defaults?.texts.consentText,
    // Uploaded data get the general consent text, never the medical screening one.
    serverConsent: (source, defaults) =>
      source === "template" ? defaults.texts.consentText : GENERAL_BINARY_CONSENT,
    managed: {
      fields: [
        "name",
        "template",
        "predictionsCsv",
        "datasetCsv",
        "target",
        "dropColumns",
        "positive",
        "words",
        "tolerance",
        "strategy",
        "budget",
        "credibility",
        "evaluationPairs",
        "population",
        "consentText",
      ],
      texts: ["title", "story", "comprehension", "guessPrompt", "questionnaire", "post", "labels"],
    },
    dataSection: (p) => <BinaryDataSection {...p} />,
    textsSection: (p) => <BinaryTextsSection {...p} />,
    request: binaryRequest,
  },
  dashboard: { axis: "tp-weight", metricText: (r) => binaryMetricText(r.metric) },
  participant: {
    carries: (s) =>
      s.elicitation !== undefined ||
      s.evaluation !== undefined ||
      s.debrief !== undefined ||
      s.comprehension?.systems !== undefined,
    StoryAside: StoryCosts,
    ComprehensionSystems: BinaryComprehensionSystems,
    elicitation: binaryElicitation,
    evaluation: binaryEvaluation,
    Debrief,
  },
};
