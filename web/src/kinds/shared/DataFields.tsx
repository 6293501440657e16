// The data fields every kind of several classes shares in the create form: where the data
// come from (a dataset CSV, the researcher's predictions, a bundled dataset), what to elicit,
// the label column, the columns to leave out, tolerance and budget, with the kind's own fields
// (ClassKindSpec.GridFields, AfterGrid) in their places.

import type { FormKindFamily, FormKindSource } from "../../researcher/draft-form.ts";
import { FileNote, NumberField } from "../../researcher/form-parts.tsx";
import type { CreateSectionProps } from "../kind.ts";
import type { ClassKindSpec } from "./class-kind.ts";

/**
 * The data fieldset of a kind of several classes.
 * @example <ClassKindDataFields spec={multiclassSpec} {...sectionProps} />
 */
export function ClassKindDataFields(p: CreateSectionProps & { spec: ClassKindSpec }) {
  const { spec, form, update } = p;
  const { GridFields, AfterGrid } = spec;
  const source = form.kindSource;
  const predictions = source === "predictions";
  const bundled = source === "bundled";
  /** Another source: nothing chosen for the old one carries over. */
  const setSource = (s: FormKindSource) => {
    update({ kindSource: s, bundled: "", target: "", classes: [], groups: "" });
    p.clearFile();
  };
  /** Untouched defaults follow the family (e.g. diagonal weights 0.05 and 25, every mistake's cost 0.1 and 30). */
  const setFamily = (f: FormKindFamily) =>
    update((old) => {
      const from = spec.families.find((c) => c.id === old.kindFamily);
      const to = spec.families.find((c) => c.id === f);
      return {
        kindFamily: f,
        tolerance:
          from !== undefined && to !== undefined && old.tolerance === from.tolerance
            ? to.tolerance
            : old.tolerance,
        kindBudget:
          from !== undefined && to !== undefined && old.kindBudget === from.budget
            ? to.budget
            : old.kindBudget,
      };
    });
  return (
    <fieldset>
      <legend>{spec.legend}</legend>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={source === "dataset"}
          onChange={() => setSource("dataset")}
        />
        <span>
          A dataset CSV (features and each row’s true class): the server trains a softmax regression
          on half of the rows, as <code>elicit fit</code> does, and asks about classifiers built
          from its predictions on the other half
        </span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={predictions}
          onChange={() => setSource("predictions")}
        />
        <span>
          Your model’s predictions (CSV: <code>label</code>, one <code>p_&lt;class&gt;</code> column
          per class{spec.predictionsExtra}; each row’s probabilities summing to 1)
        </span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="kind-source"
          checked={bundled}
          onChange={() => setSource("bundled")}
        />
        <span>One of the bundled datasets (the server fits the model as for an upload)</span>
      </label>
      <fieldset>
        <legend>What to elicit</legend>
        {spec.families.map(({ id, text }) => (
          <label class="choice" key={id}>
            <input
              type="radio"
              name={`${spec.id}-family`}
              checked={form.kindFamily === id}
              onChange={() => setFamily(id)}
            />
            <span>{text}</span>
          </label>
        ))}
      </fieldset>
      <p class="muted">The study uses the adaptive strategy.</p>
      <div class="grid2">
        {bundled ? (
          <div class="field">
            <label for="kind-bundled">Bundled dataset</label>
            <select
              id="kind-bundled"
              value={form.bundled}
              onChange={(e) =>
                update({ bundled: (e.currentTarget as HTMLSelectElement).value, groups: "" })
              }
            >
              <option value="">(choose)</option>
              {spec.bundled.map((d) => (
                <option key={d.name} value={d.name}>
                  {d.text}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div class="field">
            <label for="kind-dataset-file">
              {predictions ? "Predictions CSV (at most 5 MB)" : "Dataset CSV (at most 5 MB)"}
            </label>
            <input id="kind-dataset-file" type="file" accept=".csv,text/csv" onChange={p.onFile} />
            <FileNote csv={form.csv} error={p.fileError} />
          </div>
        )}
        {source === "dataset" && (
          <div class="field">
            <label for="kind-target">Label column</label>
            <select
              id="kind-target"
              value={form.target}
              onChange={(e) =>
                update({ target: (e.currentTarget as HTMLSelectElement).value, classes: [] })
              }
            >
              <option value="">(choose)</option>
              {p.columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {GridFields !== undefined && <GridFields {...p} />}
        {source === "dataset" && (
          <div class="field">
            <label for="kind-drop-columns">Columns to leave out (comma-separated, optional)</label>
            <input
              id="kind-drop-columns"
              value={form.dropColumns}
              onInput={(e) => update({ dropColumns: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        )}
        <NumberField
          id="kind-tolerance"
          label={spec.toleranceLabel(form.kindFamily)}
          step="any"
          min="0"
          value={form.tolerance}
          onValue={(tolerance) => update({ tolerance })}
        />
        <NumberField
          id="kind-budget"
          label="Most questions (budget, 5–100)"
          min="5"
          max="100"
          step="1"
          value={form.kindBudget}
          onValue={(kindBudget) => update({ kindBudget })}
        />
      </div>
      {AfterGrid !== undefined && <AfterGrid {...p} />}
    </fieldset>
  );
}
