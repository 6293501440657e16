import { adaptiveOnly, uploadChecks } from "../create-checks.ts";
import type { KindCreateRules } from "../kind.ts";

/** What a multiclass study's create request may hold, and its checks. */
export const multiclassRules = {
  describe:
    "multiclass: k = 3..6 classes of a bundled dataset (iris, wine, vehicle, glass) or of an uploaded dataset CSV (datasetCsv, its label column named by target) or predictions CSV (predictionsCsv), the diagonal-linear weights of the classes with the adaptive strategy",
  families: {
    list: ["diagonal-linear", "linear"],
    describe:
      "diagonal-linear (default: a weight per class on its correct decisions) or linear (a cost for every kind of mistake, true class i taken for j; default budget 45, tolerance 0.1) for multiclass",
    refusal: "a multiclass study elicits the diagonal-linear or the linear family",
    needs: "a multiclass study (kind: multiclass)",
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
        "a multiclass study needs a dataset (a bundled one, a dataset CSV or a predictions CSV)",
      ],
      ...uploadChecks(body),
      [
        body.dataset === "arrests" || body.dataset === "titanic",
        "dataset",
        "arrests and titanic are for fair studies",
      ],
      ...adaptiveOnly(body, "multiclass"),
    ];
  },
} as const satisfies KindCreateRules;
