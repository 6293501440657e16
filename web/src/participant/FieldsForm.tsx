// A form of study-defined fields (questionnaire, post-task questions). Single-choice fields are
// radio groups in a fieldset; required fields are marked and enforced.

import { useEffect, useRef, useState } from "preact/hooks";
import type { Field } from "../api/types.ts";

export interface FieldsFormProps {
  fields: Field[];
  submitLabel: string;
  busy: boolean;
  onSubmit: (answers: Record<string, string>) => void;
  /** Free-text fields as multi-line text areas (post-task questions). */
  longText?: boolean;
  /** The study's wording of the form's own lines (the built-in wording otherwise). */
  labels?: { requiredNote: string; pleaseAnswer: string };
}

const FORM_LABELS = {
  requiredNote: "Questions marked * are required.",
  pleaseAnswer: "Please answer:",
};

/**
 * The note on required questions, its first "*" drawn as the form's star mark.
 * @example <RequiredNote text="Questions marked * are required." />
 */
function RequiredNote({ text }: { text: string }) {
  const at = text.indexOf("*");
  if (at < 0) return <p class="muted">{text}</p>;
  return (
    <p class="muted">
      {text.slice(0, at)}
      <span class="required">*</span>
      {text.slice(at + 1)}
    </p>
  );
}

export function FieldsForm({
  fields,
  submitLabel,
  busy,
  onSubmit,
  longText,
  labels = FORM_LABELS,
}: FieldsFormProps) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  // Bumped on every refused submit, so the summary takes focus each time (a screen reader
  // reads it, and a keyboard user starts from it rather than from the button at the bottom).
  const [refused, setRefused] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refused > 0) summary.current?.focus();
  }, [refused]);
  const set = (id: string, v: string) => setAnswers((a) => ({ ...a, [id]: v }));
  const isMissing = (f: Field) => missing.includes(f.label);

  const submit = (e: Event) => {
    e.preventDefault();
    const miss = fields
      .filter((f) => f.required && (answers[f.id] ?? "").trim() === "")
      .map((f) => f.label);
    setMissing(miss);
    if (miss.length > 0) {
      setRefused((n) => n + 1);
      return;
    }
    const out: Record<string, string> = {};
    for (const f of fields) out[f.id] = (answers[f.id] ?? "").trim();
    onSubmit(out);
  };

  return (
    <form onSubmit={submit} noValidate>
      {missing.length > 0 && (
        <div class="error" role="alert" tabIndex={-1} ref={summary} data-testid="form-errors">
          {`${labels.pleaseAnswer} ${missing.join("; ")}.`}
        </div>
      )}
      <RequiredNote text={labels.requiredNote} />
      {fields.map((f) => {
        const mark = f.required ? (
          <span class="required" aria-hidden="true">
            {" *"}
          </span>
        ) : null;
        if (f.kind === "single") {
          return (
            <fieldset key={f.id} aria-invalid={isMissing(f) || undefined}>
              <legend>
                {f.label}
                {mark}
              </legend>
              {(f.options ?? []).map((o) => (
                <label class="choice" key={o}>
                  <input
                    type="radio"
                    name={f.id}
                    value={o}
                    required={f.required}
                    checked={answers[f.id] === o}
                    onChange={() => set(f.id, o)}
                  />
                  <span>{o}</span>
                </label>
              ))}
            </fieldset>
          );
        }
        const id = `field-${f.id}`;
        return (
          <div class="field" key={f.id}>
            <label for={id}>
              {f.label}
              {mark}
            </label>
            {f.kind === "text" && longText ? (
              <textarea
                id={id}
                name={f.id}
                required={f.required}
                aria-invalid={isMissing(f) || undefined}
                value={answers[f.id] ?? ""}
                onInput={(e) => set(f.id, (e.currentTarget as HTMLTextAreaElement).value)}
              />
            ) : (
              <input
                id={id}
                name={f.id}
                type={f.kind === "number" ? "number" : "text"}
                step={f.kind === "number" ? "any" : undefined}
                required={f.required}
                aria-invalid={isMissing(f) || undefined}
                value={answers[f.id] ?? ""}
                onInput={(e) => set(f.id, (e.currentTarget as HTMLInputElement).value)}
              />
            )}
          </div>
        );
      })}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
