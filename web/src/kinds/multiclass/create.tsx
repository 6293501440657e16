// A multiclass study in the create form: 3 to 6 classes, its bundled datasets, what it can
// elicit and the classes of an uploaded dataset to keep.

import type { CreateSectionProps } from "../kind.ts";
import type { ClassKindSpec } from "../shared/class-kind.ts";

/**
 * The classes of an uploaded dataset to keep, once its label column is chosen (`min` to `max`
 * of them; none ticked: every class).
 * @example const Picker = classesPicker(3, 6); <Picker {...sectionProps} />
 */
export function classesPicker(min: number, max: number) {
  return function ClassesPicker({ form, update, columns }: CreateSectionProps) {
    const labelValues = columns.find((c) => c.name === form.target)?.values ?? [];
    if (form.kindSource === "predictions" || labelValues.length === 0) return null;
    const { classes } = form;
    return (
      <fieldset>
        <legend>
          Classes to keep ({min} to {max}; none ticked: every class)
        </legend>
        {labelValues.map((v) => (
          <label class="choice" key={v}>
            <input
              type="checkbox"
              checked={classes.includes(v)}
              onChange={(e) =>
                update({
                  classes: (e.currentTarget as HTMLInputElement).checked
                    ? [...classes, v]
                    : classes.filter((c) => c !== v),
                })
              }
            />
            <span>{v}</span>
          </label>
        ))}
      </fieldset>
    );
  };
}

/**
 * The classes an uploaded dataset keeps (none ticked: every class), or why they cannot be
 * sent: the `extras` of a kind over `min` to `max` classes.
 * @example keptClasses(3, 6)(form, "dataset") // { classes: ["a", "b", "c"] }
 */
export function keptClasses(min: number, max: number): ClassKindSpec["extras"] {
  return (form, source) => {
    if (source !== "dataset" || form.classes.length === 0) return {};
    if (form.classes.length < min || form.classes.length > max)
      return { error: `Keep ${min} to ${max} classes (or none ticked for every class).` };
    return { classes: form.classes };
  };
}

/** What a multiclass study fills in of the create form's shared data fields. */
export const multiclassSpec: ClassKindSpec = {
  id: "multiclass",
  legend: "Data: 3 or more classes, from a dataset, your model’s predictions or a bundled dataset",
  predictionsExtra: "",
  bundled: [
    { name: "iris", text: "iris (3 classes of flower)" },
    { name: "wine", text: "wine (3 cultivars)" },
    { name: "vehicle", text: "vehicle (4 kinds of vehicle)" },
    { name: "glass", text: "glass (6 kinds of glass)" },
  ],
  families: [
    {
      id: "diagonal-linear",
      text: "A weight per class: which class’s mistakes matter most (diagonal-linear, about 25 questions)",
      tolerance: "0.05",
      budget: "25",
    },
    {
      id: "linear",
      text: "A cost for every kind of mistake: which class taken for which matters most (linear, about 45 questions)",
      tolerance: "0.1",
      budget: "45",
    },
  ],
  toleranceLabel: () => "Tolerance on the weights",
  AfterGrid: classesPicker(3, 6),
  // Only an uploaded dataset's classes are picked (none ticked: every class).
  extras: keptClasses(3, 6),
};
