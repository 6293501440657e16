// Small parts of the create form that every kind's fields use: the note under a file input,
// a labelled number input and the reminder that built-in texts are still in place.

import { csvSummary } from "./csv-file.ts";

/**
 * Under a file input: the chosen file's rows and columns, or why it was not taken (too large,
 * empty), as an alert so a screen reader hears it at once.
 * @example <FileNote csv={{ name: "d.csv", text }} error={null} />
 */
export function FileNote({
  csv,
  error,
}: {
  csv: { name: string; text: string } | null;
  error: string | null;
}) {
  if (error !== null)
    return (
      <p class="error" role="alert" data-testid="file-error">
        {error}
      </p>
    );
  return csv === null ? null : <p class="muted">{csvSummary(csv.name, csv.text)}</p>;
}

/**
 * A labelled number input; `onValue` gets the text as typed (validated on submit).
 * @example <NumberField id="budget" label="Budget" step="1" value="25" onValue={setBudget} />
 */
export function NumberField(p: {
  id: string;
  label: string;
  min?: string;
  max?: string;
  step: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <input
        id={p.id}
        type="number"
        min={p.min}
        max={p.max}
        step={p.step}
        value={p.value}
        onInput={(e) => p.onValue((e.currentTarget as HTMLInputElement).value)}
      />
    </div>
  );
}

/**
 * A reminder that texts written for the built-in study are still in a study of other data.
 * @example <UnchangedNotice parts={["the consent text"]} whose="the built-in general wording" />
 */
export function UnchangedNotice({
  parts,
  whose = "the built-in breast-cancer study’s",
}: {
  parts: string[];
  /** Whose texts these still are. */
  whose?: string;
}) {
  if (parts.length === 0) return null;
  return (
    <p class="feedback incorrect" data-testid="unchanged-texts">
      {`Still ${whose}: ${parts.join("; ")}. Participants of a study of other data should read its own words.`}
    </p>
  );
}
