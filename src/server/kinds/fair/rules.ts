import { adaptiveOnly, uploadChecks } from "../create-checks.ts";
import type { KindCreateRules } from "../kind.ts";

/** What a fair study's create request may hold, and its checks. */
export const fairRules = {
  describe:
    "fair: a bundled dataset with a group column (arrests by colour or sex, titanic by sex or passengerClass) or an uploaded dataset CSV (datasetCsv with its target and groups columns) or predictions CSV (predictionsCsv with its groups column), the trade-off lambda between accuracy and equal treatment of the groups (family fair-lambda, default) or the whole fair metric: costs per class, the weights of each class's gap between groups and lambda (family fair-quadratic), with the adaptive strategy",
  families: {
    list: ["fair-lambda", "fair-quadratic"],
    describe:
      "fair-lambda (default: the trade-off lambda with equal costs and gap weights) or fair-quadratic (the whole fair metric: costs per class, gap weights per class pair, lambda; default budget 30, tolerance 0.1) for fair studies",
    refusal:
      "a fair study elicits the trade-off lambda (fair-lambda) or the whole fair metric (fair-quadratic)",
    needs: "kind: fair",
  },
  datasets: ["arrests", "titanic"],
  fields: ["dataset", "groups"],
  ownUpload: true,
  costStory: false,
  searches: false,
  checks(body) {
    const upload = body.datasetCsv !== undefined;
    const predictions = body.predictionsCsv !== undefined;
    const fairData = body.dataset === "arrests" || body.dataset === "titanic";
    return [
      ...uploadChecks(body),
      [
        predictions && body.groups === undefined,
        "groups",
        "name the group column of the predictions CSV (groups)",
      ],
      [
        upload && body.groups === undefined,
        "groups",
        "name the group column of the dataset CSV (groups)",
      ],
      [
        upload && body.groups !== undefined && body.groups === body.target,
        "groups",
        "the group column cannot be the label column",
      ],
      [body.dataset !== undefined && !fairData, "dataset", "a fair study uses arrests or titanic"],
      ...adaptiveOnly(body, "fair"),
    ];
  },
} as const satisfies KindCreateRules;
