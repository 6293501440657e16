// A binary study's create request from the form, with the checks the form makes before
// sending it (the server makes them too): the data chosen, no built-in breast-cancer texts
// left for other data, no placeholders, comprehension questions with right answers, numbers in
// their ranges.

import {
  builtInTextsLeft,
  builtInTextsRefusal,
  GENERAL_BINARY_WORDS,
} from "../../../../src/server/study/general-texts.ts";
import type { CreateStudyBody, StudyWords } from "../../api/types.ts";
import { capitalise } from "../../chart/layout.ts";
import { noFileChosen } from "../../researcher/csv-file.ts";
import {
  placeholdersIn,
  rightAnswerProblems,
  type StudyDefaults,
  textsForRequest,
} from "../../researcher/StudyTextsEditor.tsx";
import type { CreateForm, CreateKind } from "../kind.ts";

/** The words before the defaults load (the system noun is the only one a page needs). */
const NO_WORDS: StudyWords = {
  positive: "",
  negative: "",
  predictedPositive: "",
  predictedNegative: "",
  missed: "",
  falseAlarm: "",
  question: "",
  systemNoun: "system",
};

/**
 * The study's words as participants will read them: the form's where it gives them, else
 * general words for uploaded data (the server's too, never the built-in study's "had
 * cancer"), else the built-in study's.
 * @example previewWords({ ...form, source: "csv", words: {} }, d).positive // GENERAL_BINARY_WORDS.positive
 */
export function previewWords(form: CreateForm, defaults: StudyDefaults | null): StudyWords {
  return {
    ...(form.source !== "template" ? GENERAL_BINARY_WORDS : (defaults?.texts.words ?? NO_WORDS)),
    ...Object.fromEntries(
      Object.entries(form.words).filter(([, v]) => v !== undefined && v.trim() !== ""),
    ),
  };
}

/**
 * What of the texts is still the built-in breast-cancer study's while the data are uploaded:
 * such a study is refused, here and by the server (issue 27 defect 1).
 * @example builtInLeft({ ...form, source: "csv" }, d) // ["the story", ...] until rewritten
 */
export function builtInLeft(form: CreateForm, defaults: StudyDefaults | null): string[] {
  return form.source !== "template" && form.texts !== null && defaults !== null
    ? builtInTextsLeft(
        { ...form.texts, words: previewWords(form, defaults), consentText: form.consent },
        defaults.texts,
      )
    : [];
}

/**
 * Whether the study will have Phase III, as its request will say: not when the evaluation
 * pairs are 0 (an empty field leaves the server's default, some pairs).
 * @example previewPhaseThree({ ...form, pairs: "0" }) // false
 */
export function previewPhaseThree(form: CreateForm): boolean {
  return form.pairs.trim() === "" || Number(form.pairs) !== 0;
}

/** The comma-separated columns to leave out, as a list. */
const dropList = (text: string) =>
  text
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");

/**
 * A binary study's create request, or the first problem with the form.
 * @example binaryRequest({ ...form, name: "Screening" }, { defaults, fileError: null }) // { body: { name: "Screening", strategy: "adaptive", texts, template: "cancer-diagnosis", ... } }
 */
export const binaryRequest: CreateKind["request"] = (form, { defaults, fileError }) => {
  const { source, csv, texts } = form;
  if (source !== "template" && csv === null)
    return { error: noFileChosen(fileError, source === "dataset" ? "dataset" : "predictions") };
  if (source === "dataset" && form.target === "")
    return { error: "Please choose the label column of the dataset." };
  if (texts === null) return { error: "The default texts have not loaded yet." };
  const refusal = builtInTextsRefusal(
    builtInLeft(form, defaults),
    "Write this study’s own text there, or press “Use general texts written for any data”.",
  );
  if (refusal !== null) return { error: refusal };
  const placeholders = placeholdersIn(texts, previewWords(form, defaults), form.consent);
  if (placeholders.length > 0)
    return {
      error: `Placeholders are left in: ${placeholders.join(", ")}. Write the study’s own text there.`,
    };
  // Said here, beside the question, rather than as the server's refusal after sending.
  const unanswered = rightAnswerProblems(texts.comprehension);
  if (unanswered.length > 0) return { error: `${capitalise(unanswered.join("; "))}.` };
  const body: CreateStudyBody = {
    name: form.name.trim(),
    strategy: form.strategy,
    texts: textsForRequest(texts),
  };
  const positive = form.positive.trim();
  if (source === "template") body.template = "cancer-diagnosis";
  else if (source === "dataset") {
    body.datasetCsv = csv!.text;
    body.target = form.target;
    const drop = dropList(form.dropColumns);
    if (drop.length > 0) body.dropColumns = drop;
    if (positive !== "") body.positive = positive;
  } else {
    body.predictionsCsv = csv!.text;
    if (positive !== "") body.positive = positive;
  }
  const w: Partial<StudyWords> = {};
  for (const [k, v] of Object.entries(form.words)) {
    if (typeof v === "string" && v.trim() !== "") w[k as keyof StudyWords] = v.trim();
  }
  if (Object.keys(w).length > 0) body.words = w;
  const { tolerance, pairs, population, budget, credibility } = form;
  if (tolerance.trim() !== "") {
    const tol = Number(tolerance);
    if (!Number.isFinite(tol) || tol <= 0 || tol >= 0.5)
      return { error: "Tolerance must be a number between 0 and 0.5." };
    body.tolerance = tol;
  }
  if (pairs.trim() !== "") {
    const n = Number(pairs);
    if (!Number.isInteger(n) || n < 0 || n > 100)
      return { error: "Evaluation pairs must be a whole number from 0 to 100." };
    body.evaluationPairs = n;
  }
  if (population.trim() !== "") {
    const pop = Number(population);
    if (!Number.isInteger(pop) || pop < 20 || pop > 10_000)
      return { error: "The people shown must be a whole number from 20 to 10000." };
    body.population = pop;
  }
  if (form.strategy === "adaptive") {
    if (budget.trim() !== "") {
      const b = Number(budget);
      if (!Number.isInteger(b) || b < 5 || b > 100)
        return { error: "The question budget must be a whole number from 5 to 100." };
      body.budget = b;
    }
    if (credibility.trim() !== "") {
      const c = Number(credibility);
      if (!Number.isFinite(c) || c < 0.5 || c > 0.99)
        return { error: "The credibility must be a number from 0.5 to 0.99." };
      body.credibility = c;
    }
  }
  if (form.consent.trim() !== "") body.consentText = form.consent;
  return { body };
};
