// A fairness study in the create form: a label and a group column, its bundled datasets (with
// their group columns), what it can elicit and the group column to treat alike.

import type { CreateSectionProps } from "../kind.ts";
import type { BundledDataset, ClassKindSpec } from "../shared/class-kind.ts";

const BUNDLED: readonly BundledDataset[] = [
  { name: "arrests", text: "arrests (released or not)", groups: ["colour", "sex"] },
  { name: "titanic", text: "titanic (survived or not)", groups: ["sex", "passengerClass"] },
];

/**
 * A bundled dataset's default group column (its first: arrests' colour, titanic's sex, as the
 * API defaults), "" for an upload, whose columns the researcher must choose from.
 * @example bundledDefault({ kindSource: "bundled", bundled: "arrests" }) // "colour"
 */
export function bundledDefault(form: Pick<CreateSectionProps["form"], "kindSource" | "bundled">) {
  return form.kindSource === "bundled"
    ? (BUNDLED.find((d) => d.name === form.bundled)?.groups?.[0] ?? "")
    : "";
}

/**
 * The group column: a bundled dataset's own, else any column of the upload that is not its
 * label (nor a predictions CSV's probabilities).
 * @example <GroupsField {...sectionProps} />
 */
function GroupsField({ form, update, columns }: CreateSectionProps) {
  const choices =
    form.kindSource === "bundled"
      ? (BUNDLED.find((d) => d.name === form.bundled)?.groups ?? [])
      : columns
          .filter((c) =>
            form.kindSource === "predictions"
              ? c.name !== "label" && !c.name.startsWith("p_")
              : c.name !== form.target,
          )
          .map((c) => c.name);
  return (
    <div class="field">
      <label for="kind-groups">Group column (the groups to treat alike)</label>
      <select
        id="kind-groups"
        value={form.groups === "" ? bundledDefault(form) : form.groups}
        onChange={(e) => update({ groups: (e.currentTarget as HTMLSelectElement).value })}
      >
        <option value="">(choose)</option>
        {choices.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What a fairness study fills in of the create form's shared data fields. */
export const fairSpec: ClassKindSpec = {
  id: "fair",
  legend:
    "Data: a label and a group column, from a dataset, your model’s predictions or a bundled dataset",
  predictionsExtra: ", a group column",
  bundled: BUNDLED,
  families: [
    {
      id: "fair-lambda",
      text: "The trade-off lambda only, every class’s mistakes and every gap counting alike (about 25 questions)",
      tolerance: "0.05",
      budget: "25",
    },
    {
      id: "fair-quadratic",
      text: "The whole fair metric: which mistakes cost most, which gaps matter most, and lambda (about 45 questions)",
      tolerance: "0.1",
      budget: "45",
    },
  ],
  toleranceLabel: (family) =>
    family === "fair-quadratic"
      ? "Tolerance on each of the costs, gap weights and lambda"
      : "Tolerance on lambda",
  GridFields: GroupsField,
  // Every fairness study names its group column.
  // A bundled dataset's default is preselected (and sent) as the API's.
  extras: (form, source) => {
    const groups =
      form.groups !== "" ? form.groups : source === "bundled" ? bundledDefault(form) : "";
    return groups === ""
      ? {
          error: `Please choose the group column of the ${source === "predictions" ? "predictions" : "dataset"}.`,
        }
      : { groups };
  },
};
