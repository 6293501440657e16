// A binary study's parts of the create form: its data (the built-in study, uploaded
// predictions or a dataset the server fits), the words for its classes and mistakes, the
// search procedure, and every text participants read with a live preview.

import {
  DEFAULT_EVALUATION_PAIRS,
  DEFAULT_RETEST_PAIRS,
} from "../../../../src/server/study/config.ts";
import { slipsToCoin } from "../../../../src/server/study/figure-text.ts";
import {
  generalBinaryTexts,
  replaceBuiltInTexts,
  WORD_MAX_CHARS,
} from "../../../../src/server/study/general-texts.ts";
import type { StudyWords } from "../../api/types.ts";
import { FileNote, NumberField } from "../../researcher/form-parts.tsx";
import { StudyPreview, StudyTextsEditor } from "../../researcher/StudyTextsEditor.tsx";
import type { CreateSectionProps } from "../kind.ts";
import { builtInLeft, previewPhaseThree, previewWords } from "./request.ts";

const WORD_FIELDS: { key: keyof StudyWords; label: string; example: string }[] = [
  { key: "positive", label: "Positive class (after “Actually …”)", example: "had cancer" },
  { key: "negative", label: "Negative class", example: "did not have cancer" },
  { key: "predictedPositive", label: "Positive prediction", example: "Predicted high risk" },
  { key: "predictedNegative", label: "Negative prediction", example: "Predicted low risk" },
  { key: "missed", label: "Name for missed positives", example: "missed cancers" },
  { key: "falseAlarm", label: "Name for false alarms", example: "false alarms" },
  {
    key: "question",
    label: "Question on each comparison page",
    example: "Which system would you rather your doctor used?",
  },
  { key: "systemNoun", label: "What a classifier is called", example: "system" },
  { key: "people", label: "What the people counted are called (plural)", example: "patients" },
];

/** The radio buttons of a binary study's data, with the fields of the one chosen. */
function DataFields({ form, update, columns, onFile, fileError, clearFile }: CreateSectionProps) {
  const { source, csv } = form;
  const targetValues = columns.find((c) => c.name === form.target)?.values ?? [];
  /** Another source: the chosen file belonged to the old one. */
  const choose = (s: typeof source) => {
    update({ source: s });
    clearFile();
  };
  return (
    <fieldset>
      <legend>Data</legend>
      <label class="choice">
        <input
          type="radio"
          name="source"
          checked={source === "template"}
          onChange={() => choose("template")}
        />
        <span>Built-in: Cancer diagnosis (Breast Cancer Wisconsin, the paper’s study)</span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="source"
          checked={source === "csv"}
          onChange={() => choose("csv")}
        />
        <span>Upload predictions (CSV: true label, predicted probability)</span>
      </label>
      <label class="choice">
        <input
          type="radio"
          name="source"
          checked={source === "dataset"}
          onChange={() => choose("dataset")}
        />
        <span>
          Upload a dataset (CSV: feature columns and a label column; the server trains a logistic
          regression on half of it as <code>elicit fit</code> does)
        </span>
      </label>
      {source === "dataset" && (
        <div class="grid2">
          <div class="field">
            <label for="dataset-file">Dataset CSV (at most 5 MB)</label>
            <input id="dataset-file" type="file" accept=".csv,text/csv" onChange={onFile} />
            <FileNote csv={csv} error={fileError} />
          </div>
          <div class="field">
            <label for="target">Label column</label>
            <select
              id="target"
              value={form.target}
              onChange={(e) =>
                update({ target: (e.currentTarget as HTMLSelectElement).value, positive: "" })
              }
            >
              <option value="">(choose)</option>
              {columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="dataset-positive">Positive label (what a missed case has)</label>
            <select
              id="dataset-positive"
              value={form.positive}
              onChange={(e) => update({ positive: (e.currentTarget as HTMLSelectElement).value })}
            >
              <option value="">(the less frequent value)</option>
              {targetValues.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="drop-columns">Columns to leave out (comma-separated, optional)</label>
            <input
              id="drop-columns"
              value={form.dropColumns}
              onInput={(e) => update({ dropColumns: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        </div>
      )}
      {source === "csv" && (
        <div class="grid2">
          <div class="field">
            <label for="csv-file">Predictions CSV</label>
            <input id="csv-file" type="file" accept=".csv,text/csv" onChange={onFile} />
            <FileNote csv={csv} error={fileError} />
          </div>
          <div class="field">
            <label for="positive">Positive label in the CSV (optional)</label>
            <input
              id="positive"
              maxLength={200}
              value={form.positive}
              onInput={(e) => update({ positive: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        </div>
      )}
    </fieldset>
  );
}

/** The tolerance, the search strategy (with the adaptive engine's settings) and Phase III. */
function Procedure({ form, update }: CreateSectionProps) {
  const { strategy } = form;
  return (
    <fieldset>
      <legend>Procedure</legend>
      <div class="grid2">
        <NumberField
          id="tolerance"
          label="Tolerance"
          step="any"
          min="0"
          value={form.tolerance}
          onValue={(tolerance) => update({ tolerance })}
        />
        <div class="field">
          <label for="strategy">Search strategy</label>
          <select
            id="strategy"
            value={strategy}
            onChange={(e) =>
              update({
                strategy: (e.currentTarget as HTMLSelectElement).value as typeof strategy,
              })
            }
          >
            <option value="adaptive">adaptive (default: asks about the counts shown)</option>
            <option value="paper">paper (as published; assumes exact answers)</option>
            <option value="lazy">lazy (fewer questions; assumes exact answers)</option>
            <option value="bisect">bisect (assumes exact answers)</option>
          </select>
        </div>
        {strategy !== "adaptive" && (
          <p class="muted" id="strategy-note">
            The papers' searches compute on unrounded rates and assume every answer is exact, while
            a participant judges the whole-number counts on screen: pairs can look dominated or the
            same, and the result can come out far from the participant's own trade-off. Use them to
            reproduce the papers; use adaptive for real participants.
          </p>
        )}
        {strategy === "adaptive" && (
          <>
            <NumberField
              id="budget"
              label="Most questions (budget, 5–100)"
              min="5"
              max="100"
              step="1"
              value={form.budget}
              onValue={(budget) => update({ budget })}
            />
            <NumberField
              id="credibility"
              label="Credibility (0.5–0.99)"
              min="0.5"
              max="0.99"
              step="0.01"
              value={form.credibility}
              onValue={(credibility) => update({ credibility })}
            />
          </>
        )}
        <NumberField
          id="pairs"
          label="Evaluation pairs (Phase III)"
          min="0"
          step="1"
          value={form.pairs}
          onValue={(pairs) => update({ pairs })}
        />
        <NumberField
          id="population"
          label="People the charts count out of (whole people)"
          min="20"
          max="10000"
          step="1"
          value={form.population}
          onValue={(population) => update({ population })}
        />
      </div>
      <PhaseThreeNote
        pairs={form.pairs}
        repeats={strategy === "adaptive" ? DEFAULT_RETEST_PAIRS : 0}
      />
    </fieldset>
  );
}

/**
 * What Phase III's size means for the coin test (`slipsToCoin`): how many answers against
 * their own result flag a participant as a coin, so a researcher who asks few pairs sees that
 * one slip may already do it (an empty field: the default). Nothing for an unreadable field
 * or no Phase III.
 * @example <PhaseThreeNote pairs="5" repeats={2} />
 */
export function PhaseThreeNote({ pairs, repeats }: { pairs: string; repeats: number }) {
  // An empty field asks for the default.
  const n = pairs.trim() === "" ? DEFAULT_EVALUATION_PAIRS : Number(pairs);
  if (!Number.isInteger(n) || n <= 0) return null;
  const trials = n + repeats;
  const k = slipsToCoin(trials);
  const asked = `${n} pair${n === 1 ? "" : "s"}${repeats > 0 ? ` and ${repeats} repeats` : ""}`;
  return (
    <p class="muted" id="pairs-note">
      {k === null
        ? `With ${asked}, too few answers count to tell anyone from a coin: no participant is flagged.`
        : `With ${asked}, a participant whose answers go against their own trade-off on ${k === 1 ? "even one" : `about ${k} or more`} of them cannot be told from a coin: flagged and left out of the consensus${k === 1 ? ". One slip is enough: ask more pairs to allow one." : " (fewer can do it when their earlier answers leave a wide range of trade-offs)."}`}
    </p>
  );
}

/**
 * A binary study's fields before the consent text: data, wording, procedure.
 * @example <BinaryDataSection {...sectionProps} />
 */
export function BinaryDataSection(p: CreateSectionProps) {
  const { form, update } = p;
  return (
    <>
      <DataFields {...p} />
      <fieldset>
        <legend>Wording (leave empty for the template’s words)</legend>
        <div class="grid2">
          {WORD_FIELDS.map((f) => (
            <div class="field" key={f.key}>
              <label for={`w-${f.key}`}>{f.label}</label>
              <input
                id={`w-${f.key}`}
                maxLength={WORD_MAX_CHARS[f.key]}
                placeholder={f.example}
                value={form.words[f.key] ?? ""}
                onInput={(e) =>
                  update({
                    words: { ...form.words, [f.key]: (e.currentTarget as HTMLInputElement).value },
                  })
                }
              />
            </div>
          ))}
        </div>
      </fieldset>
      <Procedure {...p} />
    </>
  );
}

/**
 * A binary study's texts after the consent text: what is still the built-in study's (with
 * general texts to replace it), and every text participants read beside a live preview.
 * @example <BinaryTextsSection {...sectionProps} />
 */
export function BinaryTextsSection({ form, update, defaults, setError }: CreateSectionProps) {
  const { texts, consent } = form;
  const left = builtInLeft(form, defaults);
  const words = previewWords(form, defaults);
  const systems = defaults?.comprehensionSystems ?? [];
  /** Replace what is still the built-in study's by general texts in the study's words. */
  const useGeneralTexts = () => {
    if (texts === null || defaults === null) return;
    const general = generalBinaryTexts(words, defaults.texts.post);
    const r = replaceBuiltInTexts({ ...texts, consentText: consent }, defaults.texts, general);
    update({
      texts: {
        ...texts,
        story: { paragraphs: [...r.story.paragraphs], costs: { ...r.story.costs } },
        comprehension: [...r.comprehension],
        guessPrompt: r.guessPrompt,
        post: [...r.post],
      },
      consent: r.consentText,
    });
    setError(null);
  };
  return (
    <>
      {left.length > 0 && (
        <div class="feedback incorrect" data-testid="unchanged-texts">
          <p>
            {`Still the built-in breast-cancer study’s: ${left.join("; ")}. A study of other data cannot be created with them (its disease, patients and numbers): write its own text there, or start from general texts written in this study’s words.`}
          </p>
          <button type="button" class="secondary" onClick={useGeneralTexts}>
            Use general texts written for any data
          </button>
        </div>
      )}
      {texts !== null && (
        <div class="texts-with-preview">
          <fieldset>
            <legend>What participants read (the built-in study’s texts to start from)</legend>
            <StudyTextsEditor
              systems={systems}
              texts={texts}
              onChange={(t) => {
                update({ texts: t });
                setError(null);
              }}
            />
            <button
              type="button"
              class="secondary"
              onClick={() =>
                defaults !== null && update({ texts: { ...defaults.texts, title: "" } })
              }
            >
              Start again from the built-in texts
            </button>
          </fieldset>
          <StudyPreview
            name={form.name}
            texts={texts}
            words={words}
            consent={consent}
            systems={systems}
            phaseThree={previewPhaseThree(form)}
          />
        </div>
      )}
    </>
  );
}
