import { adaptiveOnly, uploadChecks } from "../create-checks.ts";
import type { KindCreateRules } from "../kind.ts";

/** What a quadratic study's create request may hold, and its checks. */
export const quadraticRules = {
  describe:
    "quadratic: 3 or 4 classes of a bundled dataset (iris, wine, vehicle, glass), a dataset CSV or a predictions CSV, shown as people per class; the UAI 2022 quadratic metric of the class rates (how much each class matters and how much uneven results between classes cost) with the adaptive strategy",
  families: {
    list: ["quadratic"],
    describe:
      "quadratic (the only one, and the default) for quadratic studies: a weight per class and a cost of imbalance between classes (default budget 30, tolerance 0.1)",
    refusal: "a quadratic study elicits the quadratic family",
    needs: "kind: quadratic",
  },
  datasets: ["iris", "wine", "vehicle", "glass"],
  fields: ["dataset", "classes"],
  ownUpload: true,
  costStory: false,
  searches: false,
  checks(body) {
    const upload = body.datasetCsv !== undefined;
    const predictions = body.predictionsCsv !== undefined;
    return [
      [
        body.dataset === undefined && !upload && !predictions,
        "dataset",
        "a quadratic study needs a dataset (a bundled one, a dataset CSV or a predictions CSV)",
      ],
      ...uploadChecks(body),
      [
        body.dataset === "arrests" || body.dataset === "titanic",
        "dataset",
        "arrests and titanic are for fair studies",
      ],
      ...adaptiveOnly(body, "quadratic"),
    ];
  },
} as const satisfies KindCreateRules;
