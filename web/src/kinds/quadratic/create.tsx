// A quadratic study in the create form: 3 or 4 classes, its bundled datasets, the one family
// and the classes of an uploaded dataset to keep.

import { classesPicker, keptClasses } from "../multiclass/create.tsx";
import type { ClassKindSpec } from "../shared/class-kind.ts";

/** What a quadratic study fills in of the create form's shared data fields. */
export const quadraticSpec: ClassKindSpec = {
  id: "quadratic",
  legend: "Data: 3 or 4 classes, from a dataset, your model’s predictions or a bundled dataset",
  predictionsExtra: "",
  bundled: [
    { name: "iris", text: "iris (3 classes of flower)" },
    { name: "wine", text: "wine (3 cultivars)" },
    { name: "vehicle", text: "vehicle (4 kinds of vehicle)" },
  ],
  families: [
    {
      id: "quadratic",
      text: "A weight per class and the cost of uneven results between classes (quadratic, about 30 questions)",
      tolerance: "0.1",
      budget: "30",
    },
  ],
  toleranceLabel: () => "Tolerance on the metric (its weights and imbalance costs)",
  AfterGrid: classesPicker(3, 4),
  extras: keptClasses(3, 4),
};
