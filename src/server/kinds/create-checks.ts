// Create-request checks shared by the kinds made from a dataset or a predictions CSV with the
// adaptive engine (multiclass and fair): one source of data, the upload's label column.

import type { CreateCheck, CreateRequestFields } from "./kind.ts";

/**
 * The checks of a study made from a bundled dataset, a dataset CSV (with its label column,
 * `target`) or a predictions CSV: one source, and the upload's options only with an upload.
 * @example uploadChecks({ name: "x", datasetCsv: "a,b\n" } as CreateRequestFields)[3][0] // true: no target
 */
export function uploadChecks(body: CreateRequestFields): CreateCheck[] {
  const upload = body.datasetCsv !== undefined;
  const predictions = body.predictionsCsv !== undefined;
  return [
    [
      predictions && (upload || body.dataset !== undefined),
      "predictionsCsv",
      "give one source of data: a bundled dataset, a dataset CSV or a predictions CSV",
    ],
    [
      predictions && body.classes !== undefined,
      "classes",
      "classes applies to a bundled dataset; a predictions CSV's classes are its p_<class> columns",
    ],
    [
      upload && body.dataset !== undefined,
      "dataset",
      "give a bundled dataset or a dataset CSV, not both",
    ],
    [
      upload && body.target === undefined,
      "target",
      "name the label column of the dataset CSV (target)",
    ],
    [
      !upload && (body.target ?? body.dropColumns) !== undefined,
      body.target !== undefined ? "target" : "dropColumns",
      "target and dropColumns apply only to a dataset CSV (datasetCsv)",
    ],
  ];
}

/**
 * The checks of a kind that runs the adaptive engine only: no other strategy, no template.
 * @example adaptiveOnly({ name: "x", strategy: "paper" } as CreateRequestFields, "fair")[0][0] // true
 */
export function adaptiveOnly(body: CreateRequestFields, kind: string): CreateCheck[] {
  return [
    [
      body.strategy !== undefined && body.strategy !== "adaptive",
      "strategy",
      `a ${kind} study uses the adaptive strategy`,
    ],
    [
      body.template !== undefined,
      "template",
      `a ${kind} study is made from a bundled dataset, a dataset CSV or a predictions CSV, not a template`,
    ],
  ];
}
